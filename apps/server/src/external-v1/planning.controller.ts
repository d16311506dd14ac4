import {
  ApiKeyAuth,
  CurrentPrincipal,
  CurrentProject,
  CurrentWorkspace,
  PageQuery,
  PageRequest,
  Principal,
  ProjectAccess,
  UuidPipe,
  V1_PAGING,
  WorkspaceAccess,
} from '#common';
import { CycleService, ModuleJson, ModuleService } from '#domain';
import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import {
  CreateCycleDto,
  CreateModuleDto,
  TransferDto,
  UpdateCycleDto,
  UpdateModuleDto,
} from '../shared/dto/planning.dto';
import { issueContext } from '../shared/context';
import { cycleViewOf, RowOf, V1PlanningRoutes } from '../shared/planning-routes';

/**
 * Cycles of a project (Plane `plane/api/views/cycle.py`; `plane-node-sdk/dist/api/Cycles.js`,
 * `plane-mcp-server/build/tools/cycles.js`, `cycle-issues.js`).
 * Reads need a project membership, writes role ≥ 15; delete: the creator or a project Admin. The
 * routes cycles and modules share (create, detail, update, delete, the work items, archive/unarchive,
 * `archived-…/{id}/unarchive/`) are `V1PlanningRoutes`' (apps/server/src/shared/planning-routes.ts),
 * with the spec below.
 */
@Controller('workspaces/:slug/projects/:project_id')
@ApiKeyAuth()
export class CyclesController extends V1PlanningRoutes<RowOf<CycleService>, CreateCycleDto, UpdateCycleDto>({
  rows: 'cycles',
  id: 'cycle_id',
  workItems: 'cycle-issues',
  createDto: CreateCycleDto,
  updateDto: UpdateCycleDto,
  workItemsPaging: V1_PAGING,
  orderBy: true,
}) {
  constructor(protected readonly service: CycleService) {
    super();
  }

  /** Paginated, newest first; `cycle_view` = all|current|upcoming|completed|draft|incomplete (`current`: a plain array). */
  @Get('cycles')
  list(
    @CurrentProject() project: ProjectAccess,
    @PageQuery(V1_PAGING) page: PageRequest,
    @Query() query: Record<string, unknown>,
  ) {
    return this.service.list(project.projectId, page, cycleViewOf(query));
  }

  /** Archived cycles, newest first, paginated. */
  @Get('archived-cycles')
  listArchived(@CurrentProject() project: ProjectAccess, @PageQuery(V1_PAGING) page: PageRequest) {
    return this.service.listArchived(project.projectId, page);
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
    return this.service.transfer(issueContext(me, ws, project), id, body.new_cycle_id?.toLowerCase());
  }
}

/**
 * Modules of a project (Plane `plane/api/views/module.py`; `plane-node-sdk/dist/api/Modules.js`,
 * `plane-mcp-server/build/tools/modules.js`, `module-issues.js`).
 * Reads need a project membership, writes role ≥ 15; delete: the creator or a project Admin. The
 * routes cycles and modules share (create, detail, update, delete, the work items, archive/unarchive,
 * `archived-…/{id}/unarchive/`) are `V1PlanningRoutes`' (apps/server/src/shared/planning-routes.ts),
 * with the spec below.
 */
@Controller('workspaces/:slug/projects/:project_id')
@ApiKeyAuth()
export class ModulesController extends V1PlanningRoutes<ModuleJson, CreateModuleDto, UpdateModuleDto>({
  rows: 'modules',
  id: 'module_id',
  workItems: 'module-issues',
  createDto: CreateModuleDto,
  updateDto: UpdateModuleDto,
  workItemsPaging: V1_PAGING,
  orderBy: true,
}) {
  constructor(protected readonly service: ModuleService) {
    super();
  }

  /** Non-archived modules, newest first, paginated. */
  @Get('modules')
  list(@CurrentProject() project: ProjectAccess, @PageQuery(V1_PAGING) page: PageRequest) {
    return this.service.list(project.projectId, page);
  }

  /** Archived modules, newest first, paginated (Plane 0.25.3 answers 500 here). */
  @Get('archived-modules')
  listArchived(@CurrentProject() project: ProjectAccess, @PageQuery(V1_PAGING) page: PageRequest) {
    return this.service.list(project.projectId, page, true);
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
    return this.service.list(project.projectId, page, true, id);
  }
}
