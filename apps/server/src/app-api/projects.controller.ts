import {
  AuditActor,
  CurrentActor,
  APP_UNPAGED,
  BearerAuth,
  CurrentPrincipal,
  CurrentProject,
  CurrentWorkspace,
  listAnswer,
  MeridianError,
  Page,
  PageQuery,
  PageRequest,
  Principal,
  ProjectAccess,
  ProjectRole,
  ROLE,
  UuidPipe,
  WorkspaceAccess,
  WorkspaceRole,
} from '#common';
import {
  AppProjectService,
  appProjectMemberRoleView,
  ProjectJson,
  ProjectMemberJson,
  ProjectMemberService,
  ProjectService,
  RecentVisitService,
} from '#domain';
import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Put, Post, Query } from '@nestjs/common';
import { AddProjectMembersDto, CreateAppProjectDto, RoleDto, UpdateProjectDto } from './dto/app-api.dto';
import { ReleaseProjectIdentifierDto } from './dto/preference.dto';

/**
 * Projects in the App API (Plane `plane/app/views/project/base.py` ProjectViewSet). Scoping and roles
 * are declared: `ProjectAccessGuard` resolves `{project_id}` inside the workspace (404 outside it,
 * or secret and not a member), `@ProjectRole` / `@WorkspaceRole` set the role each route needs.
 */
@Controller('workspaces/:slug/projects')
@BearerAuth()
export class AppProjectsController {
  constructor(
    private readonly projects: ProjectService,
    private readonly appProjects: AppProjectService,
    private readonly recentVisits: RecentVisitService,
  ) {}

  /**
   * Every project the caller may see, a bare array (Plane's `ProjectViewSet.list`): workspace Admins
   * see all projects, Members theirs and public ones, Guests theirs. Archived included.
   */
  @Get()
  async list(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @PageQuery(APP_UNPAGED) page: PageRequest,
  ): Promise<ProjectJson[] | Page<ProjectJson>> {
    return listAnswer(
      page,
      await this.appProjects.list(ws.workspaceId, { userId: me.userId, workspaceRole: ws.role }, page),
    );
  }

  /** Workspace Admins and Members: 201; the creator becomes project Admin; five default states. */
  @Post()
  @WorkspaceRole(ROLE.MEMBER)
  async create(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @Body() body: CreateAppProjectDto,
  ): Promise<ProjectJson> {
    const created = await this.projects.create(ws.workspaceId, { userId: me.userId, workspaceRole: ws.role }, body);
    return (await this.appProjects.forApp([created], me.userId))[0];
  }

  /** Project members: 200; an archived project is a 404. Recorded as a recent visit (`recent-visits/`). */
  @Get(':project_id')
  async retrieve(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() p: ProjectAccess,
  ): Promise<ProjectJson> {
    const project = await this.appProjects.get(ws.workspaceId, p.projectId, me.userId);
    await this.recentVisits.record(ws.workspaceId, me.userId, 'project', p.projectId, p.projectId);
    return project;
  }

  /** Project Admins: 200; 400 `PROJECT_ARCHIVED`; 409 on a taken identifier or name. */
  @Patch(':project_id')
  @ProjectRole(ROLE.ADMIN)
  async update(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() p: ProjectAccess,
    @Body() body: UpdateProjectDto,
  ): Promise<ProjectJson> {
    const updated = await this.projects.update(
      ws.workspaceId,
      p.projectId,
      { userId: me.userId, workspaceRole: ws.role },
      body,
    );
    return (await this.appProjects.forApp([updated], me.userId))[0];
  }

  /** `PUT`, which Plane maps to the same update (`"put": "update"`): the PATCH above. */
  @Put(':project_id')
  @ProjectRole(ROLE.ADMIN)
  putUpdate(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() p: ProjectAccess,
    @Body() body: UpdateProjectDto,
  ): Promise<ProjectJson> {
    return this.update(me, ws, p, body);
  }

  /** Project Admins or workspace Admins: 204, soft delete. */
  @Delete(':project_id')
  @ProjectRole(ROLE.ADMIN, { orWorkspaceRole: ROLE.ADMIN })
  @HttpCode(204)
  async remove(
    @CurrentPrincipal() me: Principal,
    @CurrentActor() actor: AuditActor,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() p: ProjectAccess,
  ): Promise<void> {
    await this.projects.remove(ws.workspaceId, p.projectId, {
      userId: me.userId,
      workspaceRole: ws.role,
      audit: actor,
    });
  }

  /** Project Admins and Members: 200 `{archived_at}`. */
  @Post(':project_id/archive')
  @ProjectRole(ROLE.MEMBER)
  @HttpCode(200)
  archive(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() p: ProjectAccess,
  ): Promise<{ archived_at: string }> {
    return this.appProjects.archive(ws.workspaceId, p.projectId, me.userId);
  }

  /** Project Admins and Members: 204, unarchive. */
  @Delete(':project_id/archive')
  @ProjectRole(ROLE.MEMBER)
  @HttpCode(204)
  async unarchive(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() p: ProjectAccess,
  ): Promise<void> {
    await this.appProjects.unarchive(ws.workspaceId, p.projectId, me.userId);
  }
}

