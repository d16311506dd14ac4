/**
 * The statements of the hottest request paths (API key, workspace and project access; the work item
 * texts are the issue room's, `issue/issue.sql.ts`), as fixed SQL text with `$n` placeholders. They
 * are sent as named statements on PostgreSQL (parsed and planned once per connection) and need no
 * query builder per request.
 * `bench/bare-server.ts` runs these same texts, so the benchmark compares frameworks, not SQL.
 *
 * This module imports nothing: keep it that way (the bare server loads it alone).
 */

/** `$1` the SHA-256 hex digest of the presented key. The key's user must be active and an active member of the key's workspace. */
export const SQL_VERIFY_API_KEY = `SELECT t.id, t.workspace_id, t.last_used, t.expired_at, u.id AS user_id, u.email
FROM api_tokens t
JOIN users u ON u.id = t.user_id AND u.is_active = true
JOIN workspace_members m ON m.workspace_id = t.workspace_id AND m.member_id = t.user_id AND m.is_active = true AND m.deleted_at IS NULL
WHERE t.token_digest = $1 AND t.is_active = true AND (t.expired_at IS NULL OR t.expired_at > now()) AND t.deleted_at IS NULL`;

/** `$1` user id, `$2` slug: the live workspace and the caller's active role in it (null for none). */
export const SQL_WORKSPACE_ACCESS = `SELECT w.id AS workspace_id, m.role
FROM workspaces w
LEFT JOIN workspace_members m ON m.workspace_id = w.id AND m.member_id = $1 AND m.is_active = true AND m.deleted_at IS NULL
WHERE w.slug = $2 AND w.deleted_at IS NULL`;

/** `$1` user id, `$2` project id, `$3` workspace id: the live project's network and the caller's active role (null for none). */
export const SQL_PROJECT_ACCESS = `SELECT p.network, pm.role
FROM projects p
LEFT JOIN project_members pm ON pm.project_id = p.id AND pm.member_id = $1 AND pm.is_active = true AND pm.deleted_at IS NULL
WHERE p.id = $2 AND p.workspace_id = $3 AND p.deleted_at IS NULL`;
