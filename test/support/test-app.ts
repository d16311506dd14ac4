import 'reflect-metadata';
import { AccessCache, AppConfig, loadConfig } from '#common';
import { ReadyDatabase, startDatabase } from '#database';
import type { INestApplication } from '@nestjs/common';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from 'pg';
import request from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import { setUpInstance, usePasswordHashCost } from '#domain';
import { createApp } from '../../apps/server/src/bootstrap';
import { databaseUrl, templateFromEnv } from './database-template';
import { acquireLaneDatabase } from './lane-database';

export interface TestApp {
  app: INestApplication;
  api: TestAgent;
  /** base URL of the listening server, e.g. http://127.0.0.1:41234 */
  url: string;
  config: AppConfig;
  database: ReadyDatabase;
  /**
   * Raw SQL against the test database, for set-up and checks. It also empties the server's
   * `AccessCache`: a row written here (a member added, a role set) is seen by the next request,
   * where a change made outside the service is otherwise seen within `ACCESS_CACHE_TTL_MS`
   * (`test/e2e/access-cache.test.ts` tests that bound with `database.dataSource.query`).
   */
  sql<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  close(): Promise<void>;
  /** the first instance admin created by the default set-up; null with `{ setup: false }` */
  admin: { email: string; password: string; userId: string } | null;
}

export interface TestAppOptions {
  /**
   * Perform the instance's first set-up (as `meridian admin create` does) so users can sign up;
   * default true. `false` leaves a fresh, unclaimed instance.
   */
  setup?: boolean;
}

/** The instance admin the default set-up creates. */
export const TEST_ADMIN = { email: 'instance-admin@meridian.test', password: 'instance admin password' } as const;

export const ENGINE = process.env.TEST_DATABASE_URL ? 'postgres' : 'embedded';

/**
 * A fresh database for one test file: with `TEST_DATABASE_URL`, a new PostgreSQL database
 * created for this run and dropped after; otherwise an embedded PGlite in a temporary directory
 * (a copy of the run's initialised, unmigrated cluster when `npm test` provides one, so the start
 * skips initdb; an empty directory otherwise).
 * Empty: the server (or CLI) started on it applies the migrations.
 * Returns the environment that points the server at it and a cleanup function.
 */
export async function freshDatabaseEnv(): Promise<{ env: Record<string, string>; drop(): Promise<void> }> {
  return newDatabaseEnv('empty');
}

/**
 * Like `freshDatabaseEnv`, but already migrated when `npm test` provides a template
 * (`database-template.ts`): a copy of the template's data directory, or `CREATE DATABASE … TEMPLATE`.
 * Without one, the same as `freshDatabaseEnv`.
 */
export async function migratedDatabaseEnv(): Promise<{ env: Record<string, string>; drop(): Promise<void> }> {
  return newDatabaseEnv('migrated');
}

/**
 * A new embedded `DATA_DIR` for a test that starts server or CLI processes on a directory of its
 * own, whichever engine the run is on: a copy of the run's embedded template in `state` ('empty':
 * initialised, no migration applied; 'migrated': every migration applied) when `npm test` provides
 * one, an empty directory otherwise (the process then runs initdb itself, as on a first start).
 * `drop` removes it.
 */
export function embeddedDataDir(state: 'empty' | 'migrated', prefix = 'meridian-test-'): { dir: string; drop(): void } {
  const made = emptyDataDir(prefix);
  copyTemplateInto(made.dir, state);
  return made;
}

