import { MeridianError, validationError } from '#common';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { emitChange } from '../kernel/change-bus';
import type { IssueContext } from '../issue';
import { found, isUniqueViolation } from '../kernel/db-errors';
import { assertExternalIdFree } from '../kernel/external-id';
import { assertProjectWritable } from '../kernel/project-writable';
import { Estimate, EstimateType } from './estimate.entity';
import { EstimatePoint } from './estimate-point.entity';
import { EstimateRepository } from './estimate.repository';
import { EstimateJson, EstimatePointJson, estimatePointView, estimateView } from './estimate.view';

export interface EstimateInput {
  name?: string;
  description?: string;
  type?: EstimateType;
  last_used?: boolean;
  external_source?: string | null;
  external_id?: string | null;
}

export interface EstimatePointInput {
  key?: number;
  value?: string;
  description?: string;
  external_source?: string | null;
  external_id?: string | null;
}

/** Most points one request may create. */
export const MAX_POINTS_PER_REQUEST = 100;

/**
 * A project's estimate and its points (Plane CE's `projects/{id}/estimates/` and
 * `estimates/{id}/estimate-points/`, as `plane-node-sdk/dist/api/Estimates.js` calls them). One live estimate
 * per project, addressed without an id. Removing a point (or the whole estimate) clears
 * `estimate_point` on the work items that used it, with a history row each, in the same
 * transaction; removing the estimate also clears the project's `estimate`.
 */
