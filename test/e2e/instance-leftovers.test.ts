import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { SMTPServer } from 'smtp-server';
import { adminToken, assertError, configure, signUp, unique } from '../support/fixtures';
import { startMailCatcher } from '../support/mail-catcher';
import { startTestApp, TestApp } from '../support/test-app';

/** An SMTP server that refuses every login (535). */
async function startRefusingSmtp() {
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    logger: false,
    onAuth(_auth, _session, callback) {
      callback(new Error('Invalid username or password'));
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('instance: admin session check, sign-up screen, SMTP check, admin-created workspaces', () => {
  let t: TestApp;
  let token: string;
  let catcher: Awaited<ReturnType<typeof startMailCatcher>>;
  const SMTP_SECRET = 'smtp-very-secret-pass-42';

  before(async () => {
    catcher = await startMailCatcher();
    t = await startTestApp();
    token = await adminToken(t);
  });
  after(async () => {
    await t.close();
    await catcher.close();
  });

  it('GET admins/session/: is_authenticated with the admin token or cookie; false otherwise (200)', async () => {
    const ok = await t.api.get('/api/instances/admins/session/').auth(token, { type: 'bearer' });
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    assert.equal(ok.body.is_authenticated, true);
    assert.equal(ok.body.user.id, t.admin!.userId);
    assert.equal(ok.body.user.email, t.admin!.email);
    for (const k of ['avatar_url', 'date_joined', 'username', 'is_password_autoset', 'user_timezone'])
      assert.ok(k in ok.body.user, k);
    const cookie = await t.api.get('/api/instances/admins/session/').set('Cookie', `admin-session-id=${token}`);
    assert.equal(cookie.body.is_authenticated, true);

    const user = await signUp(t);
    for (const res of [
      await t.api.get('/api/instances/admins/session/'),
      await t.api.get('/api/instances/admins/session/').auth(user.token, { type: 'bearer' }),
      await t.api.get('/api/instances/admins/session/').auth('nonsense', { type: 'bearer' }),
      await t.api.get('/api/instances/admins/session/').set('Cookie', 'admin-session-id=nonsense'),
    ]) {
      assert.equal(res.status, 200);
      assert.deepEqual(res.body, { is_authenticated: false });
    }
    // a signed-out admin session is no longer authenticated
    const other = await adminToken(t);
    assert.equal((await t.api.post('/api/instances/admins/sign-out/').auth(other, { type: 'bearer' })).status, 204);
    const gone = await t.api.get('/api/instances/admins/session/').auth(other, { type: 'bearer' });
    assert.deepEqual(gone.body, { is_authenticated: false });
  });

  it('POST admins/sign-up-screen-visited/: public 204; the instance reports it', async () => {
    const res = await t.api.post('/api/instances/admins/sign-up-screen-visited/');
    assert.equal(res.status, 204);
    const info = await t.api.get('/api/instances/');
    assert.equal(info.body.instance.is_signup_screen_visited, true);
    assert.equal((await t.api.post('/api/instances/admins/sign-up-screen-visited/')).status, 204);
  });

  it('POST email-credentials-check/: sends the sample message through the configured server', async () => {
    await configure(t, token, {
      EMAIL_HOST: catcher.env.EMAIL_HOST,
      EMAIL_PORT: catcher.env.EMAIL_PORT,
      EMAIL_USE_TLS: '0',
      EMAIL_USE_SSL: '0',
      EMAIL_FROM: 'Ops <ops@example.com>',
    });
    const to = `${unique('rcpt')}@example.com`;
    const res = await t.api
      .post('/api/instances/email-credentials-check/')
      .auth(token, { type: 'bearer' })
      .send({ receiver_email: to });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body, { message: 'Email successfully sent.' });
    const mail = await catcher.lastTo(to);
    assert.match(mail.text, /Email Notification from Plane/);
  });

  it('POST email-credentials-check/: failures are 400 SMTP_CHECK_FAILED naming the cause, never a 500; the password is not in the answer', async () => {
    const refusing = await startRefusingSmtp();
    try {
      await configure(t, token, {
        EMAIL_HOST: '127.0.0.1',
        EMAIL_PORT: String(refusing.port),
        EMAIL_HOST_USER: 'mailer',
        EMAIL_HOST_PASSWORD: SMTP_SECRET,
      });
      const bad = assertError(
        await t.api
          .post('/api/instances/email-credentials-check/')
          .auth(token, { type: 'bearer' })
          .send({ receiver_email: 'a@example.com' }),
        400,
        'SMTP_CHECK_FAILED',
      );
      assert.equal(bad.detail, 'Invalid credentials provided');
      assert.ok(!JSON.stringify(bad).includes(SMTP_SECRET));
    } finally {
      await refusing.close();
    }
    // nothing listens there now
    const closed = assertError(
      await t.api
        .post('/api/instances/email-credentials-check/')
        .auth(token, { type: 'bearer' })
        .send({ receiver_email: 'a@example.com' }),
      400,
      'SMTP_CHECK_FAILED',
    );
    assert.equal(closed.detail, 'Could not connect with the SMTP server.');
    await configure(t, token, { EMAIL_HOST: '' });
    const none = assertError(
      await t.api
        .post('/api/instances/email-credentials-check/')
        .auth(token, { type: 'bearer' })
        .send({ receiver_email: 'a@example.com' }),
      400,
      'SMTP_CHECK_FAILED',
    );
    assert.match(none.detail, /No SMTP server/);
  });

  it('POST email-credentials-check/: 422 without a valid receiver_email; admins only', async () => {
    for (const body of [{}, { receiver_email: 'nope' }, { receiver_email: 5 }]) {
      assertError(
        await t.api.post('/api/instances/email-credentials-check/').auth(token, { type: 'bearer' }).send(body),
        422,
        'VALIDATION_ERROR',
      );
    }
    const user = await signUp(t);
    assert.equal(
      (
        await t.api
          .post('/api/instances/email-credentials-check/')
          .auth(user.token, { type: 'bearer' })
          .send({ receiver_email: 'a@example.com' })
      ).status,
      401,
    );
    assertError(
      await t.api.post('/api/instances/email-credentials-check/').send({ receiver_email: 'a@example.com' }),
      401,
      'AUTHENTICATION_REQUIRED',
    );
  });

  it('POST workspaces/: 201, the admin owns it and is its Admin; listed by GET; even with DISABLE_WORKSPACE_CREATION', async () => {
    await configure(t, token, { DISABLE_WORKSPACE_CREATION: '1' });
    const slug = unique('adm-');
    const res = await t.api
      .post('/api/instances/workspaces/')
      .auth(token, { type: 'bearer' })
      .send({ name: 'Admin made', slug, organization_size: '2-10' });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.equal(res.body.slug, slug);
    assert.equal(res.body.owner, t.admin!.userId);
    const members = await t.sql<{ member_id: string; role: number }>(
      'SELECT member_id, role FROM workspace_members WHERE workspace_id = $1',
      [res.body.id],
    );
    assert.deepEqual(members, [{ member_id: t.admin!.userId, role: 20 }]);
    const list = await t.api.get(`/api/instances/workspaces/?search=${slug}`).auth(token, { type: 'bearer' });
    assert.equal(list.status, 200);
    assert.equal(list.body.results[0].id, res.body.id);
    assert.equal(list.body.results[0].total_members, 1);
    await configure(t, token, { DISABLE_WORKSPACE_CREATION: '0' });

    assertError(
      await t.api.post('/api/instances/workspaces/').auth(token, { type: 'bearer' }).send({ name: 'Again', slug }),
      409,
      'WORKSPACE_SLUG_TAKEN',
    );
    for (const body of [
      {},
      { name: 'x' },
      { slug: unique('s-') },
      { name: 'x'.repeat(81), slug: unique('s-') },
      { name: 'x', slug: 'y'.repeat(49) },
      { name: 'x', slug: 'bad slug' },
    ]) {
      assertError(
        await t.api.post('/api/instances/workspaces/').auth(token, { type: 'bearer' }).send(body),
        422,
        'VALIDATION_ERROR',
      );
    }
    const user = await signUp(t);
    assert.equal(
      (
        await t.api
          .post('/api/instances/workspaces/')
          .auth(user.token, { type: 'bearer' })
          .send({ name: 'x', slug: unique('u-') })
      ).status,
      401,
    );
  });
});
