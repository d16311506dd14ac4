import {
  APP_PAGING,
  BearerAuth,
  CurrentPrincipal,
  CurrentProject,
  CurrentWorkspace,
  PageQuery,
  PageRequest,
  Principal,
  ProjectAccess,
  ProjectRole,
  ROLE,
  UuidPipe,
  WorkspaceAccess,
} from '#common';
import { appIntakeIssueView, IntakeService } from '#domain';
import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { IntakeDto } from '../shared/dto/intake.dto';
import { issueContext } from '../shared/context';

const PROJECT = 'workspaces/:slug/projects/:project_id';

/**
 * A project's intake on the App API (Plane 0.25.3 `app/urls/intake.py`: `intake-issues/` and its
 * older name `inbox-issues/`, which the 0.25.3 web app calls; items addressed by their work item's id), through the same `IntakeService` as v1: every project member,
 * Guests included, may submit; a Guest reads only their own items unless the project has
 * `guest_view_all_features`; edits by the item's creator or a project Admin, status changes by
 * project Admins (403). 400 `INTAKE_NOT_ENABLED` while the project's `intake_view` is off. Items in
 * Plane's App shape (`appIntakeIssueView`: `issue` is the work item object).
 */
@Controller(`${PROJECT}/intake-issues`)
@BearerAuth()
@ProjectRole(ROLE.GUEST)
export class AppIntakeController {
  constructor(private readonly intake: IntakeService) {}

  @Get()
  async list(
    @CurrentPrincipal() me: Principal,
    @CurrentProject() project: ProjectAccess,
    @PageQuery(APP_PAGING) page: PageRequest,
  ) {
    return (await this.intake.list(project.projectId, page, { userId: me.userId, role: project.role })).map(
      appIntakeIssueView,
    );
  }

  /** 201 with the pending item; 422 without `issue.name`. */
  @Post()
  async create(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Body() body: IntakeDto,
  ) {
    return appIntakeIssueView(await this.intake.create(issueContext(me, ws, project), body));
  }

  @Get(':issue_id')
  async retrieve(
    @CurrentPrincipal() me: Principal,
    @CurrentProject() project: ProjectAccess,
    @Param('issue_id', UuidPipe) issueId: string,
  ) {
    return appIntakeIssueView(
      await this.intake.retrieve(project.projectId, issueId, { userId: me.userId, role: project.role }),
    );
  }

  /** 200; `status` (accept 1, decline −1, snooze 0, duplicate 2) by project Admins only (403). */
  @Patch(':issue_id')
  async update(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('issue_id', UuidPipe) issueId: string,
    @Body() body: IntakeDto,
  ) {
    return appIntakeIssueView(await this.intake.update(issueContext(me, ws, project), issueId, body));
  }

  /** 204; the work item goes too unless accepted. */
  @Delete(':issue_id')
  @HttpCode(204)
  async remove(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('issue_id', UuidPipe) issueId: string,
  ) {
    await this.intake.remove(issueContext(me, ws, project), issueId);
  }
}

/** The same intake under `inbox-issues/`, the name Plane 0.25.3's web app calls (`web/core/services/inbox/inbox-issue.service.ts`). */
@Controller(`${PROJECT}/inbox-issues`)
@BearerAuth()
@ProjectRole(ROLE.GUEST)
export class AppInboxController extends AppIntakeController {}
