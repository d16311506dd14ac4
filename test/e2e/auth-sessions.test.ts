import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError, signUp, unique } from '../support/fixtures';
import { startTestApp, TestApp } from '../support/test-app';

const bearer = { type: 'bearer' } as const;

async function signIn(t: TestApp, email: string, password: string, agent = 'test-agent') {
  const res = await t.api.post('/auth/sign-in/').set('User-Agent', agent).send({ email, password });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body as { access_token: string; refresh_token: string; user: { id: string } };
}

async function signUpFull(t: TestApp) {
  const email = `${unique('s')}@example.com`;
  const res = await t.api.post('/auth/sign-up/').send({ email, password: 'correct horse 1' });
  assert.equal(res.status, 201);
  return {
    email,
    password: 'correct horse 1',
    access: res.body.access_token as string,
    refresh: res.body.refresh_token as string,
    userId: res.body.user.id as string,
  };
}

const works = async (t: TestApp, token: string) => (await t.api.get('/auth/sessions/').auth(token, bearer)).status;

describe('auth: sign-out, refresh rotation and sessions', () => {
  let t: TestApp;
  before(async () => (t = await startTestApp()));
  after(() => t.close());

  it('sign-out revokes the session at once: its access and refresh tokens stop working', async () => {
    const u = await signUpFull(t);
    const other = await signIn(t, u.email, u.password);
    assert.equal(await works(t, u.access), 200);
    const out = await t.api.post('/auth/sign-out/').auth(u.access, bearer);
    assert.equal(out.status, 204);
    assertError(await t.api.get('/api/workspaces/').auth(u.access, bearer), 401, 'INVALID_ACCESS_TOKEN');
    assertError(
      await t.api.post('/auth/token/refresh/').send({ refresh_token: u.refresh }),
      401,
      'INVALID_REFRESH_TOKEN',
    );
    // the user's other session is untouched
    assert.equal(await works(t, other.access_token), 200);
    assertError(await t.api.post('/auth/sign-out/'), 401, 'AUTHENTICATION_REQUIRED');
  });

  it('refresh rotates the pair: the old access and refresh tokens end, the new ones work', async () => {
    const u = await signUpFull(t);
    const res = await t.api.post('/auth/token/refresh/').send({ refresh_token: u.refresh });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.token_type, 'Bearer');
    assert.equal(res.body.expires_in, 3600);
    assert.match(res.body.access_token, /^[A-Za-z0-9_-]{43}$/);
    assert.notEqual(res.body.access_token, u.access);
    assert.notEqual(res.body.refresh_token, u.refresh);
    assert.equal(await works(t, res.body.access_token), 200);
    assertError(await t.api.get('/auth/sessions/').auth(u.access, bearer), 401, 'INVALID_ACCESS_TOKEN');
    // the new refresh token rotates again
    const again = await t.api.post('/auth/token/refresh/').send({ refresh_token: res.body.refresh_token });
    assert.equal(again.status, 200);
    assert.equal(await works(t, again.body.access_token), 200);
  });

  it('reusing a rotated refresh token revokes the whole session (401 on every token of it)', async () => {
    const u = await signUpFull(t);
    const rotated = await t.api.post('/auth/token/refresh/').send({ refresh_token: u.refresh });
    assert.equal(rotated.status, 200);
    const reuse = await t.api.post('/auth/token/refresh/').send({ refresh_token: u.refresh });
    assertError(reuse, 401, 'INVALID_REFRESH_TOKEN');
    assertError(
      await t.api.get('/auth/sessions/').auth(rotated.body.access_token, bearer),
      401,
      'INVALID_ACCESS_TOKEN',
    );
    assertError(
      await t.api.post('/auth/token/refresh/').send({ refresh_token: rotated.body.refresh_token }),
      401,
      'INVALID_REFRESH_TOKEN',
    );
    const [row] = await t.sql<{ revoked_at: Date | null }>('SELECT revoked_at FROM auth_sessions WHERE user_id = $1', [
      u.userId,
    ]);
    assert.ok(row.revoked_at);
  });

  it('lets only one of two concurrent refreshes with the same token win; the loser revokes the session', async () => {
    const u = await signUpFull(t);
    const [a, b] = await Promise.all([
      t.api.post('/auth/token/refresh/').send({ refresh_token: u.refresh }),
      t.api.post('/auth/token/refresh/').send({ refresh_token: u.refresh }),
    ]);
    assert.deepEqual([a.status, b.status].sort(), [200, 401]);
    const winner = a.status === 200 ? a : b;
    assertError(await t.api.get('/auth/sessions/').auth(winner.body.access_token, bearer), 401, 'INVALID_ACCESS_TOKEN');
  });

  it('refuses unknown, access-kind, expired and deactivated-user refresh tokens with 401', async () => {
    assertError(await t.api.post('/auth/token/refresh/').send({ refresh_token: 'nope' }), 401, 'INVALID_REFRESH_TOKEN');
    const u = await signUpFull(t);
    assertError(
      await t.api.post('/auth/token/refresh/').send({ refresh_token: u.access }),
      401,
      'INVALID_REFRESH_TOKEN',
    );
    const expired = await signUpFull(t);
    await t.sql(`UPDATE auth_sessions SET expires_at = now() - interval '1 second' WHERE user_id = $1`, [
      expired.userId,
    ]);
    assertError(
      await t.api.post('/auth/token/refresh/').send({ refresh_token: expired.refresh }),
      401,
      'INVALID_REFRESH_TOKEN',
    );
    const gone = await signUpFull(t);
    await t.sql('UPDATE users SET is_active = false WHERE id = $1', [gone.userId]);
    assertError(
      await t.api.post('/auth/token/refresh/').send({ refresh_token: gone.refresh }),
      401,
      'INVALID_REFRESH_TOKEN',
    );
    assertError(await t.api.post('/auth/token/refresh/').send({}), 422, 'VALIDATION_ERROR');
  });

  it("lists the caller's live sessions without secrets, marking the current one", async () => {
    const u = await signUpFull(t);
    const second = await signIn(t, u.email, u.password, 'Second Browser/1.0');
    const ended = await signIn(t, u.email, u.password);
    assert.equal((await t.api.post('/auth/sign-out/').auth(ended.access_token, bearer)).status, 204);
    const stranger = await signUp(t);

    const res = await t.api.get('/auth/sessions/').auth(second.access_token, bearer);
    assert.equal(res.status, 200);
    assert.ok(Array.isArray(res.body));
    assert.equal(res.body.length, 2);
    const current = res.body.filter((s: { is_current: boolean }) => s.is_current);
    assert.equal(current.length, 1);
    assert.equal(current[0].user_agent, 'Second Browser/1.0');
    assert.equal(current[0].medium, 'email');
    assert.match(current[0].ip_address, /127\.0\.0\.1$/);
    for (const s of res.body) {
      assert.deepEqual(Object.keys(s).sort(), [
        'created_at',
        'expires_at',
        'id',
        'ip_address',
        'is_current',
        'last_used_at',
        'medium',
        'user_agent',
      ]);
      assert.match(s.created_at, /Z$/);
    }
    assert.ok(!JSON.stringify(res.body).includes(second.access_token));
    const ids = (await t.sql<{ id: string }>('SELECT id FROM auth_sessions WHERE user_id = $1', [stranger.userId])).map(
      (r) => r.id,
    );
    assert.ok(!res.body.some((s: { id: string }) => ids.includes(s.id)));
    assertError(await t.api.get('/auth/sessions/'), 401, 'AUTHENTICATION_REQUIRED');
  });

  it("ends one of the caller's sessions; another user's or a malformed id is a 404", async () => {
    const u = await signUpFull(t);
    const other = await signIn(t, u.email, u.password);
    const list = await t.api.get('/auth/sessions/').auth(u.access, bearer);
    const target = list.body.find((s: { is_current: boolean }) => !s.is_current);
    const stranger = await signUp(t);
    assertError(await t.api.delete(`/auth/sessions/${target.id}/`).auth(stranger.token, bearer), 404, 'NOT_FOUND');
    assert.equal(await works(t, other.access_token), 200);

    const res = await t.api.delete(`/auth/sessions/${target.id}/`).auth(u.access, bearer);
    assert.equal(res.status, 204);
    assertError(await t.api.get('/auth/sessions/').auth(other.access_token, bearer), 401, 'INVALID_ACCESS_TOKEN');
    assertError(
      await t.api.post('/auth/token/refresh/').send({ refresh_token: other.refresh_token }),
      401,
      'INVALID_REFRESH_TOKEN',
    );
    assertError(await t.api.delete(`/auth/sessions/${target.id}/`).auth(u.access, bearer), 404, 'NOT_FOUND');
    assertError(await t.api.delete('/auth/sessions/not-a-uuid/').auth(u.access, bearer), 404, 'NOT_FOUND');
    const after = await t.api.get('/auth/sessions/').auth(u.access, bearer);
    assert.equal(after.body.length, 1);
  });

  it('a deactivated user is never reactivated by signing in: 403 with the right password, 401 otherwise', async () => {
    const u = await signUpFull(t);
    await t.sql('UPDATE users SET is_active = false WHERE id = $1', [u.userId]);
    assertError(
      await t.api.post('/auth/sign-in/').send({ email: u.email, password: u.password }),
      403,
      'USER_ACCOUNT_DEACTIVATED',
    );
    assertError(
      await t.api.post('/auth/sign-in/').send({ email: u.email, password: 'wrong password' }),
      401,
      'AUTHENTICATION_FAILED_SIGN_IN',
    );
    const [row] = await t.sql<{ is_active: boolean }>('SELECT is_active FROM users WHERE id = $1', [u.userId]);
    assert.equal(row.is_active, false);
  });
});

