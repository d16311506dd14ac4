import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError, createApiKey, createProject, createWorkspace, signUp, unique } from '../support/fixtures';
import { startTestApp, TestApp } from '../support/test-app';

describe('rate limit: 60 requests a minute per API key on /api/v1/', () => {
  let t: TestApp;
  let slug: string;
  let keyA: string;
  let keyB: string;
  before(async () => {
    t = await startTestApp();
    const u = await signUp(t);
    slug = (await createWorkspace(t, u.token)).slug;
    keyA = await createApiKey(t, u.token, slug);
    keyB = await createApiKey(t, u.token, slug);
  });
  after(() => t.close());

  it('counts one window per key over every v1 route and method: the 61st request, on yet another route, is a 429 with the headers', async () => {
    const project = await createProject(t, keyA, slug); // request 1
    const base = `/api/v1/workspaces/${slug}`;
    const routes = [
      () => t.api.get(`${base}/projects/`),
      () => t.api.get(`${base}/members/`),
      () => t.api.get('/api/v1/users/me/'),
      () => t.api.get(`${base}/projects/${project.id}/states/`),
      () => t.api.get(`${base}/projects/${project.id}/labels/`),
      () => t.api.get(`${base}/projects/${project.id}/issues/`),
      () => t.api.patch(`${base}/projects/${project.id}/`).send({ description: 'counted' }),
    ];
    const started = Math.floor(Date.now() / 1000);
    for (let i = 2; i <= 60; i++) {
      const res = await routes[i % routes.length]().set('X-API-Key', keyA);
      assert.equal(res.status, 200, `request ${i}: ${JSON.stringify(res.body)}`);
      assert.equal(res.headers['x-ratelimit-limit'], '60');
      assert.equal(res.headers['x-ratelimit-remaining'], String(60 - i), `request ${i}`);
      const reset = Number(res.headers['x-ratelimit-reset']);
      assert.ok(reset >= started && reset <= started + 61, `reset ${reset}`);
      assert.equal(res.headers['retry-after'], undefined);
    }
    const refused = await t.api.get(`${base}/projects/${project.id}/`).set('X-API-Key', keyA);
    assertError(refused, 429, 'RATE_LIMIT_EXCEEDED');
    assert.equal(refused.headers['x-ratelimit-limit'], '60');
    assert.equal(refused.headers['x-ratelimit-remaining'], '0');
    assert.ok(Number(refused.headers['x-ratelimit-reset']) >= started);
    const retry = Number(refused.headers['retry-after']);
    assert.ok(retry >= 1 && retry <= 60, `Retry-After ${retry}`);
    for (const name of Object.keys(refused.headers))
      assert.ok(!/^x-ratelimit-.*-/.test(name), `no suffixed header ${name}`);
    // every other route and method of the key is refused as well
    assertError(await t.api.get(`${base}/members/`).set('X-API-Key', keyA), 429, 'RATE_LIMIT_EXCEEDED');
    assertError(
      await t.api.post(`${base}/projects/`).set('X-API-Key', keyA).send({ name: 'x', identifier: 'XX' }),
      429,
      'RATE_LIMIT_EXCEEDED',
    );
  });

  it('counts per key, not per address: another key from the same address still passes', async () => {
    const res = await t.api.get(`/api/v1/workspaces/${slug}/projects/`).set('X-API-Key', keyB);
    assert.equal(res.status, 200);
    assert.equal(res.headers['x-ratelimit-remaining'], '59');
  });

  it('does not limit the App API by API key', async () => {
    const u = await signUp(t);
    const res = await t.api.get('/api/workspaces/').auth(u.token, { type: 'bearer' });
    assert.equal(res.status, 200);
    assert.equal(res.headers['x-ratelimit-limit'], undefined);
  });

  // last: it leaves the test's address refused for a minute
  it('80 different bad keys from one address: 30 × 401 (FAILED_AUTH_RATE_LIMIT default), then 429', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 80; i++)
      statuses.push(
        (await t.api.get(`/api/v1/workspaces/${slug}/members/`).set('X-API-Key', `plane_api_bad${i}`)).status,
      );
    assert.deepEqual(statuses, [...Array(30).fill(401), ...Array(50).fill(429)]);
  });
});

describe('rate limit: API_KEY_RATE_LIMIT changes the limit', () => {
  let t: TestApp;
  before(async () => (t = await startTestApp({ API_KEY_RATE_LIMIT: '3/minute' })));
  after(() => t.close());

  it('refuses the 4th request with a limit of 3', async () => {
    const u = await signUp(t);
    const slug = (await createWorkspace(t, u.token)).slug;
    const key = await createApiKey(t, u.token, slug);
    const path = `/api/v1/workspaces/${slug}/projects/`;
    for (let i = 0; i < 3; i++) assert.equal((await t.api.get(path).set('X-API-Key', key)).status, 200);
    const res = await t.api.get(path).set('X-API-Key', key);
    assertError(res, 429, 'RATE_LIMIT_EXCEEDED');
    assert.equal(res.headers['x-ratelimit-limit'], '3');
  });
});

