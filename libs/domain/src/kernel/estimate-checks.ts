import { validationError } from '#common';
import { EntityManager } from 'typeorm';

/**
 * The estimate rules that the work item, project and draft features check inside their own
 * transactions. They live in the kernel, below every feature, so that `issue`, `project` and
 * `draft` do not import the `estimate` room (docs/architecture.md, "The kernel's checks"): plain
 * SQL on `estimates`, `estimate_points` and `projects`, as `assertProjectWritable` reads `projects`.
 */

/**
 * A work item's `estimate_point` must be a live point of the estimate the project uses (its
 * `estimate`): 422 `{estimate_point: [...]}` otherwise (Plane accepts any point id, a quirk not copied).
 */
export async function assertEstimatePoint(em: EntityManager, projectId: string, pointId: string): Promise<void> {
  const rows: unknown[] = await em.query(
    `SELECT 1 FROM estimate_points ep
       JOIN projects p ON p.id = ep.project_id AND p.estimate_id = ep.estimate_id AND p.deleted_at IS NULL
      WHERE ep.id = $1 AND ep.project_id = $2 AND ep.deleted_at IS NULL`,
    [pointId, projectId],
  );
  if (rows.length === 0)
    throw validationError({ estimate_point: ['This estimate point is not one of the estimate the project uses.'] });
}

/** A project's `estimate` must be that project's live estimate: 422 `{estimate: [...]}` otherwise. */
export async function assertProjectEstimate(em: EntityManager, projectId: string, estimateId: string): Promise<void> {
  const rows: unknown[] = await em.query(
    'SELECT 1 FROM estimates WHERE id = $1 AND project_id = $2 AND deleted_at IS NULL',
    [estimateId, projectId],
  );
  if (rows.length === 0) throw validationError({ estimate: ["This estimate is not the project's estimate."] });
}
