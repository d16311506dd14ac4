// The project feature's hot statement, imported by its repository and by `bench/bare-server.ts`, which
// loads this file without Nest or TypeORM: keep it free of imports.

/**
 * `$1` user id, `$2` project id, `$3` workspace id: the live project's network and the caller's active role (null for none).
 * A hot statement (sent as a named statement); `bench/bare-server.ts` runs the same text.
 */
export const SQL_PROJECT_ACCESS = `SELECT p.network, pm.role
FROM projects p
LEFT JOIN project_members pm ON pm.project_id = p.id AND pm.member_id = $1 AND pm.is_active = true AND pm.deleted_at IS NULL
WHERE p.id = $2 AND p.workspace_id = $3 AND p.deleted_at IS NULL`;
