import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { MIGRATION_LOCK_KEY, runMigrationsLocked } from '#database';
import { Client } from 'pg';
import { assertError, createAppProject, createWorkspace, signUp, SignedUp } from '../support/fixtures';
import { ENGINE, startTestApp, TestApp } from '../support/test-app';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const EMBEDDED_CANNOT_CANCEL =
  'the embedded database (PGlite) accepts statement_timeout and lock_timeout but never cancels a statement ' +
  '(no timer interrupt in WebAssembly), and its one session never waits for another session’s lock';

/** A second session on the test app's PostgreSQL database that holds `issues` locked until `release()`. */
async function lockIssues(t: TestApp): Promise<{ client: Client; release(): Promise<void> }> {
  const client = new Client({ connectionString: t.config.database.url });
  await client.connect();
  await client.query('BEGIN');
  await client.query('LOCK TABLE issues IN ACCESS EXCLUSIVE MODE');
  let released = false;
  return {
    client,
    release: async () => {
      if (released) return;
      released = true;
      await client.query('ROLLBACK');
      await client.end();
    },
  };
}

/** Asserts a 503 `DATABASE_TIMEOUT` with a whole number of seconds in `Retry-After`. */
function assertTimeout(res: { status: number; body: unknown; headers: Record<string, string> }) {
  assertError(res, 503, 'DATABASE_TIMEOUT');
  assert.match(res.headers['retry-after'] ?? '', /^[1-9]\d*$/, 'Retry-After');
}

/**
 * Database time is bounded (issue 36 item 2): on PostgreSQL every server connection has
 * `statement_timeout` (`DATABASE_STATEMENT_TIMEOUT_MS`) and `lock_timeout` (`DATABASE_LOCK_TIMEOUT_MS`);
 * a request whose statement is cancelled for either answers 503 `DATABASE_TIMEOUT` with `Retry-After`
 * instead of hanging behind a lock; background jobs (an export) run under
 * `DATABASE_JOB_STATEMENT_TIMEOUT_MS` and outlast the request limit.
 */
