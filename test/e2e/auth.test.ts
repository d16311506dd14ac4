import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createHash } from 'node:crypto';
import { assertError, signUp, unique } from '../support/fixtures';
import { startTestApp, TestApp } from '../support/test-app';

const sha256 = (v: string) => createHash('sha256').update(v).digest('hex');

describe('auth: sign-up, sign-in and Bearer access tokens', () => {
  let t: TestApp;
  // the production argon2id parameters, which a test below reads back from the stored hash
  before(async () => (t = await startTestApp({ PASSWORD_HASH_COST: 'production' })));
  after(() => t.close());

  it('signs up with 201 and returns both tokens, their type, the access TTL and the user', async () => {
    const email = `${unique('New')}@Example.com`;
    const res = await t.api.post('/auth/sign-up/').send({ email: `  ${email} `, password: 'long enough pw' });
    assert.equal(res.status, 201);
    assert.equal(res.body.token_type, 'Bearer');
    assert.equal(res.body.expires_in, 3600);
    assert.match(res.body.access_token, /^[A-Za-z0-9_-]{43}$/);
    assert.match(res.body.refresh_token, /^[A-Za-z0-9_-]{43}$/);
    assert.notEqual(res.body.access_token, res.body.refresh_token);
    assert.equal(res.body.user.email, email.toLowerCase());
    assert.equal(res.body.user.password_hash, undefined);
    assert.equal(res.body.user.passwordHash, undefined);
  });

  it('stores the password as argon2id with OWASP parameters, and tokens only as SHA-256 digests', async () => {
    const u = await signUp(t);
    const [row] = await t.sql<{ password_hash: string }>('SELECT password_hash FROM users WHERE id = $1', [u.userId]);
    assert.match(row.password_hash, /^\$argon2id\$v=19\$m=19456,p=1,t=2\$/);
    const tokens = await t.sql<{ digest: string; kind: string }>(
      `SELECT t.digest, t.kind FROM auth_tokens t JOIN auth_sessions s ON s.id = t.session_id WHERE s.user_id = $1`,
      [u.userId],
    );
    assert.deepEqual(tokens.map((r) => r.kind).sort(), ['access', 'refresh']);
    assert.ok(tokens.some((r) => r.digest === sha256(u.token)));
    const leaked = await t.sql(`SELECT 1 FROM auth_tokens WHERE digest = $1`, [u.token]);
    assert.equal(leaked.length, 0);
  });

  it('refuses a taken email with 409 USER_ALREADY_EXIST, whatever its case', async () => {
    const u = await signUp(t);
    const res = await t.api.post('/auth/sign-up/').send({ email: u.email.toUpperCase(), password: 'another password' });
    assertError(res, 409, 'USER_ALREADY_EXIST');
  });

  it('rejects bad sign-up input with 422 and a field map', async () => {
    const res = await t.api.post('/auth/sign-up/').send({ email: 'not-an-email', password: 'short' });
    const body = assertError(res, 422, 'VALIDATION_ERROR');
    const errors = body.errors as Record<string, string[]>;
    assert.ok(errors.email?.length);
    assert.ok(errors.password?.length);
    assertError(await t.api.post('/auth/sign-up/').send({}), 422, 'VALIDATION_ERROR');
  });

  it('signs in with 200 and a new token pair', async () => {
    const u = await signUp(t);
    const res = await t.api.post('/auth/sign-in/').send({ email: u.email, password: u.password });
    assert.equal(res.status, 200);
    assert.equal(res.body.user.id, u.userId);
    assert.notEqual(res.body.access_token, u.token);
    const me = await t.api.get('/api/workspaces/').auth(res.body.access_token, { type: 'bearer' });
    assert.equal(me.status, 200);
  });

  it('answers a wrong password and an unknown email the same way', async () => {
    const u = await signUp(t);
    const wrong = await t.api.post('/auth/sign-in/').send({ email: u.email, password: 'wrong password' });
    const unknown = await t.api
      .post('/auth/sign-in/')
      .send({ email: `${unique('nobody')}@example.com`, password: 'whatever1' });
    assertError(wrong, 401, 'AUTHENTICATION_FAILED_SIGN_IN');
    assertError(unknown, 401, 'AUTHENTICATION_FAILED_SIGN_IN');
    assert.deepEqual(wrong.body, unknown.body);
  });

  it('gives 401 for a missing, unknown, expired or revoked access token', async () => {
    assertError(await t.api.get('/api/workspaces/'), 401, 'AUTHENTICATION_REQUIRED');
    const bad = await t.api.get('/api/workspaces/').auth('not-a-token', { type: 'bearer' });
    assertError(bad, 401, 'INVALID_ACCESS_TOKEN');
    assert.equal(bad.headers['www-authenticate'], 'Bearer');
    assertError(
      await t.api.get('/api/workspaces/').set('Authorization', 'Basic Zm9vOmJhcg=='),
      401,
      'AUTHENTICATION_REQUIRED',
    );

    const expired = await signUp(t);
    await t.sql(`UPDATE auth_tokens SET expires_at = now() - interval '1 second' WHERE digest = $1`, [
      sha256(expired.token),
    ]);
    assertError(
      await t.api.get('/api/workspaces/').auth(expired.token, { type: 'bearer' }),
      401,
      'INVALID_ACCESS_TOKEN',
    );

    const revoked = await signUp(t);
    assert.equal((await t.api.get('/api/workspaces/').auth(revoked.token, { type: 'bearer' })).status, 200);
    await t.sql(`UPDATE auth_sessions SET revoked_at = now() WHERE user_id = $1`, [revoked.userId]);
    assertError(
      await t.api.get('/api/workspaces/').auth(revoked.token, { type: 'bearer' }),
      401,
      'INVALID_ACCESS_TOKEN',
    );

    const deactivated = await signUp(t);
    await t.sql(`UPDATE users SET is_active = false WHERE id = $1`, [deactivated.userId]);
    assertError(
      await t.api.get('/api/workspaces/').auth(deactivated.token, { type: 'bearer' }),
      401,
      'INVALID_ACCESS_TOKEN',
    );
  });

  it('does not accept a session access token as an API key, nor an API key as a Bearer token', async () => {
    const u = await signUp(t);
    const res = await t.api.get('/api/v1/workspaces/any/projects/').set('X-API-Key', u.token);
    assertError(res, 401, 'INVALID_API_KEY');
  });
});
