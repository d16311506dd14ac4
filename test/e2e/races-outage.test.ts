import assert from 'node:assert/strict';
import * as net from 'node:net';
import { after, before, describe, it } from 'node:test';
import { Client } from 'pg';
import { createApiKey, createProject, createWorkspace, signUp } from '../support/fixtures';
import { ENGINE, freshDatabaseEnv, startTestApp, TestApp } from '../support/test-app';

/**
 * Never a 500 from concurrency or from a database that cannot be reached:
 *
 * - a PATCH racing a DELETE of the same work item answers 200/204 or 404, never 500;
 * - parallel upserts (`PUT …/work-items/`) of one `external_id` create once and update otherwise;
 * - while the database cannot be reached every route answers 503 `DATABASE_UNAVAILABLE` with
 *   `Retry-After` (`/health`: 503 `SERVICE_UNAVAILABLE`), and once it is back, 200 again without
 *   a restart.
 *
 * On PostgreSQL the server reaches the database through a TCP relay in this process, so a test can
 * refuse and cut its connections (as a stopped server would) and restore them. The embedded
 * database (PGlite) runs inside the server process on one connection: there is no socket to lose
 * and no other session to terminate it, so the outage tests run on PostgreSQL only; the races run
 * on both (on PGlite the requests still interleave between transactions).
 */

