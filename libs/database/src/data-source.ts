import { AppConfig } from '#common';
import { ENTITIES } from '#domain';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { DataSource, DataSourceOptions, MigrationExecutor } from 'typeorm';

import { lockDataDir } from './data-dir-lock';
import { PreparingClient } from './preparing-client';
import { initEmbeddedCluster } from './embedded-initdb';
import { EmbeddedWorker } from './embedded-worker';
import { embeddedSettings, pgliteExtensions, pgliteStartParams } from './embedded-settings';
import { SnakeNamingStrategy } from './snake-naming.strategy';

/** Options for a DataSource plus the handle that releases what the embedded engine holds. */
export interface OpenedDatabase {
  engine: 'postgres' | 'embedded';
  options: DataSourceOptions;
  /** Closes PGlite and releases the data-directory lock (no-op for PostgreSQL). */
  close(): Promise<void>;
}

/** How the embedded engine's worker thread reports that it stopped unexpectedly. */
export interface OpenOptions {
  /**
   * Called once if the embedded database's worker thread (`EMBEDDED_DB_THREAD=worker`) stops
   * unexpectedly; its open connections have already failed with the same error. Default: the error
   * is thrown uncaught, so the process exits non-zero instead of hanging on a database that is gone.
   */
  onWorkerCrash?: (err: Error) => void;
}

/**
 * The key in the data source's `extra` (the `pg` pool's options, which `pg` ignores) that tells
 * libs/domain's `hotRead` whether short reads go first (`DATABASE_SHORT_READS_FIRST`).
 */
const SHORT_READS_FIRST = 'shortReadsFirst';

/**
 * The key in the data source's `extra` that gives libs/domain's `jobTransaction` the background
 * jobs' `statement_timeout` (`DATABASE_JOB_STATEMENT_TIMEOUT_MS`, ms; 0: none).
 */
const JOB_STATEMENT_TIMEOUT = 'jobStatementTimeoutMs';

/**
 * `pg`'s connection options for the session's settings, sent in each connection's startup packet so
 * they hold from its first statement (a `SET LOCAL` in a transaction, or a `SET` and `RESET`,
 * overrides them for a while): `statement_timeout` and `lock_timeout` (ms) bound database time (a
 * value of 0 sets nothing: the database's or role's own setting applies), and unless
 * `DATABASE_JIT` is on, `jit = off` (docs/decisions.md "PostgreSQL's JIT is off on Meridian's
 * connections": compiling a statement the planner estimates above `jit_above_cost` cost 0.2–4 s,
 * more than the statement itself, on the counts and aggregates of a large workspace).
 */
export function sessionSettings(db: Pick<AppConfig['database'], 'statementTimeoutMs' | 'lockTimeoutMs' | 'jit'>): {
  statement_timeout?: number;
  lock_timeout?: number;
  options?: string;
} {
  return {
    ...(db.statementTimeoutMs > 0 ? { statement_timeout: db.statementTimeoutMs } : {}),
    ...(db.lockTimeoutMs > 0 ? { lock_timeout: db.lockTimeoutMs } : {}),
    ...(db.jit ? {} : { options: '-c jit=off' }),
  };
}

/**
 * The configuration of a process that only runs background work (the CLI: migrations, imports,
 * admin set-up): its connections get the jobs' `statement_timeout` and no `lock_timeout` of their
 * own (the statement timeout bounds lock waits too).
 */
export function withJobLimits(config: AppConfig): AppConfig {
  const db = config.database;
  return { ...config, database: { ...db, statementTimeoutMs: db.jobStatementTimeoutMs, lockTimeoutMs: 0 } };
}

const MIGRATIONS_GLOB = path.join(__dirname, 'migrations', '*.js');

/** What both engines share: one schema, generated migrations, no `synchronize`. */
function commonOptions() {
  return {
    type: 'postgres' as const,
    // given, not left to TypeORM's `require('pg')` by a computed name: the server's bundle
    // (scripts/bundle.js) then holds pg too instead of loading its ~25 files from node_modules
    driver: pg,
    entities: ENTITIES,
    migrations: [MIGRATIONS_GLOB],
    migrationsTableName: 'typeorm_migrations',
    migrationsRun: false,
    synchronize: false,
    namingStrategy: new SnakeNamingStrategy(),
    uuidExtension: 'pgcrypto' as const,
    installExtensions: false,
    logging: ['migration' as const],
  };
}

/**
 * Builds the one data-source definition used by the server, the ops CLI and the TypeORM CLI
 * (`ormconfig.ts`).
 *
 * - `DATABASE_URL` set: PostgreSQL with a pool of `DATABASE_POOL_SIZE` (default 10).
 * - Not set: PGlite in this process, pool 1, data under `DATA_DIR`, after taking the directory's
 *   lock (docs/reference/embedded-database.md §4): on the main thread through PGlite's
 *   node-postgres adapter (`EMBEDDED_DB_THREAD=main`), or in a worker thread (`worker`,
 *   `embedded-worker.ts`), `pg` talking to it over a stream.
 */
