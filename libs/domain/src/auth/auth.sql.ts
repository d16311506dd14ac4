// The auth feature's hot statement, imported by its repository and by `bench/bare-server.ts`, which
// loads this file without Nest or TypeORM: keep it free of imports.

/**
 * `$1` the SHA-256 hex digest of a presented token, `$2` its kind (`access`: a Bearer access token,
 * `web`: a web session cookie's): the session and user behind it when the token has not expired, its
 * session is neither revoked nor expired and its user is active. `expires_at` is the earlier of the
 * token's and the session's end. Every App API request runs it (a named statement).
 */
export const SQL_LIVE_ACCESS_TOKEN = `SELECT s.id AS session_id, u.id AS user_id, u.email, s.last_used_at,
LEAST(t.expires_at, s.expires_at) AS expires_at
FROM auth_tokens t
JOIN auth_sessions s ON s.id = t.session_id
JOIN users u ON u.id = s.user_id
WHERE t.digest = $1 AND t.kind = $2 AND t.expires_at > now() AND s.revoked_at IS NULL AND s.expires_at > now()
AND u.is_active = true`;
