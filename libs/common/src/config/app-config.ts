import { plainToInstance, Transform } from 'class-transformer';
import {
  checkEnvDomainsApart,
  ldapEnvConnection,
  oidcEnvConnection,
  OidcEnvConnection,
  samlEnvConnection,
  SsoEnvConnection,
} from './sso-env';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsNumber,
  IsOptional,
  IsString,
  Matches,
  Max,
  Min,
  validateSync,
} from 'class-validator';
import { isIP } from 'node:net';
import * as path from 'node:path';
import { INSTANCE_CONFIG_KEY_NAMES, INSTANCE_ENV_ONLY_KEYS } from './instance-keys';

/** `N/unit` or `N/Munit` (e.g. 30/minute, 10/15minute, 5/2h) */
const WINDOW_RATE = /^\d+(\/([1-9]\d*)?(s|sec|second|m|min|minute|h|hour|d|day))?$/;
const HTTP_URL = /^https?:\/\//;

const TRUE_WORDS = ['1', 'true', 'yes', 'on'];
const FALSE_WORDS = ['0', 'false', 'no', 'off'];
/** true/false, 1/0, yes/no, on/off; anything else stays a string, which `@IsBoolean` rejects. */
const toBool = ({ value }: { value: unknown }) => {
  if (typeof value !== 'string') return value;
  const v = value.trim().toLowerCase();
  return TRUE_WORDS.includes(v) ? true : FALSE_WORDS.includes(v) ? false : value;
};
const toInt = ({ value }: { value: unknown }) =>
  typeof value === 'string' && value.trim() !== '' ? Number(value) : value;

/** The environment variables Meridian reads; `.env.example` documents each one. */
class EnvironmentVariables {
  @IsOptional()
  @IsIn(['development', 'production', 'test'])
  NODE_ENV: 'development' | 'production' | 'test' = 'development';

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(65535)
  PORT = 8000;

  @IsOptional()
  @IsString()
  HOST = '0.0.0.0';

