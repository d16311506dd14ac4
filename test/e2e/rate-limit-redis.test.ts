import Redis from 'ioredis';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import * as net from 'node:net';
import { after, before, describe, it } from 'node:test';
import { assertError, createApiKey, createWorkspace, signUp, unique } from '../support/fixtures';
import { startServer, waitExit } from '../support/processes';
import { embeddedDataDir, ENGINE, freshDatabaseEnv, startTestApp, TestApp } from '../support/test-app';

/** The shared Redis of the test machine; each test isolates itself with a random REDIS_KEY_PREFIX. */
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const prefix = () => `meridian-test:${randomBytes(6).toString('hex')}:`;

async function redisReachable(): Promise<boolean> {
  const client = new Redis(REDIS_URL, {
    lazyConnect: true,
    connectTimeout: 1000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return (await client.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
}

async function keysUnder(p: string): Promise<string[]> {
  const client = new Redis(REDIS_URL);
  try {
    return await client.keys(`${p}*`);
  } finally {
    client.disconnect();
  }
}

async function dropKeys(p: string): Promise<void> {
  const client = new Redis(REDIS_URL);
  try {
    const keys = await client.keys(`${p}*`);
    if (keys.length > 0) await client.del(...keys);
  } finally {
    client.disconnect();
  }
}

/** A port nothing listens on (for a server to take, or for a Redis that is not there). */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A TCP relay to Redis that can be cut, to take Redis away from a running server. */
async function redisRelay(): Promise<{ url: string; cut(): Promise<void> }> {
  const target = new URL(REDIS_URL);
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 6379), target.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => undefined);
      s.on('close', () => sockets.delete(s));
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = new URL(REDIS_URL);
  url.hostname = '127.0.0.1';
  url.port = String((server.address() as net.AddressInfo).port);
  return {
    url: url.toString(),
    cut: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const s of sockets) s.destroy();
      await closed;
    },
  };
}

const emailCheck = (t: TestApp, address = '10.30.0.1') =>
  t.api
    .post('/auth/email-check/')
    .set('X-Forwarded-For', address)
    .timeout(5000)
    .send({ email: `${unique('r')}@example.com` });

