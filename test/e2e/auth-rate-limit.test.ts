import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError, signUp, unique } from '../support/fixtures';
import { startTestApp, TestApp } from '../support/test-app';

const email = () => `${unique('rl')}@example.com`;

function assertLimitHeaders(res: { headers: Record<string, string> }, limit: string) {
  assert.equal(res.headers['x-ratelimit-limit'], limit);
  assert.match(res.headers['x-ratelimit-remaining'], /^\d+$/);
  assert.ok(Number(res.headers['x-ratelimit-reset']) >= Math.floor(Date.now() / 1000) - 1);
}

describe('auth rate limits: defaults', () => {
  let t: TestApp;
  before(async () => (t = await startTestApp()));
  after(() => t.close());

  it('refuses an email\'s sign-ins after 10 failures in 15 minutes (429, headers), even with the right password', async () => {
    const u = await signUp(t);
    for (let i = 1; i <= 10; i++) {
      const res = await t.api.post('/auth/sign-in/').send({ email: u.email, password: `wrong ${i}` });
      assertError(res, 401, 'AUTHENTICATION_FAILED_SIGN_IN');
      assertLimitHeaders(res, '10');
      assert.equal(res.headers['x-ratelimit-remaining'], String(11 - i));
    }
    const refused = await t.api.post('/auth/sign-in/').send({ email: u.email, password: u.password });
    assertError(refused, 429, 'RATE_LIMIT_EXCEEDED');
    assert.equal(refused.headers['x-ratelimit-limit'], '10');
    assert.equal(refused.headers['x-ratelimit-remaining'], '0');
    const retry = Number(refused.headers['retry-after']);
    assert.ok(retry > 60 && retry <= 900, `Retry-After ${retry}`);
    // the email's case does not matter; magic sign-in is refused as well
    assertError(await t.api.post('/auth/sign-in/').send({ email: u.email.toUpperCase(), password: u.password }), 429, 'RATE_LIMIT_EXCEEDED');
    assertError(await t.api.post('/auth/magic-sign-in/').send({ email: u.email, code: 'abcd-efgh-ijkl' }), 429, 'RATE_LIMIT_EXCEEDED');
    // another email from the same address still signs in
    const other = await signUp(t);
    const ok = await t.api.post('/auth/sign-in/').send({ email: other.email, password: other.password });
    assert.equal(ok.status, 200);
  });

  it('counts only failures: successful sign-ins do not use up the email\'s allowance', async () => {
    const u = await signUp(t);
    for (let i = 0; i < 3; i++) assert.equal((await t.api.post('/auth/sign-in/').send({ email: u.email, password: u.password })).status, 200);
    const res = await t.api.post('/auth/sign-in/').send({ email: u.email, password: 'wrong' });
    assert.equal(res.status, 401);
    assert.equal(res.headers['x-ratelimit-remaining'], '10');
  });
});

describe('auth rate limits: 30 requests per address per minute, shared by the auth routes', () => {
  let t: TestApp;
  before(async () => (t = await startTestApp()));
  after(() => t.close());

  it('refuses the 31st request from one address across sign-in, email-check, magic-generate and forgot-password', async () => {
    const routes = [
      () => t.api.post('/auth/email-check/').send({ email: email() }),
      () => t.api.post('/auth/forgot-password/').send({ email: email() }),
      () => t.api.post('/auth/magic-generate/').send({ email: email() }),
      () => t.api.post('/auth/sign-in/').send({ email: email(), password: 'whatever1' }),
    ];
    for (let i = 0; i < 30; i++) {
      const res = await routes[i % routes.length]();
      assert.ok([200, 401].includes(res.status), `request ${i + 1}: ${res.status}`);
      assert.ok(res.headers['x-ratelimit-limit'], 'limit header on every answer');
    }
    const refused = await routes[0]();
    assertError(refused, 429, 'RATE_LIMIT_EXCEEDED');
    assert.equal(refused.headers['x-ratelimit-limit'], '30');
    assert.equal(refused.headers['x-ratelimit-remaining'], '0');
    const retry = Number(refused.headers['retry-after']);
    assert.ok(retry >= 1 && retry <= 60, `Retry-After ${retry}`);
    assertError(await routes[3](), 429, 'RATE_LIMIT_EXCEEDED');
  });

  it('does not limit sign-up or the App API by address', async () => {
    const u = await signUp(t);
    const res = await t.api.get('/api/workspaces/').auth(u.token, { type: 'bearer' });
    assert.equal(res.status, 200);
    assert.equal(res.headers['x-ratelimit-limit'], undefined);
  });
});