  @IsOptional()
  @Matches(/^postgres(ql)?:\/\//, { message: 'DATABASE_URL must be a postgres:// URL' })
  DATABASE_URL?: string;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(500)
  DATABASE_POOL_SIZE = 10;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(100)
  DATABASE_CONNECT_TIMEOUT_MS = 10_000;

  @IsOptional()
  @IsString()
  DATA_DIR = './data';

  /**
   * where the embedded database (no `DATABASE_URL`) runs: `worker` (default), PGlite in a worker
   * thread of its own; `main`, PGlite on the main thread with the HTTP work (docs/decisions.md
   * "Embedded database off the main thread")
   */
  @IsOptional()
  @IsIn(['main', 'worker'])
  EMBEDDED_DB_THREAD: 'main' | 'worker' = 'worker';

  /**
   * the embedded database's buffer pool (PostgreSQL's `shared_buffers`), a size in kB, MB or GB
   * (at least 128kB): memory the embedded engine holds from its start for good
   * (docs/decisions.md "The embedded engine's buffer pool")
   */
  @IsOptional()
  @Matches(/^[1-9]\d*(kB|MB|GB)$/, {
    message: 'EMBEDDED_SHARED_BUFFERS must be a size in kB, MB or GB, e.g. 32MB',
  })
  EMBEDDED_SHARED_BUFFERS = '32MB';

  /**
   * when every pool connection is busy, single-row reads by key (a work item by id, a credential's
   * lookup) take the next free connection ahead of other queued statements, unless those have
   * already waited 250 ms (both engines; libs/domain `kernel/hot-query.ts` `hotRead`)
   */
  @IsOptional()
  @Transform(toBool)
  @IsBoolean()
  DATABASE_SHORT_READS_FIRST = true;

  /**
   * PostgreSQL's `statement_timeout` for the server's connections (ms; 0: Meridian sets none): a
   * request's statement running longer is cancelled and the request answers 503 `DATABASE_TIMEOUT`
   * with `Retry-After`. Background jobs run under `DATABASE_JOB_STATEMENT_TIMEOUT_MS` instead.
   * PostgreSQL only (docs/decisions.md "Database time is bounded")
   */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(2_147_483_647)
  DATABASE_STATEMENT_TIMEOUT_MS = 30_000;

  /**
   * PostgreSQL's `lock_timeout` for the server's connections (ms; 0: Meridian sets none): a request
   * waiting longer for a lock (a table or row another session holds) answers 503 `DATABASE_TIMEOUT`
   */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(2_147_483_647)
  DATABASE_LOCK_TIMEOUT_MS = 10_000;

  /**
   * PostgreSQL's JIT compilation for the server's and the CLI's connections: off by default (sent
   * as `-c jit=off` when they connect), on lets the database's own `jit` setting apply
   */
  @IsOptional()
  @Transform(toBool)
  @IsBoolean()
  DATABASE_JIT = false;

  /**
   * the `statement_timeout` of background jobs (ms; 0: none), lock waits included: migrations,
   * work item exports, the webhook outbox's pruning, and every CLI command (imports, migrations)
   */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(2_147_483_647)
  DATABASE_JOB_STATEMENT_TIMEOUT_MS = 3_600_000;

  @IsOptional()
  @Transform(toBool)
  @IsBoolean()
  MIGRATIONS_RUN = true;

  /** on SIGTERM/SIGINT: how long in-flight requests may take before the process exits anyway */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(0)
  SHUTDOWN_TIMEOUT_MS = 8000;

  /**
   * on SIGTERM/SIGINT: how long the server keeps serving with `GET /health` at 503 and
   * `Connection: close` on every answer before it stops listening (a load balancer's time to notice)
   */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(600_000)
  SHUTDOWN_DRAIN_MS = 0;

  /** `GET /metrics` on the HTTP port (Prometheus text format); README "Metrics" */
  @IsOptional()
  @Transform(toBool)
  @IsBoolean()
  METRICS_ENABLED = false;

  /** Bearer token `GET /metrics` requires on the HTTP port (required with NODE_ENV=production) */
  @IsOptional()
  @IsString()
  @Matches(/^\S{16,}$/, { message: 'METRICS_TOKEN must be at least 16 characters without spaces' })
  METRICS_TOKEN?: string;

  /** serve `/metrics` on this separate port (on HOST) instead of the HTTP port, without a token */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(65535)
  METRICS_PORT?: number;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(60)
  ACCESS_TOKEN_TTL = 3600;

  /** argon2id parameters of new password hashes: `production` (OWASP's) or `test` (cheap; NODE_ENV=test only) */
  @IsOptional()
  @IsIn(['production', 'test'])
  PASSWORD_HASH_COST: 'production' | 'test' = 'production';

  /** how long a resolved API key, access token or workspace/project role may be reused, in ms (0: off) */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(60_000)
  ACCESS_CACHE_TTL_MS = 5000;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(60)
  REFRESH_TOKEN_TTL = 30 * 24 * 3600;

  @IsOptional()
  @IsString()
  SECRET_KEY?: string;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(60)
  INSTANCE_ADMIN_ACCESS_TOKEN_TTL = 3600;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(60)
  INSTANCE_ADMIN_SESSION_TTL = 8 * 3600;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  FILE_SIZE_LIMIT = 5_242_880;

  @IsOptional()
  @Matches(/^\d+(\/(s|sec|second|m|min|minute|h|hour|d|day))?$/, {
    message: 'API_KEY_RATE_LIMIT must be a number of requests per minute, or N/second|minute|hour|day',
  })
  API_KEY_RATE_LIMIT = '60/minute';

  @IsOptional()
  @Matches(/^\d+(b|kb|mb)?$/i, { message: 'BODY_LIMIT must look like 1mb, 512kb or 1048576' })
  BODY_LIMIT = '1mb';

  /** bytes of rows held at once for lists answered in chunks (`AnswerBudget`) */
  @IsOptional()
  @Matches(/^\d+(b|kb|mb)?$/i, { message: 'ANSWER_MEMORY_BUDGET must look like 64mb, 512kb or 67108864' })
  ANSWER_MEMORY_BUDGET = '64mb';

  /** the share of the heap limit in use above which new requests are answered 503 SERVER_BUSY */
  @IsOptional()
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? Number(value) : value))
  @IsNumber()
  @Min(0.1)
  @Max(1)
  HEAP_SHED_RATIO = 0.85;

  @IsOptional()
  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL = 'info';

  /** `json` (pino's lines) or `pretty` (one readable line each); unset: pretty on a terminal outside production */
  @IsOptional()
  @IsIn(['json', 'pretty'])
  LOG_FORMAT?: 'json' | 'pretty';

  /** `false`, a hop count, or a comma list of proxy addresses/CIDRs (see `parseTrustProxy`) */
  @IsOptional()
  @IsString()
  TRUST_PROXY = 'false';

  /** shared rate-limit counters (several server processes); unset: in this process's memory */
  @IsOptional()
  @Matches(/^rediss?:\/\//, { message: 'REDIS_URL must be a redis:// or rediss:// URL' })
  REDIS_URL?: string;

  @IsOptional()
  @IsString()
  REDIS_KEY_PREFIX = 'meridian:';

  @IsOptional()
  @Matches(/^https?:\/\//, { message: 'WEB_URL must be an http(s) URL' })
  WEB_URL = 'http://localhost:3000';

  /**
   * the public address of this server (scheme, host, port, optional path prefix) as clients reach
   * it: the origin of every absolute link to Meridian's own routes (signed upload and download URLs,
   * export `url`s, OAuth callbacks); default `http://localhost:PORT`. Never taken from a request's
   * `Host`. Plane's web app calls the same address its `API_BASE_URL`.
   */
  @IsOptional()
  @Matches(HTTP_URL, { message: 'API_BASE_URL must be an http(s) URL' })
  API_BASE_URL?: string;

  /** the web app's base (Plane's `APP_BASE_URL`); default `WEB_URL`. Sign-in form posts redirect here. */
  @IsOptional()
  @Matches(HTTP_URL, { message: 'APP_BASE_URL must be an http(s) URL' })
  APP_BASE_URL?: string;

  /** the instance admin app's base (Plane's `ADMIN_BASE_URL`); default `WEB_URL/god-mode` */
  @IsOptional()
  @Matches(HTTP_URL, { message: 'ADMIN_BASE_URL must be an http(s) URL' })
  ADMIN_BASE_URL?: string;

  /** the published boards' app base (Plane's `SPACE_BASE_URL`); default `WEB_URL/spaces` */
  @IsOptional()
  @Matches(HTTP_URL, { message: 'SPACE_BASE_URL must be an http(s) URL' })
  SPACE_BASE_URL?: string;

  /** more origins (comma list of `scheme://host[:port]`) whose pages may call with cookies */
  @IsOptional()
  @IsString()
  CORS_ALLOWED_ORIGINS = '';

  /** the web session cookie's name (Plane's `SESSION_COOKIE_NAME`) */
  @IsOptional()
  @Matches(/^[A-Za-z0-9_-]{1,64}$/, { message: 'SESSION_COOKIE_NAME must be letters, digits, _ or -' })
  SESSION_COOKIE_NAME = 'session-id';

  /** the web session's lifetime in seconds (Plane's `SESSION_COOKIE_AGE`, 7 days) */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(60)
  SESSION_COOKIE_AGE = 604_800;

  /** the instance admin cookie's lifetime in seconds (Plane's `ADMIN_SESSION_COOKIE_AGE`) */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(60)
  ADMIN_SESSION_COOKIE_AGE = 3600;

  /** the cookies' `Domain` (Plane's `COOKIE_DOMAIN`); unset: the host that set them */
  @IsOptional()
  @Matches(/^\.?[A-Za-z0-9.-]+$/, { message: 'COOKIE_DOMAIN must be a host name' })
  COOKIE_DOMAIN?: string;

  @IsOptional()
  @IsString()
  EMAIL_HOST?: string;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(65535)
  EMAIL_PORT = 587;

  @IsOptional()
  @IsString()
  EMAIL_HOST_USER?: string;

  @IsOptional()
  @IsString()
  EMAIL_HOST_PASSWORD?: string;

  @IsOptional()
  @Transform(toBool)
  @IsBoolean()
  EMAIL_USE_TLS = true;

  @IsOptional()
  @Transform(toBool)
  @IsBoolean()
  EMAIL_USE_SSL = false;

  @IsOptional()
  @IsString()
  EMAIL_FROM = 'Meridian <no-reply@localhost>';

  /** where the local store keeps attachments; default `DATA_DIR/uploads` */
  @IsOptional()
  @IsString()
  UPLOADS_DIR?: string;

  /** S3-compatible store (Plane's variable names); setting the bucket selects it */
  @IsOptional()
  @IsString()
  AWS_S3_BUCKET_NAME?: string;

  @IsOptional()
  @IsString()
  AWS_REGION = 'us-east-1';

  @IsOptional()
  @Matches(HTTP_URL, { message: 'AWS_S3_ENDPOINT_URL must be an http(s) URL' })
  AWS_S3_ENDPOINT_URL?: string;

  @IsOptional()
  @IsString()
  AWS_ACCESS_KEY_ID?: string;

  @IsOptional()
  @IsString()
  AWS_SECRET_ACCESS_KEY?: string;

  /** path-style bucket addressing (MinIO); Plane's `USE_MINIO` also turns it on */
  @IsOptional()
  @Transform(toBool)
  @IsBoolean()
  AWS_S3_FORCE_PATH_STYLE = false;

  @IsOptional()
  @Transform(toBool)
  @IsBoolean()
  USE_MINIO = false;

  // Auth rate limits (per address on the throttled auth routes, per email for failures and mail)
  @IsOptional()
  @Matches(WINDOW_RATE, { message: 'AUTH_RATE_LIMIT must look like 30/minute or 10/15minute' })
  AUTH_RATE_LIMIT = '30/minute';

  @IsOptional()
  @Matches(WINDOW_RATE, { message: 'AUTH_FAILED_SIGN_IN_LIMIT must look like 10/15minute' })
  AUTH_FAILED_SIGN_IN_LIMIT = '10/15minute';

  @IsOptional()
  @Matches(WINDOW_RATE, { message: 'AUTH_FAILED_SIGN_IN_EMAIL_LIMIT must look like 50/15minute' })
  AUTH_FAILED_SIGN_IN_EMAIL_LIMIT = '50/15minute';

  @IsOptional()
  @Matches(WINDOW_RATE, { message: 'AUTH_SIGN_UP_RATE_LIMIT must look like 20/hour' })
  AUTH_SIGN_UP_RATE_LIMIT = '20/hour';

  @IsOptional()
  @Matches(WINDOW_RATE, { message: 'FAILED_AUTH_RATE_LIMIT must look like 30/minute' })
  FAILED_AUTH_RATE_LIMIT = '30/minute';

  @IsOptional()
  @Matches(WINDOW_RATE, { message: 'AUTH_EMAIL_RATE_LIMIT must look like 10/15minute' })
  AUTH_EMAIL_RATE_LIMIT = '10/15minute';

  // Public API (/api/public/) requests per client address
  @IsOptional()
  @Matches(WINDOW_RATE, { message: 'PUBLIC_RATE_LIMIT must look like 120/minute or 1000/15minute' })
  PUBLIC_RATE_LIMIT = '120/minute';

  // Webhooks: delivery worker, retries, URL guard (README "Webhooks")
  @IsOptional()
  @Transform(toBool)
  @IsBoolean()
  WEBHOOK_WORKER = true;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(10)
  WEBHOOK_POLL_INTERVAL_MS = 1000;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(100)
  WEBHOOK_TIMEOUT_MS = 10_000;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(1000)
  WEBHOOK_CONCURRENCY = 64;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(1000)
  WEBHOOK_CONCURRENCY_PER_WEBHOOK = 8;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(50)
  WEBHOOK_MAX_ATTEMPTS = 8;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  WEBHOOK_BACKOFF_BASE_MS = 10_000;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  WEBHOOK_BACKOFF_MAX_MS = 3_600_000;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  WEBHOOK_DEACTIVATE_AFTER = 5;

  @IsOptional()
  @IsString()
  WEBHOOK_ALLOWED_HOSTS = '';

  @IsOptional()
  @Transform(toBool)
  @IsBoolean()
  WEBHOOK_TIMESTAMP_SIGNATURE = false;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(0)
  WEBHOOK_SUBSCRIPTION_CACHE_MS = 5000;

  // Scheduled jobs and the background runner (docs/jobs.md)
  @IsOptional()
  @Transform(toBool)
  @IsBoolean()
  JOBS_RUNNER = true;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(100)
  JOBS_POLL_INTERVAL_MS = 10_000;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1000)
  JOBS_LEASE_MS = 1_800_000;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(100_000)
  JOBS_BATCH_SIZE = 1000;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(0)
  HARD_DELETE_AFTER_DAYS = 60;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(0)
  UNUPLOADED_ASSET_DELETE_DAYS = 7;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(0)
  EXPORT_EXPIRY_DAYS = 8;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(0)
  API_LOG_RETENTION_DAYS = 30;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  AUDIT_LOG_RETENTION_DAYS = 365;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1000)
  EXPORT_LEASE_MS = 600_000;

  // OAuth providers (Plane's names for the client credentials); endpoints overridable
  @IsOptional() @IsString() GITHUB_CLIENT_ID?: string;
  @IsOptional() @IsString() GITHUB_CLIENT_SECRET?: string;
  @IsOptional() @Matches(HTTP_URL) GITHUB_AUTHORIZE_URL = 'https://github.com/login/oauth/authorize';
  @IsOptional() @Matches(HTTP_URL) GITHUB_TOKEN_URL = 'https://github.com/login/oauth/access_token';
  @IsOptional() @Matches(HTTP_URL) GITHUB_USERINFO_URL = 'https://api.github.com/user';
  @IsOptional() @Matches(HTTP_URL) GITHUB_EMAILS_URL = 'https://api.github.com/user/emails';

  @IsOptional() @IsString() GOOGLE_CLIENT_ID?: string;
  @IsOptional() @IsString() GOOGLE_CLIENT_SECRET?: string;
  @IsOptional() @Matches(HTTP_URL) GOOGLE_AUTHORIZE_URL = 'https://accounts.google.com/o/oauth2/v2/auth';
  @IsOptional() @Matches(HTTP_URL) GOOGLE_TOKEN_URL = 'https://oauth2.googleapis.com/token';
  @IsOptional() @Matches(HTTP_URL) GOOGLE_USERINFO_URL = 'https://openidconnect.googleapis.com/v1/userinfo';

  @IsOptional() @IsString() GITLAB_CLIENT_ID?: string;
  @IsOptional() @IsString() GITLAB_CLIENT_SECRET?: string;
  @IsOptional() @Matches(HTTP_URL) GITLAB_HOST = 'https://gitlab.com';
  @IsOptional() @Matches(HTTP_URL) GITLAB_AUTHORIZE_URL?: string;
  @IsOptional() @Matches(HTTP_URL) GITLAB_TOKEN_URL?: string;
  @IsOptional() @Matches(HTTP_URL) GITLAB_USERINFO_URL?: string;

  // Live editing: Meridian's own Hocuspocus endpoint (docs/live.md "Meridian's own live endpoint")
  /** serve Plane's live editing websocket under `LIVE_BASE_PATH` in this process */
  @IsOptional()
  @Transform(toBool)
  @IsBoolean()
  LIVE_ENABLED = true;

  /** the path the web app's `NEXT_PUBLIC_LIVE_BASE_PATH` names; the websocket is `<path>/collaboration` */
  @IsOptional()
  @Matches(/^\/[A-Za-z0-9._~\-/]*$/, { message: 'LIVE_BASE_PATH must be a path starting with /' })
  LIVE_BASE_PATH = '/live';

  /** quiet time after the last change before a document is stored (ms) */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(0)
  LIVE_STORE_DEBOUNCE_MS = 2000;

  /** longest a changing document waits to be stored (ms) */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(0)
  LIVE_STORE_MAX_DEBOUNCE_MS = 10_000;

  /** how often every open connection's access is checked again (ms; changes made here are seen at once) */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(100)
  LIVE_ACCESS_RECHECK_MS = 5000;
}

