import {
  APP_UNPAGED,
  BearerAuth,
  CurrentPrincipal,
  CurrentProject,
  CurrentWorkspace,
  listAnswer,
  PageQuery,
  PageRequest,
  Principal,
  ProjectAccess,
  ProjectRole,
  ROLE,
  UuidPipe,
  WorkspaceAccess,
  streamedList,
} from '#common';
import { IssueChildrenService, parseShape, ReactionService } from '#domain';
import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Put, Post, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import { CommentDto, CreateLinkDto, UpdateLinkDto } from '../shared/dto/work-item.dto';
import { ReactionDto } from './dto/work-items.dto';
import { issueContext } from '../shared/context';

const ISSUE = 'workspaces/:slug/projects/:project_id/issues/:issue_id';

/**
 * Comments on a work item (Plane's `IssueCommentViewSet`): any project member, Guests included, may
 * read and comment; only the author or a project Admin may change or delete one (403). Same
 * service as the External API.
 */
@Controller(`${ISSUE}/comments`)
@BearerAuth()
@ProjectRole(ROLE.GUEST)
export class AppWorkItemCommentsController {
  constructor(private readonly children: IssueChildrenService) {}

  /** Newest first, a bare array (Plane's `IssueCommentViewSet.list`); `fields=`. */
  @Get()
  async list(
    @CurrentProject() project: ProjectAccess,
    @Param('issue_id', UuidPipe) issueId: string,
    @PageQuery(APP_UNPAGED) page: PageRequest,
    @Query() query: Record<string, unknown>,
  ) {
    const list = await this.children.listAppComments(project.projectId, issueId, page, parseShape(query));
    return streamedList(list.chunks, list.page ?? undefined);
  }

  /** 201 with the comment; 409 `EXTERNAL_ID_TAKEN`. */
  @Post()
  async create(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('issue_id', UuidPipe) issueId: string,
    @Body() body: CommentDto,
  ) {
    return (
      await this.children.forAppComments(issueId, [
        await this.children.createComment(issueContext(me, ws, project), issueId, body),
      ])
    )[0];
  }

  @Get(':comment_id')
  async retrieve(
    @CurrentProject() project: ProjectAccess,
    @Param('issue_id', UuidPipe) issueId: string,
    @Param('comment_id', UuidPipe) id: string,
    @Query() query: Record<string, unknown>,
  ) {
    return (
      await this.children.forAppComments(issueId, [
        await this.children.retrieveComment(project.projectId, issueId, id, parseShape(query)),
      ])
    )[0];
  }

  /** 200 with the comment; author or project Admin only (403). */
  @Patch(':comment_id')
  async update(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('issue_id', UuidPipe) issueId: string,
    @Param('comment_id', UuidPipe) id: string,
    @Body() body: CommentDto,
  ) {
    return (
      await this.children.forAppComments(issueId, [
        await this.children.updateComment(issueContext(me, ws, project), issueId, id, body),
      ])
    )[0];
  }

  /** `PUT`, which Plane maps to the same update (`"put": "update"`): the PATCH above. */
  @Put(':comment_id')
  putUpdate(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('issue_id', UuidPipe) issueId: string,
    @Param('comment_id', UuidPipe) id: string,
    @Body() body: CommentDto,
  ) {
    return this.update(me, ws, project, issueId, id, body);
  }

  /** 204; author or project Admin only (403). */
  @Delete(':comment_id')
  @HttpCode(204)
  async remove(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('issue_id', UuidPipe) issueId: string,
    @Param('comment_id', UuidPipe) id: string,
  ) {
    await this.children.removeComment(issueContext(me, ws, project), issueId, id);
  }
}

/** Links of a work item (Plane's `IssueLinkViewSet`, `issue-links/`): reads any project member, writes Admins and Members. */
@Controller(`${ISSUE}/issue-links`)
@BearerAuth()
export class AppWorkItemLinksController {
  constructor(private readonly children: IssueChildrenService) {}

  /** Newest first, a bare array (Plane's `IssueLinkViewSet.list`). */
  @Get()
  async list(
    @CurrentProject() project: ProjectAccess,
    @Param('issue_id', UuidPipe) issueId: string,
    @PageQuery(APP_UNPAGED) page: PageRequest,
    @Query() query: Record<string, unknown>,
  ) {
    return listAnswer(page, await this.children.listLinks(project.projectId, issueId, page, parseShape(query)));
  }

  /** 201 with the link; 409 `LINK_URL_TAKEN` for a URL already on the work item. */
  @Post()
  create(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('issue_id', UuidPipe) issueId: string,
    @Body() body: CreateLinkDto,
  ) {
    return this.children.createLink(issueContext(me, ws, project), issueId, body);
  }

