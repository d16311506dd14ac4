import {
  ApiKeyAuth,
  CurrentPrincipal,
  CurrentProject,
  CurrentWorkspace,
  MeridianError,
  PageQuery,
  PageRequest,
  Principal,
  ProjectAccess,
  UuidPipe,
  V1_PAGING,
  WorkspaceAccess,
} from '#common';
import { CYCLE_VIEWS, CycleService, CycleView, ModuleService, parseShape } from '#domain';
import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import {
  CreateCycleDto,
  CreateModuleDto,
  WorkItemIdsDto,
  TransferDto,
  UpdateCycleDto,
  UpdateModuleDto,
} from '../shared/dto/planning.dto';
import { issueContext, single } from '../shared/context';

/** `order_by` of the cycle and module work item lists: `created_at` (default) or `-created_at`. */
function newestFirst(query: Record<string, unknown>): boolean {
  const orderBy = single(query, 'order_by') || 'created_at';
  if (orderBy !== 'created_at' && orderBy !== '-created_at')
    throw new MeridianError('INVALID_QUERY_PARAMETER', 'order_by must be created_at or -created_at.');
  return orderBy === '-created_at';
}

/**
 * Cycles of a project (Plane `plane/api/views/cycle.py`; `plane-node-sdk/dist/api/Cycles.js`,
 * `plane-mcp-server/build/tools/cycles.js`, `cycle-issues.js`).
 * Reads need a project membership, writes role ≥ 15; delete: the creator or a project Admin.
 */
@Controller('workspaces/:slug/projects/:project_id')
@ApiKeyAuth()
export class CyclesController {
  constructor(private readonly cycles: CycleService) {}

  /** Paginated, newest first; `cycle_view` = all|current|upcoming|completed|draft|incomplete (`current`: a plain array). */
  @Get('cycles')
  list(
    @CurrentProject() project: ProjectAccess,
    @PageQuery(V1_PAGING) page: PageRequest,
    @Query() query: Record<string, unknown>,
  ) {
    const view = (single(query, 'cycle_view') || 'all').toLowerCase();
    if (!(CYCLE_VIEWS as readonly string[]).includes(view)) {
      throw new MeridianError('INVALID_QUERY_PARAMETER', `cycle_view must be one of: ${CYCLE_VIEWS.join(', ')}.`);
    }
    return this.cycles.list(project.projectId, page, view as CycleView);
  }

  /** 201 with the cycle; 422 (dates, owner, time zone); 409 `EXTERNAL_ID_TAKEN`. */
  @Post('cycles')
  create(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Body() body: CreateCycleDto,
  ) {
    return this.cycles.create(issueContext(me, ws, project), body);
  }

  /** Archived cycles, newest first, paginated. */
  @Get('archived-cycles')
  listArchived(@CurrentProject() project: ProjectAccess, @PageQuery(V1_PAGING) page: PageRequest) {
    return this.cycles.listArchived(project.projectId, page);
  }

  /** `DELETE archived-cycles/{id}/unarchive/` (newer Plane, the SDK's `unArchive`): 204. */
  @Delete('archived-cycles/:cycle_id/unarchive')
  @HttpCode(204)
  async unarchiveNew(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('cycle_id', UuidPipe) id: string,
  ) {
    await this.cycles.unarchive(issueContext(me, ws, project), id);
  }

  @Get('cycles/:cycle_id')
  retrieve(@CurrentProject() project: ProjectAccess, @Param('cycle_id', UuidPipe) id: string) {
    return this.cycles.retrieve(project.projectId, id);
  }

  /** 200; 400 `CYCLE_ARCHIVED`, `CYCLE_COMPLETED` (an ended cycle: only `sort_order`); 422; 409. */
  @Patch('cycles/:cycle_id')
  update(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('cycle_id', UuidPipe) id: string,
    @Body() body: UpdateCycleDto,
  ) {
    return this.cycles.update(issueContext(me, ws, project), id, body);
  }

  /** 204; the creator or a project Admin (403 `PERMISSION_DENIED`). */
  @Delete('cycles/:cycle_id')
  @HttpCode(204)
  async remove(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('cycle_id', UuidPipe) id: string,
  ) {
    await this.cycles.remove(issueContext(me, ws, project), id);
  }

  /** The cycle's work items (work item objects), oldest first (`order_by=-created_at`), paginated; `fields=`/`expand=`. */
  @Get('cycles/:cycle_id/cycle-issues')
  listIssues(
    @CurrentProject() project: ProjectAccess,
    @Param('cycle_id', UuidPipe) id: string,
    @PageQuery(V1_PAGING) page: PageRequest,
    @Query() query: Record<string, unknown>,
  ) {
    return this.cycles.listIssues(project.projectId, id, page, parseShape(query), newestFirst(query));
  }

  /** `{issues: [ids]}` → 200 with every link row of the cycle; a work item in another cycle moves here. */
  @Post('cycles/:cycle_id/cycle-issues')
  @HttpCode(200)
  addIssues(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('cycle_id', UuidPipe) id: string,
    @Body() body: WorkItemIdsDto,
  ) {
    return this.cycles.addIssues(issueContext(me, ws, project), id, body.issues);
  }

  /** The link row of a work item in this cycle; 404 otherwise. */
  @Get('cycles/:cycle_id/cycle-issues/:issue_id')
  retrieveIssue(
    @CurrentProject() project: ProjectAccess,
    @Param('cycle_id', UuidPipe) id: string,
    @Param('issue_id', UuidPipe) issueId: string,
  ) {
    return this.cycles.retrieveIssueLink(project.projectId, id, issueId);
  }

