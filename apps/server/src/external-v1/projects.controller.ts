import {
  AuditActor,
  CurrentActor,
  ApiKeyAuth,
  CurrentPrincipal,
  CurrentProject,
  CurrentWorkspace,
  Page,
  PageQuery,
  PageRequest,
  Principal,
  ProjectAccess,
  ProjectRole,
  ROLE,
  V1_PAGING,
  WorkspaceAccess,
} from '#common';
import { parseShape, pick, ProjectJson, ProjectService } from '#domain';
import { Body, Controller, Delete, Get, HttpCode, Patch, Post, Query } from '@nestjs/common';
import { CreateProjectDto } from './dto/create-project.dto';
import { UpdateProjectV1Dto } from './dto/update-project.dto';

/**
 * Projects in the External API v1 (docs/reference/http-interface.md §4; Plane
 * `plane/api/views/project.py` ProjectAPIEndpoint).
 */
@Controller('workspaces/:slug/projects')
@ApiKeyAuth()
export class ProjectsController {
  constructor(private readonly projects: ProjectService) {}

  /** Projects the key's user is a member of, and public ones; oldest first; `per_page` ≤ 1000 (default 1000). */
  @Get()
  list(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @PageQuery(V1_PAGING) page: PageRequest,
  ): Promise<Page<ProjectJson>> {
    return this.projects.list(ws.workspaceId, { userId: me.userId, workspaceRole: ws.role }, page);
  }

  /** 201 with the project; 403 for workspace Guests; 409 `PROJECT_IDENTIFIER_TAKEN` / `PROJECT_NAME_TAKEN`; 422. */
  @Post()
  create(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @Body() body: CreateProjectDto,
  ): Promise<ProjectJson> {
    return this.projects.create(ws.workspaceId, { userId: me.userId, workspaceRole: ws.role }, body);
  }

  /** One project the caller may see (a member, or the project is public); `fields=` applies. 404 otherwise. */
  @Get(':project_id')
  @ProjectRole('visible')
  async retrieve(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Query() query: Record<string, unknown>,
  ) {
    return pick(await this.projects.retrieve(ws.workspaceId, project.projectId, me.userId), parseShape(query).fields);
  }

  /** Partial update by a project Admin: 200 with the project; 400 `PROJECT_ARCHIVED`; 409 on a taken identifier or name; 422. */
  @Patch(':project_id')
  @ProjectRole(ROLE.ADMIN)
  update(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Body() body: UpdateProjectV1Dto,
  ): Promise<ProjectJson> {
    return this.projects.update(ws.workspaceId, project.projectId, { userId: me.userId, workspaceRole: ws.role }, body);
  }

  /** Soft delete by a project Admin: 204. */
  @Delete(':project_id')
  @ProjectRole(ROLE.ADMIN)
  @HttpCode(204)
  async remove(
    @CurrentPrincipal() me: Principal,
    @CurrentActor() actor: AuditActor,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
  ) {
    await this.projects.remove(ws.workspaceId, project.projectId, {
      userId: me.userId,
      workspaceRole: ws.role,
      audit: actor,
    });
  }

  /**
   * Archive (POST) by a project Admin or Member, or a workspace Admin: 204 (Plane's App API rule).
   * Plane's v1 lets any workspace Admin or Member archive, project member or not (quirk 9); a
   * workspace Member needs to be an Admin or Member of the project here (docs/decisions.md).
   */
  @Post(':project_id/archive')
  @ProjectRole(ROLE.MEMBER, { orWorkspaceRole: ROLE.ADMIN })
  @HttpCode(204)
  async archive(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
  ) {
    await this.projects.setArchived(
      ws.workspaceId,
      project.projectId,
      { userId: me.userId, workspaceRole: ws.role },
      true,
    );
  }

  /** Unarchive (DELETE on the same path) by a project Admin: 204 (Plane's v1 rule). */
  @Delete(':project_id/archive')
  @ProjectRole(ROLE.ADMIN)
  @HttpCode(204)
  async unarchive(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
  ) {
    await this.projects.setArchived(
      ws.workspaceId,
      project.projectId,
      { userId: me.userId, workspaceRole: ws.role },
      false,
    );
  }
}