/** An OAuth provider's endpoints (the provider's defaults unless overridden by environment). */
export interface OAuthEndpoints {
  authorizeUrl: string;
  tokenUrl: string;
  userInfoUrl: string;
  /** GitHub only: the list of the user's addresses with their `verified` flags */
  emailsUrl?: string;
}

/** A usable OAuth application: credentials (from the instance configuration) and endpoints. */
export interface OAuthProviderConfig extends OAuthEndpoints {
  clientId: string;
  clientSecret: string;
}

export type OAuthProviderName = 'github' | 'google' | 'gitlab';

export interface RateLimit {
  limit: number;
  /** window length in milliseconds */
  ttlMs: number;
}

/** Typed, validated configuration; built once from the environment (fail fast on bad values). */
export interface AppConfig {
  env: 'development' | 'production' | 'test';
  /**
   * `trustProxy` is Express's `trust proxy`: `false` (use the socket address), a number of
   * trusted proxy hops, or the addresses/CIDRs of the trusted proxies (see `parseTrustProxy`).
   */
  http: {
    host: string;
    port: number;
    bodyLimit: string;
    trustProxy: false | number | string[];
    /** `ANSWER_MEMORY_BUDGET` in bytes (`AnswerBudget`) */
    answerBudgetBytes: number;
    /** `HEAP_SHED_RATIO`: new requests are shed above this share of the heap limit (`shedUnderHeapPressure`) */
    shedHeapRatio: number;
  };
  /** Redis for the rate-limit counters (`REDIS_URL`, `REDIS_KEY_PREFIX`); undefined: in memory */
  redis?: { url: string; keyPrefix: string };
  database: {
    /** PostgreSQL URL; undefined means the embedded PGlite database under `dataDir`. */
    url?: string;
    poolSize: number;
    connectTimeoutMs: number;
    dataDir: string;
    /** `EMBEDDED_DB_THREAD`: PGlite on the main thread or in a worker thread (embedded engine only) */
    embeddedThread: 'main' | 'worker';
    /** `EMBEDDED_SHARED_BUFFERS`: PGlite's `shared_buffers` (embedded engine only) */
    embeddedSharedBuffers: string;
    /** `DATABASE_SHORT_READS_FIRST`: short reads pass queued statements at the pool (`hotRead`) */
    shortReadsFirst: boolean;
    /** `DATABASE_STATEMENT_TIMEOUT_MS`: `statement_timeout` of the server's connections (ms, 0: none set; PostgreSQL) */
    statementTimeoutMs: number;
    /** `DATABASE_LOCK_TIMEOUT_MS`: `lock_timeout` of the server's connections (ms, 0: none set; PostgreSQL) */
    lockTimeoutMs: number;
    /** `DATABASE_JIT`: leave PostgreSQL's JIT compilation on (default false: `jit = off` per connection) */
    jit: boolean;
    /** `DATABASE_JOB_STATEMENT_TIMEOUT_MS`: `statement_timeout` of background jobs (ms, 0: none) */
    jobStatementTimeoutMs: number;
    migrationsRun: boolean;
  };
  /**
   * Session token lifetimes (seconds) and `accessCacheTtlMs`: how long a resolved credential or
   * workspace/project role may be served from `AccessCache` (milliseconds, 0 turns it off).
   */
  auth: {
    accessTokenTtlSeconds: number;
    refreshTokenTtlSeconds: number;
    accessCacheTtlMs: number;
    /**
     * `PASSWORD_HASH_COST`: the argon2id parameters `hashPassword` uses for new hashes (libs/domain
     * `kernel/password.ts`): `production`, OWASP's set; `test`, a cheap set that `loadConfig` accepts
     * only with `NODE_ENV=test`, so a production server never stores one.
     */
    passwordHashCost: 'production' | 'test';
  };
  /**
   * `SECRET_KEY`, from which the key that encrypts stored secrets is derived. `problem` says when it
   * is missing, a placeholder or too short; the server refuses to start in production then (see
   * `describeSecretKeyProblem`). When it is missing, `key` is the fixed `DEVELOPMENT_SECRET_KEY`.
   */
  secret: { key: string; problem: 'missing' | 'placeholder' | 'too-short' | null };
  /** instance admin tokens (`/api/instances/`): access token and session lifetimes, in seconds */
  instanceAdmin: { accessTokenTtlSeconds: number; sessionTtlSeconds: number };
  /**
   * Plane's web session (cookies beside Bearer): the bases the form posts redirect to (no trailing
   * slash), the origins whose pages may send cookies (`trustedOrigins`: the three bases' and
   * `CORS_ALLOWED_ORIGINS`), the cookies' name, lifetimes (seconds), `Domain`, and `secure` (every
   * trusted origin is https, as Plane decides).
   */
  webSession: {
    appBaseUrl: string;
    adminBaseUrl: string;
    spaceBaseUrl: string;
    trustedOrigins: string[];
    cookieName: string;
    cookieAgeSeconds: number;
    adminCookieAgeSeconds: number;
    cookieDomain?: string;
    secure: boolean;
  };
  /**
   * The environment's values of Plane's instance configuration keys (`INSTANCE_CONFIG_KEYS`) and
   * `FILE_SIZE_LIMIT`: the fallback `InstanceSettings` uses when the database holds no value.
   */
  instanceEnv: Readonly<Record<string, string>>;
  rateLimits: {
    apiKey: RateLimit;
    /** per client address, shared by the throttled auth routes */
    auth: RateLimit;
    /**
     * failed sign-ins per (email, client address), counted separately for passwords and magic
     * codes: the lock of one address
     */
    authFailedSignIn: RateLimit;
    /** failed password sign-ins per email from all addresses: the looser ceiling */
    authFailedSignInPerEmail: RateLimit;
    /** account-creating requests (user and first instance admin sign-up) per client address */
    signUp: RateLimit;
    /** requests with a wrong API key or access token per client address (any authenticated route) */
    failedAuth: RateLimit;
    /** requests per email on magic-generate, forgot-password and email-check */
    authEmail: RateLimit;
    /** per client address, shared by every Public API (`/api/public/`) route */
    public: RateLimit;
  };
  /**
   * OAuth endpoints per provider. The client ids and secrets are instance configuration
   * (`InstanceSettings`: database over environment), so a provider is switched on without a
   * restart. GitLab's endpoints, unless overridden, derive from the configured `GITLAB_HOST`
   * (then they are undefined here).
   */
  oauthEndpoints: {
    github: OAuthEndpoints;
    google: OAuthEndpoints;
    gitlab: Partial<OAuthEndpoints>;
  };
  /** the OIDC connection of the `OIDC_*` variables (docs/sso-oidc.md), or null */
  oidcEnv: OidcEnvConnection | null;
  /** the SAML connection of the `SAML_*` variables (docs/sso-saml.md), or null */
  samlEnv: SsoEnvConnection | null;
  /** the LDAP connection of the `LDAP_*` variables (docs/sso-ldap.md), or null */
  ldapEnv: SsoEnvConnection | null;
  logLevel: string;
  /**
   * How stdout's log lines look (`LOG_FORMAT`): `json`, pino's JSON lines (for collectors: the
   * default when stdout is not a terminal or with NODE_ENV=production), or `pretty`, one readable
   * line each (`12:00:01.234 INFO  listening on …`; the default on a terminal). See `chooseLogFormat`.
   */
  logFormat: 'json' | 'pretty';
  /** grace period on SIGTERM/SIGINT before the process exits with in-flight work cut off, in ms */
  shutdownTimeoutMs: number;
  /** on SIGTERM/SIGINT, how long to keep serving (health 503, `Connection: close`) before closing the listener, in ms */
  shutdownDrainMs: number;
  /**
   * Prometheus metrics (README "Metrics"): `enabled` serves `GET /metrics`; on the HTTP port behind
   * `Authorization: Bearer <token>` when `token` is set, or on the separate `port` (then not on the
   * HTTP port, and without a token).
   */
  metrics: { enabled: boolean; token?: string; port?: number };
  /** public address of the web app, used in links sent by email and OAuth redirects */
  webUrl: string;
  /**
   * `API_BASE_URL` without a trailing slash (default `http://localhost:PORT`): the only origin of
   * absolute links to Meridian's own routes; never the request's `Host` (issue 36).
   */
  apiBaseUrl: string;
  /** true when `API_BASE_URL` is unset and `apiBaseUrl` is the localhost default */
  apiBaseUrlIsDefault: boolean;
  /** SMTP settings; without `host`, emails are written to the log instead of being sent */
  mail: {
    host?: string;
    port: number;
    user?: string;
    password?: string;
    /** STARTTLS */
    useTls: boolean;
    /** implicit TLS (port 465) */
    useSsl: boolean;
    from: string;
  };
  /**
   * Where attachments are stored: local disk under `uploadsDir` (`UPLOADS_DIR`, default
   * `DATA_DIR/uploads`), or the S3-compatible bucket `s3` when `AWS_S3_BUCKET_NAME` is set.
   */
  /** Webhook delivery (README "Webhooks"; all durations in milliseconds). */
  webhooks: {
    /** run the delivery worker in this process (`WEBHOOK_WORKER`) */
    worker: boolean;
    pollIntervalMs: number;
    /** per attempt: connect, send and read the response */
    timeoutMs: number;
    /** attempts in flight in this process at most (`WEBHOOK_CONCURRENCY`) */
    concurrency: number;
    /** attempts in flight to one webhook in this process at most: a slow receiver holds only its own (`WEBHOOK_CONCURRENCY_PER_WEBHOOK`) */
    concurrencyPerWebhook: number;
    /** attempts per delivery, the first included */
    maxAttempts: number;
    /** delay before the first retry; each next one ×3, capped at `backoffMaxMs`, ±20 % jitter */
    backoffBaseMs: number;
    backoffMaxMs: number;
    /** consecutive failed deliveries that switch a webhook off */
    deactivateAfter: number;
    /** host names, IP addresses and CIDR ranges a webhook may target despite the address rules */
    allowedHosts: string[];
    /** also send `X-Plane-Timestamp` and `X-Meridian-Signature` (HMAC over `<timestamp>.<body>`) */
    timestampSignature: boolean;
    /** how long a process trusts its copy of a workspace's subscriptions */
    subscriptionCacheMs: number;
  };
  /**
   * The background runner and Plane's scheduled jobs (docs/jobs.md). Durations in milliseconds,
   * retentions in days.
   */
  jobs: {
    /** run the runner's loop in this process: scheduled jobs, webhook deliveries, exports (`JOBS_RUNNER`) */
    runner: boolean;
    /** how often the loop looks for a due schedule slot and for abandoned exports (`JOBS_POLL_INTERVAL_MS`) */
    pollIntervalMs: number;
    /** how long a run holds its job without renewing before another process may take it over (`JOBS_LEASE_MS`) */
    leaseMs: number;
    /** rows deleted or changed per statement by the clean-up jobs (`JOBS_BATCH_SIZE`) */
    batchSize: number;
    /** `hard-delete`: soft-deleted rows older than this are purged (`HARD_DELETE_AFTER_DAYS`, Plane's 60) */
    hardDeleteAfterDays: number;
    /** `delete-unuploaded-assets`: uploads never completed after this (`UNUPLOADED_ASSET_DELETE_DAYS`, Plane's 7) */
    unuploadedAssetDeleteDays: number;
    /** `delete-expired-exports`: export files older than this are removed (`EXPORT_EXPIRY_DAYS`, Plane's 8) */
    exportExpiryDays: number;
    /** `delete-api-logs`: request and webhook logs older than this (`API_LOG_RETENTION_DAYS`, Plane's 30) */
    apiLogRetentionDays: number;
    /** `delete-audit-logs`: audit log rows older than this are deleted (`AUDIT_LOG_RETENTION_DAYS`, default 365) */
    auditLogRetentionDays: number;
    /** an export without a sign of life for this long is taken over by another runner (`EXPORT_LEASE_MS`) */
    exportLeaseMs: number;
  };
  /** Meridian's own live editing endpoint (`LIVE_*`; docs/live.md) */
  live: {
    enabled: boolean;
    /** without a trailing slash, e.g. `/live` */
    basePath: string;
    storeDebounceMs: number;
    storeMaxDebounceMs: number;
    accessRecheckMs: number;
  };
  storage: {
    uploadsDir: string;
    s3?: {
      bucket: string;
      region: string;
      endpoint?: string;
      accessKeyId?: string;
      secretAccessKey?: string;
      forcePathStyle: boolean;
    };
  };
}