export async function openDatabase(config: AppConfig, options: OpenOptions = {}): Promise<OpenedDatabase> {
  const db = config.database;
  if (db.url) {
    return {
      engine: 'postgres',
      options: {
        ...commonOptions(),
        url: db.url,
        poolSize: db.poolSize,
        connectTimeoutMS: db.connectTimeoutMs,
        applicationName: 'meridian',
        extra: {
          ...sessionSettings(db),
          [SHORT_READS_FIRST]: db.shortReadsFirst,
          [JOB_STATEMENT_TIMEOUT]: db.jobStatementTimeoutMs,
        },
      },
      close: async () => undefined,
    };
  }

  const release = lockDataDir(db.dataDir);
  /**
   * The embedded engine's options (one connection: PGlite's one session) and a `close` that runs
   * `closeEngine` (once) before the directory's lock goes.
   */
  const embedded = (extra: object, closeEngine: () => Promise<void>): OpenedDatabase => {
    let closed = false;
    return {
      engine: 'embedded',
      options: {
        ...commonOptions(),
        poolSize: 1,
        connectTimeoutMS: db.connectTimeoutMs,
        // statements with parameters prepared once per connection (`PreparingClient`)
        // no statement or lock timeout: PGlite accepts them but never cancels a statement (no
        // timer interrupt in WebAssembly), and its one session never waits for another's lock
        extra: {
          ...extra,
          Client: PreparingClient,
          idleTimeoutMillis: 0,
          [SHORT_READS_FIRST]: db.shortReadsFirst,
          [JOB_STATEMENT_TIMEOUT]: db.jobStatementTimeoutMs,
        },
      },
      close: async () => {
        if (closed) return;
        closed = true;
        try {
          await closeEngine();
        } finally {
          release();
        }
      },
    };
  };
  try {
    const pgDir = path.join(db.dataDir, 'pg');
    await initEmbeddedCluster(pgDir); // a new directory: initdb in a child process (its memory is not kept)
    if (db.embeddedThread === 'worker') {
      const worker = await EmbeddedWorker.start(pgDir, embeddedSettings(db), options.onWorkerCrash);
      // `pg` speaks the wire protocol over a stream to the worker (PGlite's one database and user:
      // the startup packet must name them); PGlite is closed in the worker before the lock goes
      return embedded({ stream: () => worker.connect(), user: 'postgres', database: 'postgres' }, () => worker.close());
    }
    const { PGlite } = await import('@electric-sql/pglite');
    const { createPgConfig } = await import('@electric-sql/pglite/node-postgres');
    const pglite = await PGlite.create({
      dataDir: pgDir,
      extensions: await pgliteExtensions(),
      startParams: pgliteStartParams(PGlite.defaultStartParams, embeddedSettings(db)),
    });
    return embedded(createPgConfig(pglite), () => pglite.close());
  } catch (err) {
    release();
    throw err;
  }
}

/** Arbitrary constant naming Meridian's migration lock among PostgreSQL advisory locks. */
export const MIGRATION_LOCK_KEY = 7_245_310_861;

/**
 * Applies pending migrations inside a PostgreSQL advisory lock, so several server processes
 * starting together migrate once. The lock and the migrations share one connection, which also
 * suits the embedded engine's pool of 1. Returns the names of the migrations applied.
 *
 * A background job: the connection runs under the jobs' `statement_timeout`
 * (`DATABASE_JOB_STATEMENT_TIMEOUT_MS`) and no `lock_timeout` while it waits for the lock (another
 * process migrating) and migrates, then gets the server's limits back before it returns to the pool.
 */
export async function runMigrationsLocked(dataSource: DataSource): Promise<string[]> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.query(`SELECT set_config('statement_timeout', $1, false), set_config('lock_timeout', '0', false)`, [
      String(jobStatementTimeoutMs(dataSource)),
    ]);
    await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      const executor = new MigrationExecutor(dataSource, runner);
      executor.transaction = 'each';
      const applied = await executor.executePendingMigrations();
      return applied.map((m) => m.name);
    } finally {
      await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    }
  } finally {
    // the connection's own values again (those of its startup packet)
    await runner.query('RESET statement_timeout; RESET lock_timeout').catch(() => undefined);
    await runner.release();
  }
}

/** `DATABASE_JOB_STATEMENT_TIMEOUT_MS` as the data source carries it (0 when it carries none). */
function jobStatementTimeoutMs(dataSource: DataSource): number {
  const extra = (dataSource.options as { extra?: Record<string, unknown> }).extra;
  const ms = extra?.[JOB_STATEMENT_TIMEOUT];
  return typeof ms === 'number' ? ms : 0;
}