/** A new, empty directory beside the run's copies (the system's temporary directory without a runner). */
function emptyDataDir(prefix: string): { dir: string; drop(): void } {
  const template = templateFromEnv();
  const dir = fs.mkdtempSync(path.join(template?.engine === 'embedded' ? template.copies : os.tmpdir(), prefix));
  return { dir, drop: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/**
 * Copies the run's embedded template in `state` into the directory `dir` (empty), when `npm test`
 * provides one; leaves `dir` empty otherwise.
 */
function copyTemplateInto(dir: string, state: 'empty' | 'migrated'): void {
  const template = templateFromEnv();
  const source =
    template?.engine !== 'embedded' ? null : state === 'migrated' ? template.dir : (template.empty ?? null);
  // the templates are closed, so hold no lock file; skip one anyway (data-dir-lock.ts)
  if (source) fs.cpSync(source, dir, { recursive: true, filter: (src) => path.basename(src) !== 'meridian.lock' });
}

async function newDatabaseEnv(
  state: 'empty' | 'migrated',
): Promise<{ env: Record<string, string>; drop(): Promise<void> }> {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) {
    const { dir, drop } = embeddedDataDir(state);
    return { env: { DATA_DIR: dir }, drop: async () => drop() };
  }
  const template = templateFromEnv();
  const name = `meridian_test_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new Client({ connectionString: base });
  await admin.connect();
  await admin.query(
    template?.engine === 'postgres' && state === 'migrated'
      ? `CREATE DATABASE "${name}" TEMPLATE "${template.name}"`
      : `CREATE DATABASE "${name}"`,
  );
  await admin.end();
  return {
    env: { DATABASE_URL: databaseUrl(base, name) },
    drop: async () => {
      const c = new Client({ connectionString: base });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await c.end();
    },
  };
}

/**
 * The configuration and the started, migrated database of a test app or domain context: `env` (the
 * test's variables) over `defaults` over the test settings (`NODE_ENV=test`, silent logs, cheap
 * password hashes), pointed at:
 *
 * - PostgreSQL: a new database copied from the run's template (`migratedDatabaseEnv`);
 * - embedded: the process's shared database reset to the template's state (`lane-database.ts`)
 *   when it is free and the test asks for no database settings of its own (`DATA_DIR`,
 *   `DATABASE_*`, `EMBEDDED_*`, `MIGRATIONS_RUN`); the app still gets an empty `DATA_DIR`
 *   of its own (uploads). Otherwise a copy of the template in that `DATA_DIR`, as before.
 *
 * `drop` releases the database (after the app or context closed it) and removes what was made.
 */
export async function openTestDatabase(
  env: Record<string, string>,
  defaults: Record<string, string> = {},
): Promise<{ config: AppConfig; database: ReadyDatabase; drop(): Promise<void> }> {
  const dataDir = ENGINE === 'embedded' ? emptyDataDir('meridian-test-') : null;
  const own = dataDir
    ? { env: { DATA_DIR: dataDir.dir }, drop: async () => dataDir.drop() }
    : await migratedDatabaseEnv();
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    // cheap argon2id (kernel/password.ts); a test that checks the stored parameters passes
    // `PASSWORD_HASH_COST: 'production'`
    PASSWORD_HASH_COST: 'test',
    ...defaults,
    ...own.env,
    ...env,
  });
  try {
    // embedded, in the directory made above (not one the test gave)
    const fromTemplate = ENGINE === 'embedded' && !('DATA_DIR' in env);
    const shared = fromTemplate
      ? await acquireLaneDatabase(config, () => embeddedDataDir('migrated', 'meridian-lane-'))
      : null;
    if (shared) {
      return {
        config,
        database: shared.database,
        drop: async () => {
          shared.release();
          await own.drop();
        },
      };
    }
    if (fromTemplate) copyTemplateInto(config.database.dataDir, 'migrated');
    return { config, database: await startDatabase(config), drop: own.drop };
  } catch (err) {
    await own.drop();
    throw err;
  }
}

/**
 * Builds the production application on a fresh, migrated database (`migratedDatabaseEnv`) and listens on a free loopback port.
 * Passwords are hashed with the test cost (`PASSWORD_HASH_COST=test`) unless `env` says `production`.
 * By default the instance is set up first (`TEST_ADMIN` is its admin): pass `{ setup: false }` as
 * the second argument for an unclaimed instance.
 */
export async function startTestApp(env: Record<string, string> = {}, options: TestAppOptions = {}): Promise<TestApp> {
  const { config, database, drop } = await openTestDatabase(env, {
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    // every test signs its users up from one address: the sign-up limit is tested on its own
    AUTH_SIGN_UP_RATE_LIMIT: '10000/minute',
  });
  usePasswordHashCost(config); // before the set-up below hashes the admin's password (the app applies it again)
  let admin: TestApp['admin'] = null;
  if (options.setup !== false) {
    const { user } = await database.dataSource.transaction((em) =>
      setUpInstance(em, { ...TEST_ADMIN, first_name: 'Instance', last_name: 'Admin', company_name: 'Meridian tests' }),
    );
    admin = { ...TEST_ADMIN, userId: user.id };
  }
  const app = await createApp(config, database);
  await app.listen(0, '127.0.0.1');
  const address = app.getHttpServer().address() as { port: number };
  const url = `http://127.0.0.1:${address.port}`;
  // Meridian builds its links on API_BASE_URL, never on the request's Host; the port is only known
  // now, so unless the test chose an address, the links point at this server (read per request)
  if (!('API_BASE_URL' in env)) config.apiBaseUrl = url;
  return {
    app,
    api: request(app.getHttpServer()),
    url,
    config,
    database,
    admin,
    sql: async (text, params) => {
      try {
        return await database.dataSource.query(text, params);
      } finally {
        app.get(AccessCache).invalidate();
      }
    },
    close: async () => {
      await app.close();
      await drop();
    },
  };
}
