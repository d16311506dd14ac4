// The api-token feature's hot statement, imported by its repository and by `bench/bare-server.ts`, which
// loads this file without Nest or TypeORM: keep it free of imports.

/**
 * `$1` the SHA-256 hex digest of the presented key. The key's user must be active and an active member of the key's workspace.
 * A hot statement (sent as a named statement); `bench/bare-server.ts` runs the same text.
 */
export const SQL_VERIFY_API_KEY = `SELECT t.id, t.workspace_id, t.last_used, t.expired_at, u.id AS user_id, u.email
FROM api_tokens t
JOIN users u ON u.id = t.user_id AND u.is_active = true
JOIN workspace_members m ON m.workspace_id = t.workspace_id AND m.member_id = t.user_id AND m.is_active = true AND m.deleted_at IS NULL
WHERE t.token_digest = $1 AND t.is_active = true AND (t.expired_at IS NULL OR t.expired_at > now()) AND t.deleted_at IS NULL`;
