import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createApiKey, createProject, createWorkspace, signUp } from '../support/fixtures';
import { laneDifferences, laneResets, onLaneDatabase } from '../support/lane-database';
import { ENGINE, startTestApp, TestApp } from '../support/test-app';

/**
 * The embedded test runs' shared database (test/support/lane-database.ts; docs/decisions.md "Test
 * runs"): one open PGlite per test process, reset to the template's state between test apps. The
 * reset must be exact: what one app wrote is gone for the next, and what the reset cannot undo
 * fails the next start instead of leaking. Embedded only (PostgreSQL runs copy a template database).
 */
describe(
  'the shared test database between test apps',
  { skip: ENGINE === 'postgres' && 'embedded engine only' },
  () => {
    const tables = async (t: TestApp) =>
      (
        await t.sql<{ name: string }>(
          `SELECT quote_ident(relname) AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
          WHERE n.nspname = 'public' AND c.relkind = 'r' ORDER BY 1`,
        )
      ).map((r) => r.name);
    const counts = async (t: TestApp) => {
      const out: Record<string, number> = {};
      for (const name of await tables(t))
        out[name] = (await t.sql<{ n: number }>(`SELECT count(*)::int AS n FROM ${name}`))[0].n;
      return out;
    };

    it('the next app finds the template: no rows but the migrations, which are back, as is their sequence', async () => {
      const a = await startTestApp();
      const resets = laneResets();
      try {
        assert.ok(onLaneDatabase(a.database), 'the first app of the test runs on the shared database');
        // rows in many tables, through the API and by hand
        const owner = await signUp(a);
        const slug = (await createWorkspace(a, owner.token)).slug;
        const key = await createApiKey(a, owner.token, slug);
        const project = await createProject(a, key, slug);
        const item = await a.api
          .post(`/api/v1/workspaces/${slug}/projects/${project.id}/work-items/`)
          .set('X-API-Key', key)
          .send({ name: 'Left behind' });
        assert.equal(item.status, 201, JSON.stringify(item.body));
        await a.sql(`DELETE FROM typeorm_migrations WHERE id = (SELECT max(id) FROM typeorm_migrations)`);
        await a.sql(`UPDATE typeorm_migrations SET name = 'renamed' WHERE id = 1`);
        await a.sql(`SELECT nextval('typeorm_migrations_id_seq') FROM generate_series(1, 5)`);
        // a table grown past what the reset deletes row by row (it truncates it instead)
        await a.sql(
          `INSERT INTO users (email, display_name) SELECT 'bulk' || g || '@example.com', 'bulk ' || g FROM generate_series(1, 3000) g`,
        );
        const [grown] = await a.sql<{ pages: string }>(`SELECT pg_relation_size('users') / 8192 AS pages`);
        assert.ok(Number(grown.pages) >= 32, `users: ${grown.pages} pages`);
        const written = await counts(a);
        assert.ok(Object.values(written).filter((n) => n > 0).length >= 8, JSON.stringify(written));
      } finally {
        await a.close();
      }

      // no job runner: its first poll would write `scheduled_jobs` rows into the database under check
      const b = await startTestApp({ JOBS_RUNNER: 'false' }, { setup: false });
      try {
        assert.ok(onLaneDatabase(b.database), 'the next app gets the shared database again');
        assert.equal(laneResets(), resets + 1);
        const migrations = b.database.dataSource.migrations.map((m) => m.name).sort();
        const found = await counts(b);
        for (const [name, n] of Object.entries(found))
          assert.equal(n, name === 'typeorm_migrations' ? migrations.length : 0, `${name} holds ${n} rows`);
        const rows = await b.sql<{ id: number; name: string }>(`SELECT id, name FROM typeorm_migrations ORDER BY id`);
        assert.deepEqual(
          rows.map((r) => r.name).sort(),
          migrations,
          'every migration recorded once, under its own name',
        );
        const [seq] = await b.sql<{ last_value: string; is_called: boolean }>(
          `SELECT last_value, is_called FROM typeorm_migrations_id_seq`,
        );
        assert.deepEqual([Number(seq.last_value), seq.is_called], [Math.max(...rows.map((r) => r.id)), true]);
        assert.deepEqual(await laneDifferences(b.database.dataSource), []);
        // the grown table was truncated, not left behind as dead rows; the others were emptied
        const [users] = await b.sql<{ pages: string }>(`SELECT pg_relation_size('users') / 8192 AS pages`);
        assert.equal(Number(users.pages), 0);
        // and the app works on it: the instance is unclaimed, a set-up happens once
        const status = await b.api.get('/api/instances/');
        assert.equal(status.status, 200, JSON.stringify(status.body));
        assert.equal(status.body.instance.is_setup_done, false);
      } finally {
        await b.close();
      }
    });

    it('a change the reset does not undo (a table created) fails the next start; the start after gets a new copy', async () => {
      const a = await startTestApp();
      try {
        assert.ok(onLaneDatabase(a.database));
        await a.sql(`CREATE TABLE left_behind (id int)`);
      } finally {
        await a.close();
      }
      await assert.rejects(startTestApp(), /could not be reset to the template's state.*tables: \d+ instead of \d+/);
      const b = await startTestApp();
      try {
        assert.ok(onLaneDatabase(b.database));
        assert.equal(laneResets(), 0, 'a new shared database, not yet reset');
        assert.deepEqual(await b.sql(`SELECT to_regclass('public.left_behind') AS t`), [{ t: null }]);
      } finally {
        await b.close();
      }
    });

    it('an app started while the shared database is held, or with database settings of its own, gets its own copy', async () => {
      const a = await startTestApp();
      const b = await startTestApp();
      const c = await startTestApp({ DATABASE_SHORT_READS_FIRST: 'false' });
      try {
        assert.ok(onLaneDatabase(a.database));
        assert.ok(!onLaneDatabase(b.database));
        assert.ok(!onLaneDatabase(c.database));
        await signUp(a);
        const users = async (t: TestApp) => (await t.sql<{ n: number }>(`SELECT count(*)::int AS n FROM users`))[0].n;
        assert.deepEqual([await users(a), await users(b), await users(c)], [2, 1, 1]);
      } finally {
        await Promise.all([a.close(), b.close(), c.close()]);
      }
    });
  },
);