describe('rate limits on Redis (REDIS_URL)', async () => {
  const reachable = await redisReachable();
  const skip = reachable ? false : `Redis is not reachable at ${REDIS_URL} (set TEST_REDIS_URL)`;

  describe('one store shared by every server that uses the same Redis and prefix', { skip }, () => {
    const p = prefix();
    let a: TestApp;
    let b: TestApp;
    let other: TestApp;
    before(async () => {
      const env = {
        REDIS_URL,
        REDIS_KEY_PREFIX: p,
        TRUST_PROXY: '1',
        AUTH_RATE_LIMIT: '5/minute',
        AUTH_FAILED_SIGN_IN_LIMIT: '2/15minute',
      };
      a = await startTestApp(env);
      b = await startTestApp(env);
      other = await startTestApp({ ...env, REDIS_KEY_PREFIX: prefix() });
    });
    after(async () => {
      await Promise.all([a.close(), b.close(), other.close()]);
      await dropKeys(p);
    });

    it('counts a per-address limit once for both servers: 6 requests alternating, exactly 5 pass', async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) statuses.push((await emailCheck(i % 2 === 0 ? a : b)).status);
      assert.deepEqual(statuses, [200, 200, 200, 200, 200, 429]);
      // the counters are in Redis, under the prefix; another prefix is another set of counters
      assert.ok(
        (await keysUnder(p)).some((k) => k.startsWith(`${p}rl:auth:ip:`)),
        'the counter lives in Redis under the prefix',
      );
      assert.equal((await emailCheck(other)).status, 200);
    });

    it('shares the sign-in lock: failures on one server lock the email on the other', async () => {
      const from = { 'X-Forwarded-For': '10.31.0.1' };
      const e = `${unique('lock')}@example.com`;
      for (const t of [a, b])
        assertError(
          await t.api.post('/auth/sign-in/').set(from).send({ email: e, password: 'nope nope' }),
          401,
          'AUTHENTICATION_FAILED_SIGN_IN',
        );
      assertError(
        await a.api.post('/auth/sign-in/').set(from).send({ email: e, password: 'nope nope' }),
        429,
        'RATE_LIMIT_EXCEEDED',
      );
    });

    it('counts an API key in Redis: API_KEY_RATE_LIMIT holds on the store', async () => {
      const t = await startTestApp({ REDIS_URL, REDIS_KEY_PREFIX: p, API_KEY_RATE_LIMIT: '3/minute' });
      try {
        const u = await signUp(t);
        const slug = (await createWorkspace(t, u.token)).slug;
        const key = await createApiKey(t, u.token, slug);
        const paths = [
          `/api/v1/workspaces/${slug}/projects/`,
          `/api/v1/workspaces/${slug}/members/`,
          '/api/v1/users/me/',
        ];
        for (const path of paths) assert.equal((await t.api.get(path).set('X-API-Key', key)).status, 200);
        const refused = await t.api.get(paths[0]).set('X-API-Key', key);
        assertError(refused, 429, 'RATE_LIMIT_EXCEEDED');
        assert.ok(Number(refused.headers['retry-after']) >= 1);
        assert.ok((await keysUnder(p)).some((k) => k.startsWith(`${p}rl:api-key:key:`)));
      } finally {
        await t.close();
      }
    });
  });

  for (const store of ['memory', 'redis'] as const) {
    it(
      `windows free up again (${store} store): after Retry-After, requests pass`,
      { skip: store === 'redis' && skip },
      async () => {
        const p = prefix();
        const t = await startTestApp({
          ...(store === 'redis' ? { REDIS_URL, REDIS_KEY_PREFIX: p } : {}),
          TRUST_PROXY: '1',
          AUTH_RATE_LIMIT: '2/5s',
          AUTH_FAILED_SIGN_IN_LIMIT: '1/5s',
        });
        const wait = (seconds: number) => new Promise((resolve) => setTimeout(resolve, seconds * 1000 + 100));
        try {
          // fixed window (per address)
          for (let i = 0; i < 2; i++) assert.equal((await emailCheck(t, '10.33.0.1')).status, 200);
          const refused = await emailCheck(t, '10.33.0.1');
          assertError(refused, 429, 'RATE_LIMIT_EXCEEDED');
          const retry = Number(refused.headers['retry-after']);
          assert.ok(retry >= 1 && retry <= 5, `Retry-After ${retry}`);
          await wait(retry);
          assert.equal((await emailCheck(t, '10.33.0.1')).status, 200);

          // sliding window (failed sign-ins per email and address)
          const e = `${unique('slide')}@example.com`;
          const signIn = () =>
            t.api.post('/auth/sign-in/').set('X-Forwarded-For', '10.33.0.2').send({ email: e, password: 'nope nope' });
          assert.equal((await signIn()).status, 401);
          const locked = await signIn();
          assertError(locked, 429, 'RATE_LIMIT_EXCEEDED');
          await wait(Number(locked.headers['retry-after']));
          assert.equal((await signIn()).status, 401);
        } finally {
          await t.close();
          if (store === 'redis') await dropKeys(p);
        }
      },
    );
  }

  describe("when Redis goes away: fail open to this process's memory, with a warning", { skip }, () => {
    const p = prefix();
    after(() => dropKeys(p));

    it('keeps answering, at once, and keeps limiting per process when the connection is cut', async () => {
      const relay = await redisRelay();
      const t = await startTestApp({
        REDIS_URL: relay.url,
        REDIS_KEY_PREFIX: p,
        TRUST_PROXY: '1',
        AUTH_RATE_LIMIT: '3/minute',
      });
      try {
        assert.equal((await emailCheck(t, '10.32.0.1')).status, 200);
        assert.ok((await keysUnder(p)).length > 0, 'counted in Redis while it is there');
        await relay.cut();
        // answered (the 5 s timeout of emailCheck would fail a hanging request), and limited in memory
        for (let i = 0; i < 3; i++) assert.equal((await emailCheck(t, '10.32.0.2')).status, 200);
        assertError(await emailCheck(t, '10.32.0.2'), 429, 'RATE_LIMIT_EXCEEDED');
      } finally {
        await t.close();
      }
    });
  });

  it('a server whose REDIS_URL points at nothing answers, limits per process and logs a warning', async () => {
    const { dir, drop } = embeddedDataDir('migrated', 'meridian-redis-down-');
    const port = await freePort();
    const server = await startServer({
      DATA_DIR: dir,
      PORT: String(port),
      REDIS_URL: `redis://127.0.0.1:${await freePort()}`,
      AUTH_RATE_LIMIT: '2/minute',
    });
    try {
      const check = () =>
        fetch(`http://127.0.0.1:${port}/auth/email-check/`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ email: `${unique('down')}@example.com` }),
          signal: AbortSignal.timeout(5000),
        });
      assert.equal((await check()).status, 200);
      assert.equal((await check()).status, 200);
      const refused = await check();
      assert.equal(refused.status, 429);
      assert.equal(((await refused.json()) as { error_code: string }).error_code, 'RATE_LIMIT_EXCEEDED');
      assert.match(server.output(), /rate-limit counters fall back to this process's memory/);
      // and it stops cleanly on SIGTERM, though Redis never answered (nothing waits for it)
      server.child.kill('SIGTERM');
      assert.equal((await waitExit(server.child)).code, 0, server.output().slice(-2000));
    } finally {
      if (server.child.exitCode === null) {
        server.child.kill('SIGKILL');
        await waitExit(server.child);
      }
      drop();
    }
  });

  describe(
    'two server processes on one PostgreSQL and one Redis',
    {
      skip:
        skip ||
        (ENGINE !== 'postgres' &&
          'needs TEST_DATABASE_URL: two processes cannot share one embedded database (the Redis store itself is tested above through in-process servers)'),
    },
    () => {
      const p = prefix();
      let drop: () => Promise<void>;
      const servers: Awaited<ReturnType<typeof startServer>>[] = [];
      const base: string[] = [];
      before(async () => {
        const db = await freshDatabaseEnv();
        drop = db.drop;
        for (let i = 0; i < 2; i++) {
          const port = await freePort();
          servers.push(
            await startServer({
              ...db.env,
              PORT: String(port),
              REDIS_URL,
              REDIS_KEY_PREFIX: p,
              ACCESS_CACHE_TTL_MS: '60000',
            }),
          );
          base.push(`http://127.0.0.1:${port}`);
        }
      });
      after(async () => {
        for (const s of servers) {
          s.child.kill('SIGTERM');
          await waitExit(s.child);
        }
        await drop?.();
        await dropKeys(p);
      });

      async function post(url: string, body: unknown, token?: string) {
        const res = await fetch(url, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
          body: JSON.stringify(body),
        });
        return { status: res.status, body: (await res.json()) as Record<string, unknown> };
      }

      it('61 requests with one key, alternating between the two: exactly 60 succeed', async () => {
        const admin = await post(`${base[0]}/api/instances/admins/sign-up/`, {
          email: `${unique('ops')}@example.com`,
          password: 'an admin passphrase',
          first_name: 'Ops',
        });
        assert.equal(admin.status, 201, JSON.stringify(admin.body));
        const user = await post(`${base[1]}/auth/sign-up/`, {
          email: `${unique('u')}@example.com`,
          password: 'correct horse 1',
        });
        assert.equal(user.status, 201, JSON.stringify(user.body));
        const token = user.body.access_token as string;
        const slug = unique('ws-');
        assert.equal((await post(`${base[0]}/api/workspaces/`, { name: 'Two', slug }, token)).status, 201);
        const key = (await post(`${base[1]}/api/workspaces/${slug}/api-tokens/`, { label: 'two' }, token)).body
          .token as string;
        assert.ok(key);

        const statuses: number[] = [];
        for (let i = 0; i < 61; i++) {
          const res = await fetch(`${base[i % 2]}/api/v1/workspaces/${slug}/projects/`, {
            headers: { 'X-API-Key': key },
          });
          await res.arrayBuffer();
          statuses.push(res.status);
        }
        assert.equal(statuses.filter((s) => s === 200).length, 60, JSON.stringify(statuses));
        assert.equal(statuses[60], 429);
      });

      it('a key revoked through one server is refused by the other: the access cache is emptied through Redis', async () => {
        const user = await post(`${base[0]}/auth/sign-up/`, {
          email: `${unique('u')}@example.com`,
          password: 'correct horse 1',
        });
        const token = user.body.access_token as string;
        const slug = unique('ws-');
        assert.equal((await post(`${base[0]}/api/workspaces/`, { name: 'Cache', slug }, token)).status, 201);
        const created = await post(`${base[0]}/api/workspaces/${slug}/api-tokens/`, { label: 'cache' }, token);
        const key = created.body.token as string;
        const onB = async () => {
          const res = await fetch(`${base[1]}/api/v1/workspaces/${slug}/projects/`, { headers: { 'X-API-Key': key } });
          await res.arrayBuffer();
          return res.status;
        };
        for (let i = 0; i < 3; i++) assert.equal(await onB(), 200); // B has resolved (and cached, for a minute) the key
        const revoked = await fetch(`${base[0]}/api/workspaces/${slug}/api-tokens/${created.body.id as string}/`, {
          method: 'DELETE',
          headers: { Authorization: `Bearer ${token}` },
        });
        assert.equal(revoked.status, 204);
        // the message crosses Redis in about a millisecond; allow 500 ms, far below the minute of the TTL
        const deadline = Date.now() + 500;
        let status = await onB();
        while (status === 200 && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 20));
          status = await onB();
        }
        assert.equal(status, 401);
      });
    },
  );
});
