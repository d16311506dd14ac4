import {
  ApiKeyAuth,
  CurrentPrincipal,
  CurrentProject,
  CurrentWorkspace,
  MeridianError,
  Principal,
  ProjectAccess,
  ProjectRole,
  ROLE,
  UuidPipe,
  WorkspaceAccess,
} from '#common';
import { EstimatePointInput, EstimateService } from '#domain';
import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { CreateEstimateDto, UpdateEstimateDto, UpdateEstimatePointDto } from '../shared/dto/estimate.dto';
import { issueContext } from '../shared/context';

/** The point list a client sent: a bare JSON array (the SDK), or `{estimate_points: [...]}`; else 400 `MALFORMED_REQUEST`. */
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
 * A project's estimate (Plane CE, as `plane-node-sdk/dist/api/Estimates.js` calls it): one per
 * project, addressed without an id. Reads need a project membership; changes a project Admin
 * (estimates are project settings in Plane). The project uses it once `PATCH projects/{id}/ {estimate}`
 * links it.
 */
@Controller('workspaces/:slug/projects/:project_id/estimates')
@ApiKeyAuth()
export class EstimatesController {
  constructor(private readonly estimates: EstimateService) {}

  /** 200 with the estimate; 404 `NOT_FOUND` when the project has none. */
  @Get()
  retrieve(@CurrentProject() project: ProjectAccess) {
    return this.estimates.retrieve(project.projectId);
  }

  /** 201; 409 `ESTIMATE_EXISTS` (with the `id` of the existing one); 422. */
  @Post()
  @ProjectRole(ROLE.ADMIN)
  create(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Body() body: CreateEstimateDto,
  ) {
    return this.estimates.create(issueContext(me, ws, project), body);
  }

  /** 200; `type` cannot change (422). */
  @Patch()
  @ProjectRole(ROLE.ADMIN)
  update(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Body() body: UpdateEstimateDto,
  ) {
    return this.estimates.update(issueContext(me, ws, project), body);
  }

  /** 204; the points go too, the project's `estimate` and the work items' `estimate_point` are cleared. */
  @Delete()
  @HttpCode(204)
  @ProjectRole(ROLE.ADMIN)
  async remove(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
  ) {
    await this.estimates.remove(issueContext(me, ws, project));
  }

  /** A bare array of points, by `key`. */
  @Get(':estimate_id/estimate-points')
  listPoints(@CurrentProject() project: ProjectAccess, @Param('estimate_id', UuidPipe) estimateId: string) {
    return this.estimates.listPoints(project.projectId, estimateId);
  }

  /** 201 with a bare array of the created points (all or none); 409 `ESTIMATE_POINT_KEY_TAKEN`; 422. */
  @Post(':estimate_id/estimate-points')
  @ProjectRole(ROLE.ADMIN)
  createPoints(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('estimate_id', UuidPipe) estimateId: string,
    @Body() body: unknown,
  ) {
    return this.estimates.createPoints(issueContext(me, ws, project), estimateId, pointsOf(body));
  }

  @Patch(':estimate_id/estimate-points/:point_id')
  @ProjectRole(ROLE.ADMIN)
  updatePoint(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('estimate_id', UuidPipe) estimateId: string,
    @Param('point_id', UuidPipe) pointId: string,
    @Body() body: UpdateEstimatePointDto,
  ) {
    return this.estimates.updatePoint(issueContext(me, ws, project), estimateId, pointId, body);
  }

  /** 204; work items using the point lose their `estimate_point` (history written). */
  @Delete(':estimate_id/estimate-points/:point_id')
  @HttpCode(204)
  @ProjectRole(ROLE.ADMIN)
  async removePoint(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('estimate_id', UuidPipe) estimateId: string,
    @Param('point_id', UuidPipe) pointId: string,
  ) {
    await this.estimates.removePoint(issueContext(me, ws, project), estimateId, pointId);
  }
}
