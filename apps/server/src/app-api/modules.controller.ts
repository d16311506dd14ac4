import {
  APP_PAGED_BY_NUMBER,
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
  ROLE,
  UuidPipe,
  WorkspaceAccess,
} from '#common';
import { IssueQueryService, ModuleJson, ModuleLinkService, ModuleService } from '#domain';
import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Put, Post } from '@nestjs/common';
import { CreateModuleDto, UpdateModuleDto } from '../shared/dto/planning.dto';
import { AppPlanningRoutes } from '../shared/planning-routes';
import { CreateModuleLinkDto, UpdateModuleLinkDto } from './dto/module-link.dto';
import { issueContext, single } from '../shared/context';
import { listQuery, projectWorkItems } from './work-items.controller';

/**
 * Modules of a project on the App API (Plane 0.25.3 `app/urls/module.py`: work items under
 * `modules/{id}/issues/`), through the same `ModuleService` as v1, with the same counts, in Plane's
 * App shape (`ModuleService.forApp`: `member_ids`, `lead_id`, estimate point sums; the detail adds
 * `sub_issues` and the distribution). Lists of
 * modules need a project membership; a module's detail and its work items need project role ≥ 15
 * (Plane's `ModuleViewSet.retrieve`, `ModuleIssueViewSet`), as do writes; delete: the creator or a
 * project Admin. The routes modules share with cycles (create, detail, update and its `PUT`,
 * delete, `issues/`, archive/unarchive, `archived-modules/{module_id}/`) are `AppPlanningRoutes`'
 * (apps/server/src/shared/planning-routes.ts), with the spec below.
 */
@Controller('workspaces/:slug/projects/:project_id')
@BearerAuth()
export class AppModulesController extends AppPlanningRoutes<ModuleJson, CreateModuleDto, UpdateModuleDto>({
  rows: 'modules',
  id: 'module_id',
  workItems: 'issues',
  createDto: CreateModuleDto,
  updateDto: UpdateModuleDto,
  workItemsPaging: APP_PAGED_BY_NUMBER,
  orderBy: false,
  readRole: ROLE.MEMBER,
  // any project member: Plane's `ProjectEntityPermission` for a read
  archivedReadRole: undefined,
}) {
  constructor(
    protected readonly service: ModuleService,
    private readonly issues: IssueQueryService,
  ) {
    super();
  }

  /**
   * `GET modules/{id}/issues/` as Plane's `ModuleIssueViewSet.list`: the project's work item list
   * (`projectWorkItems`: Plane's filters, `order_by`, oldest first by default as Plane's, `group_by`,
   * App values, paged by number) of the module's work items (a `module=` filter is the module's).
   * 404 for an unknown module.
   */
  protected override async workItems(
    me: Principal,
    project: ProjectAccess,
    id: string,
    page: PageRequest,
    query: Record<string, unknown>,
  ): Promise<unknown> {
    if (!(await this.service.existsInProject(project.projectId, id))) throw new MeridianError('NOT_FOUND');
    const q = { ...listQuery(query, page, me, project), module: [id] };
    return projectWorkItems(this.issues, project.projectId, query, {
      ...q,
      order_by: single(query, 'order_by') || 'created_at',
    });
  }

  /** A module's answer in Plane's App shape (`ModuleService.forApp`). */
  protected present(rows: ModuleJson[], userId: string, opts?: { detail?: boolean }) {
    return this.service.forApp(rows, userId, opts);
  }

  /** Every module of the project, the caller's favourites first, then newest first, a bare array (Plane's `ModuleViewSet.list`). */
  @Get('modules')
  async list(
    @CurrentPrincipal() me: Principal,
    @CurrentProject() project: ProjectAccess,
    @PageQuery(APP_UNPAGED) page: PageRequest,
  ) {
    return listAnswer(page, await this.forApp(await this.service.list(project.projectId, page), me.userId));
  }

  /** Every archived module, the caller's favourites first, then newest first, a bare array (Plane's `ModuleArchiveUnarchiveEndpoint.get`). */
  @Get('archived-modules')
  async listArchived(
    @CurrentPrincipal() me: Principal,
    @CurrentProject() project: ProjectAccess,
    @PageQuery(APP_UNPAGED) page: PageRequest,
  ) {
    return listAnswer(page, await this.forApp(await this.service.list(project.projectId, page, true), me.userId));
  }

  /** A page of modules in the App API's shape (`ModuleService.forApp`), the caller's favourites first. */
  private async forApp(found: Page<ModuleJson>, userId: string) {
    return new Page(
      await this.service.forApp(found.results, userId, { favoritesFirst: true }),
      found.perPage,
      found.totalCount,
      found.nextCursor,
      found.prevCursor,
    );
  }
}

/**
 * Links of a module (Plane 0.25.3 `ModuleLinkViewSet`, `modules/{id}/module-links/`, permission
 * `ProjectEntityPermission`): reads any project member, writes project Admins and Members. A
 * module of another project, or deleted, is 404.
 */
@Controller('workspaces/:slug/projects/:project_id/modules/:module_id/module-links')
@BearerAuth()
export class AppModuleLinksController {
  constructor(private readonly links: ModuleLinkService) {}

  /** The module's links, newest first, a bare array (Plane's `ModuleLinkViewSet` has no paginator). */
  @Get()
  async list(
    @CurrentProject() project: ProjectAccess,
    @Param('module_id', UuidPipe) moduleId: string,
    @PageQuery(APP_UNPAGED) page: PageRequest,
  ) {
    return listAnswer(page, await this.links.list(project.projectId, moduleId, page));
  }

  /** `{url, title?, metadata?}` → 201 with the link; 409 `LINK_URL_TAKEN` for a URL already on the module. */
  @Post()
  create(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('module_id', UuidPipe) moduleId: string,
    @Body() body: CreateModuleLinkDto,
  ) {
    return this.links.create(issueContext(me, ws, project), moduleId, body);
  }

  @Get(':link_id')
  retrieve(
    @CurrentProject() project: ProjectAccess,
    @Param('module_id', UuidPipe) moduleId: string,
    @Param('link_id', UuidPipe) linkId: string,
  ) {
    return this.links.retrieve(project.projectId, moduleId, linkId);
  }

  /** 200 with the link; 409 `LINK_URL_TAKEN`. */
  @Patch(':link_id')
  update(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('module_id', UuidPipe) moduleId: string,
    @Param('link_id', UuidPipe) linkId: string,
    @Body() body: UpdateModuleLinkDto,
  ) {
    return this.links.update(issueContext(me, ws, project), moduleId, linkId, body);
  }

  /** `PUT`, which Plane maps to the same update (`"put": "update"`): the PATCH above. */
  @Put(':link_id')
  putUpdate(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('module_id', UuidPipe) moduleId: string,
    @Param('link_id', UuidPipe) linkId: string,
    @Body() body: UpdateModuleLinkDto,
  ) {
    return this.update(me, ws, project, moduleId, linkId, body);
  }

  @Delete(':link_id')
  @HttpCode(204)
  async remove(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('module_id', UuidPipe) moduleId: string,
    @Param('link_id', UuidPipe) linkId: string,
  ) {
    await this.links.remove(issueContext(me, ws, project), moduleId, linkId);
  }
}
