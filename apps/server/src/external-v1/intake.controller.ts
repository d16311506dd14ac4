import {
  ApiKeyAuth,
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
  V1_PAGING,
  WorkspaceAccess,
} from '#common';
import { IntakeService } from '#domain';
import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { IntakeDto, IntakeStatusDto } from '../shared/dto/intake.dto';
import { issueContext } from '../shared/context';

const PROJECT = 'workspaces/:slug/projects/:project_id';

/**
 * A project's intake (Plane `plane/api/views/intake.py` IntakeIssueAPIEndpoint): `intake-issues/` and the legacy
 * `inbox-issues/`, items addressed by their work item's id. Every project member, Guests included,
 * may submit; the rules on who may change what are in `IntakeService`. 400 `INTAKE_NOT_ENABLED`
 * while the project's `intake_view` is off.
 */
@Controller([`${PROJECT}/intake-issues`, `${PROJECT}/inbox-issues`])
@ApiKeyAuth()
@ProjectRole(ROLE.GUEST)
export class IntakeController {
  constructor(private readonly intake: IntakeService) {}

  /** Newest first; paginated; each item carries its work item as `issue_detail`. */
  @Get()
  list(@CurrentProject() project: ProjectAccess, @PageQuery(V1_PAGING) page: PageRequest) {
    return this.intake.list(project.projectId, page);
  }

  /** 201 with the pending intake item; 422 without `issue.name`. */
  @Post()
  create(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Body() body: IntakeDto,
  ) {
    return this.intake.create(issueContext(me, ws, project), body);
  }

  @Get(':issue_id')
  retrieve(@CurrentProject() project: ProjectAccess, @Param('issue_id', UuidPipe) issueId: string) {
    return this.intake.retrieve(project.projectId, issueId);
  }

  /** 200 with the item; status changes by project Admins only (403). */
  @Patch(':issue_id')
  update(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('issue_id', UuidPipe) issueId: string,
    @Body() body: IntakeDto,
  ) {
    return this.intake.update(issueContext(me, ws, project), issueId, body);
  }

  /**
   * `PATCH …/{issue_id}/status/` (the SDK's `intake.updateStatus`, a Plane Cloud route): the same
   * as PATCH on the item, for `status`, `snoozed_till` and `duplicate_to`.
   */
  @Patch(':issue_id/status')
  updateStatus(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('issue_id', UuidPipe) issueId: string,
    @Body() body: IntakeStatusDto,
  ) {
    return this.intake.update(issueContext(me, ws, project), issueId, body);
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