describe('database timeouts', () => {
  describe('the answer to a statement cancelled for time (both engines)', () => {
    let t: TestApp;
    let ada: SignedUp;
    let ws: { slug: string };
    let project: { id: string };
    const bearer = (u: SignedUp) => ({ Authorization: `Bearer ${u.token}` });

    before(async () => {
      t = await startTestApp();
      ada = await signUp(t);
      ws = await createWorkspace(t, ada.token);
      project = await createAppProject(t, ada.token, ws.slug);
    });
    after(async () => {
      await t.sql('DROP TRIGGER IF EXISTS meridian_test_timeout ON issues');
      await t.sql('DROP FUNCTION IF EXISTS meridian_test_timeout()');
      await t.close();
    });

    it('SQLSTATE 57014 (statement_timeout) and 55P03 (lock_timeout) answer 503 DATABASE_TIMEOUT with Retry-After; nothing is written', async () => {
      // a trigger raising what PostgreSQL raises when a timeout cancels the statement: the answer
      // is checked on both engines (the embedded one never cancels a statement by itself)
      for (const [sqlstate, message] of [
        ['57014', 'canceling statement due to statement timeout'],
        ['55P03', 'canceling statement due to lock timeout'],
      ]) {
        await t.sql(`CREATE OR REPLACE FUNCTION meridian_test_timeout() RETURNS trigger LANGUAGE plpgsql AS $$
          BEGIN RAISE EXCEPTION '${message}' USING ERRCODE = '${sqlstate}'; END $$`);
        await t.sql('DROP TRIGGER IF EXISTS meridian_test_timeout ON issues');
        await t.sql(
          'CREATE TRIGGER meridian_test_timeout BEFORE INSERT ON issues FOR EACH ROW EXECUTE FUNCTION meridian_test_timeout()',
        );
        const res = await t.api
          .post(`/api/workspaces/${ws.slug}/projects/${project.id}/issues/`)
          .set(bearer(ada))
          .send({ name: `timed out ${sqlstate}` });
        assertTimeout(res);
        assert.deepEqual(Object.keys(res.body).sort(), ['detail', 'error_code']);
        assert.doesNotMatch(res.body.detail, /canceling|SELECT|INSERT/);
      }
      await t.sql('DROP TRIGGER meridian_test_timeout ON issues');
      const rows = await t.sql(`SELECT id FROM issues WHERE name LIKE 'timed out%'`);
      assert.equal(rows.length, 0);
      const ok = await t.api
        .post(`/api/workspaces/${ws.slug}/projects/${project.id}/issues/`)
        .set(bearer(ada))
        .send({ name: 'written' });
      assert.equal(ok.status, 201, JSON.stringify(ok.body));
    });
  });

  describe('lock_timeout on PostgreSQL', { skip: ENGINE === 'embedded' ? EMBEDDED_CANNOT_CANCEL : false }, () => {
    const LOCK_TIMEOUT_MS = 600;
    let t: TestApp;
    let ada: SignedUp;
    let ws: { slug: string };
    let project: { id: string };
    const bearer = (u: SignedUp) => ({ Authorization: `Bearer ${u.token}` });

    before(async () => {
      t = await startTestApp({ DATABASE_LOCK_TIMEOUT_MS: String(LOCK_TIMEOUT_MS) });
      ada = await signUp(t);
      ws = await createWorkspace(t, ada.token);
      project = await createAppProject(t, ada.token, ws.slug);
    });
    after(() => t.close());

    it('a write behind a table lock answers 503 DATABASE_TIMEOUT with Retry-After within about the lock timeout; once the lock goes it is written', async () => {
      const [{ statement_timeout, lock_timeout, jit }] = await t.database.dataSource.query<
        Array<{ statement_timeout: string; lock_timeout: string; jit: string }>
      >(
        `SELECT current_setting('statement_timeout') AS statement_timeout, current_setting('lock_timeout') AS lock_timeout, current_setting('jit') AS jit`,
      );
      // JIT off unless DATABASE_JIT (below)
      assert.deepEqual(
        { statement_timeout, lock_timeout, jit },
        { statement_timeout: '30s', lock_timeout: '600ms', jit: 'off' },
      );

      const lock = await lockIssues(t);
      try {
        const started = Date.now();
        const res = await t.api
          .post(`/api/workspaces/${ws.slug}/projects/${project.id}/issues/`)
          .set(bearer(ada))
          .send({ name: 'behind the lock' })
          .timeout(LOCK_TIMEOUT_MS + 5000);
        const took = Date.now() - started;
        assertTimeout(res);
        assert.ok(took >= LOCK_TIMEOUT_MS * 0.9, `answered after ${took} ms, before the lock timeout`);
        assert.ok(took < LOCK_TIMEOUT_MS + 4000, `answered after ${took} ms`);
        // a read of the locked table waits as long, and answers the same
        const list = await t.api
          .get(`/api/workspaces/${ws.slug}/projects/${project.id}/issues/`)
          .set(bearer(ada))
          .timeout(LOCK_TIMEOUT_MS + 5000);
        assertTimeout(list);
      } finally {
        await lock.release();
      }
      const ok = await t.api
        .post(`/api/workspaces/${ws.slug}/projects/${project.id}/issues/`)
        .set(bearer(ada))
        .send({ name: 'behind the lock' });
      assert.equal(ok.status, 201, JSON.stringify(ok.body));
      const rows = await t.sql(`SELECT id FROM issues WHERE name = 'behind the lock'`);
      assert.equal(rows.length, 1);
    });

    it("DATABASE_JIT=true leaves the database's own jit setting on the server's connections", async () => {
      const withJit = await startTestApp({ DATABASE_JIT: 'true' });
      const plain = new Client({ connectionString: withJit.config.database.url });
      try {
        await plain.connect();
        const [own] = (await plain.query<{ jit: string }>(`SELECT current_setting('jit') AS jit`)).rows;
        const [{ jit }] = await withJit.database.dataSource.query<Array<{ jit: string }>>(
          `SELECT current_setting('jit') AS jit`,
        );
        assert.equal(jit, own.jit);
        assert.equal(jit, 'on', "this PostgreSQL's default");
      } finally {
        await plain.end();
        await withJit.close();
      }
    });

    it('migrations wait for another process’s migration lock past the lock timeout (DATABASE_JOB_STATEMENT_TIMEOUT_MS)', async () => {
      // another process migrating: it holds the migration advisory lock for longer than lock_timeout
      const other = new Client({ connectionString: t.config.database.url });
      await other.connect();
      try {
        await other.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
        const freed = sleep(LOCK_TIMEOUT_MS * 2.5).then(() =>
          other.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]),
        );
        const started = Date.now();
        assert.deepEqual(await runMigrationsLocked(t.database.dataSource), []);
        assert.ok(Date.now() - started >= LOCK_TIMEOUT_MS * 2, 'waited for the other process');
        await freed;
      } finally {
        await other.end();
      }
    });
  });

  describe(
    'statement_timeout on PostgreSQL; an export keeps its own limit',
    { skip: ENGINE === 'embedded' ? EMBEDDED_CANNOT_CANCEL : false },
    () => {
      const STATEMENT_TIMEOUT_MS = 1500;
      let t: TestApp;
      let ada: SignedUp;
      let ws: { slug: string };
      let project: { id: string };
      const bearer = (u: SignedUp) => ({ Authorization: `Bearer ${u.token}` });

      before(async () => {
        // no lock timeout: the wait for the lock is what makes the statement slow
        t = await startTestApp({
          DATABASE_STATEMENT_TIMEOUT_MS: String(STATEMENT_TIMEOUT_MS),
          DATABASE_LOCK_TIMEOUT_MS: '0',
        });
        ada = await signUp(t);
        ws = await createWorkspace(t, ada.token);
        project = await createAppProject(t, ada.token, ws.slug);
        const item = await t.api
          .post(`/api/workspaces/${ws.slug}/projects/${project.id}/issues/`)
          .set(bearer(ada))
          .send({ name: 'exported' });
        assert.equal(item.status, 201, JSON.stringify(item.body));
      });
      after(() => t.close());

      it('a statement running past statement_timeout answers 503 DATABASE_TIMEOUT with Retry-After', async () => {
        const lock = await lockIssues(t);
        try {
          const started = Date.now();
          const res = await t.api
            .get(`/api/workspaces/${ws.slug}/projects/${project.id}/issues/`)
            .set(bearer(ada))
            .timeout(STATEMENT_TIMEOUT_MS + 5000);
          const took = Date.now() - started;
          assertTimeout(res);
          assert.ok(took >= STATEMENT_TIMEOUT_MS * 0.9, `answered after ${took} ms, before the statement timeout`);
          assert.ok(took < STATEMENT_TIMEOUT_MS + 4000, `answered after ${took} ms`);
        } finally {
          await lock.release();
        }
        const ok = await t.api.get(`/api/workspaces/${ws.slug}/projects/${project.id}/issues/`).set(bearer(ada));
        assert.equal(ok.status, 200, JSON.stringify(ok.body));
      });

      it('an export waiting longer than statement_timeout for the same lock completes (DATABASE_JOB_STATEMENT_TIMEOUT_MS)', async () => {
        const lock = await lockIssues(t);
        try {
          const res = await t.api
            .post(`/api/workspaces/${ws.slug}/export-issues/`)
            .set(bearer(ada))
            .send({ provider: 'csv', project: [project.id] });
          assert.equal(res.status, 200, JSON.stringify(res.body));
          // the export's read of the work items waits for the lock…
          let waiting = 0;
          for (let i = 0; i < 100 && !waiting; i++) {
            const rows = await lock.client.query<{ n: string }>(
              `SELECT count(*) AS n FROM pg_locks WHERE NOT granted AND relation = 'issues'::regclass`,
            );
            waiting = Number(rows.rows[0].n);
            if (!waiting) await sleep(50);
          }
          assert.equal(waiting, 1, 'the export waits for the lock');
          // …longer than a request's statement may run
          await sleep(STATEMENT_TIMEOUT_MS + 1000);
        } finally {
          await lock.release();
        }
        let status = 'queued';
        for (let i = 0; i < 200 && (status === 'queued' || status === 'processing'); i++) {
          const list = await t.api
            .get(`/api/workspaces/${ws.slug}/export-issues/?per_page=10&cursor=10:0:0`)
            .set(bearer(ada));
          assert.equal(list.status, 200, JSON.stringify(list.body));
          status = list.body.results[0].status as string;
          if (status === 'queued' || status === 'processing') await sleep(50);
        }
        assert.equal(status, 'completed');
      });
    },
  );
});