export class ConfigError extends Error {}

/** Used outside production when `SECRET_KEY` is not set. Public: it protects nothing. */
export const DEVELOPMENT_SECRET_KEY = 'meridian-development-secret-key-not-for-production-use';

/** Values that are known placeholders or published defaults (Plane's sample `.env` key included). */
const PLACEHOLDER_SECRET_KEYS = new Set([
  'changeme',
  'change-me',
  'change_me',
  'secret',
  'secret-key',
  'your-secret-key',
  'placeholder',
  '60gp0byfz2dvffa45cxl20p1scy9xbpf6d8c5y0geejgkyp1b5',
  DEVELOPMENT_SECRET_KEY,
]);

function secretKeyProblem(value: string | undefined): AppConfig['secret']['problem'] {
  if (value === undefined || value.trim() === '') return 'missing';
  const v = value.trim().toLowerCase();
  if (PLACEHOLDER_SECRET_KEYS.has(v) || /change[-_ ]?me|replace[-_ ]?me|placeholder|<.*>/.test(v)) return 'placeholder';
  if (value.length < 32) return 'too-short';
  return null;
}

/** One line telling the operator what is wrong with `SECRET_KEY` and what to set; null when it is fine. */
export function describeSecretKeyProblem(config: AppConfig): string | null {
  const fix =
    'set SECRET_KEY to a random string of at least 32 characters (for example the output of `openssl rand -hex 32`)';
  switch (config.secret.problem) {
    case 'missing':
      return `SECRET_KEY is not set: ${fix}.`;
    case 'placeholder':
      return `SECRET_KEY is a placeholder value: ${fix}.`;
    case 'too-short':
      return `SECRET_KEY is too short: ${fix}.`;
    default:
      return null;
  }
}

