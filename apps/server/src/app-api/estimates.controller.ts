import {
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
  validationError,
  WorkspaceAccess,
} from '#common';
import { EstimatePointInput, EstimateService } from '#domain';
import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { UpdateEstimateDto, UpdateEstimatePointDto } from '../shared/dto/estimate.dto';
import { AppCreateEstimateDto } from './dto/estimate.dto';
import { issueContext } from '../shared/context';

/** The point list a client sent: a bare JSON array, or `{estimate_points: [...]}`; else 400 `MALFORMED_REQUEST`. */
function pointsOf(body: unknown): EstimatePointInput[] {
  const list = Array.isArray(body) ? body : (body as { estimate_points?: unknown } | null)?.estimate_points;
  if (!Array.isArray(list) || !list.every((p) => typeof p === 'object' && p !== null && !Array.isArray(p))) {
    throw new MeridianError(
      'MALFORMED_REQUEST',
      'Send a JSON array of estimate points, or {"estimate_points": [...]}.',
    );
  }
  return list as EstimatePointInput[];
}

/**
 * A project's estimate on the App API (Plane 0.25.3 `app/urls/estimate.py`, addressed by id), through
 * the same `EstimateService` as v1: one estimate per project; reads need a project membership,
 * changes a project Admin. An id that is not this project's estimate is a 404.
 */
@Controller('workspaces/:slug/projects/:project_id/estimates')
@BearerAuth()
export class AppEstimatesController {
  constructor(private readonly estimates: EstimateService) {}

  /**
   * The project's estimate (none or one) with its `points`, a bare array (Plane's
   * `BulkEstimatePointEndpoint.list`, `EstimateReadSerializer`).
   */
  @Get()
  async list(@CurrentProject() project: ProjectAccess, @PageQuery(APP_UNPAGED) page: PageRequest) {
    const found = await this.estimates.retrieve(project.projectId).catch((err: unknown) => {
      if (err instanceof MeridianError && err.code === 'NOT_FOUND') return null;
      throw err;
    });
    const results = found ? [await this.withPoints(project, found)] : [];
    return listAnswer(page, new Page(results, page.perPage, results.length, null, null));
  }

  /**
   * Plane's `{estimate: {...}, estimate_points: [...]}` (or flat estimate fields): 201 with the
   * estimate and its `points`, created together or not at all; 409 `ESTIMATE_EXISTS`; 422.
   */
  @Post()
  @ProjectRole(ROLE.ADMIN)
  async create(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Body() body: AppCreateEstimateDto,
  ) {
    const { estimate, estimate_points: points, ...flat } = body;
    const input = estimate ?? flat;
    if (!input.name) throw validationError({ name: ['This field is required.'] });
    const created = await this.estimates.createWithPoints(
      issueContext(me, ws, project),
      { ...input, name: input.name },
      points ? pointsOf(points) : [],
    );
    return { ...created.estimate, points: created.points };
  }

  /** The estimate with its `points` (Plane's `EstimateReadSerializer`); 404 for another's. */
  @Get(':estimate_id')
  async retrieve(@CurrentProject() project: ProjectAccess, @Param('estimate_id', UuidPipe) id: string) {
    return this.withPoints(project, await this.mine(project, id));
  }

  /** 200; `type` cannot change (422). */
  @Patch(':estimate_id')
  @ProjectRole(ROLE.ADMIN)
  async update(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('estimate_id', UuidPipe) id: string,
    @Body() body: UpdateEstimateDto,
  ) {
    await this.mine(project, id);
    return this.estimates.update(issueContext(me, ws, project), body);
  }

  /** 204; the points go too; work items lose their `estimate_point`. */
  @Delete(':estimate_id')
  @HttpCode(204)
  @ProjectRole(ROLE.ADMIN)
  async remove(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('estimate_id', UuidPipe) id: string,
  ) {
    await this.mine(project, id);
    await this.estimates.remove(issueContext(me, ws, project));
  }

  /** The points by `key`, a bare array (Plane lists an estimate's points inside the estimate). */
  @Get(':estimate_id/estimate-points')
  listPoints(@CurrentProject() project: ProjectAccess, @Param('estimate_id', UuidPipe) id: string) {
    return this.estimates.listPoints(project.projectId, id);
  }

  /** 201 with the created points (all or none); 409 `ESTIMATE_POINT_KEY_TAKEN`; 422. */
  @Post(':estimate_id/estimate-points')
  @ProjectRole(ROLE.ADMIN)
  createPoints(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('estimate_id', UuidPipe) id: string,
    @Body() body: unknown,
  ) {
    return this.estimates.createPoints(issueContext(me, ws, project), id, pointsOf(body));
  }

  @Patch(':estimate_id/estimate-points/:point_id')
  @ProjectRole(ROLE.ADMIN)
  updatePoint(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('estimate_id', UuidPipe) id: string,
    @Param('point_id', UuidPipe) pointId: string,
    @Body() body: UpdateEstimatePointDto,
  ) {
    return this.estimates.updatePoint(issueContext(me, ws, project), id, pointId, body);
  }

  /** 204; work items using the point lose it (history written). */
  @Delete(':estimate_id/estimate-points/:point_id')
  @HttpCode(204)
  @ProjectRole(ROLE.ADMIN)
  async removePoint(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('estimate_id', UuidPipe) id: string,
    @Param('point_id', UuidPipe) pointId: string,
  ) {
    await this.estimates.removePoint(issueContext(me, ws, project), id, pointId);
  }

  /**
   * An estimate as Plane's `BulkEstimatePointEndpoint` reads it (`EstimateReadSerializer`): with its
   * `points` by `key`. The web app takes the points it offers on a work item from these.
   */
  private async withPoints<E extends { id: string }>(project: ProjectAccess, e: E) {
    return { ...e, points: await this.estimates.listPoints(project.projectId, e.id) };
  }

  private async mine(project: ProjectAccess, id: string) {
    const e = await this.estimates.retrieve(project.projectId);
    if (e.id !== id) throw new MeridianError('NOT_FOUND');
    return e;
  }
}
