import assert from 'node:assert/strict';
import { ChildProcess } from 'node:child_process';
import * as http from 'node:http';
import * as net from 'node:net';
import { after, before, describe, it } from 'node:test';
import { Client } from 'pg';
import request from 'supertest';
import { createApiKey, createAppProject, createWorkspace, signUp, SignedUp, unique } from '../support/fixtures';
import { CLI, listeningUrl, runNode, startServer, waitExit } from '../support/processes';
import { ReplicaProxy } from '../support/replica-proxy';
import { ENGINE, migratedDatabaseEnv, TEST_ADMIN, TestApp } from '../support/test-app';

/**
 * README "Replicas": two server processes on one PostgreSQL and one Redis behind a load balancer
 * (`ReplicaProxy`: http-proxy-3 with health checks and round robin). Under load from clients that
 * go through the proxy, it shows a rolling restart without one failed request, one webhook delivery
 * per event across the replicas, a revoked API key and a changed role refused on every replica at
 * once (through Redis), and the per-key limit exact across the replicas.
 */
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const REPLICAS = 2;
const KEY_LIMIT = 20;
const bearer = { type: 'bearer' } as const;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function reachable(url: string): Promise<boolean> {
  const u = new URL(url);
  return new Promise((resolve) => {
    const s = net.connect(Number(u.port || 6379), u.hostname);
    s.setTimeout(1000);
    s.once('connect', () => (s.destroy(), resolve(true)));
    s.once('error', () => resolve(false));
    s.once('timeout', () => (s.destroy(), resolve(false)));
  });
}

function over(url: string): TestApp {
  return { api: request(url) } as unknown as TestApp;
}

