/**
 * How the exception filter tells "the database cannot be reached" from a bug, and how it logs an
 * error without the data it carried.
 */

/** Node socket errors of a connection that cannot be made or was lost. */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * PostgreSQL SQLSTATEs of a server that refuses or drops sessions: 57P01 admin_shutdown
 * (`pg_terminate_backend`, a fast shutdown), 57P02 crash_shutdown, 57P03 cannot_connect_now
 * (starting up, shutting down), 53300 too_many_connections, 3D000 invalid_catalog_name (the
 * database is gone); the whole class 08 (connection exception) is matched by prefix.
 */
const SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300', '3D000']);

/**
 * Messages of node-postgres and its pool for a lost or impossible connection (they carry no code),
 * and PostgreSQL's refusal of a database with `ALLOW_CONNECTIONS false` (SQLSTATE 55000, a class
 * shared with unrelated errors, so it is matched by its text).
 */
const MESSAGES = [
  /^Connection terminated/,
  /^timeout exceeded when trying to connect/,
  /is not queryable/,
  /^terminating connection due to administrator command/,
  /is not currently accepting connections/,
  /^the database system is (starting up|shutting down|in recovery mode)/,
];

/** Where the database is, to tell its socket errors from those of other connections. */
export interface DatabaseEndpoint {
  host: string;
  port: number;
}

/** The endpoint of a `postgres://` URL; none for the embedded database (no URL, no socket). */
export function databaseEndpoint(url: string | undefined): DatabaseEndpoint | undefined {
  if (!url) return undefined;
  try {
    const u = new URL(url);
    return { host: u.hostname.replace(/^\[|\]$/g, ''), port: Number(u.port || 5432) };
  } catch {
    return undefined;
  }
}

interface ErrorLike {
  port?: unknown;
  hostname?: unknown;
  code?: unknown;
  message?: unknown;
  driverError?: unknown;
  cause?: unknown;
  errors?: unknown;
}

/**
 * True when `err` (a TypeORM `QueryFailedError`, a node-postgres error, or a Node socket error,
 * possibly wrapped in `driverError` or an `AggregateError`'s `errors`) says the database cannot be
 * reached right now, rather than that a statement is wrong. A Node socket error (refused, reset,
 * unreachable) counts only when it names the database's port or host: object storage or another
 * service refusing a connection is not the database.
 */
export function isDatabaseUnavailable(err: unknown, db?: DatabaseEndpoint, depth = 0): boolean {
  if (!err || typeof err !== 'object' || depth > 4) return false;
  const e = err as ErrorLike;
  if (typeof e.code === 'string') {
    if (SQLSTATES.has(e.code) || /^08[0-9A-Z]{3}$/.test(e.code)) return true;
    if (SOCKET_CODES.has(e.code) && db && (e.port === db.port || e.hostname === db.host)) return true;
  }
  if (typeof e.message === 'string' && MESSAGES.some((re) => re.test(e.message as string))) return true;
  // not `cause`: a failed `fetch` (object storage, OAuth) carries its socket error there
  if (isDatabaseUnavailable(e.driverError, db, depth + 1)) return true;
  return Array.isArray(e.errors) && e.errors.some((inner) => isDatabaseUnavailable(inner, db, depth + 1));
}

/**
 * SQLSTATEs of a statement the database gave up on for time (`DATABASE_STATEMENT_TIMEOUT_MS`,
 * `DATABASE_LOCK_TIMEOUT_MS`): 57014 query_canceled (`statement_timeout`, or a statement cancelled by
 * an operator: `pg_cancel_backend`) and 55P03 lock_not_available (`lock_timeout`).
 */
const TIMEOUT_SQLSTATES = new Set(['57014', '55P03']);

/**
 * True when `err` (a TypeORM `QueryFailedError` or a node-postgres error, the SQLSTATE on it or on
 * its `driverError`) is a statement cancelled for time: the database is there but busy (a long
 * lock, an overloaded server), so the request may be retried.
 */
export function isDatabaseTimeout(err: unknown): boolean {
  return hasSqlState(err, TIMEOUT_SQLSTATES);
}

/** Whether `err` or its `driverError` (nested at most four deep) carries one of `codes`. */
function hasSqlState(err: unknown, codes: ReadonlySet<string>, depth = 0): boolean {
  if (!err || typeof err !== 'object' || depth > 4) return false;
  const e = err as ErrorLike;
  if (typeof e.code === 'string' && codes.has(e.code)) return true;
  return hasSqlState(e.driverError, codes, depth + 1);
}

/** SQLSTATEs of a transaction PostgreSQL aborted to let another go on: 40P01 deadlock_detected, 40001 serialization_failure. */
const CONFLICT_SQLSTATES = new Set(['40P01', '40001']);

/**
 * True when `err` (a TypeORM `QueryFailedError` or a node-postgres error, the SQLSTATE on it or on
 * its `driverError`) is a transaction PostgreSQL rolled back because it waited in a cycle with
 * another (a deadlock) or could not be serialized with it: nothing of it was written, and the
 * same request sent again can succeed.
 */
export function isTransactionConflict(err: unknown): boolean {
  return hasSqlState(err, CONFLICT_SQLSTATES);
}

/** What a log line says of an error: never its query parameters, its SQL or any other field it carries. */
export interface LoggedError {
  type: string;
  message: string;
  stack?: string;
  /** SQLSTATE of a database error, or a Node error code */
  code?: string;
}

/**
 * The error as a log line may show it: type, message, stack and, for a database error, the
 * SQLSTATE. A TypeORM `QueryFailedError` also carries `query` and `parameters` (password hashes,
 * tokens, user text), and PostgreSQL messages can quote a value (`invalid input syntax for type
 * uuid: "…"`); those are left out, and any parameter value quoted in the message or the stack is
 * replaced with `[redacted]`. Log it under `error`, not `err`: pino's `err` serializer would take
 * it for an error object and rename its type.
 */
export function loggableError(err: unknown): LoggedError {
  if (!(err instanceof Error)) return { type: typeof err, message: String(err).slice(0, 200) };
  const e = err as Error & ErrorLike & { parameters?: unknown };
  const driver = (e.driverError && typeof e.driverError === 'object' ? e.driverError : {}) as ErrorLike;
  const codeOf = (x: ErrorLike) => (typeof x.code === 'string' ? x.code : undefined);
  const values = (Array.isArray(e.parameters) ? e.parameters : [])
    .map((p) => (p === null || p === undefined ? '' : typeof p === 'object' ? JSON.stringify(p) : String(p)))
    .filter((v) => v.length >= 3)
    .sort((a, b) => b.length - a.length);
  const scrub = (text: string) => values.reduce((t, v) => t.split(v).join('[redacted]'), text);
  const type = e.name && e.name !== 'Error' ? e.name : (e.constructor?.name ?? 'Error');
  const out: LoggedError = { type, message: scrub(e.message) };
  if (e.stack) out.stack = scrub(e.stack);
  const code = codeOf(driver) ?? codeOf(e);
  if (code) out.code = code;
  return out;
}