  @Delete('cycles/:cycle_id/cycle-issues/:issue_id')
  @HttpCode(204)
  async removeIssue(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('cycle_id', UuidPipe) id: string,
    @Param('issue_id', UuidPipe) issueId: string,
  ) {
    await this.cycles.removeIssue(issueContext(me, ws, project), id, issueId);
  }

  /** `{new_cycle_id}` → 200 `{"message": "Success"}`; 400 `CYCLE_NOT_COMPLETED` / `CYCLE_TRANSFER_TARGET_COMPLETED`; 422. */
  @Post('cycles/:cycle_id/transfer-issues')
  @HttpCode(200)
  transfer(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('cycle_id', UuidPipe) id: string,
    @Body() body: TransferDto,
  ) {
    return this.cycles.transfer(issueContext(me, ws, project), id, body.new_cycle_id?.toLowerCase());
  }

  /** 204; only a cycle that has ended (400 `CYCLE_NOT_COMPLETED`). */
  @Post('cycles/:cycle_id/archive')
  @HttpCode(204)
  async archive(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('cycle_id', UuidPipe) id: string,
  ) {
    await this.cycles.archive(issueContext(me, ws, project), id);
  }

  /** Plane 0.25.3's unarchive: 204. */
  @Delete('cycles/:cycle_id/archive')
  @HttpCode(204)
  async unarchive(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('cycle_id', UuidPipe) id: string,
  ) {
    await this.cycles.unarchive(issueContext(me, ws, project), id);
  }
}

/**
 * Modules of a project (Plane `plane/api/views/module.py`; `plane-node-sdk/dist/api/Modules.js`,
 * `plane-mcp-server/build/tools/modules.js`, `module-issues.js`).
 * Reads need a project membership, writes role ≥ 15; delete: the creator or a project Admin.
 */
@Controller('workspaces/:slug/projects/:project_id')
@ApiKeyAuth()
export class ModulesController {
  constructor(private readonly modules: ModuleService) {}

  /** Non-archived modules, newest first, paginated. */
  @Get('modules')
  list(@CurrentProject() project: ProjectAccess, @PageQuery(V1_PAGING) page: PageRequest) {
    return this.modules.list(project.projectId, page);
  }

  /** 201 with the module; 409 `MODULE_NAME_TAKEN` / `EXTERNAL_ID_TAKEN` with the holder's `id`; 422. */
  @Post('modules')
  create(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Body() body: CreateModuleDto,
  ) {
    return this.modules.create(issueContext(me, ws, project), body);
  }

  /** Archived modules, newest first, paginated (Plane 0.25.3 answers 500 here). */
  @Get('archived-modules')
  listArchived(@CurrentProject() project: ProjectAccess, @PageQuery(V1_PAGING) page: PageRequest) {
    return this.modules.list(project.projectId, page, true);
  }

  /** `DELETE archived-modules/{id}/unarchive/` (newer Plane, the SDK's `unArchiveModule`): 204. */
  @Delete('archived-modules/:module_id/unarchive')
  @HttpCode(204)
  async unarchiveNew(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('module_id', UuidPipe) id: string,
  ) {
    await this.modules.unarchive(issueContext(me, ws, project), id);
  }

  @Get('modules/:module_id')
  retrieve(@CurrentProject() project: ProjectAccess, @Param('module_id', UuidPipe) id: string) {
    return this.modules.retrieve(project.projectId, id);
  }

  /** 200; `members` replaces the set; 400 `MODULE_ARCHIVED`; 409; 422. */
  @Patch('modules/:module_id')
  update(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('module_id', UuidPipe) id: string,
    @Body() body: UpdateModuleDto,
  ) {
    return this.modules.update(issueContext(me, ws, project), id, body);
  }

  /** 204; the creator or a project Admin (403 `PERMISSION_DENIED`). */
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

  /** The module's work items (work item objects), oldest first (`order_by=-created_at`), paginated; `fields=`/`expand=`. */
  @Get('modules/:module_id/module-issues')
  listIssues(
    @CurrentProject() project: ProjectAccess,
    @Param('module_id', UuidPipe) id: string,
    @PageQuery(V1_PAGING) page: PageRequest,
    @Query() query: Record<string, unknown>,
  ) {
    return this.modules.listIssues(project.projectId, id, page, parseShape(query), newestFirst(query));
  }

  /** `{issues: [ids]}` → 200 with every link row of the module. */
  @Post('modules/:module_id/module-issues')
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

  /** The link row of a work item in this module (Plane answers 500); 404 otherwise. */
  @Get('modules/:module_id/module-issues/:issue_id')
  retrieveIssue(
    @CurrentProject() project: ProjectAccess,
    @Param('module_id', UuidPipe) id: string,
    @Param('issue_id', UuidPipe) issueId: string,
  ) {
    return this.modules.retrieveIssueLink(project.projectId, id, issueId);
  }

  @Delete('modules/:module_id/module-issues/:issue_id')
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

  /**
   * Plane 0.25.3's archived list under a module's path, for that module only: a page holding the
   * module when it is archived, an empty page when it is not; 404 `NOT_FOUND` for an id that is not
   * a module of this project. (Plane ignores the id and lists every archived module: a quirk.)
   */
  @Get('modules/:module_id/archive')
  async listArchivedOld(
    @CurrentProject() project: ProjectAccess,
    @Param('module_id', UuidPipe) id: string,
    @PageQuery(V1_PAGING) page: PageRequest,
  ) {
    return this.modules.list(project.projectId, page, true, id);
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

  /** Plane 0.25.3's unarchive: 204. */
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
}