const UNIT_MS: Record<string, number> = {
  s: 1000,
  sec: 1000,
  second: 1000,
  m: 60_000,
  min: 60_000,
  minute: 60_000,
  h: 3_600_000,
  hour: 3_600_000,
  d: 86_400_000,
  day: 86_400_000,
};

/** Parses `N/Munit` (a window of M units, e.g. `10/15minute`); `N/unit` and a bare N as `parseRate`. */
export function parseWindowRate(value: string): RateLimit {
  const m = /^(\d+)(?:\/(\d*)([a-z]+))?$/.exec(value);
  if (!m) return parseRate(value);
  const units = m[2] ? Number(m[2]) : 1;
  return { limit: Number(m[1]), ttlMs: units * (m[3] ? UNIT_MS[m[3]] : UNIT_MS.minute) };
}

/** Parses Plane's `N/unit` rate format; a bare number means per minute. */
export function parseRate(value: string): RateLimit {
  const [count, unit = 'minute'] = value.split('/');
  return { limit: Number(count), ttlMs: UNIT_MS[unit] };
}

const TRUST_PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isAddressOrCidr(entry: string): boolean {
  if (TRUST_PROXY_NAMES.has(entry)) return true;
  const [address, bits, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (bits === undefined) return true;
  if (isIP(bits) === 4) return family === 4; // a netmask, as proxy-addr accepts
  return /^\d+$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
}

/**
 * Parses `TRUST_PROXY` into Express's `trust proxy` setting. The client address (`req.ip`, the
 * key of the per-address rate limits) is then taken from the right of `X-Forwarded-For`, skipping
 * only trusted proxies, so a client cannot choose it by sending its own header:
 * - `false` / `0` (default): the socket address; `X-Forwarded-For` is ignored;
 * - a hop count (`1`, `2`): that many proxies in front of Meridian; the address the outermost
 *   one appended is used;
 * - a comma list of proxy addresses, CIDRs (`10.0.0.0/8`) or Express's names (`loopback`,
 *   `linklocal`, `uniquelocal`): the rightmost address that is not a listed proxy is used.
 * `true` (trust every hop: the client's own leftmost entry wins) is refused with `ConfigError`.
 */
export function parseTrustProxy(value: string): false | number | string[] {
  const v = value.trim().toLowerCase();
  if (['', 'false', '0', 'no', 'off'].includes(v)) return false;
  if (['true', 'yes', 'on'].includes(v)) {
    throw new ConfigError(
      'Invalid configuration: TRUST_PROXY=true would let any client choose its address (the leftmost X-Forwarded-For entry, ' +
        'which the client writes); set the number of proxies in front of Meridian (e.g. TRUST_PROXY=1) or their addresses ' +
        '(e.g. TRUST_PROXY=10.0.0.1 or TRUST_PROXY=10.0.0.0/8,loopback)',
    );
  }
  if (/^\d+$/.test(v)) return Number(v);
  const entries = v
    .split(',')
    .map((e) => e.trim())
    .filter((e) => e !== '');
  const bad = entries.filter((e) => !isAddressOrCidr(e));
  if (entries.length === 0 || bad.length > 0) {
    throw new ConfigError(
      `Invalid configuration: TRUST_PROXY must be false, a number of proxy hops (1, 2, …) or a comma list of proxy addresses/CIDRs; not ${bad.join(', ') || value}`,
    );
  }
  return entries;
}

/**
 * Reads and validates the environment. Throws `ConfigError` naming every bad variable.
 * Empty strings count as unset, so `.env` lines like `DATABASE_URL=` fall back to the default.
 */
function webSessionConfig(env: EnvironmentVariables): AppConfig['webSession'] {
  const web = env.WEB_URL.replace(/\/+$/, '');
  const base = (value: string | undefined, fallback: string) => (value ?? fallback).replace(/\/+$/, '');
  const appBaseUrl = base(env.APP_BASE_URL, web);
  const adminBaseUrl = base(env.ADMIN_BASE_URL, `${web}/god-mode`);
  const spaceBaseUrl = base(env.SPACE_BASE_URL, `${web}/spaces`);
  const extra = env.CORS_ALLOWED_ORIGINS.split(',')
    .map((o) => o.trim())
    .filter(Boolean);
  const origins = [appBaseUrl, adminBaseUrl, spaceBaseUrl, web, ...extra].map((u) => {
    try {
      return new URL(u).origin;
    } catch {
      throw new Error(`CORS_ALLOWED_ORIGINS: "${u}" is not an http(s) origin`);
    }
  });
  const trustedOrigins = [...new Set(origins)];
  return {
    appBaseUrl,
    adminBaseUrl,
    spaceBaseUrl,
    trustedOrigins,
    cookieName: env.SESSION_COOKIE_NAME,
    cookieAgeSeconds: env.SESSION_COOKIE_AGE,
    adminCookieAgeSeconds: env.ADMIN_SESSION_COOKIE_AGE,
    cookieDomain: env.COOKIE_DOMAIN,
    secure: trustedOrigins.every((o) => o.startsWith('https:')),
  };
}

export function loadConfig(source: NodeJS.ProcessEnv = process.env): AppConfig {
  const raw = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ''));
  const env = plainToInstance(EnvironmentVariables, raw);
  const errors = validateSync(env, { whitelist: false });
  if (errors.length > 0) {
    const lines = errors.flatMap((e) =>
      Object.entries(e.constraints ?? {}).map(([rule, message]) =>
        rule === 'isBoolean'
          ? `${e.property} must be true or false (also accepted: 1/0, yes/no, on/off), not "${String(e.value)}"`
          : message,
      ),
    );
    throw new ConfigError(`Invalid configuration: ${lines.join('; ')}`);
  }
  if (env.NODE_ENV === 'production' && env.METRICS_ENABLED && env.METRICS_PORT === undefined && !env.METRICS_TOKEN) {
    throw new ConfigError(
      'Invalid configuration: METRICS_ENABLED=true with NODE_ENV=production needs METRICS_TOKEN (a bearer token for GET /metrics) or METRICS_PORT (a separate port)',
    );
  }
  const [, amount, unit] = /^(\d+)(kB|MB|GB)$/.exec(env.EMBEDDED_SHARED_BUFFERS)!;
  if (Number(amount) * { kB: 1, MB: 1024, GB: 1024 ** 2 }[unit as 'kB'] < 128) {
    throw new ConfigError(
      `Invalid configuration: EMBEDDED_SHARED_BUFFERS must be at least 128kB (PostgreSQL's least), not ${env.EMBEDDED_SHARED_BUFFERS}`,
    );
  }
  let oidcEnv: OidcEnvConnection | null;
  let samlEnv: SsoEnvConnection | null;
  let ldapEnv: SsoEnvConnection | null;
  try {
    oidcEnv = oidcEnvConnection(raw as Record<string, string>);
    samlEnv = samlEnvConnection(raw as Record<string, string>);
    ldapEnv = ldapEnvConnection(raw as Record<string, string>);
    checkEnvDomainsApart([
      { prefix: 'OIDC', domains: oidcEnv?.domains ?? [] },
      { prefix: 'SAML', domains: samlEnv?.domains ?? [] },
      { prefix: 'LDAP', domains: ldapEnv?.domains ?? [] },
    ]);
  } catch (err) {
    throw new ConfigError(`Invalid configuration: ${(err as Error).message}`);
  }
  if (env.PASSWORD_HASH_COST === 'test' && env.NODE_ENV !== 'test') {
    throw new ConfigError(
      `Invalid configuration: PASSWORD_HASH_COST=test is accepted only with NODE_ENV=test, not ${env.NODE_ENV}`,
    );
  }
  return {
    env: env.NODE_ENV,
    http: {
      host: env.HOST,
      port: env.PORT,
      bodyLimit: env.BODY_LIMIT,
      trustProxy: parseTrustProxy(env.TRUST_PROXY),
      answerBudgetBytes: sizeInBytes(env.ANSWER_MEMORY_BUDGET),
      shedHeapRatio: env.HEAP_SHED_RATIO,
    },
    redis: env.REDIS_URL ? { url: env.REDIS_URL, keyPrefix: env.REDIS_KEY_PREFIX } : undefined,
    database: {
      url: env.DATABASE_URL,
      poolSize: env.DATABASE_POOL_SIZE,
      connectTimeoutMs: env.DATABASE_CONNECT_TIMEOUT_MS,
      dataDir: path.resolve(env.DATA_DIR),
      embeddedThread: env.EMBEDDED_DB_THREAD,
      embeddedSharedBuffers: env.EMBEDDED_SHARED_BUFFERS,
      shortReadsFirst: env.DATABASE_SHORT_READS_FIRST,
      statementTimeoutMs: env.DATABASE_STATEMENT_TIMEOUT_MS,
      lockTimeoutMs: env.DATABASE_LOCK_TIMEOUT_MS,
      jit: env.DATABASE_JIT,
      jobStatementTimeoutMs: env.DATABASE_JOB_STATEMENT_TIMEOUT_MS,
      migrationsRun: env.MIGRATIONS_RUN,
    },
    auth: {
      accessTokenTtlSeconds: env.ACCESS_TOKEN_TTL,
      refreshTokenTtlSeconds: env.REFRESH_TOKEN_TTL,
      accessCacheTtlMs: env.ACCESS_CACHE_TTL_MS,
      passwordHashCost: env.PASSWORD_HASH_COST,
    },
    secret: (() => {
      const problem = secretKeyProblem(env.SECRET_KEY);
      return { key: problem === 'missing' ? DEVELOPMENT_SECRET_KEY : env.SECRET_KEY!, problem };
    })(),
    instanceAdmin: {
      accessTokenTtlSeconds: env.INSTANCE_ADMIN_ACCESS_TOKEN_TTL,
      sessionTtlSeconds: env.INSTANCE_ADMIN_SESSION_TTL,
    },
    instanceEnv: Object.freeze(
      Object.fromEntries(
        Object.entries(source).filter(
          ([name, v]) =>
            v !== undefined &&
            v !== '' &&
            (INSTANCE_CONFIG_KEY_NAMES.has(name) || (INSTANCE_ENV_ONLY_KEYS as readonly string[]).includes(name)),
        ) as [string, string][],
      ),
    ),
    rateLimits: {
      apiKey: parseRate(env.API_KEY_RATE_LIMIT),
      auth: parseWindowRate(env.AUTH_RATE_LIMIT),
      authFailedSignIn: parseWindowRate(env.AUTH_FAILED_SIGN_IN_LIMIT),
      authFailedSignInPerEmail: parseWindowRate(env.AUTH_FAILED_SIGN_IN_EMAIL_LIMIT),
      signUp: parseWindowRate(env.AUTH_SIGN_UP_RATE_LIMIT),
      failedAuth: parseWindowRate(env.FAILED_AUTH_RATE_LIMIT),
      authEmail: parseWindowRate(env.AUTH_EMAIL_RATE_LIMIT),
      public: parseWindowRate(env.PUBLIC_RATE_LIMIT),
    },
    oauthEndpoints: {
      github: {
        authorizeUrl: env.GITHUB_AUTHORIZE_URL,
        tokenUrl: env.GITHUB_TOKEN_URL,
        userInfoUrl: env.GITHUB_USERINFO_URL,
        emailsUrl: env.GITHUB_EMAILS_URL,
      },
      google: {
        authorizeUrl: env.GOOGLE_AUTHORIZE_URL,
        tokenUrl: env.GOOGLE_TOKEN_URL,
        userInfoUrl: env.GOOGLE_USERINFO_URL,
      },
      gitlab: {
        authorizeUrl: env.GITLAB_AUTHORIZE_URL,
        tokenUrl: env.GITLAB_TOKEN_URL,
        userInfoUrl: env.GITLAB_USERINFO_URL,
      },
    },
    oidcEnv,
    samlEnv,
    ldapEnv,
    logLevel: env.LOG_LEVEL,
    logFormat: chooseLogFormat(env.LOG_FORMAT, env.NODE_ENV, process.stdout.isTTY === true),
    shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT_MS,
    shutdownDrainMs: env.SHUTDOWN_DRAIN_MS,
    metrics: {
      enabled: env.METRICS_ENABLED || env.METRICS_PORT !== undefined,
      token: env.METRICS_TOKEN,
      port: env.METRICS_PORT,
    },
    webUrl: env.WEB_URL.replace(/\/+$/, ''),
    apiBaseUrl: (env.API_BASE_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, ''),
    apiBaseUrlIsDefault: env.API_BASE_URL === undefined,
    webSession: webSessionConfig(env),
    mail: {
      host: env.EMAIL_HOST,
      port: env.EMAIL_PORT,
      user: env.EMAIL_HOST_USER,
      password: env.EMAIL_HOST_PASSWORD,
      useTls: env.EMAIL_USE_TLS,
      useSsl: env.EMAIL_USE_SSL,
      from: env.EMAIL_FROM,
    },
    webhooks: {
      worker: env.WEBHOOK_WORKER,
      pollIntervalMs: env.WEBHOOK_POLL_INTERVAL_MS,
      timeoutMs: env.WEBHOOK_TIMEOUT_MS,
      concurrency: env.WEBHOOK_CONCURRENCY,
      concurrencyPerWebhook: env.WEBHOOK_CONCURRENCY_PER_WEBHOOK,
      maxAttempts: env.WEBHOOK_MAX_ATTEMPTS,
      backoffBaseMs: env.WEBHOOK_BACKOFF_BASE_MS,
      backoffMaxMs: env.WEBHOOK_BACKOFF_MAX_MS,
      deactivateAfter: env.WEBHOOK_DEACTIVATE_AFTER,
      allowedHosts: env.WEBHOOK_ALLOWED_HOSTS.split(',')
        .map((h) => h.trim().toLowerCase())
        .filter(Boolean),
      timestampSignature: env.WEBHOOK_TIMESTAMP_SIGNATURE,
      subscriptionCacheMs: env.WEBHOOK_SUBSCRIPTION_CACHE_MS,
    },
    jobs: {
      runner: env.JOBS_RUNNER,
      pollIntervalMs: env.JOBS_POLL_INTERVAL_MS,
      leaseMs: env.JOBS_LEASE_MS,
      batchSize: env.JOBS_BATCH_SIZE,
      hardDeleteAfterDays: env.HARD_DELETE_AFTER_DAYS,
      unuploadedAssetDeleteDays: env.UNUPLOADED_ASSET_DELETE_DAYS,
      exportExpiryDays: env.EXPORT_EXPIRY_DAYS,
      apiLogRetentionDays: env.API_LOG_RETENTION_DAYS,
      auditLogRetentionDays: env.AUDIT_LOG_RETENTION_DAYS,
      exportLeaseMs: env.EXPORT_LEASE_MS,
    },
    live: {
      enabled: env.LIVE_ENABLED,
      basePath: env.LIVE_BASE_PATH.replace(/\/+$/, ''),
      storeDebounceMs: env.LIVE_STORE_DEBOUNCE_MS,
      storeMaxDebounceMs: Math.max(env.LIVE_STORE_MAX_DEBOUNCE_MS, env.LIVE_STORE_DEBOUNCE_MS),
      accessRecheckMs: env.LIVE_ACCESS_RECHECK_MS,
    },
    storage: {
      uploadsDir: path.resolve(env.UPLOADS_DIR ?? path.join(env.DATA_DIR, 'uploads')),
      s3: env.AWS_S3_BUCKET_NAME
        ? {
            bucket: env.AWS_S3_BUCKET_NAME,
            region: env.AWS_REGION,
            endpoint: env.AWS_S3_ENDPOINT_URL,
            accessKeyId: env.AWS_ACCESS_KEY_ID,
            secretAccessKey: env.AWS_SECRET_ACCESS_KEY,
            forcePathStyle: env.AWS_S3_FORCE_PATH_STYLE || env.USE_MINIO,
          }
        : undefined,
    },
  };
}

/** Injection token for the `AppConfig` object. */
export const APP_CONFIG = Symbol('APP_CONFIG');

/** `64mb`, `512kb`, `100b` or a plain number of bytes (as `BODY_LIMIT` is written) in bytes. */
export function sizeInBytes(value: string): number {
  const [, amount, unit] = /^(\d+)(b|kb|mb)?$/i.exec(value)!;
  return Number(amount) * ({ b: 1, kb: 1024, mb: 1024 * 1024 }[(unit ?? 'b').toLowerCase()] ?? 1);
}

/**
 * The log format (docs/operations.md "Logs"): `LOG_FORMAT` when set; otherwise `pretty` when stdout is
 * a terminal (`isTty`) outside production, `json` when it is not a terminal (a pipe, a file, a
 * container's log driver) or with NODE_ENV=production.
 */
export function chooseLogFormat(
  setting: 'json' | 'pretty' | undefined,
  nodeEnv: string,
  isTty: boolean,
): 'json' | 'pretty' {
  if (setting) return setting;
  return isTty && nodeEnv !== 'production' ? 'pretty' : 'json';
}