/** A webhook receiver that answers at once and records each delivery's id and event. */
async function startReceiver() {
  const got: { delivery: string; event: string; action: string; id: string }[] = [];
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const body = JSON.parse(raw) as { event: string; action: string; data: { id: string } };
      got.push({
        delivery: String(req.headers['x-plane-delivery']),
        event: body.event,
        action: body.action,
        id: body.data?.id,
      });
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    got,
    url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}/hook`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const SKIP =
  ENGINE !== 'postgres' ? 'PostgreSQL only: the embedded database serves one process (set TEST_DATABASE_URL)' : false;

describe('replicas behind a load balancer (PostgreSQL and Redis)', () => {
  if (SKIP) {
    it('rolling restart, webhooks, revocation and limits across replicas', { skip: SKIP }, () => undefined);
    return;
  }
  {
    let db: Awaited<ReturnType<typeof migratedDatabaseEnv>>;
    let env: Record<string, string>;
    let proxy: ReplicaProxy;
    let rx: Awaited<ReturnType<typeof startReceiver>>;
    let lb: TestApp;
    const replicas: { child: ChildProcess; url: string }[] = [];
    let owner: SignedUp;
    let ws: { id: string; slug: string };
    let project: { id: string };
    let sql: Client;

    async function startReplica(): Promise<{ child: ChildProcess; url: string }> {
      const server = await startServer(env);
      const url = listeningUrl(server.output());
      proxy.add(url);
      await proxy.waitHealthy(url);
      return { child: server.child, url };
    }

    before(async () => {
      if (!(await reachable(REDIS_URL))) assert.fail(`Redis is not reachable at ${REDIS_URL} (set TEST_REDIS_URL)`);
      db = await migratedDatabaseEnv();
      rx = await startReceiver();
      proxy = new ReplicaProxy(100);
      lb = over(await proxy.listen());
      env = {
        ...db.env,
        REDIS_URL,
        REDIS_KEY_PREFIX: `${unique('replicas-')}:`,
        PASSWORD_HASH_COST: 'test',
        AUTH_SIGN_UP_RATE_LIMIT: '10000/minute',
        API_KEY_RATE_LIMIT: `${KEY_LIMIT}/minute`,
        // long: only Redis can make a revocation reach the other replicas in time
        ACCESS_CACHE_TTL_MS: '60000',
        // the proxy checks every 100 ms: 600 ms of draining takes a replica out of rotation first
        SHUTDOWN_DRAIN_MS: '600',
        TRUST_PROXY: '1',
        WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
        WEBHOOK_POLL_INTERVAL_MS: '100',
        WEBHOOK_SUBSCRIPTION_CACHE_MS: '0',
        LOG_LEVEL: 'info',
      };
      sql = new Client({ connectionString: env.DATABASE_URL });
      await sql.connect();
      const admin = await runNode([CLI, 'admin', 'create', '--email', TEST_ADMIN.email], {
        ...env,
        MERIDIAN_ADMIN_PASSWORD: TEST_ADMIN.password,
      });
      assert.equal(admin.code, 0, admin.stderr);
      for (const r of await Promise.all(Array.from({ length: REPLICAS }, () => startReplica()))) replicas.push(r);

      owner = await signUp(lb);
      ws = await createWorkspace(lb, owner.token);
      project = await createAppProject(lb, owner.token, ws.slug);
      const hook = await lb.api
        .post(`/api/workspaces/${ws.slug}/webhooks/`)
        .auth(owner.token, bearer)
        .send({ url: rx.url, issue: true, project: false, module: false, cycle: false, issue_comment: false });
      assert.equal(hook.status, 201, JSON.stringify(hook.body));
    });

    after(async () => {
      for (const r of replicas) if (r.child.exitCode === null) r.child.kill('SIGKILL');
      await Promise.all(replicas.map((r) => waitExit(r.child)));
      await proxy?.close();
      await rx?.close();
      await sql?.end();
      await db?.drop();
    });

    it('a rolling restart under load fails no request, and each event is delivered once across the replicas', async (t) => {
      const items = `/api/workspaces/${ws.slug}/projects/${project.id}/issues/`;
      const failures: string[] = [];
      const created: string[] = [];
      let requests = 0;
      let running = true;
      // four clients through the load balancer: create a work item, read it, list the project's
      const client = async (n: number) => {
        for (let i = 0; running; i++) {
          try {
            const res = await lb.api
              .post(items)
              .auth(owner.token, bearer)
              .send({ name: `load ${n}-${i}` });
            requests++;
            if (res.status !== 201) {
              failures.push(`POST ${res.status} ${res.text.slice(0, 200)}`);
              continue;
            }
            created.push(res.body.id);
            const one = await lb.api.get(`${items}${res.body.id}/`).auth(owner.token, bearer);
            requests++;
            if (one.status !== 200) failures.push(`GET one ${one.status} ${one.text.slice(0, 200)}`);
            const list = await lb.api.get(`/api/workspaces/${ws.slug}/projects/`).auth(owner.token, bearer);
            requests++;
            if (list.status !== 200) failures.push(`GET list ${list.status} ${list.text.slice(0, 200)}`);
          } catch (err) {
            requests++;
            failures.push(`error ${(err as Error).message}`);
          }
        }
      };
      const load = Promise.all([0, 1, 2, 3].map(client));
      await sleep(500);
      // one replica at a time: SIGTERM, wait for it to exit, start a new one, wait until it is in rotation
      const t0 = Date.now();
      for (let i = 0; i < replicas.length; i++) {
        const old = replicas[i];
        t.diagnostic(`+${Date.now() - t0} ms: SIGTERM replica ${i}`);
        old.child.kill('SIGTERM');
        const exit = await waitExit(old.child);
        assert.equal(exit.code, 0, `replica ${i} exit`);
        proxy.remove(old.url);
        t.diagnostic(`+${Date.now() - t0} ms: replica ${i} exited`);
        replicas[i] = await startReplica();
        t.diagnostic(`+${Date.now() - t0} ms: replica ${i} back in rotation`);
      }
      running = false;
      await load;
      t.diagnostic(`rolling restart: ${requests} requests, ${created.length} work items, ${failures.length} failed`);
      assert.deepEqual(failures, [], `${failures.length} of ${requests} requests failed`);
      assert.equal(proxy.proxyErrors, 0);
      assert.ok(requests > 100, `only ${requests} requests`);

      // every work item created gives exactly one delivery, whichever replica's worker sent it
      {
        const end = Date.now() + 20_000;
        for (;;) {
          const [{ n }] = (
            await sql.query(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE status = 'pending'`)
          ).rows as { n: number }[];
          if (n === 0) break;
          if (Date.now() > end) assert.fail(`${n} deliveries still pending`);
          await sleep(100);
        }
        const rows = (await sql.query(`SELECT status, count(*)::int AS n FROM webhook_deliveries GROUP BY status`))
          .rows as { status: string; n: number }[];
        assert.deepEqual(
          rows.map((r) => r.status),
          ['delivered'],
        );
      }
      const deliveries = rx.got.map((g) => g.delivery);
      assert.equal(new Set(deliveries).size, deliveries.length, 'a delivery was sent twice');
      const createdEvents = rx.got.filter((g) => g.event === 'issue' && g.action === 'created').map((g) => g.id);
      assert.deepEqual([...createdEvents].sort(), [...created].sort());
    });

    it('a revoked API key and a changed role are refused on every replica at once', async () => {
      const direct = replicas.map((r) => over(r.url));
      const tokens = `/api/workspaces/${ws.slug}/api-tokens/`;
      const made = await lb.api.post(tokens).auth(owner.token, bearer).send({ label: 'to revoke' });
      assert.equal(made.status, 201, JSON.stringify(made.body));
      const key = made.body.token as string;
      const member = await signUp(lb);
      await sql.query('INSERT INTO workspace_members (workspace_id, member_id, role) VALUES ($1, $2, 20)', [
        ws.id,
        member.userId,
      ]);
      const [{ id: row }] = (
        await sql.query('SELECT id FROM workspace_members WHERE workspace_id = $1 AND member_id = $2', [
          ws.id,
          member.userId,
        ])
      ).rows as { id: string }[];
      const projects = `/api/v1/workspaces/${ws.slug}/projects/`;
      // every replica has the key and the member's Admin role in its cache
      for (const t of direct) {
        assert.equal((await t.api.get(projects).set('X-API-Key', key)).status, 200);
        assert.equal((await t.api.get(tokens).auth(member.token, bearer)).status, 200);
      }
      const keyId = made.body.id as string;

      // revoke the key and demote the member through replica 0
      assert.equal((await direct[0].api.delete(`${tokens}${keyId}/`).auth(owner.token, bearer)).status, 204);
      assert.equal(
        (
          await direct[0].api
            .patch(`/api/workspaces/${ws.slug}/members/${row}/`)
            .auth(owner.token, bearer)
            .send({ role: 15 })
        ).status,
        200,
      );
      const changedAt = Date.now();
      // README: with Redis every replica sees it at once (the invalidation is published before the
      // answer); allow the message its flight time, far below ACCESS_CACHE_TTL_MS (60 s here)
      for (const [i, t] of direct.entries()) {
        for (;;) {
          const keyStatus = (await t.api.get(projects).set('X-API-Key', key)).status;
          const roleStatus = (await t.api.get(tokens).auth(member.token, bearer)).status;
          if (keyStatus === 401 && roleStatus === 403) break;
          assert.ok(Date.now() - changedAt < 1000, `replica ${i} still accepts (key ${keyStatus}, role ${roleStatus})`);
          await sleep(20);
        }
      }
    });

    it('the per-key limit is exact across the replicas', async () => {
      const key = await createApiKey(lb, owner.token, ws.slug);
      const direct = replicas.map((r) => over(r.url));
      const path = `/api/v1/workspaces/${ws.slug}/projects/`;
      // twice the limit, spread over the replicas, all at once
      const statuses = await Promise.all(
        Array.from({ length: KEY_LIMIT * 2 }, (_, i) =>
          direct[i % direct.length].api
            .get(path)
            .set('X-API-Key', key)
            .then((r) => r.status),
        ),
      );
      assert.equal(statuses.filter((s) => s === 200).length, KEY_LIMIT);
      assert.equal(statuses.filter((s) => s === 429).length, KEY_LIMIT);
    });
  }
});
