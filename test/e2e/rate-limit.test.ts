import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError, createApiKey, createWorkspace, signUp } from '../support/fixtures';
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

  it('counts down on every response and refuses the 61st request with 429, the headers and Retry-After', async () => {
    const path = `/api/v1/workspaces/${slug}/projects/`;
    const started = Math.floor(Date.now() / 1000);
    for (let i = 1; i <= 60; i++) {
      const res = await t.api.get(path).set('X-API-Key', keyA);
      assert.equal(res.status, 200, `request ${i}`);
      assert.equal(res.headers['x-ratelimit-limit'], '60');
      assert.equal(res.headers['x-ratelimit-remaining'], String(60 - i));
      const reset = Number(res.headers['x-ratelimit-reset']);
      assert.ok(reset >= started && reset <= started + 61, `reset ${reset}`);
      assert.equal(res.headers['retry-after'], undefined);
    }
    const refused = await t.api.get(path).set('X-API-Key', keyA);
    assertError(refused, 429, 'RATE_LIMIT_EXCEEDED');
    assert.equal(refused.headers['x-ratelimit-limit'], '60');
    assert.equal(refused.headers['x-ratelimit-remaining'], '0');
    assert.ok(Number(refused.headers['x-ratelimit-reset']) >= started);
    const retry = Number(refused.headers['retry-after']);
    assert.ok(retry >= 1 && retry <= 60, `Retry-After ${retry}`);
    for (const name of Object.keys(refused.headers)) assert.ok(!/^x-ratelimit-.*-/.test(name), `no suffixed header ${name}`);
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
