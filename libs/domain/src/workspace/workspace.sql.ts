// The workspace feature's hot statement, imported by its repository and by `bench/bare-server.ts`, which
// loads this file without Nest or TypeORM: keep it free of imports.

/**
 * `$1` user id, `$2` slug: the live workspace and the caller's active role in it (null for none).
 * A hot statement (sent as a named statement); `bench/bare-server.ts` runs the same text.
 */
export const SQL_WORKSPACE_ACCESS = `SELECT w.id AS workspace_id, m.role
FROM workspaces w
LEFT JOIN workspace_members m ON m.workspace_id = w.id AND m.member_id = $1 AND m.is_active = true AND m.deleted_at IS NULL
WHERE w.slug = $2 AND w.deleted_at IS NULL`;