describe('auth: email check', () => {
  let t: TestApp;
  before(async () => (t = await startTestApp()));
  after(() => t.close());

  it('tells which method an email can use, as Plane: {existing, status}', async () => {
    const u = await signUp(t);
    const known = await t.api.post('/auth/email-check/').send({ email: u.email.toUpperCase() });
    assert.equal(known.status, 200);
    assert.deepEqual(known.body, { existing: true, status: 'CREDENTIAL' });
    // no SMTP here: Plane's web app must ask for a password, even for a new email
    const fresh = `${unique('new')}@example.com`;
    const unknown = await t.api.post('/auth/email-check/').send({ email: fresh });
    assert.deepEqual(unknown.body, { existing: false, status: 'CREDENTIAL' });
    const passwordless = await signUp(t);
    await t.sql('UPDATE users SET password_hash = NULL WHERE id = $1', [passwordless.userId]);
    const noMail = await t.api.post('/auth/email-check/').send({ email: passwordless.email });
    assert.deepEqual(noMail.body, { existing: true, status: 'CREDENTIAL' });
  });

  it('offers the mailed code when SMTP is configured and magic sign-in is on, as Plane', async () => {
    const mailing = await startTestApp({ EMAIL_HOST: '127.0.0.1', EMAIL_PORT: '2525' });
    try {
      const known = await signUp(mailing);
      const unknown = await mailing.api.post('/auth/email-check/').send({ email: `${unique('new')}@example.com` });
      assert.deepEqual(unknown.body, { existing: false, status: 'MAGIC_CODE' });
      assert.deepEqual((await mailing.api.post('/auth/email-check/').send({ email: known.email })).body, {
        existing: true,
        status: 'CREDENTIAL',
      });
      await mailing.sql('UPDATE users SET password_hash = NULL WHERE id = $1', [known.userId]);
      assert.deepEqual((await mailing.api.post('/auth/email-check/').send({ email: known.email })).body, {
        existing: true,
        status: 'MAGIC_CODE',
      });
    } finally {
      await mailing.close();
    }
  });

  it('rejects a malformed email with 422 INVALID_EMAIL and a missing one with VALIDATION_ERROR', async () => {
    const bad = assertError(
      await t.api.post('/auth/email-check/').send({ email: 'not-an-email' }),
      422,
      'INVALID_EMAIL',
    );
    assert.deepEqual(Object.keys(bad.errors as object), ['email']);
    assertError(await t.api.post('/auth/email-check/').send({}), 422, 'VALIDATION_ERROR');
    assertError(await t.api.post('/auth/email-check/').send({ email: 'a@b.co', extra: 1 }), 422, 'VALIDATION_ERROR');
  });
});
