import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client } from 'pg';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadConfig } from '#common';
import { openDatabase, startDatabase } from '#database';
import { DataSource, MigrationExecutor } from 'typeorm';
import { CLI, ROOT, runNode, TYPEORM } from '../support/processes';
import { freshDatabaseEnv } from '../support/test-app';

describe('migrations through the CLIs (ormconfig.ts), on the engine under test', () => {
  let db: Awaited<ReturnType<typeof freshDatabaseEnv>>;
  before(async () => (db = await freshDatabaseEnv()));
  after(() => db.drop());

  /** The most recent migration's class name, e.g. `AddInstance1795267277879` (from `<timestamp>-AddInstance.ts`). */
  const latest = fs
    .readdirSync(path.join(ROOT, 'libs', 'database', 'src', 'migrations'))
    .filter((f) => /^\d+-\w+\.ts$/.test(f))
    .sort()
    .map((f) => {
      const [, ts, name] = /^(\d+)-(\w+)\.ts$/.exec(f)!;
      return `${name}${ts}`;
    })
    .pop()!;

  /**
   * Is the most recent migration applied? Asks the ops CLI; on PostgreSQL also checks the catalogue
   * (every migration applied ⇒ the initial tables exist).
   */
  const applied = async (): Promise<boolean> => {
    const out = await runNode([CLI, 'migration:show'], db.env);
    assert.equal(out.code, 0, out.stderr);
    const shown = out.stdout.includes(`[X] ${latest}`);
    if (db.env.DATABASE_URL && shown) {
      const c = new Client({ connectionString: db.env.DATABASE_URL });
      await c.connect();
      const r = await c.query(`SELECT to_regclass('public.projects') IS NOT NULL AS present`);
      await c.end();
      assert.equal(r.rows[0].present, true);
    }
    return shown;
  };

  it('runs, shows, reverts and re-runs migrations; the schema matches the entities', async () => {
    const run = await runNode([CLI, 'migration:run'], db.env);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /Applied: Initial\d+/);
    assert.equal(await applied(), true);

    const show = await runNode([TYPEORM, '-d', path.join(ROOT, 'dist', 'ormconfig.js'), 'migration:show'], db.env);
    assert.equal(show.code, 0, show.stderr);
    assert.match(show.stdout, /\[X\] \d+ Initial\d+/);

    const drift = await runNode(
      [
        TYPEORM,
        '-d',
        path.join(ROOT, 'dist', 'ormconfig.js'),
        'migration:generate',
        '--check',
        path.join(ROOT, 'dist', 'drift-check'),
      ],
      db.env,
    );
    assert.equal(drift.code, 0, `entities and migrations differ:\n${drift.stdout}\n${drift.stderr}`);

    // revert every migration, newest first, down to an empty schema: the newest through the ops CLI,
    // the others in this process the way the CLI does it (one data source, `undoLastMigration` with a
    // transaction each), each checked to take exactly its migration off: a process per migration
    // would cost about 3 CPU-seconds each and test the CLI's start-up again, not the migration
    const migrations = fs
      .readdirSync(path.join(ROOT, 'dist', 'libs', 'database', 'src', 'migrations'))
      .filter((f) => /^\d+-\w+\.js$/.test(f));
    assert.ok(migrations.length >= 1);
    const revert = await runNode([CLI, 'migration:revert'], db.env);
    assert.equal(revert.code, 0, revert.stderr);
    assert.match(revert.stdout, new RegExp(`^Reverted ${latest}\\.$`, 'm'));
    const opened = await openDatabase(loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', ...db.env }));
    const ds = new DataSource(opened.options);
    try {
      await ds.initialize();
      const executor = new MigrationExecutor(ds);
      let executed = (await executor.getExecutedMigrations()).map((m) => m.name);
      assert.equal(executed.length, migrations.length - 1);
      while (executed.length) {
        await ds.undoLastMigration({ transaction: 'each' });
        const now = (await executor.getExecutedMigrations()).map((m) => m.name);
        assert.deepEqual(now, executed.slice(1), `reverting ${executed[0]}`);
        executed = now;
      }
    } finally {
      if (ds.isInitialized) await ds.destroy();
      await opened.close();
    }
    assert.equal(await applied(), false);

    const again = await runNode([TYPEORM, '-d', path.join(ROOT, 'dist', 'ormconfig.js'), 'migration:run'], db.env);
    assert.equal(again.code, 0, again.stderr);
    assert.equal(await applied(), true);
  });

  it("the TypeORM CLI's connections run under the jobs' statement timeout, not a request's (PostgreSQL)", async (t) => {
    if (!db.env.DATABASE_URL) return t.skip('statement_timeout is set on PostgreSQL connections only');
    const shown = await runNode(
      [TYPEORM, '-d', path.join(ROOT, 'dist', 'ormconfig.js'), 'query', 'SHOW statement_timeout'],
      { ...db.env, DATABASE_STATEMENT_TIMEOUT_MS: '1234', DATABASE_JOB_STATEMENT_TIMEOUT_MS: '98765' },
    );
    assert.equal(shown.code, 0, shown.stderr);
    assert.match(shown.stdout, /98765ms/);
    assert.doesNotMatch(shown.stdout, /1234ms/);
  });
});

describe('migrations at server start', () => {
  it('MIGRATIONS_RUN=false leaves the schema alone', async () => {
    const db = await freshDatabaseEnv();
    try {
      const database = await startDatabase(loadConfig({ NODE_ENV: 'test', MIGRATIONS_RUN: 'false', ...db.env }));
      try {
        const [row] = await database.dataSource.query(`SELECT to_regclass('public.projects') IS NULL AS absent`);
        assert.equal(row.absent, true);
      } finally {
        await database.close();
      }
    } finally {
      await db.drop();
    }
  });

  it(
    'several servers starting together on one PostgreSQL database migrate it once (advisory lock)',
    { skip: !process.env.TEST_DATABASE_URL && 'PostgreSQL only' },
    async () => {
      const db = await freshDatabaseEnv();
      try {
        const config = loadConfig({ NODE_ENV: 'test', ...db.env });
        const started = await Promise.all([startDatabase(config), startDatabase(config), startDatabase(config)]);
        try {
          const rows = await started[0].dataSource.query(`SELECT name FROM typeorm_migrations`);
          const names = rows.map((r: { name: string }) => r.name);
          assert.equal(new Set(names).size, names.length, 'each migration recorded once');
          assert.ok(names.some((n: string) => n.startsWith('Initial')));
        } finally {
          await Promise.all(started.map((d) => d.close()));
        }
      } finally {
        await db.drop();
      }
    },
  );
});