/** `GET /api/workspaces/{slug}/project-identifiers/?name=` (workspace Admins and Members). */
@Controller('workspaces/:slug/project-identifiers')
@BearerAuth()
@WorkspaceRole(ROLE.MEMBER)
export class ProjectIdentifiersController {
  constructor(private readonly appProjects: AppProjectService) {}

  /** 200 `{exists, identifiers}`; 400 `INVALID_QUERY_PARAMETER` without `name`. */
  @Get()
  check(@CurrentWorkspace() ws: WorkspaceAccess, @Query('name') name: unknown) {
    if (typeof name !== 'string' || !name.trim())
      throw new MeridianError('INVALID_QUERY_PARAMETER', 'Name is required.');
    return this.appProjects.identifierCheck(ws.workspaceId, name);
  }

  /**
   * `{name}` → 204 (Plane 0.25.3 `ProjectIdentifierEndpoint.delete`); 400 `MALFORMED_REQUEST` without
   * `name`, 400 `PROJECT_IDENTIFIER_IN_USE` while a live project has it.
   */
  @Delete()
  @HttpCode(204)
  async release(@CurrentWorkspace() ws: WorkspaceAccess, @Body() body: ReleaseProjectIdentifierDto): Promise<void> {
    const name = body?.name;
    if (typeof name !== 'string' || !name.trim()) throw new MeridianError('MALFORMED_REQUEST', 'Name is required.');
    await this.appProjects.releaseIdentifier(ws.workspaceId, name);
  }
}

/**
 * Project members (Plane `plane/app/views/project/member.py` ProjectMemberViewSet). `{member_id}` is
 * the project membership row's id. Reads: project members; writes: project Admins (role rules in the
 * service).
 */
@Controller('workspaces/:slug/projects/:project_id/members')
@BearerAuth()
export class ProjectMembersController {
  constructor(private readonly members: ProjectMemberService) {}

  /** Every active member, a bare array (Plane's `ProjectMemberViewSet.list`), `member` the user's id (Plane's `ProjectMemberRoleSerializer`). */
  @Get()
  async list(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() p: ProjectAccess,
    @PageQuery(APP_UNPAGED) page: PageRequest,
  ) {
    return listAnswer(
      page,
      (await this.members.list(p.projectId, page, { userId: me.userId, role: ws.role })).map(appProjectMemberRoleView),
    );
  }

  /**
   * `{members: [{member_id, role}]}` → 201 the rows, `member` the user's id; 422 for non-members of
   * the workspace or roles their workspace role forbids.
   */
  @Post()
  @ProjectRole(ROLE.ADMIN)
  async add(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() p: ProjectAccess,
    @Body() body: AddProjectMembersDto,
  ) {
    const rows = await this.members.add(
      p.projectId,
      { userId: me.userId, projectRole: p.role, workspaceRole: ws.role },
      body.members,
    );
    return rows.map(appProjectMemberRoleView);
  }

  /** Any project member: 204, the caller leaves the project; 400 `LAST_PROJECT_ADMIN` for its only Admin. */
  @Post('leave')
  @ProjectRole(ROLE.GUEST)
  @HttpCode(204)
  async leave(
    @CurrentPrincipal() me: Principal,
    @CurrentActor() actor: AuditActor,
    @CurrentProject() p: ProjectAccess,
  ): Promise<void> {
    await this.members.leave(p.projectId, me.userId, actor);
  }

  /** One membership; Guests see the email only on their own. */
  @Get(':member_id')
  retrieve(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() p: ProjectAccess,
    @Param('member_id', UuidPipe) id: string,
  ): Promise<ProjectMemberJson> {
    return this.members.get(p.projectId, id, { userId: me.userId, role: ws.role });
  }

  /** `{role}` → 200; 403 own role / above own; 400 `LAST_PROJECT_ADMIN`. */
  @Patch(':member_id')
  @ProjectRole(ROLE.ADMIN)
  updateRole(
    @CurrentPrincipal() me: Principal,
    @CurrentActor() actor: AuditActor,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() p: ProjectAccess,
    @Param('member_id', UuidPipe) id: string,
    @Body() body: RoleDto,
  ): Promise<ProjectMemberJson> {
    return this.members.updateRole(
      p.projectId,
      { userId: me.userId, projectRole: p.role, workspaceRole: ws.role, audit: actor },
      id,
      body.role,
    );
  }

  /** 204, deactivates the membership; 400 `CANNOT_REMOVE_SELF`, `LAST_PROJECT_ADMIN`. */
  @Delete(':member_id')
  @ProjectRole(ROLE.ADMIN)
  @HttpCode(204)
  async remove(
    @CurrentPrincipal() me: Principal,
    @CurrentActor() actor: AuditActor,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() p: ProjectAccess,
    @Param('member_id', UuidPipe) id: string,
  ): Promise<void> {
    await this.members.remove(
      p.projectId,
      { userId: me.userId, projectRole: p.role, workspaceRole: ws.role, audit: actor },
      id,
    );
  }
}