/** A TCP relay to PostgreSQL that can stop accepting (connections refused) and cut what it carries. */
async function startRelay(target: URL) {
  const sockets = new Set<net.Socket>();
  let server: net.Server | null = null;
  let port = 0;
  const listen = async () => {
    server = net.createServer((client) => {
      const upstream = net.connect(Number(target.port || 5432), target.hostname);
      for (const s of [client, upstream]) {
        sockets.add(s);
        s.on('close', () => sockets.delete(s));
        s.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((resolve) => server!.listen(port, '127.0.0.1', resolve));
    port = (server!.address() as net.AddressInfo).port;
  };
  await listen();
  return {
    get port() {
      return port;
    },
    /** Stops listening (new connections are refused) and resets every relayed connection. */
    async cut() {
      const closed = new Promise<void>((resolve) => server!.close(() => resolve()));
      for (const s of sockets) s.resetAndDestroy();
      await closed;
    },
    /** Listens again on the same port. */
    restore: listen,
    async close() {
      if (server?.listening) await this.cut();
    },
  };
}

describe('races and database outages: never a 500', () => {
  let t: TestApp;
  let token: string;
  let key: string;
  let slug: string;
  let projectId: string;
  let own: Awaited<ReturnType<typeof freshDatabaseEnv>> | null = null;
  let relay: Awaited<ReturnType<typeof startRelay>> | null = null;
  let dbName = '';
  const v = (path: string) => `/api/v1/workspaces/${slug}/projects/${projectId}/${path}`;
  const app = (path: string) => `/api/workspaces/${slug}/projects/${projectId}/${path}`;

  /** One request through the listening server (real sockets, real concurrency). */
  async function call(method: string, path: string, body?: unknown, auth: 'key' | 'bearer' = 'key') {
    const headers: Record<string, string> =
      auth === 'key' ? { 'X-API-Key': key } : { Authorization: `Bearer ${token}` };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const res = await fetch(`${t.url}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
  }

  async function admin<T>(fn: (c: Client) => Promise<T>): Promise<T> {
    const c = new Client({ connectionString: process.env.TEST_DATABASE_URL });
    await c.connect();
    try {
      return await fn(c);
    } finally {
      await c.end();
    }
  }

  before(async () => {
    const env: Record<string, string> = { API_KEY_RATE_LIMIT: '1000000/minute' };
    if (ENGINE === 'postgres') {
      own = await freshDatabaseEnv();
      const url = new URL(own.env.DATABASE_URL);
      dbName = url.pathname.slice(1);
      relay = await startRelay(new URL(url));
      url.hostname = '127.0.0.1';
      url.port = String(relay.port);
      env.DATABASE_URL = url.toString();
    }
    t = await startTestApp(env);
    const owner = await signUp(t);
    token = owner.token;
    slug = (await createWorkspace(t, token)).slug;
    key = await createApiKey(t, token, slug);
    projectId = (await createProject(t, key, slug)).id;
  });
  after(async () => {
    await t?.close();
    await relay?.close();
    await own?.drop();
  });

  async function createItems(n: number): Promise<string[]> {
    const ids: string[] = [];
    for (let k = 0; k < n; k++) {
      const res = await call('POST', v('work-items/'), { name: `Race ${k}` });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      ids.push(res.body.id);
    }
    return ids;
  }

  it('a PATCH racing a DELETE of the same work item answers 200 (v1) or 204 (App API), or 404 NOT_FOUND; never 500', async () => {
    const ids = await createItems(ENGINE === 'postgres' ? 120 : 60);
    const seen: Record<string, number> = {};
    const tally = (what: string) => (seen[what] = (seen[what] ?? 0) + 1);
    await Promise.all(
      ids.map(async (id, k) => {
        const viaApp = k % 2 === 1;
        const [patch, del] = await Promise.all([
          viaApp
            ? call('PATCH', app(`issues/${id}/`), { name: `Renamed ${k}`, priority: 'high' }, 'bearer')
            : call('PATCH', v(`work-items/${id}/`), { name: `Renamed ${k}`, priority: 'high' }),
          call('DELETE', v(`work-items/${id}/`)),
        ]);
        tally(
          `${viaApp ? 'app' : 'v1'} PATCH ${patch.status}${patch.body?.error_code ? ` ${patch.body.error_code}` : ''}`,
        );
        tally(`DELETE ${del.status}`);
        assert.ok(
          patch.status === (viaApp ? 204 : 200) || (patch.status === 404 && patch.body.error_code === 'NOT_FOUND'),
          `PATCH ${id}: ${patch.status} ${JSON.stringify(patch.body)}`,
        );
        assert.equal(del.status, 204, JSON.stringify(del.body));
      }),
    );
    // every work item is gone in the end, whichever request won
    const left = await t.sql<{ n: string }>(
      'SELECT COUNT(*) AS n FROM issues WHERE id = ANY($1) AND deleted_at IS NULL',
      [ids],
    );
    assert.equal(Number(left[0].n), 0, JSON.stringify(seen));
  });

  it('parallel DELETEs of one comment or one link (v1 and App API): one 204, the rest 404 NOT_FOUND, one history row', async () => {
    const [issueId] = await createItems(1);
    const rounds = ENGINE === 'postgres' ? 8 : 4;
    for (let round = 0; round < rounds; round++) {
      const comment = await call('POST', v(`work-items/${issueId}/comments/`), { comment_html: `<p>c${round}</p>` });
      assert.equal(comment.status, 201, JSON.stringify(comment.body));
      const link = await call('POST', v(`work-items/${issueId}/links/`), { url: `https://example.com/${round}` });
      assert.equal(link.status, 201, JSON.stringify(link.body));
      const deletes = await Promise.all([
        call('DELETE', v(`work-items/${issueId}/comments/${comment.body.id}/`)),
        call('DELETE', app(`issues/${issueId}/comments/${comment.body.id}/`), undefined, 'bearer'),
        call('DELETE', v(`issues/${issueId}/comments/${comment.body.id}/`)),
        call('DELETE', app(`issues/${issueId}/comments/${comment.body.id}/`), undefined, 'bearer'),
        call('DELETE', v(`work-items/${issueId}/links/${link.body.id}/`)),
        call('DELETE', app(`issues/${issueId}/issue-links/${link.body.id}/`), undefined, 'bearer'),
        call('DELETE', v(`issues/${issueId}/links/${link.body.id}/`)),
        call('DELETE', app(`issues/${issueId}/issue-links/${link.body.id}/`), undefined, 'bearer'),
      ]);
      for (const [what, answers] of [
        ['comment', deletes.slice(0, 4)],
        ['link', deletes.slice(4)],
      ] as const) {
        const statuses = answers.map((r) => r.status).sort();
        assert.deepEqual(statuses, [204, 404, 404, 404], `${what} round ${round}: ${JSON.stringify(answers)}`);
        for (const r of answers.filter((r) => r.status === 404)) assert.equal(r.body.error_code, 'NOT_FOUND');
      }
      const history = await t.sql<{ field: string; n: string }>(
        `SELECT field, COUNT(*) AS n FROM issue_activities
          WHERE issue_id = $1 AND verb = 'deleted' AND (issue_comment_id = $2 OR old_identifier = $3) GROUP BY field`,
        [issueId, comment.body.id, link.body.id],
      );
      assert.deepEqual(
        Object.fromEntries(history.map((h) => [h.field, Number(h.n)])),
        { comment: 1, link: 1 },
        `round ${round}`,
      );
    }
  });

  it(
    'ten parallel upserts (PUT work-items/) of one external_id: one 201, nine 200, all naming one work item' +
      (ENGINE === 'postgres' ? '' : ' (the embedded database serialises them)'),
    async () => {
      for (let round = 0; round < 3; round++) {
        const externalId = `EXT-${round}-${Date.now()}`;
        const answers = await Promise.all(
          Array.from({ length: 10 }, (_, k) =>
            call('PUT', v('work-items/'), {
              name: `Imported ${k}`,
              external_id: externalId,
              external_source: 'race',
              priority: 'low',
            }),
          ),
        );
        const statuses = answers.map((a) => a.status).sort();
        assert.deepEqual(
          statuses,
          [200, 200, 200, 200, 200, 200, 200, 200, 200, 201],
          JSON.stringify(answers.map((a) => a.body)),
        );
        const ids = new Set(answers.map((a) => a.body.id));
        assert.equal(ids.size, 1, 'all answers name one work item');
        const rows = await t.sql<{ id: string }>(
          'SELECT id FROM issues WHERE project_id = $1 AND external_id = $2 AND external_source = $3 AND deleted_at IS NULL',
          [projectId, externalId, 'race'],
        );
        assert.deepEqual(
          rows.map((r) => r.id),
          [...ids],
        );
      }
    },
  );

  /** GETs until `status` answers (the pool reconnects by itself), within `ms`. */
  async function until(status: number, path: string, ms = 10_000) {
    const deadline = Date.now() + ms;
    for (;;) {
      const res = await call('GET', path);
      if (res.status === status || Date.now() > deadline) return res;
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  function assertUnavailable(
    res: { status: number; headers: Headers; body: { error_code?: string; detail?: string } },
    what: string,
  ) {
    assert.equal(res.status, 503, `${what}: ${JSON.stringify(res.body)}`);
    assert.equal(res.body.error_code, 'DATABASE_UNAVAILABLE', what);
    assert.equal(typeof res.body.detail, 'string');
    assert.match(res.headers.get('retry-after') ?? '', /^\d+$/, `${what}: Retry-After`);
  }

  async function duringOutage() {
    const [list, create, app1, me] = await Promise.all([
      call('GET', v('work-items/')),
      call('POST', v('work-items/'), { name: 'while down' }),
      call('GET', app('issues/'), undefined, 'bearer'),
      call('GET', '/api/users/me/', undefined, 'bearer'),
    ]);
    assertUnavailable(list, 'v1 list');
    assertUnavailable(create, 'v1 create');
    assertUnavailable(app1, 'App list');
    assertUnavailable(me, 'users/me');
    const health = await call('GET', '/health');
    assert.equal(health.status, 503);
    assert.equal(health.body.error_code, 'SERVICE_UNAVAILABLE');
  }

  it(
    'connections refused and cut (the server stopped): 503 DATABASE_UNAVAILABLE with Retry-After; 200 again once it is back',
    { skip: ENGINE !== 'postgres' && 'PostgreSQL only: the embedded database has no connection to refuse' },
    async () => {
      assert.equal((await call('GET', v('work-items/'))).status, 200);
      await relay!.cut();
      try {
        await duringOutage();
      } finally {
        await relay!.restore();
      }
      const back = await until(200, v('work-items/'));
      assert.equal(back.status, 200, JSON.stringify(back.body));
      assert.equal((await call('POST', v('work-items/'), { name: 'after the outage' })).status, 201);
      assert.equal((await until(200, '/health')).status, 200);
    },
  );

  it(
    'database closed to connections and its sessions terminated (ALLOW_CONNECTIONS false, pg_terminate_backend): 503 with Retry-After; 200 once reopened',
    { skip: ENGINE !== 'postgres' && 'PostgreSQL only: the embedded database has no sessions to terminate' },
    async () => {
      assert.equal((await call('GET', v('work-items/'))).status, 200);
      await admin(async (c) => {
        await c.query(`ALTER DATABASE "${dbName}" ALLOW_CONNECTIONS false`);
        await c.query(
          'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
          [dbName],
        );
      });
      try {
        await duringOutage();
      } finally {
        await admin((c) => c.query(`ALTER DATABASE "${dbName}" ALLOW_CONNECTIONS true`));
      }
      const back = await until(200, v('work-items/'));
      assert.equal(back.status, 200, JSON.stringify(back.body));
      assert.equal((await call('POST', v('work-items/'), { name: 'after reopening' })).status, 201);
    },
  );
});
