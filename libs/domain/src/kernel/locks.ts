import { EntityManager } from 'typeorm';

/**
 * Serialises membership changes of one workspace (role changes, removals, leaving): takes the
 * workspace row's lock for the rest of the transaction, so "keep at least one Admin" checks cannot
 * race each other.
 */
export async function lockWorkspace(em: EntityManager, workspaceId: string): Promise<void> {
  await em.query('SELECT id FROM workspaces WHERE id = $1 FOR UPDATE', [workspaceId]);
}

/** The same for one project's memberships. */
export async function lockProject(em: EntityManager, projectId: string): Promise<void> {
  await em.query('SELECT id FROM projects WHERE id = $1 FOR UPDATE', [projectId]);
}