/** A short, secret-free description of where the data lives, for logs and errors. */
export function describeDatabase(config: AppConfig): string {
  if (!config.database.url) return `embedded PGlite in ${config.database.dataDir}`;
  try {
    const url = new URL(config.database.url);
    return `PostgreSQL at ${url.hostname}:${url.port || 5432}${url.pathname}`;
  } catch {
    return 'PostgreSQL';
  }
}

export class DatabaseUnavailableError extends Error {}

/**
 * Names of the migrations this build knows that the database has not recorded as applied, oldest
 * first. Read-only (unlike TypeORM's `MigrationExecutor`, it never creates the migrations table), so
 * `GET /health` may call it on every check.
 */
export async function pendingMigrations(dataSource: DataSource): Promise<string[]> {
  const known = dataSource.migrations
    .map((m) => m.name ?? m.constructor.name)
    .sort((a, b) => Number(/\d{13}$/.exec(a)?.[0] ?? 0) - Number(/\d{13}$/.exec(b)?.[0] ?? 0));
  const table = dataSource.options.migrationsTableName ?? 'migrations';
  const [{ present }] = (await dataSource.query(`SELECT to_regclass($1) IS NOT NULL AS present`, [table])) as {
    present: boolean;
  }[];
  if (!present) return known;
  const rows = (await dataSource.query(`SELECT name FROM "${table}"`)) as { name: string }[];
  const applied = new Set(rows.map((r) => r.name));
  return known.filter((name) => !applied.has(name));
}

/** An initialised (and, unless disabled, migrated) data source and how to shut it down. */
export interface ReadyDatabase {
  engine: OpenedDatabase['engine'];
  dataSource: DataSource;
  /** Migrations applied by this start (empty when none were pending or `MIGRATIONS_RUN=false`). */
  appliedMigrations: string[];
  /** Migrations still pending after start: empty unless `MIGRATIONS_RUN=false`. */
  pendingMigrations: string[];
  /** Destroys the data source, then closes the embedded engine and releases its lock. */
  close(): Promise<void>;
  /**
   * Where the start's time went (ms): `open` (the embedded engine: loading PGlite and opening the
   * data directory; nothing for PostgreSQL), `connect` (TypeORM: entity metadata and the first
   * connection), `migrations` (the lock, the migrations table read, pending ones run, the check).
   */
  startupMs: { open: number; connect: number; migrations: number };
}

export interface StartOptions extends OpenOptions {
  /**
   * An engine the caller already opened (`openDatabase`) and keeps open between data sources: the
   * start builds its data source on it instead of opening one from `config`, and the returned
   * `close` calls this one's `close` (which may keep the engine open). The test runs reuse one
   * embedded engine per process this way (test/support/lane-database.ts).
   */
  opened?: OpenedDatabase;
}

/**
 * Opens the database, connects, and applies pending migrations unless `MIGRATIONS_RUN=false`;
 * reports which it applied and which are still pending.
 * A database that cannot be reached raises `DatabaseUnavailableError` with one clear sentence
 * (no retry loop); the server prints it and exits non-zero.
 */
export async function startDatabase(config: AppConfig, options: StartOptions = {}): Promise<ReadyDatabase> {
  const t0 = performance.now();
  const opened = options.opened ?? (await openDatabase(config, options));
  const t1 = performance.now();
  const dataSource = new DataSource(opened.options);
  const close = async () => {
    if (dataSource.isInitialized) await dataSource.destroy();
    await opened.close();
  };
  try {
    await dataSource.initialize();
  } catch (err) {
    await opened.close();
    throw new DatabaseUnavailableError(
      `Cannot connect to ${describeDatabase(config)}: ${(err as Error).message || String(err)}`,
    );
  }
  const t2 = performance.now();
  try {
    const appliedMigrations = config.database.migrationsRun ? await runMigrationsLocked(dataSource) : [];
    const pending = await pendingMigrations(dataSource);
    const ms = (a: number, b: number) => Math.round(b - a);
    return {
      engine: opened.engine,
      dataSource,
      appliedMigrations,
      pendingMigrations: pending,
      close,
      startupMs: { open: ms(t0, t1), connect: ms(t1, t2), migrations: ms(t2, performance.now()) },
    };
  } catch (err) {
    await close();
    throw err;
  }
}

/**
 * The connection pool's counts (metrics): TypeORM's PostgreSQL driver keeps a node-postgres `Pool`
 * as `driver.master` for both engines (the embedded one through PGlite's adapter, with one
 * connection: `waiting` is then the queries queued behind the one running). Null before the data
 * source is initialised or after it is destroyed.
 */
export function poolStats(
  dataSource: DataSource,
): { total: number; idle: number; waiting: number; max: number } | null {
  const pool = (dataSource.driver as unknown as { master?: PgPoolLike }).master;
  if (!dataSource.isInitialized || !pool || typeof pool.totalCount !== 'number') return null;
  return { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: pool.options?.max ?? 0 };
}

interface PgPoolLike {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
  options?: { max?: number };
}
