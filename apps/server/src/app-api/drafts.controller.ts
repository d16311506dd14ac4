import {
  BearerAuth,
  CurrentPrincipal,
  CurrentWorkspace,
  PageQuery,
  PageRequest,
  PagingPolicy,
  Principal,
  ROLE,
  UuidPipe,
  WorkspaceAccess,
  WorkspaceRole,
} from '#common';
import { DraftContext, DraftService } from '#domain';
import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { DraftIssueDto, draftInput } from './dto/draft.dto';

/** Plane's `self.paginate` defaults (1000 a page); the web app pages by number (`<per_page>:<page>:0`). */
const DRAFT_PAGING: PagingPolicy = { defaultPerPage: 1000, maxPerPage: 1000, byNumber: true };

function draftContext(me: Principal, ws: WorkspaceAccess): DraftContext {
  return { workspaceId: ws.workspaceId, userId: me.userId };
}

/**
 * Workspace drafts on the App API (Plane 0.25.3 `app/urls/workspace.py` `draft-issues/`,
 * `app/views/workspace/draft.py` WorkspaceDraftIssueViewSet). Only the draft's creator sees,
 * changes, deletes or publishes it (another user's draft is a 404). Roles as Plane's
 * `allow_permission`: list and create any workspace member; update and publish workspace Admins and
 * Members; retrieve workspace Admins (Plane's `creator=True, model=Issue` never matches a draft);
 * delete any member, their own draft only (docs/decisions.md "Drafts").
 */
@Controller('workspaces/:slug')
@BearerAuth()
export class AppDraftsController {
  constructor(private readonly drafts: DraftService) {}

  /** The caller's drafts, newest first; Plane's cursor envelope of `DraftIssueSerializer` objects. */
  @Get('draft-issues')
  list(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @PageQuery(DRAFT_PAGING) page: PageRequest,
  ) {
    return this.drafts.list(draftContext(me, ws), page);
  }

  /** 201 with the draft; 404 `PROJECT_NOT_FOUND` for a project the caller is not in; 422 for a field. */
  @Post('draft-issues')
  create(@CurrentPrincipal() me: Principal, @CurrentWorkspace() ws: WorkspaceAccess, @Body() body: DraftIssueDto) {
    return this.drafts.create(draftContext(me, ws), draftInput(body));
  }

  /** The draft (`DraftIssueDetailSerializer`); workspace Admins (403), own drafts (404). */
  @Get('draft-issues/:draft_id')
  @WorkspaceRole(ROLE.ADMIN)
  retrieve(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @Param('draft_id', UuidPipe) id: string,
  ) {
    return this.drafts.retrieve(draftContext(me, ws), id);
  }

  /** 204 (Plane); workspace Admins and Members (403), own drafts (404). */
  @Patch('draft-issues/:draft_id')
  @WorkspaceRole(ROLE.MEMBER)
  @HttpCode(204)
  async update(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @Param('draft_id', UuidPipe) id: string,
    @Body() body: DraftIssueDto,
  ): Promise<void> {
    await this.drafts.update(draftContext(me, ws), id, draftInput(body));
  }

  /** 204; the caller's own draft (404). */
  @Delete('draft-issues/:draft_id')
  @HttpCode(204)
  async remove(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @Param('draft_id', UuidPipe) id: string,
  ): Promise<void> {
    await this.drafts.remove(draftContext(me, ws), id);
  }

  /**
   * Publishes the draft into its project (201 with the work item's App values); the body's fields
   * override the draft's. Workspace Admins and Members who are Admins or Members of the project.
   */
  @Post('draft-to-issue/:draft_id')
  @WorkspaceRole(ROLE.MEMBER)
  publish(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @Param('draft_id', UuidPipe) id: string,
    @Body() body: DraftIssueDto,
  ) {
    return this.drafts.publish(draftContext(me, ws), id, draftInput(body));
  }
}
