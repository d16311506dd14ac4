import { ConfigError, loadConfig } from '#common';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { QueryFailedError } from 'typeorm';
import { createApiKey, createProject, createWorkspace, signUp } from '../support/fixtures';
import { jsonLines, listeningUrl, ROOT, startServer, waitExit } from '../support/processes';
import { ENGINE, migratedDatabaseEnv, startTestApp, TestApp } from '../support/test-app';

/**
 * The embedded database in a worker thread (`EMBEDDED_DB_THREAD=worker`, libs/database
 * `embedded-worker.ts`; docs/decisions.md "Embedded database off the main thread"): reads, writes,
 * transactions and their rollback through HTTP, PostgreSQL's errors as usual, a dropped connection's
 * session cleaned up, a clean stop, and a crash of the worker ending the process. Embedded only.
 */
describe('embedded database in a worker thread', { skip: ENGINE === 'postgres' && 'embedded engine only' }, () => {
  describe('through HTTP', () => {
    let t: TestApp;
    let key: string;
    let slug: string;
    let project: { id: string };
    const items = () => `/api/v1/workspaces/${slug}/projects/${project.id}/work-items/`;
    const pool = () =>
      (t.database.dataSource.driver as unknown as { master: { connect(): Promise<PoolClient> } }).master;

    before(async () => {
      t = await startTestApp({ EMBEDDED_DB_THREAD: 'worker' });
      const owner = await signUp(t);
      slug = (await createWorkspace(t, owner.token)).slug;
      key = await createApiKey(t, owner.token, slug);
      project = await createProject(t, key, slug);
    });
    after(() => t?.close());

    it('runs on the worker: the connection is a stream to the worker thread', async () => {
      assert.equal(t.config.database.embeddedThread, 'worker');
      const client = await pool().connect();
      try {
        assert.equal(client.connection.stream.constructor.name, 'WorkerSocket');
      } finally {
        client.release();
      }
    });

    it('writes, reads, updates and deletes; concurrent creates are numbered without gaps', async () => {
      const created = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          t.api
            .post(items())
            .set('X-API-Key', key)
            .send({ name: `Item ${i}` }),
        ),
      );
      for (const res of created) assert.equal(res.status, 201, JSON.stringify(res.body));
      const seqs = created.map((r) => r.body.sequence_id as number).sort((a, b) => a - b);
      assert.deepEqual(
        seqs,
        Array.from({ length: 12 }, (_, i) => i + 1),
      );
      // reads while writing
      const [one, list, patched] = await Promise.all([
        t.api.get(`${items()}${created[0].body.id}/`).set('X-API-Key', key),
        t.api.get(`${items()}?per_page=5`).set('X-API-Key', key),
        t.api
          .patch(`${items()}${created[1].body.id}/`)
          .set('X-API-Key', key)
          .send({ name: 'Renamed', priority: 'high' }),
      ]);
      assert.equal(one.status, 200, JSON.stringify(one.body));
      assert.equal(one.body.name, created[0].body.name);
      assert.equal(list.status, 200, JSON.stringify(list.body));
      assert.equal(list.body.total_count, 12);
      assert.equal(list.body.results.length, 5);
      assert.equal(patched.status, 200, JSON.stringify(patched.body));
      const again = await t.api.get(`${items()}${created[1].body.id}/`).set('X-API-Key', key);
      assert.deepEqual([again.body.name, again.body.priority], ['Renamed', 'high']);
      const del = await t.api.delete(`${items()}${created[2].body.id}/`).set('X-API-Key', key);
      assert.equal(del.status, 204);
      const gone = await t.api.get(`${items()}${created[2].body.id}/`).set('X-API-Key', key);
      assert.equal(gone.status, 404);
      const after = await t.api.get(`${items()}?per_page=1`).set('X-API-Key', key);
      assert.equal(after.body.total_count, 11);
    });

    it('a failed transaction is rolled back; PostgreSQL errors keep their SQLSTATE (409 for a taken identifier)', async () => {
      const taken = await createProject(t, key, slug);
      const dup = await t.api
        .post(`/api/v1/workspaces/${slug}/projects/`)
        .set('X-API-Key', key)
        .send({ name: 'Another', identifier: taken.identifier });
      assert.equal(dup.status, 409, JSON.stringify(dup.body));
      assert.equal(dup.body.error_code, 'PROJECT_IDENTIFIER_TAKEN');

      // a transaction that writes, then fails: nothing of it is seen through HTTP
      const before = await t.api.get(`${items()}?per_page=1`).set('X-API-Key', key);
      const victim = before.body.results[0] as { id: string; name: string };
      await assert.rejects(
        t.database.dataSource.transaction(async (em) => {
          await em.query('UPDATE issues SET name = $1 WHERE id = $2', ['Inside the transaction', victim.id]);
          await em.query('SELECT 1 / 0');
        }),
        (err: unknown) => err instanceof QueryFailedError && (err.driverError as { code?: string }).code === '22012',
      );
      const read = await t.api.get(`${items()}${victim.id}/`).set('X-API-Key', key);
      assert.equal(read.status, 200);
      assert.equal(read.body.name, victim.name, 'rolled back');
      const rename = await t.api.patch(`${items()}${victim.id}/`).set('X-API-Key', key).send({ name: 'After' });
      assert.equal(rename.status, 200, 'the connection is usable after the rollback');
    });

    it("a connection dropped mid-transaction: its writes are gone and the next connection's session is clean", async () => {
      const made = await t.api.post(items()).set('X-API-Key', key).send({ name: 'Victim' });
      assert.equal(made.status, 201, JSON.stringify(made.body));
      const victim = made.body as { id: string; name: string };
      const client = await pool().connect();
      await client.query('BEGIN');
      await client.query('UPDATE issues SET name = $1 WHERE id = $2', ['Abandoned', victim.id]);
      client.release(new Error('dropped by the test')); // the pool ends this connection: a new one is opened
      // the new connection prepares its named statements again (the old ones were deallocated) and
      // sees no open transaction: the update was rolled back, and the row is not locked
      const read = await t.api.get(`${items()}${victim.id}/`).set('X-API-Key', key);
      assert.equal(read.status, 200, JSON.stringify(read.body));
      assert.equal(read.body.name, victim.name);
      const rename = await t.api.patch(`${items()}${victim.id}/`).set('X-API-Key', key).send({ name: 'Clean' });
      assert.equal(rename.status, 200, JSON.stringify(rename.body));
      const [state] = await t.sql<{ in_tx: boolean }>('SELECT now() <> statement_timestamp() AS in_tx');
      assert.equal(state.in_tx, false, 'no transaction left open');
    });
  });

  describe('the buffer pool (EMBEDDED_SHARED_BUFFERS)', () => {
    const cases: [string, Record<string, string>, string][] = [
      ['by default, in the worker', {}, '32MB'],
      ['as set, in the worker', { EMBEDDED_SHARED_BUFFERS: '16MB' }, '16MB'],
      ['as set, on the main thread', { EMBEDDED_DB_THREAD: 'main', EMBEDDED_SHARED_BUFFERS: '256kB' }, '256kB'],
    ];
    for (const [label, env, expected] of cases) {
      it(`PGlite starts with it ${label}: ${expected}`, async () => {
        const app = await startTestApp(env);
        try {
          const [row] = await app.sql<{ shared_buffers: string }>('SHOW shared_buffers');
          assert.equal(row.shared_buffers, expected);
        } finally {
          await app.close();
        }
      });
    }

    it('must be a size in kB, MB or GB of at least 128kB', () => {
      for (const value of ['lots', '32', '32mb', '0MB', '64kB']) {
        assert.throws(
          () => loadConfig({ NODE_ENV: 'test', EMBEDDED_SHARED_BUFFERS: value }),
          (err: Error) => err instanceof ConfigError && /EMBEDDED_SHARED_BUFFERS must/.test(err.message),
          value,
        );
      }
      assert.equal(
        loadConfig({ NODE_ENV: 'test', EMBEDDED_SHARED_BUFFERS: '128kB' }).database.embeddedSharedBuffers,
        '128kB',
      );
    });
  });

  describe('as a server process', () => {
    let env: Record<string, string>;
    let drop: () => Promise<void>;
    before(async () => {
      ({ env, drop } = await migratedDatabaseEnv());
      env = { ...env, EMBEDDED_DB_THREAD: 'worker', NODE_ENV: 'production', SECRET_KEY: 'w'.repeat(64) };
    });
    after(() => drop?.());
    const lock = () => path.join(env.DATA_DIR, 'meridian.lock');

    const claim = async (url: string) => {
      const res = await fetch(`${url}/api/instances/admins/sign-up/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          email: 'worker-admin@example.com',
          password: 'worker admin password 1',
          first_name: 'W',
          company_name: 'W',
        }),
      });
      assert.ok(res.status === 200 || res.status === 201, await res.text());
    };
    const signUpUser = (url: string) =>
      fetch(`${url}/auth/sign-up/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'worker-user@example.com', password: 'worker user password' }),
      });

    it('SIGTERM: PGlite is closed in the worker, then the lock is released; the data is there on the next start', async () => {
      const first = await startServer(env);
      const url = listeningUrl(first.output());
      await claim(url);
      assert.equal((await signUpUser(url)).status, 201);
      assert.ok(fs.existsSync(lock()));
      first.child.kill('SIGTERM');
      const exit = await waitExit(first.child);
      assert.deepEqual(exit, { code: 0, signal: null }, first.output());
      assert.equal(fs.existsSync(lock()), false, 'lock released');
      assert.ok(
        jsonLines(first.output()).some((l) => l.msg === 'stopped'),
        first.output(),
      );

      const second = await startServer(env);
      try {
        // the user signed up before the stop exists: signing up again is refused
        const again = await signUpUser(listeningUrl(second.output()));
        assert.equal(again.status, 409);
        assert.equal(((await again.json()) as { error_code: string }).error_code, 'USER_ALREADY_EXIST');
      } finally {
        second.child.kill('SIGTERM');
        assert.equal((await waitExit(second.child)).code, 0);
      }
    });

    it('a crash of the worker ends the process (exit 1, one line on stderr), the lock released; the next start works', async () => {
      const preload = path.join(ROOT, 'dist', 'test', 'support', 'worker-crash-preload.js');
      const server = await startServer({ ...env, NODE_OPTIONS: `--require ${preload}` });
      const url = listeningUrl(server.output());
      let stderr = '';
      server.child.stderr!.on('data', (d) => (stderr += d));
      // requests in flight when the worker goes: they fail (the process ends), none hangs
      const inFlight = Array.from({ length: 8 }, () =>
        fetch(`${url}/health`)
          .then((r) => r.status)
          .catch(() => 'failed'),
      );
      server.child.kill('SIGUSR2');
      const exit = await Promise.race([
        waitExit(server.child),
        new Promise((r) => setTimeout(() => r('still running after 15 s'), 15_000)),
      ]);
      assert.deepEqual(exit, { code: 1, signal: null }, server.output());
      assert.match(stderr, /^meridian: The embedded database's worker thread stopped unexpectedly/m);
      // (output() is stdout and stderr together: the JSON lines are stdout's)
      const logged = jsonLines(
        server
          .output()
          .split('\n')
          .filter((l) => l.startsWith('{'))
          .join('\n'),
      );
      assert.ok(
        logged.some((l) => l.level === 60 && l.msg === 'the embedded database stopped: exiting'),
        server.output(),
      );
      for (const r of await Promise.all(inFlight)) assert.ok(r === 200 || r === 503 || r === 'failed', String(r));
      assert.equal(fs.existsSync(lock()), false, 'lock released');

      const next = await startServer(env);
      try {
        const health = await fetch(`${listeningUrl(next.output())}/health`);
        assert.equal(health.status, 200);
      } finally {
        next.child.kill('SIGTERM');
        await waitExit(next.child);
      }
    });
  });
});

interface PoolClient {
  query(text: string, values?: unknown[]): Promise<unknown>;
  release(err?: Error): void;
  connection: { stream: object };
}
