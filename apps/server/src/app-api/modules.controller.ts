import {
  APP_PAGED_BY_NUMBER,
  APP_UNPAGED,
  BearerAuth,
  CurrentPrincipal,
  CurrentProject,
  CurrentWorkspace,
  listAnswer,
  Page,
  PageQuery,
  PageRequest,
  Principal,
  ProjectAccess,
  ProjectRole,
  ROLE,
  UuidPipe,
  WorkspaceAccess,
} from '#common';
import { ModuleJson, ModuleLinkService, ModuleService, parseShape } from '#domain';
import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Put, Post, Query } from '@nestjs/common';
import { CreateModuleDto, WorkItemIdsDto, UpdateModuleDto } from '../shared/dto/planning.dto';
import { CreateModuleLinkDto, UpdateModuleLinkDto } from './dto/module-link.dto';
import { issueContext } from '../shared/context';

/**
 * Modules of a project on the App API (Plane 0.25.3 `app/urls/module.py`: work items under
 * `modules/{id}/issues/`), through the same `ModuleService` as v1, with the same counts, in Plane's
 * App shape (`ModuleService.forApp`: `member_ids`, `lead_id`, estimate point sums; the detail adds
 * `sub_issues` and the distribution). Lists of
 * modules need a project membership; a module's detail and its work items need project role ≥ 15
 * (Plane's `ModuleViewSet.retrieve`, `ModuleIssueViewSet`), as do writes; delete: the creator or a
 * project Admin.
 */
@Controller('workspaces/:slug/projects/:project_id')
@BearerAuth()
export class AppModulesController {
  constructor(private readonly modules: ModuleService) {}

  /** Every module of the project, the caller's favourites first, then newest first, a bare array (Plane's `ModuleViewSet.list`). */
  @Get('modules')
  async list(
    @CurrentPrincipal() me: Principal,
    @CurrentProject() project: ProjectAccess,
    @PageQuery(APP_UNPAGED) page: PageRequest,
  ) {
    return listAnswer(page, await this.forApp(await this.modules.list(project.projectId, page), me.userId));
  }

  /** 201; 409 `MODULE_NAME_TAKEN`; 422. */
  @Post('modules')
  async create(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Body() body: CreateModuleDto,
  ) {
    const created = await this.modules.create(issueContext(me, ws, project), body);
    return (await this.modules.forApp([created], me.userId))[0];
  }

  /** Every archived module, the caller's favourites first, then newest first, a bare array (Plane's `ModuleArchiveUnarchiveEndpoint.get`). */
  @Get('archived-modules')
  async listArchived(
    @CurrentPrincipal() me: Principal,
    @CurrentProject() project: ProjectAccess,
    @PageQuery(APP_UNPAGED) page: PageRequest,
  ) {
    return listAnswer(page, await this.forApp(await this.modules.list(project.projectId, page, true), me.userId));
  }

  /**
   * An archived module's detail, as `modules/{module_id}/` gives a live one (Plane 0.25.3
   * `app/views/module/archive.py` `ModuleArchiveUnarchiveEndpoint.get` with a `pk`; any project
   * member, Plane's `ProjectEntityPermission` for a read). 404 for a module that is not archived or
   * not this project's.
   */
  @Get('archived-modules/:module_id')
  async retrieveArchived(
    @CurrentPrincipal() me: Principal,
    @CurrentProject() project: ProjectAccess,
    @Param('module_id', UuidPipe) id: string,
  ) {
    const found = await this.modules.retrieveArchived(project.projectId, id);
    return (await this.modules.forApp([found], me.userId, { detail: true }))[0];
  }

  /** The module's detail: `link_module`, `sub_issues`, the distribution (Plane's `ModuleDetailSerializer`). */
  @Get('modules/:module_id')
  @ProjectRole(ROLE.MEMBER)
  async retrieve(
    @CurrentPrincipal() me: Principal,
    @CurrentProject() project: ProjectAccess,
    @Param('module_id', UuidPipe) id: string,
  ) {
    const found = await this.modules.retrieve(project.projectId, id);
    return (await this.modules.forApp([found], me.userId, { detail: true }))[0];
  }

  /** 200; `members` replaces the set; 400 `MODULE_ARCHIVED`. */
  @Patch('modules/:module_id')
  async update(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('module_id', UuidPipe) id: string,
    @Body() body: UpdateModuleDto,
  ) {
    const updated = await this.modules.update(issueContext(me, ws, project), id, body);
    return (await this.modules.forApp([updated], me.userId))[0];
  }

  /** `PUT`, which Plane maps to the same update (`"put": "update"`): the PATCH above. */
  @Put('modules/:module_id')
  putUpdate(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('module_id', UuidPipe) id: string,
    @Body() body: UpdateModuleDto,
  ) {
    return this.update(me, ws, project, id, body);
  }

  @Delete('modules/:module_id')
  @HttpCode(204)
  async remove(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('module_id', UuidPipe) id: string,
  ) {
    await this.modules.remove(issueContext(me, ws, project), id);
  }

  /** The module's work items, oldest first, in the cursor envelope. */
  @Get('modules/:module_id/issues')
  @ProjectRole(ROLE.MEMBER)
  listIssues(
    @CurrentProject() project: ProjectAccess,
    @Param('module_id', UuidPipe) id: string,
    @PageQuery(APP_PAGED_BY_NUMBER) page: PageRequest,
    @Query() query: Record<string, unknown>,
  ) {
    return this.modules.listIssues(project.projectId, id, page, parseShape(query));
  }

  /** `{issues: [ids]}` → 200 with the module's link rows. */
  @Post('modules/:module_id/issues')
  @HttpCode(200)
  addIssues(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('module_id', UuidPipe) id: string,
    @Body() body: WorkItemIdsDto,
  ) {
    return this.modules.addIssues(issueContext(me, ws, project), id, body.issues);
  }

  /** The link row of a work item in this module; 404 otherwise. */
  @Get('modules/:module_id/issues/:issue_id')
  @ProjectRole(ROLE.MEMBER)
  retrieveIssue(
    @CurrentProject() project: ProjectAccess,
    @Param('module_id', UuidPipe) id: string,
    @Param('issue_id', UuidPipe) issueId: string,
  ) {
    return this.modules.retrieveIssueLink(project.projectId, id, issueId);
  }

  @Delete('modules/:module_id/issues/:issue_id')
  @HttpCode(204)
  async removeIssue(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('module_id', UuidPipe) id: string,
    @Param('issue_id', UuidPipe) issueId: string,
  ) {
    await this.modules.removeIssue(issueContext(me, ws, project), id, issueId);
  }

  /** 204; only a completed or cancelled module (400 `MODULE_NOT_ARCHIVABLE`). */
  @Post('modules/:module_id/archive')
  @HttpCode(204)
  async archive(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('module_id', UuidPipe) id: string,
  ) {
    await this.modules.archive(issueContext(me, ws, project), id);
  }

  @Delete('modules/:module_id/archive')
  @HttpCode(204)
  async unarchive(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('module_id', UuidPipe) id: string,
  ) {
    await this.modules.unarchive(issueContext(me, ws, project), id);
  }

  /** A page of modules in the App API's shape (`ModuleService.forApp`), the caller's favourites first. */
  private async forApp(found: Page<ModuleJson>, userId: string) {
    return new Page(
      await this.modules.forApp(found.results, userId, { favoritesFirst: true }),
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
