import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError, signUp, unique } from '../support/fixtures';
import { SmtpCapture, startSmtpCapture } from '../support/smtp';
import { startTestApp, TEST_ADMIN, TestApp } from '../support/test-app';

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

  it("locks an email's password sign-in from an address after 10 failures in 15 minutes (429, headers), even with the right password", async () => {
    const u = await signUp(t);
    for (let i = 1; i <= 10; i++) {
      const res = await t.api.post('/auth/sign-in/').send({ email: u.email, password: `wrong ${i}` });
      assertError(res, 401, 'AUTHENTICATION_FAILED_SIGN_IN');
      assertLimitHeaders(res, '10');
      assert.equal(res.headers['x-ratelimit-remaining'], String(10 - i));
    }
    const refused = await t.api.post('/auth/sign-in/').send({ email: u.email, password: u.password });
    assertError(refused, 429, 'RATE_LIMIT_EXCEEDED');
    assert.equal(refused.headers['x-ratelimit-limit'], '10');
    assert.equal(refused.headers['x-ratelimit-remaining'], '0');
    const retry = Number(refused.headers['retry-after']);
    assert.ok(retry > 60 && retry <= 900, `Retry-After ${retry}`);
    // the email's case does not matter; the magic code, the way back in, is not locked
    assertError(
      await t.api.post('/auth/sign-in/').send({ email: u.email.toUpperCase(), password: u.password }),
      429,
      'RATE_LIMIT_EXCEEDED',
    );
    assert.equal(
      (await t.api.post('/auth/magic-sign-in/').send({ email: u.email, code: 'abcd-efgh-ijkl' })).status,
      401,
    );
    // another email from the same address still signs in
    const other = await signUp(t);
    const ok = await t.api.post('/auth/sign-in/').send({ email: other.email, password: other.password });
    assert.equal(ok.status, 200);
  });

  it("counts only failures: successful sign-ins do not use up the email's allowance", async () => {
    const u = await signUp(t);
    for (let i = 0; i < 3; i++)
      assert.equal((await t.api.post('/auth/sign-in/').send({ email: u.email, password: u.password })).status, 200);
    const res = await t.api.post('/auth/sign-in/').send({ email: u.email, password: 'wrong' });
    assert.equal(res.status, 401);
    assert.equal(res.headers['x-ratelimit-remaining'], '9');
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

  it('does not limit the App API by address', async () => {
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
      TRUST_PROXY: '1',
      AUTH_RATE_LIMIT: '4/minute',
      AUTH_FAILED_SIGN_IN_LIMIT: '2/15minute',
      AUTH_FAILED_SIGN_IN_EMAIL_LIMIT: '3/15minute',
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

  it('AUTH_FAILED_SIGN_IN_LIMIT: 2 failures lock the email from that address only', async () => {
    const u = await signUp(t);
    const from = { 'X-Forwarded-For': '10.2.0.1' };
    for (let i = 0; i < 2; i++)
      assert.equal(
        (await t.api.post('/auth/sign-in/').set(from).send({ email: u.email, password: 'nope' })).status,
        401,
      );
    const refused = await t.api.post('/auth/sign-in/').set(from).send({ email: u.email, password: u.password });
    assertError(refused, 429, 'RATE_LIMIT_EXCEEDED');
    assert.equal(refused.headers['x-ratelimit-limit'], '2');
    // the user, elsewhere, still signs in: a stranger cannot lock them out
    const ok = await t.api
      .post('/auth/sign-in/')
      .set({ 'X-Forwarded-For': '10.2.0.2' })
      .send({ email: u.email, password: u.password });
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
  });

  it('AUTH_FAILED_SIGN_IN_EMAIL_LIMIT: the looser ceiling over all addresses', async () => {
    const u = await signUp(t);
    const wrong = (n: number) =>
      t.api
        .post('/auth/sign-in/')
        .set({ 'X-Forwarded-For': `10.5.0.${n}` })
        .send({ email: u.email, password: 'nope' });
    assert.equal((await wrong(1)).status, 401);
    assert.equal((await wrong(2)).status, 401);
    const third = await wrong(3);
    assert.equal(third.status, 401);
    assert.equal(third.headers['x-ratelimit-remaining'], '0');
    const refused = await t.api
      .post('/auth/sign-in/')
      .set({ 'X-Forwarded-For': '10.5.0.9' })
      .send({ email: u.email, password: u.password });
    assertError(refused, 429, 'RATE_LIMIT_EXCEEDED');
    assert.equal(refused.headers['x-ratelimit-limit'], '3');
    assert.ok(Number(refused.headers['retry-after']) > 60);
  });

  it('wrong magic codes count per (email, address), apart from passwords', async () => {
    const e = email();
    const from = { 'X-Forwarded-For': '10.4.0.1' };
    assert.equal((await t.api.post('/auth/magic-generate/').set(from).send({ email: e })).status, 200);
    for (let i = 0; i < 2; i++)
      assertError(
        await t.api.post('/auth/magic-sign-in/').set(from).send({ email: e, code: 'aaaa-aaaa-aaaa' }),
        401,
        'INVALID_MAGIC_CODE',
      );
    const refused = await t.api.post('/auth/magic-sign-in/').set(from).send({ email: e, code: 'aaaa-aaaa-aaaa' });
    assertError(refused, 429, 'RATE_LIMIT_EXCEEDED');
    assert.equal(refused.headers['x-ratelimit-limit'], '2');
    assertError(
      await t.api
        .post('/auth/magic-sign-in/')
        .set({ 'X-Forwarded-For': '10.4.0.2' })
        .send({ email: e, code: 'aaaa-aaaa-aaaa' }),
      401,
      'INVALID_MAGIC_CODE',
    );
  });

  it('AUTH_RATE_LIMIT: counted per client address', async () => {
    const a = { 'X-Forwarded-For': '10.3.0.1' };
    for (let i = 0; i < 4; i++)
      assert.equal((await t.api.post('/auth/email-check/').set(a).send({ email: email() })).status, 200);
    const refused = await t.api.post('/auth/email-check/').set(a).send({ email: email() });
    assertError(refused, 429, 'RATE_LIMIT_EXCEEDED');
    assert.equal(refused.headers['x-ratelimit-limit'], '4');
    assert.equal(
      (await t.api.post('/auth/email-check/').set({ 'X-Forwarded-For': '10.3.0.2' }).send({ email: email() })).status,
      200,
    );
  });
});

describe('auth rate limits: the password lock, concurrency, and the way back in by magic code', () => {
  let t: TestApp;
  let smtp: SmtpCapture;
  before(async () => {
    smtp = await startSmtpCapture();
    t = await startTestApp({
      ...smtp.env,
      TRUST_PROXY: '1',
      AUTH_FAILED_SIGN_IN_LIMIT: '2/15minute',
      AUTH_FAILED_SIGN_IN_EMAIL_LIMIT: '3/15minute',
    });
  });
  after(async () => {
    await t.close();
    await smtp.close();
  });
  const at = (address: string) => ({ 'X-Forwarded-For': address });

  it('a successful magic sign-in clears the password lock (per address and per email)', async () => {
    const u = await signUp(t);
    const signIn = (address: string, password: string) =>
      t.api.post('/auth/sign-in/').set(at(address)).send({ email: u.email, password });
    for (let i = 0; i < 2; i++) assert.equal((await signIn('10.6.0.1', 'nope')).status, 401);
    assert.equal((await signIn('10.6.0.2', 'nope')).status, 401);
    assertError(await signIn('10.6.0.1', u.password), 429, 'RATE_LIMIT_EXCEEDED');
    assertError(await signIn('10.6.0.3', u.password), 429, 'RATE_LIMIT_EXCEEDED');

    assert.equal((await t.api.post('/auth/magic-generate/').set(at('10.6.0.1')).send({ email: u.email })).status, 200);
    const code = /\b([a-z]{4}-[a-z]{4}-[a-z]{4})\b/.exec(smtp.last(u.email).text)?.[1];
    assert.ok(code);
    const magic = await t.api.post('/auth/magic-sign-in/').set(at('10.6.0.1')).send({ email: u.email, code });
    assert.equal(magic.status, 200, JSON.stringify(magic.body));
    // (the mailbox's owner takes over an unverified account: its password is cleared; set a new one)
    const password = 'a brand new passphrase';
    const set = await t.api
      .post('/auth/set-password/')
      .auth(magic.body.access_token, { type: 'bearer' })
      .send({ password });
    assert.equal(set.status, 200, JSON.stringify(set.body));

    const back = await signIn('10.6.0.1', password);
    assert.equal(back.status, 200, JSON.stringify(back.body));
    assert.equal((await signIn('10.6.0.3', password)).status, 200);
  });

  it('a failed magic sign-in or another error does not clear it', async () => {
    const u = await signUp(t);
    for (let i = 0; i < 2; i++)
      assert.equal(
        (await t.api.post('/auth/sign-in/').set(at('10.7.0.1')).send({ email: u.email, password: 'nope' })).status,
        401,
      );
    assert.equal(
      (await t.api.post('/auth/magic-sign-in/').set(at('10.7.0.1')).send({ email: u.email, code: 'zzzz-zzzz-zzzz' }))
        .status,
      401,
    );
    assert.equal((await t.api.post('/auth/magic-sign-in/').set(at('10.7.0.1')).send({ email: u.email })).status, 422);
    assertError(
      await t.api.post('/auth/sign-in/').set(at('10.7.0.1')).send({ email: u.email, password: u.password }),
      429,
      'RATE_LIMIT_EXCEEDED',
    );
  });

  it('holds under concurrency: 10 wrong passwords at once from one address get 2 × 401 and 8 × 429', async () => {
    const u = await signUp(t);
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        t.api
          .post('/auth/sign-in/')
          .set(at('10.8.0.1'))
          .send({ email: u.email, password: `wrong ${i}` }),
      ),
    );
    assert.deepEqual(answers.map((r) => r.status).sort(), [401, 401, ...Array(8).fill(429)]);
  });

  it('the instance admin sign-in shares the password lock', async () => {
    const wrong = () =>
      t.api
        .post('/api/instances/admins/sign-in/')
        .set(at('10.9.0.1'))
        .send({ email: TEST_ADMIN.email, password: 'not the one' });
    for (let i = 0; i < 2; i++) assertError(await wrong(), 401, 'ADMIN_AUTHENTICATION_FAILED');
    const locked = await t.api.post('/api/instances/admins/sign-in/').set(at('10.9.0.1')).send(TEST_ADMIN);
    assertError(locked, 429, 'RATE_LIMIT_EXCEEDED');
    assert.equal((await t.api.post('/api/instances/admins/sign-in/').set(at('10.9.0.2')).send(TEST_ADMIN)).status, 200);
  });
});