@Injectable()
export class EstimateService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly estimates: EstimateRepository,
  ) {}

  /**
   * The estimates of the workspace's projects the user is an active member of, each with its
   * `points` (Plane's `WorkspaceEstimatesEndpoint` / `WorkspaceEstimateSerializer`, which lists the
   * whole workspace's).
   */
  async listForWorkspace(workspaceId: string, userId: string) {
    const { estimates, points } = await this.estimates.listForMember(this.dataSource.manager, workspaceId, userId);
    return estimates.map((e) => ({
      ...estimateView(e),
      points: points.filter((p) => p.estimateId === e.id).map(estimatePointView),
    }));
  }

  /** The project's estimate; 404 `NOT_FOUND` when it has none. */
  async retrieve(projectId: string): Promise<EstimateJson> {
    return estimateView(await this.estimate(this.dataSource.manager, projectId));
  }

  /** 201; 409 `ESTIMATE_EXISTS` when the project already has one; 409 `EXTERNAL_ID_TAKEN`. */
  async create(ctx: IssueContext, input: EstimateInput & { name: string }): Promise<EstimateJson> {
    return (await this.createWithPoints(ctx, input)).estimate;
  }

  /**
   * Plane's App API create (`{estimate: {...}, estimate_points: [...]}`): the estimate and its
   * points in one transaction, all or nothing; errors as `create` and `createPoints`.
   */
  async createWithPoints(
    ctx: IssueContext,
    input: EstimateInput & { name: string },
    points: EstimatePointInput[] = [],
  ) {
    return this.guard(() =>
      this.dataSource.transaction(async (em) => {
        await assertProjectWritable(em, ctx.projectId);
        const existing = await this.estimates.findEstimate(em, ctx.projectId);
        if (existing) throw new MeridianError('ESTIMATE_EXISTS', undefined, { id: existing.id });
        await assertExternalIdFree(em, Estimate, ctx.projectId, input.external_source, input.external_id);
        const name = input.name.trim();
        if (!name) throw validationError({ name: ['This field may not be blank.'] });
        const e = await this.estimates.insertEstimate(
          em,
          em.create(Estimate, {
            workspaceId: ctx.workspaceId,
            projectId: ctx.projectId,
            name,
            description: input.description ?? '',
            type: input.type ?? 'categories',
            lastUsed: input.last_used ?? false,
            externalSource: input.external_source ?? null,
            externalId: input.external_id ?? null,
            createdById: ctx.userId,
            updatedById: ctx.userId,
          }),
        );
        const created = points.length ? await this.insertPoints(em, ctx, e, points) : [];
        return { estimate: estimateView(e), points: created.map(estimatePointView) };
      }),
    );
  }

  /** `name`, `description`, `last_used`, `external_*`; the `type` is fixed once created (422 if changed). */
  async update(ctx: IssueContext, input: EstimateInput): Promise<EstimateJson> {
    return this.guard(() =>
      this.dataSource.transaction(async (em) => {
        await assertProjectWritable(em, ctx.projectId);
        const e = await this.estimate(em, ctx.projectId);
        if (input.type !== undefined && input.type !== e.type)
          throw validationError({ type: ['The type of an estimate cannot be changed.'] });
        if (input.external_id !== undefined || input.external_source !== undefined) {
          await assertExternalIdFree(
            em,
            Estimate,
            ctx.projectId,
            input.external_source !== undefined ? input.external_source : e.externalSource,
            input.external_id !== undefined ? input.external_id : e.externalId,
            e.id,
          );
        }
        const patch: Partial<Estimate> = { updatedById: ctx.userId };
        if (input.name !== undefined) {
          if (!input.name.trim()) throw validationError({ name: ['This field may not be blank.'] });
          patch.name = input.name.trim();
        }
        if (input.description !== undefined) patch.description = input.description;
        if (input.last_used !== undefined) patch.lastUsed = input.last_used;
        if (input.external_id !== undefined) patch.externalId = input.external_id;
        if (input.external_source !== undefined) patch.externalSource = input.external_source;
        await this.estimates.updateEstimate(em, e.id, patch);
        return estimateView(await found(this.estimates.estimateById(em, e.id)));
      }),
    );
  }

  /** 204: the estimate and its points go; the project's `estimate` and its work items' `estimate_point` are cleared. */
  async remove(ctx: IssueContext): Promise<void> {
    await this.dataSource.transaction(async (em) => {
      await assertProjectWritable(em, ctx.projectId);
      const e = await this.estimate(em, ctx.projectId);
      const points = await this.estimates.points(em, e.id);
      await this.clearPoints(em, ctx, points);
      await this.estimates.softDeleteEstimate(em, ctx.projectId, e.id, ctx.userId);
    });
  }

  // ---- points --------------------------------------------------------------------------------

  /** A bare array, by `key`. 404 for an estimate that is not this project's. */
  async listPoints(projectId: string, estimateId: string): Promise<EstimatePointJson[]> {
    await this.estimate(this.dataSource.manager, projectId, estimateId);
    const rows = await this.estimates.points(this.dataSource.manager, estimateId);
    return rows.map(estimatePointView);
  }

  /**
   * 201 with the created points (a bare array), all or none. `key` defaults to the next free one;
   * a `value` is required (1–20 characters, a number for `points` and `time` estimates). 422 with
   * errors keyed `estimate_points.{n}.{field}`; 409 `ESTIMATE_POINT_KEY_TAKEN` for a used key.
   */
  async createPoints(ctx: IssueContext, estimateId: string, items: EstimatePointInput[]): Promise<EstimatePointJson[]> {
    return this.guard(() =>
      this.dataSource.transaction(async (em) => {
        await assertProjectWritable(em, ctx.projectId);
        const e = await this.estimate(em, ctx.projectId, estimateId);
        return (await this.insertPoints(em, ctx, e, items)).map(estimatePointView);
      }),
    );
  }

  /** Validates and inserts points of estimate `e` (see `createPoints`). */
  private async insertPoints(
    em: EntityManager,
    ctx: IssueContext,
    e: Estimate,
    items: EstimatePointInput[],
  ): Promise<EstimatePoint[]> {
    const estimateId = e.id;
    if (!items.length) throw validationError({ estimate_points: ['At least one estimate point is required.'] });
    if (items.length > MAX_POINTS_PER_REQUEST)
      throw validationError({ estimate_points: [`At most ${MAX_POINTS_PER_REQUEST} estimate points at once.`] });
    const errors: Record<string, string[]> = {};
    items.forEach((item, n) => Object.assign(errors, this.check(e.type, item, `estimate_points.${n}.`, true)));
    if (Object.keys(errors).length) throw validationError(errors);
    const max = await this.estimates.highestPointKey(em, estimateId);
    let next = max === null ? 0 : max + 1;
    const out: EstimatePoint[] = [];
    for (const item of items) {
      const key = item.key ?? next;
      next = Math.max(next, key + 1);
      await this.assertKeyFree(em, estimateId, key);
      await assertExternalIdFree(em, EstimatePoint, ctx.projectId, item.external_source, item.external_id);
      out.push(
        await this.estimates.insertPoint(
          em,
          em.create(EstimatePoint, {
            workspaceId: ctx.workspaceId,
            projectId: ctx.projectId,
            estimateId,
            key,
            value: item.value!.trim(),
            description: item.description ?? '',
            externalSource: item.external_source ?? null,
            externalId: item.external_id ?? null,
            createdById: ctx.userId,
            updatedById: ctx.userId,
          }),
        ),
      );
    }
    return out;
  }

  async updatePoint(
    ctx: IssueContext,
    estimateId: string,
    pointId: string,
    input: EstimatePointInput,
  ): Promise<EstimatePointJson> {
    return this.guard(() =>
      this.dataSource.transaction(async (em) => {
        await assertProjectWritable(em, ctx.projectId);
        const e = await this.estimate(em, ctx.projectId, estimateId);
        const point = await this.point(em, estimateId, pointId);
        const errors = this.check(e.type, input, '', false);
        if (Object.keys(errors).length) throw validationError(errors);
        if (input.key !== undefined && input.key !== point.key) await this.assertKeyFree(em, estimateId, input.key);
        if (input.external_id !== undefined || input.external_source !== undefined) {
          await assertExternalIdFree(
            em,
            EstimatePoint,
            ctx.projectId,
            input.external_source !== undefined ? input.external_source : point.externalSource,
            input.external_id !== undefined ? input.external_id : point.externalId,
            pointId,
          );
        }
        const patch: Partial<EstimatePoint> = { updatedById: ctx.userId };
        if (input.key !== undefined) patch.key = input.key;
        if (input.value !== undefined) patch.value = input.value.trim();
        if (input.description !== undefined) patch.description = input.description;
        if (input.external_id !== undefined) patch.externalId = input.external_id;
        if (input.external_source !== undefined) patch.externalSource = input.external_source;
        await this.estimates.updatePoint(em, pointId, patch);
        return estimatePointView(await found(this.estimates.pointById(em, pointId)));
      }),
    );
  }

  /** 204; work items that used the point lose their `estimate_point` (a history row each). */
  async removePoint(ctx: IssueContext, estimateId: string, pointId: string): Promise<void> {
    await this.dataSource.transaction(async (em) => {
      await assertProjectWritable(em, ctx.projectId);
      await this.estimate(em, ctx.projectId, estimateId);
      const point = await this.point(em, estimateId, pointId);
      await this.clearPoints(em, ctx, [point]);
      await this.estimates.updatePoint(em, pointId, { deletedAt: new Date(), updatedById: ctx.userId });
    });
  }

  // ---- helpers -------------------------------------------------------------------------------

  private check(
    type: EstimateType,
    item: EstimatePointInput,
    prefix: string,
    create: boolean,
  ): Record<string, string[]> {
    const errors: Record<string, string[]> = {};
    const value = typeof item.value === 'string' ? item.value.trim() : item.value;
    if (create && (value === undefined || value === null)) errors[`${prefix}value`] = ['This field is required.'];
    else if (value !== undefined && typeof value !== 'string') errors[`${prefix}value`] = ['Not a valid string.'];
    else if (value !== undefined && !value) errors[`${prefix}value`] = ['This field may not be blank.'];
    else if (value !== undefined && value.length > 20)
      errors[`${prefix}value`] = ['Ensure this field has no more than 20 characters.'];
    else if (value !== undefined && type !== 'categories' && !/^\d+(\.\d+)?$/.test(value)) {
      errors[`${prefix}value`] = [`A ${type} estimate takes numbers only.`];
    }
    if (item.key !== undefined && (!Number.isInteger(item.key) || item.key < 0 || item.key > 1000)) {
      errors[`${prefix}key`] = ['Ensure this value is an integer from 0 to 1000.'];
    }
    if (item.description !== undefined && typeof item.description !== 'string')
      errors[`${prefix}description`] = ['Not a valid string.'];
    for (const f of ['external_id', 'external_source'] as const) {
      const v = item[f];
      if (v !== undefined && v !== null && (typeof v !== 'string' || v.length > 255))
        errors[`${prefix}${f}`] = ['Not a valid string of at most 255 characters.'];
    }
    return errors;
  }

  /** Work items that used `points` lose their point, with history (the `estimate.points-removed` listeners). */
  private async clearPoints(em: EntityManager, ctx: IssueContext, points: EstimatePoint[]): Promise<void> {
    if (points.length)
      await emitChange(em, 'estimate.points-removed', {
        ctx,
        points: points.map((p) => ({ id: p.id, value: p.value })),
      });
  }

  // ---- reads for the rooms above (cycles and modules)

  /**
   * Whether the project's estimate is of type `points` (Plane's `estimate__type="points"`: a cycle's
   * or module's distribution by points), in the caller's transaction when `em` is given.
   */
  usesPointEstimate(projectId: string, em: EntityManager = this.dataSource.manager): Promise<boolean> {
    return this.estimates.usesPoints(em, projectId);
  }

  private async assertKeyFree(em: EntityManager, estimateId: string, key: number): Promise<void> {
    const found = await this.estimates.pointByKey(em, estimateId, key);
    if (found) throw new MeridianError('ESTIMATE_POINT_KEY_TAKEN', undefined, { id: found.id });
  }

  private async estimate(em: EntityManager, projectId: string, id?: string): Promise<Estimate> {
    const e = await this.estimates.findEstimate(em, projectId, id);
    if (!e) throw new MeridianError('NOT_FOUND', id ? 'Estimate not found.' : 'The project has no estimate.');
    return e;
  }

  private async point(em: EntityManager, estimateId: string, pointId: string): Promise<EstimatePoint> {
    const p = await this.estimates.findPoint(em, estimateId, pointId);
    if (!p) throw new MeridianError('NOT_FOUND', 'Estimate point not found.');
    return p;
  }

  private async guard<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      if (isUniqueViolation(err, 'uq_estimates_project_live')) throw new MeridianError('ESTIMATE_EXISTS');
      if (isUniqueViolation(err, 'uq_estimate_points_key_live')) throw new MeridianError('ESTIMATE_POINT_KEY_TAKEN');
      throw err;
    }
  }
}
