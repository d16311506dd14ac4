import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
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

/**
 * The live point with this id of the estimate the project uses (the project's `estimate`), or null.
 * A function, not a method: `assertEstimatePoint` runs it inside the work item feature's transactions.
 */
export function findPointOfProjectEstimate(
  em: EntityManager,
  projectId: string,
  pointId: string,
): Promise<EstimatePoint | null> {
  return em
    .getRepository(EstimatePoint)
    .createQueryBuilder('ep')
    .innerJoin('Project', 'p', 'p.id = :projectId AND p.estimateId = ep.estimateId', { projectId })
    .where('ep.id = :pointId AND ep.projectId = :projectId', { pointId, projectId })
    .getOne();
}
