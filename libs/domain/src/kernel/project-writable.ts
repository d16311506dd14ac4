import { MeridianError } from '#common';
import { EntityManager } from 'typeorm';

/**
 * Nothing in an archived project changes until it is unarchived (Plane blocks the project's PATCH
 * and hides its contents): 400 `PROJECT_ARCHIVED`; 404 `PROJECT_NOT_FOUND` when the project is
 * gone. Every feature that writes inside a project calls it first, in its transaction.
 */
export async function assertProjectWritable(em: EntityManager, projectId: string): Promise<void> {
  const rows: Array<{ archived_at: Date | null }> = await em.query(
    'SELECT archived_at FROM projects WHERE id = $1 AND deleted_at IS NULL',
    [projectId],
  );
  if (rows.length === 0) throw new MeridianError('PROJECT_NOT_FOUND');
  if (rows[0].archived_at) throw new MeridianError('PROJECT_ARCHIVED');
}
