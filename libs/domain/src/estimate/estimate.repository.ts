import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import type { Project } from '../project';
import { Estimate } from './estimate.entity';
import { EstimatePoint } from './estimate-point.entity';

/** All of the estimate feature's SQL. */
@Injectable()
export class EstimateRepository {
  /**
   * The estimates the workspace's live projects use (`estimate_id`) where `userId` is an active
   * member, oldest first, with their points by `key`.
   */
  async listForMember(
    em: EntityManager,
    workspaceId: string,
    userId: string,
  ): Promise<{ estimates: Estimate[]; points: EstimatePoint[] }> {
    const estimates = await em
      .getRepository(Estimate)
      .createQueryBuilder('e')
      .innerJoin('Project', 'p', 'p.estimateId = e.id AND p.deletedAt IS NULL')
      .innerJoin(
        'ProjectMember',
        'pm',
        'pm.projectId = p.id AND pm.memberId = :userId AND pm.isActive = true AND pm.deletedAt IS NULL',
        { userId },
      )
      .where('e.workspaceId = :workspaceId', { workspaceId })
      .orderBy('e.createdAt', 'ASC')
      .addOrderBy('e.id', 'ASC')
      .getMany();
    if (estimates.length === 0) return { estimates, points: [] };
    const points = await em
      .getRepository(EstimatePoint)
      .createQueryBuilder('ep')
      .where('ep.estimateId IN (:...ids)', { ids: estimates.map((e) => e.id) })
      .orderBy('ep.key', 'ASC')
      .getMany();
    return { estimates, points };
  }

  /** The largest `key` among the estimate's live points, or null when it has none. */
  /** The project's live estimate (`id` when given), or null. */
  findEstimate(em: EntityManager, projectId: string, id?: string): Promise<Estimate | null> {
    return em.getRepository(Estimate).findOne({ where: { projectId, ...(id ? { id } : {}) } });
  }

  /**
   * Whether the project's estimate (`projects.estimate_id`, the project room's column read by name
   * in this one statement) is a live estimate of type `points`.
   */
  async usesPoints(em: EntityManager, projectId: string): Promise<boolean> {
    const rows: unknown[] = await em.query(
      `SELECT 1 FROM projects p
         JOIN estimates e ON e.id = p.estimate_id AND e.deleted_at IS NULL AND e.type = 'points'
        WHERE p.id = $1`,
      [projectId],
    );
    return rows.length > 0;
  }

  /** The live estimate `id`, or null. */
  estimateById(em: EntityManager, id: string): Promise<Estimate | null> {
    return em.getRepository(Estimate).findOne({ where: { id } });
  }

  /** Inserts an estimate (an entity built by the caller); the saved row. */
  insertEstimate(em: EntityManager, row: Estimate): Promise<Estimate> {
    return em.save(row);
  }

  /** Writes `patch` to the estimate `id`. */
  async updateEstimate(em: EntityManager, id: string, patch: Partial<Estimate>): Promise<void> {
    await em.update(Estimate, { id }, patch as never);
  }

  /**
   * Soft-deletes the estimate with its points, and the project stops using it (`estimate_id` null
   * where it was this one).
   */
  async softDeleteEstimate(em: EntityManager, projectId: string, id: string, userId: string): Promise<void> {
    const now = new Date();
    await em.update(EstimatePoint, { estimateId: id }, { deletedAt: now, updatedById: userId });
    await em.update(Estimate, { id }, { deletedAt: now, updatedById: userId });
    await em.update<Project>('Project', { id: projectId, estimateId: id }, { estimateId: null, updatedById: userId });
  }

  /** The estimate's live points by `key`. */
  points(em: EntityManager, estimateId: string): Promise<EstimatePoint[]> {
    return em.getRepository(EstimatePoint).find({ where: { estimateId }, order: { key: 'ASC' } });
  }

  /** The estimate's live point `pointId`, or null. */
  findPoint(em: EntityManager, estimateId: string, pointId: string): Promise<EstimatePoint | null> {
    return em.getRepository(EstimatePoint).findOne({ where: { id: pointId, estimateId } });
  }

  /** The live point `id`, or null. */
  pointById(em: EntityManager, id: string): Promise<EstimatePoint | null> {
    return em.getRepository(EstimatePoint).findOne({ where: { id } });
  }

  /** The estimate's live point with `key`, or null. */
  pointByKey(em: EntityManager, estimateId: string, key: number): Promise<EstimatePoint | null> {
    return em.getRepository(EstimatePoint).findOne({ where: { estimateId, key } });
  }

  /** Inserts a point (an entity built by the caller); the saved row. */
  insertPoint(em: EntityManager, row: EstimatePoint): Promise<EstimatePoint> {
    return em.save(row);
  }

  /** Writes `patch` to the point `id` (a soft delete with `deletedAt`). */
  async updatePoint(em: EntityManager, id: string, patch: Partial<EstimatePoint>): Promise<void> {
    await em.update(EstimatePoint, { id }, patch as never);
  }

  async highestPointKey(em: EntityManager, estimateId: string): Promise<number | null> {
    const row = await em
      .getRepository(EstimatePoint)
      .createQueryBuilder('p')
      .select('MAX(p.key)', 'max')
      .where('p.estimateId = :estimateId', { estimateId })
      .getRawOne<{ max: number | null }>();
    return row?.max === null || row?.max === undefined ? null : Number(row.max);
  }
}