  @Get(':link_id')
  retrieve(
    @CurrentProject() project: ProjectAccess,
    @Param('issue_id', UuidPipe) issueId: string,
    @Param('link_id', UuidPipe) id: string,
    @Query() query: Record<string, unknown>,
  ) {
    return this.children.retrieveLink(project.projectId, issueId, id, parseShape(query));
  }

  @Patch(':link_id')
  update(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('issue_id', UuidPipe) issueId: string,
    @Param('link_id', UuidPipe) id: string,
    @Body() body: UpdateLinkDto,
  ) {
    return this.children.updateLink(issueContext(me, ws, project), issueId, id, body);
  }

  /** `PUT`, which Plane maps to the same update (`"put": "update"`): the PATCH above. */
  @Put(':link_id')
  putUpdate(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('issue_id', UuidPipe) issueId: string,
    @Param('link_id', UuidPipe) id: string,
    @Body() body: UpdateLinkDto,
  ) {
    return this.update(me, ws, project, issueId, id, body);
  }

  @Delete(':link_id')
  @HttpCode(204)
  async remove(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('issue_id', UuidPipe) issueId: string,
    @Param('link_id', UuidPipe) id: string,
  ) {
    await this.children.removeLink(issueContext(me, ws, project), issueId, id);
  }
}

/** Emoji reactions on a work item (Plane's `IssueReactionViewSet`): any project member, Guests included. */
@Controller(`${ISSUE}/reactions`)
@BearerAuth()
@ProjectRole(ROLE.GUEST)
export class AppWorkItemReactionsController {
  constructor(private readonly reactions: ReactionService) {}

  /** Oldest first, a bare array (Plane's `IssueReactionViewSet.list`). */
  @Get()
  async list(
    @CurrentProject() project: ProjectAccess,
    @Param('issue_id', UuidPipe) issueId: string,
    @PageQuery(APP_UNPAGED) page: PageRequest,
  ) {
    return listAnswer(page, await this.reactions.listIssueReactions(project.projectId, issueId, page));
  }

  /** `{reaction}` → 201 with the reaction, or 200 with the caller's existing one. */
  @Post()
  async create(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('issue_id', UuidPipe) issueId: string,
    @Body() body: ReactionDto,
    @Res({ passthrough: true }) res: Response,
  ) {
    const { created, reaction } = await this.reactions.addIssueReaction(
      issueContext(me, ws, project),
      issueId,
      body.reaction,
    );
    res.status(created ? 201 : 200);
    return reaction;
  }

  /** 204; 404 when the caller has no such reaction. */
  @Delete(':reaction_code')
  @HttpCode(204)
  async remove(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('issue_id', UuidPipe) issueId: string,
    @Param('reaction_code') code: string,
  ) {
    await this.reactions.removeIssueReaction(issueContext(me, ws, project), issueId, code);
  }
}

/** Emoji reactions on a comment (Plane's `CommentReactionViewSet`, `projects/{id}/comments/{comment_id}/reactions/`): any project member. */
@Controller('workspaces/:slug/projects/:project_id/comments/:comment_id/reactions')
@BearerAuth()
@ProjectRole(ROLE.GUEST)
export class AppCommentReactionsController {
  constructor(private readonly reactions: ReactionService) {}

  /** Oldest first, a bare array (Plane's `CommentReactionViewSet.list`). */
  @Get()
  async list(
    @CurrentProject() project: ProjectAccess,
    @Param('comment_id', UuidPipe) commentId: string,
    @PageQuery(APP_UNPAGED) page: PageRequest,
  ) {
    return listAnswer(page, await this.reactions.listCommentReactions(project.projectId, commentId, page));
  }

  /** `{reaction}` → 201, or 200 with the caller's existing one; 404 for a comment outside the project. */
  @Post()
  async create(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('comment_id', UuidPipe) commentId: string,
    @Body() body: ReactionDto,
    @Res({ passthrough: true }) res: Response,
  ) {
    const { created, reaction } = await this.reactions.addCommentReaction(
      issueContext(me, ws, project),
      commentId,
      body.reaction,
    );
    res.status(created ? 201 : 200);
    return reaction;
  }

  @Delete(':reaction_code')
  @HttpCode(204)
  async remove(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('comment_id', UuidPipe) commentId: string,
    @Param('reaction_code') code: string,
  ) {
    await this.reactions.removeCommentReaction(issueContext(me, ws, project), commentId, code);
  }
}