describe('auth rate limits: configurable, per email and per address', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({
      TRUST_PROXY: 'true',
      AUTH_RATE_LIMIT: '4/minute',
      AUTH_FAILED_SIGN_IN_LIMIT: '2/15minute',
      AUTH_EMAIL_RATE_LIMIT: '3/15minute',
    });
  });
  after(() => t.close());

  it('AUTH_EMAIL_RATE_LIMIT: the same email is refused on the 4th email-check or magic-generate, from any address', async () => {
    const e = email();
    const from = (n: number) => ({ 'X-Forwarded-For': `10.1.0.${n}` });
    assert.equal((await t.api.post('/auth/email-check/').set(from(1)).send({ email: e })).status, 200);
    assert.equal((await t.api.post('/auth/magic-generate/').set(from(2)).send({ email: e })).status, 200);
    const third = await t.api.post('/auth/forgot-password/').set(from(3)).send({ email: e });
    assert.equal(third.status, 200);
    assert.equal(third.headers['x-ratelimit-limit'], '3');
    assert.equal(third.headers['x-ratelimit-remaining'], '0');
    const refused = await t.api.post('/auth/email-check/').set(from(4)).send({ email: e });
    assertError(refused, 429, 'RATE_LIMIT_EXCEEDED');
    assert.equal(refused.headers['x-ratelimit-limit'], '3');
    const retry = Number(refused.headers['retry-after']);
    assert.ok(retry > 60 && retry <= 900, `Retry-After ${retry}`);
    assert.equal((await t.api.post('/auth/email-check/').set(from(4)).send({ email: email() })).status, 200);
  });

  it('AUTH_FAILED_SIGN_IN_LIMIT: 2 failures, then 429', async () => {
    const u = await signUp(t);
    const from = { 'X-Forwarded-For': '10.2.0.1' };
    for (let i = 0; i < 2; i++) assert.equal((await t.api.post('/auth/sign-in/').set(from).send({ email: u.email, password: 'nope' })).status, 401);
    const refused = await t.api.post('/auth/sign-in/').set({ 'X-Forwarded-For': '10.2.0.2' }).send({ email: u.email, password: u.password });
    assertError(refused, 429, 'RATE_LIMIT_EXCEEDED');
    assert.equal(refused.headers['x-ratelimit-limit'], '2');
  });

  it('wrong magic codes count as failed sign-ins too', async () => {
    const e = email();
    const from = { 'X-Forwarded-For': '10.4.0.1' };
    assert.equal((await t.api.post('/auth/magic-generate/').set(from).send({ email: e })).status, 200);
    for (let i = 0; i < 2; i++) assertError(await t.api.post('/auth/magic-sign-in/').set(from).send({ email: e, code: 'aaaa-aaaa-aaaa' }), 401, 'INVALID_MAGIC_CODE');
    const refused = await t.api.post('/auth/magic-sign-in/').set({ 'X-Forwarded-For': '10.4.0.2' }).send({ email: e, code: 'aaaa-aaaa-aaaa' });
    assertError(refused, 429, 'RATE_LIMIT_EXCEEDED');
    assert.equal(refused.headers['x-ratelimit-limit'], '2');
  });

  it('AUTH_RATE_LIMIT: counted per client address', async () => {
    const a = { 'X-Forwarded-For': '10.3.0.1' };
    for (let i = 0; i < 4; i++) assert.equal((await t.api.post('/auth/email-check/').set(a).send({ email: email() })).status, 200);
    const refused = await t.api.post('/auth/email-check/').set(a).send({ email: email() });
    assertError(refused, 429, 'RATE_LIMIT_EXCEEDED');
    assert.equal(refused.headers['x-ratelimit-limit'], '4');
    assert.equal((await t.api.post('/auth/email-check/').set({ 'X-Forwarded-For': '10.3.0.2' }).send({ email: email() })).status, 200);
  });
});