describe('auth rate limits: sign-up per address (AUTH_SIGN_UP_RATE_LIMIT)', () => {
  let t: TestApp;
  before(async () => (t = await startTestApp({ TRUST_PROXY: '1', AUTH_SIGN_UP_RATE_LIMIT: '3/hour' })));
  after(() => t.close());

  it('counts user and instance admin sign-ups of one address, whatever their answer', async () => {
    const from = { 'X-Forwarded-For': '10.10.0.1' };
    const e = email();
    const first = await t.api.post('/auth/sign-up/').set(from).send({ email: e, password: 'correct horse 1' });
    assert.equal(first.status, 201);
    assert.equal(first.headers['x-ratelimit-limit'], '3');
    assert.equal(first.headers['x-ratelimit-remaining'], '2');
    assertError(
      await t.api.post('/auth/sign-up/').set(from).send({ email: e, password: 'correct horse 1' }),
      409,
      'USER_ALREADY_EXIST',
    );
    const admin = await t.api
      .post('/api/instances/admins/sign-up/')
      .set(from)
      .send({ email: email(), password: 'an admin passphrase', first_name: 'A' });
    assertError(admin, 403, 'ADMIN_ALREADY_EXIST');
    const refused = await t.api.post('/auth/sign-up/').set(from).send({ email: email(), password: 'correct horse 1' });
    assertError(refused, 429, 'RATE_LIMIT_EXCEEDED');
    assert.equal(refused.headers['x-ratelimit-limit'], '3');
    assert.equal(refused.headers['x-ratelimit-remaining'], '0');
    const retry = Number(refused.headers['retry-after']);
    assert.ok(retry > 60 && retry <= 3600, `Retry-After ${retry}`);
    const other = await t.api
      .post('/auth/sign-up/')
      .set({ 'X-Forwarded-For': '10.10.0.2' })
      .send({ email: email(), password: 'correct horse 1' });
    assert.equal(other.status, 201);
  });
});
