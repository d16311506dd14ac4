import {
  ApiKeyAuth,
  CurrentPrincipal,
  CurrentProject,
  CurrentWorkspace,
  Principal,
  ProjectAccess,
  UuidPipe,
  WorkspaceAccess,
} from '#common';
import { IssueRelationService } from '#domain';
import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { CreateRelationDto, RemoveRelationDto } from '../shared/dto/relation.dto';

const PROJECT = 'workspaces/:slug/projects/:project_id';

/**
 * Relations of a work item (Plane CE's `work-items/{id}/relations/`, as
 * `plane-node-sdk/dist/api/WorkItems/Relations.js` calls it), also under `/issues/`. Reads need a
 * project membership, writes role ≥ 15 (the default rule).
 */
@Controller([`${PROJECT}/work-items/:issue_id/relations`, `${PROJECT}/issues/:issue_id/relations`])
@ApiKeyAuth()
export class WorkItemRelationsController {
  constructor(private readonly relations: IssueRelationService) {}

  /**
   * `{blocking, blocked_by, duplicate, relates_to, start_before, start_after, finish_before,
   * finish_after}`, each an array of work item ids (the SDK's `WorkItemRelationResponse`; Plane CE
   * sends objects there, the SDK's declared type is kept). 404 for an unknown work item.
   */
  @Get()
  list(@CurrentProject() project: ProjectAccess, @Param('issue_id', UuidPipe) issueId: string) {
    return this.relations.list(project.projectId, issueId);
  }

  /** 201 with the work item's relations (as GET); 422 for unknown work items or the work item itself. */
  @Post()
  create(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('issue_id', UuidPipe) issueId: string,
    @Body() body: CreateRelationDto,
  ) {
    return this.relations.create(
      { workspaceId: ws.workspaceId, projectId: project.projectId, userId: me.userId, role: project.role },
      issueId,
      body.relation_type,
      body.issues,
    );
  }

  /** `{related_issue}` → 204, the relation removed on both sides; 404 when they are not related. */
  @Post('remove')
  @HttpCode(204)
  async remove(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('issue_id', UuidPipe) issueId: string,
    @Body() body: RemoveRelationDto,
  ) {
    await this.relations.remove(
      { workspaceId: ws.workspaceId, projectId: project.projectId, userId: me.userId, role: project.role },
      issueId,
      body.related_issue,
    );
  }
}
