import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { assertError, signUp, unique } from '../support/fixtures';
import { SmtpCapture, startSmtpCapture } from '../support/smtp';
import { startTestApp, TestApp } from '../support/test-app';

const bearer = { type: 'bearer' } as const;
const CODE = /\b([a-z]{4}-[a-z]{4}-[a-z]{4})\b/;
const sha256 = (v: string) => createHash('sha256').update(v).digest('hex');

describe('auth: magic code and password flows, mail through a real SMTP server', () => {
  let t: TestApp;
  let smtp: SmtpCapture;
  before(async () => {
    smtp = await startSmtpCapture();
    // the per-address limit has its own test (auth-rate-limit); here every request comes from 127.0.0.1
    t = await startTestApp({ ...smtp.env, WEB_URL: 'https://meridian.example', AUTH_RATE_LIMIT: '1000/minute' });
  });
  after(async () => {
    await t.close();
    await smtp.close();
  });

  async function requestCode(email: string): Promise<string> {
    const res = await t.api.post('/auth/magic-generate/').send({ email });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body, { key: `magic_${email.toLowerCase()}` });
    const mail = smtp.last(email);
    const code = CODE.exec(mail.text)?.[1];
    assert.ok(code, mail.text);
    assert.ok(mail.subject.includes(code));
    return code;
  }

  const magicSignIn = (email: string, code: string) => t.api.post('/auth/magic-sign-in/').send({ email, code });

  it('emails a code and creates the account on first use (no password, email verified); the code is single use', async () => {
    const email = `${unique('magic')}@example.com`;
    const code = await requestCode(email);
    const rows = await t.sql<{ digest: string; expires_at: Date; created_at: Date }>(
      `SELECT digest, expires_at, created_at FROM auth_codes WHERE email = $1`,
      [email],
    );
    assert.equal(rows.length, 1);
    assert.ok(!rows[0].digest.includes(code));
    const ttl = (new Date(rows[0].expires_at).getTime() - new Date(rows[0].created_at).getTime()) / 1000;
    assert.ok(Math.abs(ttl - 600) < 5, `ttl ${ttl}`);

    const res = await magicSignIn(email, code.toUpperCase());
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.token_type, 'Bearer');
    assert.equal(res.body.user.email, email);
    assert.equal(res.body.user.is_password_autoset, true);
    assert.equal(res.body.user.is_email_verified, true);
    assert.equal(res.body.user.last_login_medium, 'magic-code');
    assert.equal((await t.api.get('/auth/sessions/').auth(res.body.access_token, bearer)).body[0].medium, 'magic-code');
    assertError(await magicSignIn(email, code), 401, 'EXPIRED_MAGIC_CODE');
  });

  it('signs an existing account in with a code, without creating another', async () => {
    const u = await signUp(t);
    const code = await requestCode(u.email);
    const res = await magicSignIn(u.email, code);
    assert.equal(res.status, 200);
    assert.equal(res.body.user.id, u.userId);
  });

  it('hands an unverified password account to the verified owner of the address (no pre-hijacking)', async () => {
    // someone registered this address with a password before its owner: the owner proves the address
    const squatter = await signUp(t);
    const code = await requestCode(squatter.email);
    const owner = await magicSignIn(squatter.email, code);
    assert.equal(owner.status, 200);
    assert.equal(owner.body.user.id, squatter.userId);
    assert.equal(owner.body.user.is_password_autoset, true, 'the unverified password is cleared');
    assertError(
      await t.api.get('/api/workspaces/').auth(squatter.token, { type: 'bearer' }),
      401,
      'INVALID_ACCESS_TOKEN',
    );
    assertError(
      await t.api.post('/auth/sign-in/').send({ email: squatter.email, password: squatter.password }),
      401,
      'AUTHENTICATION_FAILED_SIGN_IN',
    );
    assert.equal((await t.api.get('/api/workspaces/').auth(owner.body.access_token, { type: 'bearer' })).status, 200);
    // once verified, a later code leaves the account's password alone
    await t.api
      .post('/auth/set-password/')
      .auth(owner.body.access_token, { type: 'bearer' })
      .send({ password: 'owner passphrase' });
    const again = await magicSignIn(squatter.email, await requestCode(squatter.email));
    assert.equal(again.body.user.is_password_autoset, false);
  });

  it('allows at most 5 wrong tries, then the right code is refused too', async () => {
    const email = `${unique('tries')}@example.com`;
    const code = await requestCode(email);
    for (let i = 0; i < 5; i++) assertError(await magicSignIn(email, 'aaaa-bbbb-cccc'), 401, 'INVALID_MAGIC_CODE');
    assertError(await magicSignIn(email, code), 401, 'EMAIL_CODE_ATTEMPT_EXHAUSTED');
    const users = await t.sql('SELECT 1 FROM users WHERE email = $1', [email]);
    assert.equal(users.length, 0);
    // a new code works
    const fresh = await requestCode(email);
    assert.equal((await magicSignIn(email, fresh)).status, 200);
  });

  it('expires a code after 10 minutes, and a new code replaces the previous one', async () => {
    const email = `${unique('exp')}@example.com`;
    const first = await requestCode(email);
    const second = await requestCode(email);
    assert.notEqual(first, second);
    assertError(await magicSignIn(email, first), 401, 'INVALID_MAGIC_CODE');
    await t.sql(`UPDATE auth_codes SET expires_at = now() - interval '1 second' WHERE email = $1`, [email]);
    assertError(await magicSignIn(email, second), 401, 'EXPIRED_MAGIC_CODE');
    assertError(await magicSignIn(`${unique('never')}@example.com`, 'abcd-efgh-ijkl'), 401, 'EXPIRED_MAGIC_CODE');
  });

  it('does not reactivate a deactivated account with a magic code', async () => {
    const u = await signUp(t);
    await t.sql('UPDATE users SET is_active = false WHERE id = $1', [u.userId]);
    const code = await requestCode(u.email);
    assertError(await magicSignIn(u.email, code), 403, 'USER_ACCOUNT_DEACTIVATED');
    const [row] = await t.sql<{ is_active: boolean }>('SELECT is_active FROM users WHERE id = $1', [u.userId]);
    assert.equal(row.is_active, false);
  });

  it('rejects a malformed email with 422 INVALID_EMAIL', async () => {
    assertError(await t.api.post('/auth/magic-generate/').send({ email: 'nope' }), 422, 'INVALID_EMAIL');
    assertError(await t.api.post('/auth/forgot-password/').send({ email: 'nope@' }), 422, 'INVALID_EMAIL');
    assertError(await t.api.post('/auth/magic-sign-in/').send({ email: 'a@b.co' }), 422, 'VALIDATION_ERROR');
  });

  it('set-password gives a magic-code account its first password, once', async () => {
    const email = `${unique('setpw')}@example.com`;
    const code = await requestCode(email);
    const signedIn = await magicSignIn(email, code);
    const token = signedIn.body.access_token as string;
    assertError(
      await t.api.post('/auth/set-password/').auth(token, bearer).send({ password: 'short' }),
      422,
      'VALIDATION_ERROR',
    );
    const res = await t.api.post('/auth/set-password/').auth(token, bearer).send({ password: 'brand new password' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.email, email);
    assert.equal(res.body.is_password_autoset, false);
    assert.equal((await t.api.post('/auth/sign-in/').send({ email, password: 'brand new password' })).status, 200);
    assertError(
      await t.api.post('/auth/set-password/').auth(token, bearer).send({ password: 'another password' }),
      400,
      'PASSWORD_ALREADY_SET',
    );
    assertError(
      await t.api.post('/auth/set-password/').send({ password: 'another password' }),
      401,
      'AUTHENTICATION_REQUIRED',
    );
  });

  it('forgot-password mails a single-use reset token valid 1 hour; reset signs the user out everywhere', async () => {
    const u = await signUp(t);
    const stranger = `${unique('nobody')}@example.com`;
    const unknown = await t.api.post('/auth/forgot-password/').send({ email: stranger });
    const known = await t.api.post('/auth/forgot-password/').send({ email: u.email });
    assert.equal(known.status, 200);
    assert.deepEqual(unknown.body, known.body);
    assert.equal(smtp.to(stranger).length, 0);
    const mail = smtp.last(u.email);
    const token = /Reset token:\n(\S+)/.exec(mail.text)?.[1];
    assert.ok(token, mail.text);
    assert.ok(mail.text.includes(`https://meridian.example/accounts/reset-password/?token=${token}`));
    const [row] = await t.sql<{ digest: string; expires_at: Date; created_at: Date }>(
      `SELECT digest, expires_at, created_at FROM auth_codes WHERE kind = 'password_reset' AND user_id = $1`,
      [u.userId],
    );
    assert.equal(row.digest, sha256(token));
    const ttl = (new Date(row.expires_at).getTime() - new Date(row.created_at).getTime()) / 1000;
    assert.ok(Math.abs(ttl - 3600) < 5, `ttl ${ttl}`);

    assertError(await t.api.post('/auth/reset-password/').send({ token, password: 'short' }), 422, 'VALIDATION_ERROR');
    const res = await t.api.post('/auth/reset-password/').send({ token, password: 'reset password 2' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assertError(await t.api.get('/auth/sessions/').auth(u.token, bearer), 401, 'INVALID_ACCESS_TOKEN');
    assertError(
      await t.api.post('/auth/sign-in/').send({ email: u.email, password: u.password }),
      401,
      'AUTHENTICATION_FAILED_SIGN_IN',
    );
    assert.equal(
      (await t.api.post('/auth/sign-in/').send({ email: u.email, password: 'reset password 2' })).status,
      200,
    );
    assertError(
      await t.api.post('/auth/reset-password/').send({ token, password: 'third password 3' }),
      400,
      'INVALID_PASSWORD_TOKEN',
    );
    assertError(
      await t.api.post('/auth/reset-password/').send({ token: 'made-up', password: 'third password 3' }),
      400,
      'INVALID_PASSWORD_TOKEN',
    );
  });

  it('refuses an expired reset token, and a newer request retires the older token', async () => {
    const u = await signUp(t);
    await t.api.post('/auth/forgot-password/').send({ email: u.email });
    const older = /Reset token:\n(\S+)/.exec(smtp.last(u.email).text)![1];
    await t.api.post('/auth/forgot-password/').send({ email: u.email });
    const newer = /Reset token:\n(\S+)/.exec(smtp.last(u.email).text)![1];
    assertError(
      await t.api.post('/auth/reset-password/').send({ token: older, password: 'reset password 2' }),
      400,
      'INVALID_PASSWORD_TOKEN',
    );
    await t.sql(`UPDATE auth_codes SET expires_at = now() - interval '1 second' WHERE digest = $1`, [sha256(newer)]);
    assertError(
      await t.api.post('/auth/reset-password/').send({ token: newer, password: 'reset password 2' }),
      400,
      'EXPIRED_PASSWORD_TOKEN',
    );
  });

  it("change-password checks the old password and revokes the user's other sessions only", async () => {
    const u = await signUp(t);
    const other = await t.api.post('/auth/sign-in/').send({ email: u.email, password: u.password });
    assertError(
      await t.api
        .post('/auth/change-password/')
        .auth(u.token, bearer)
        .send({ old_password: 'wrong one', new_password: 'changed password 1' }),
      400,
      'INCORRECT_OLD_PASSWORD',
    );
    assert.equal((await t.api.get('/auth/sessions/').auth(other.body.access_token, bearer)).status, 200);
    const res = await t.api
      .post('/auth/change-password/')
      .auth(u.token, bearer)
      .send({ old_password: u.password, new_password: 'changed password 1' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body, { message: 'Password updated successfully' });
    assert.equal((await t.api.get('/auth/sessions/').auth(u.token, bearer)).status, 200);
    assertError(await t.api.get('/auth/sessions/').auth(other.body.access_token, bearer), 401, 'INVALID_ACCESS_TOKEN');
    assert.equal(
      (await t.api.post('/auth/sign-in/').send({ email: u.email, password: 'changed password 1' })).status,
      200,
    );
    assertError(
      await t.api.post('/auth/sign-in/').send({ email: u.email, password: u.password }),
      401,
      'AUTHENTICATION_FAILED_SIGN_IN',
    );
  });
});

describe('auth: an SMTP server that does not answer', () => {
  let t: TestApp;
  before(async () => (t = await startTestApp({ EMAIL_HOST: '127.0.0.1', EMAIL_PORT: '1', EMAIL_USE_TLS: 'false' })));
  after(() => t.close());

  it('answers magic-generate with 503 SERVICE_UNAVAILABLE, not a 500; issuing a code purges codes expired over a day ago', async () => {
    await t.sql(
      `INSERT INTO auth_codes (kind, email, digest, expires_at) VALUES
         ('magic', 'old@example.com', repeat('a', 64), now() - interval '2 days'),
         ('magic', 'recent@example.com', repeat('b', 64), now() - interval '1 hour')`,
    );
    assertError(
      await t.api.post('/auth/magic-generate/').send({ email: `${unique('down')}@example.com` }),
      503,
      'SERVICE_UNAVAILABLE',
    );
    const left = await t.sql<{ email: string }>(
      `SELECT email FROM auth_codes WHERE email IN ('old@example.com', 'recent@example.com')`,
    );
    assert.deepEqual(
      left.map((r) => r.email),
      ['recent@example.com'],
    );
  });
});
