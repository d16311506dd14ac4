import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { EstimatePoint } from './estimate-point.entity';

/** All of the estimate feature's SQL. */
@Injectable()
export class EstimateRepository {
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