describe('rate limit: failed authentications per client address', () => {
  let t: TestApp;
  let slug: string;
  let key: string;
  before(async () => {
    t = await startTestApp({ TRUST_PROXY: '1', FAILED_AUTH_RATE_LIMIT: '5/minute' });
    const u = await signUp(t);
    slug = (await createWorkspace(t, u.token)).slug;
    key = await createApiKey(t, u.token, slug);
  });
  after(() => t.close());

  const from = (address: string) => ({ 'X-Forwarded-For': address });
  const bogus = () => `plane_api_${unique('bad')}${unique()}`;

  it('gives different bad keys no window of their own: past the limit the address gets 429, whatever the key', async () => {
    const path = `/api/v1/workspaces/${slug}/projects/`;
    for (let i = 1; i <= 5; i++)
      assertError(await t.api.get(path).set(from('10.20.0.1')).set('X-API-Key', bogus()), 401, 'INVALID_API_KEY');
    const refused = await t.api.get(path).set(from('10.20.0.1')).set('X-API-Key', bogus());
    assertError(refused, 429, 'RATE_LIMIT_EXCEEDED');
    assert.equal(refused.headers['x-ratelimit-limit'], '5');
    assert.equal(refused.headers['x-ratelimit-remaining'], '0');
    const retry = Number(refused.headers['retry-after']);
    assert.ok(retry >= 1 && retry <= 60, `Retry-After ${retry}`);
    // the address is refused until the window frees a slot, even with a valid key or on the App API
    assertError(await t.api.get(path).set(from('10.20.0.1')).set('X-API-Key', key), 429, 'RATE_LIMIT_EXCEEDED');
    assertError(
      await t.api.get('/api/workspaces/').set(from('10.20.0.1')).auth('bogus-token', { type: 'bearer' }),
      429,
      'RATE_LIMIT_EXCEEDED',
    );
    // another address is not affected
    const ok = await t.api.get(path).set(from('10.20.0.2')).set('X-API-Key', key);
    assert.equal(ok.status, 200);
  });

  it('counts wrong Bearer tokens on the App API and requests without credentials not at all', async () => {
    for (let i = 0; i < 10; i++)
      assertError(await t.api.get('/api/workspaces/').set(from('10.21.0.1')), 401, 'AUTHENTICATION_REQUIRED');
    for (let i = 0; i < 5; i++) {
      assertError(
        await t.api.get('/api/workspaces/').set(from('10.21.0.1')).auth(`bogus-${i}`, { type: 'bearer' }),
        401,
        'INVALID_ACCESS_TOKEN',
      );
    }
    assertError(
      await t.api.get('/api/users/me/').set(from('10.21.0.1')).auth('bogus-6', { type: 'bearer' }),
      429,
      'RATE_LIMIT_EXCEEDED',
    );
  });

  it('holds under concurrency: 20 bad keys at once from one address get 5 × 401 and 15 × 429', async () => {
    const path = `/api/v1/workspaces/${slug}/members/`;
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => t.api.get(path).set(from('10.22.0.1')).set('X-API-Key', bogus())),
    );
    const statuses = answers.map((r) => r.status).sort();
    assert.deepEqual(statuses, [...Array(5).fill(401), ...Array(15).fill(429)]);
  });
});

describe('rate limit: the client address behind proxies (TRUST_PROXY)', () => {
  const emailCheck = (t: TestApp, xff: string) =>
    t.api
      .post('/auth/email-check/')
      .set('X-Forwarded-For', xff)
      .send({ email: `${unique('xff')}@example.com` });

  /** `forwarded(forged)`: the header a client that forges `forged` arrives with; `other`: another client's */
  async function assertCountedAs(t: TestApp, forwarded: (forged: string) => string, other: string) {
    for (let i = 0; i < 3; i++) assert.equal((await emailCheck(t, forwarded(`198.51.100.${i + 1}`))).status, 200);
    // a new forged leftmost entry does not give a new window
    assertError(await emailCheck(t, forwarded('203.0.113.99')), 429, 'RATE_LIMIT_EXCEEDED');
    assertError(await emailCheck(t, forwarded('')), 429, 'RATE_LIMIT_EXCEEDED');
    // the address the trusted proxy appended is the one counted
    assert.equal((await emailCheck(t, other)).status, 200);
  }

  it('TRUST_PROXY=1: the address the proxy appended (rightmost), whatever the client put before it', async () => {
    const t = await startTestApp({ TRUST_PROXY: '1', AUTH_RATE_LIMIT: '3/minute' });
    try {
      await assertCountedAs(
        t,
        (forged) => (forged ? `${forged}, 192.0.2.10` : '192.0.2.10'),
        '198.51.100.1, 192.0.2.11',
      );
    } finally {
      await t.close();
    }
  });

  it('TRUST_PROXY=2: two hops, the second-rightmost entry', async () => {
    const t = await startTestApp({ TRUST_PROXY: '2', AUTH_RATE_LIMIT: '3/minute' });
    try {
      await assertCountedAs(
        t,
        (forged) => `${forged ? `${forged}, ` : ''}192.0.2.20, 10.0.0.5`,
        '198.51.100.1, 192.0.2.21, 10.0.0.5',
      );
    } finally {
      await t.close();
    }
  });

  it('TRUST_PROXY=<addresses>: the rightmost address that is not a listed proxy', async () => {
    const t = await startTestApp({ TRUST_PROXY: 'loopback, 10.0.0.0/8', AUTH_RATE_LIMIT: '3/minute' });
    try {
      // two listed proxies (10.1.2.3, 10.9.9.9) in front of the client 192.0.2.30
      await assertCountedAs(
        t,
        (forged) => `${forged ? `${forged}, ` : ''}192.0.2.30, 10.1.2.3, 10.9.9.9`,
        '198.51.100.1, 192.0.2.31, 10.9.9.9',
      );
    } finally {
      await t.close();
    }
  });

  it('TRUST_PROXY=false (default): X-Forwarded-For is ignored, the socket address counts', async () => {
    const t = await startTestApp({ AUTH_RATE_LIMIT: '3/minute' });
    try {
      for (let i = 0; i < 3; i++) assert.equal((await emailCheck(t, `192.0.2.${40 + i}`)).status, 200);
      assertError(await emailCheck(t, '192.0.2.50'), 429, 'RATE_LIMIT_EXCEEDED');
    } finally {
      await t.close();
    }
  });
});
