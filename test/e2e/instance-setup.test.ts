import { hashPassword } from '#domain';
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError, unique } from '../support/fixtures';
import { startTestApp, TestApp } from '../support/test-app';

const admin = {
  email: 'Owner@Example.com',
  password: 'first admin password',
  first_name: 'Olga',
  last_name: 'Owner',
  company_name: 'Acme Ltd',
};

describe('instance: GET /api/instances/ and the first set-up, once', () => {
  let t: TestApp;
  before(async () => (t = await startTestApp({}, { setup: false })));
  after(() => t.close());

  it('describes a fresh, unclaimed instance publicly, with Plane’s shape and default flags', async () => {
    const res = await t.api.get('/api/instances/');
    assert.equal(res.status, 200);
    const { instance, config } = res.body;
    assert.match(instance.id, /^[0-9a-f-]{36}$/);
    assert.equal(instance.current_version, '0.25.3');
    assert.equal(instance.edition, 'PLANE_COMMUNITY');
    assert.equal(instance.is_setup_done, false);
    assert.equal(instance.workspaces_exist, false);
    assert.equal(typeof instance.instance_name, 'string');
    assert.deepEqual(
      {
        enable_signup: config.enable_signup,
        is_email_password_enabled: config.is_email_password_enabled,
        is_magic_login_enabled: config.is_magic_login_enabled,
        is_google_enabled: config.is_google_enabled,
        is_github_enabled: config.is_github_enabled,
        is_gitlab_enabled: config.is_gitlab_enabled,
        is_workspace_creation_disabled: config.is_workspace_creation_disabled,
        is_smtp_configured: config.is_smtp_configured,
        file_size_limit: config.file_size_limit,
      },
      {
        enable_signup: true,
        is_email_password_enabled: true,
        is_magic_login_enabled: true,
        is_google_enabled: false,
        is_github_enabled: false,
        is_gitlab_enabled: false,
        is_workspace_creation_disabled: false,
        is_smtp_configured: false,
        file_size_limit: 5242880,
      },
    );
    // the same row on every read
    assert.equal((await t.api.get('/api/instances/')).body.instance.id, instance.id);
  });

  it('refuses user sign-up and admin sign-in with 403 INSTANCE_NOT_CONFIGURED until set-up is done', async () => {
    assertError(
      await t.api.post('/auth/sign-up/').send({ email: `${unique('early')}@example.com`, password: 'long enough pw' }),
      403,
      'INSTANCE_NOT_CONFIGURED',
    );
    assertError(
      await t.api.post('/api/instances/admins/sign-in/').send({ email: admin.email, password: admin.password }),
      403,
      'INSTANCE_NOT_CONFIGURED',
    );
    assert.equal((await t.sql('SELECT 1 FROM users')).length, 0);
  });

  it('validates the set-up body with 422 and a field map', async () => {
    const res = await t.api
      .post('/api/instances/admins/sign-up/')
      .send({ email: 'not-an-email', password: 'short', extra: 1 });
    const body = assertError(res, 422, 'VALIDATION_ERROR');
    const errors = body.errors as Record<string, string[]>;
    assert.ok(errors.email && errors.password && errors.first_name && errors.extra, JSON.stringify(errors));
    assert.equal((await t.sql('SELECT 1 FROM instance_admins')).length, 0);
  });

  it('sets up the instance once: creates the user and the admin, names the instance, returns admin tokens', async () => {
    const res = await t.api.post('/api/instances/admins/sign-up/').send(admin);
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.equal(res.body.token_type, 'Bearer');
    assert.equal(res.body.expires_in, 3600);
    assert.equal(res.body.refresh_expires_in, 8 * 3600);
    assert.equal(res.body.user.email, 'owner@example.com');
    assert.equal(res.body.user.first_name, 'Olga');
    assert.equal(res.body.instance.is_setup_done, true);

    const info = (await t.api.get('/api/instances/')).body.instance;
    assert.equal(info.is_setup_done, true);
    assert.equal(info.instance_name, 'Acme Ltd');
    const admins = await t.sql<{ user_id: string; role: number }>('SELECT user_id, role FROM instance_admins');
    assert.deepEqual(admins, [{ user_id: res.body.user.id, role: 20 }]);

    const me = await t.api.get('/api/instances/admins/me/').auth(res.body.access_token, { type: 'bearer' });
    assert.equal(me.status, 200);
    assert.equal(me.body.email, 'owner@example.com');
  });

  it('never twice: a second set-up is a 403 ADMIN_ALREADY_EXIST and changes nothing', async () => {
    const other = { ...admin, email: `${unique('second')}@example.com`, company_name: 'Hijack Inc' };
    assertError(await t.api.post('/api/instances/admins/sign-up/').send(other), 403, 'ADMIN_ALREADY_EXIST');
    assertError(await t.api.post('/api/instances/admins/sign-up/').send(admin), 403, 'ADMIN_ALREADY_EXIST');
    assert.equal((await t.sql('SELECT 1 FROM instance_admins')).length, 1);
    assert.equal((await t.sql('SELECT 1 FROM users WHERE email = $1', [other.email])).length, 0);
    assert.equal((await t.api.get('/api/instances/')).body.instance.instance_name, 'Acme Ltd');
  });

  it('lets users sign up once the instance is set up', async () => {
    const res = await t.api
      .post('/auth/sign-up/')
      .send({ email: `${unique('after')}@example.com`, password: 'long enough pw' });
    assert.equal(res.status, 201, JSON.stringify(res.body));
  });
});

describe('instance: first set-up with the email of an existing user', () => {
  let t: TestApp;
  let userId: string;
  before(async () => {
    t = await startTestApp({}, { setup: false });
    const [row] = await t.sql<{ id: string }>(
      `INSERT INTO users (email, password_hash, display_name) VALUES ('existing@example.com', $1, 'existing') RETURNING id`,
      [await hashPassword('the existing password')],
    );
    userId = row.id;
  });
  after(() => t.close());

  it('refuses another password with 401 ADMIN_AUTHENTICATION_FAILED, then accepts the matching one and keeps the user', async () => {
    const wrong = await t.api
      .post('/api/instances/admins/sign-up/')
      .send({ email: 'existing@example.com', password: 'not the password', first_name: 'E' });
    assertError(wrong, 401, 'ADMIN_AUTHENTICATION_FAILED');
    assert.equal((await t.api.get('/api/instances/')).body.instance.is_setup_done, false);

    const ok = await t.api
      .post('/api/instances/admins/sign-up/')
      .send({ email: 'EXISTING@example.com', password: 'the existing password', first_name: 'E' });
    assert.equal(ok.status, 201, JSON.stringify(ok.body));
    assert.equal(ok.body.user.id, userId);
    assert.equal((await t.sql('SELECT 1 FROM users')).length, 1);
  });
});

describe('instance: concurrent first set-ups', () => {
  let t: TestApp;
  before(async () => (t = await startTestApp({}, { setup: false })));
  after(() => t.close());

  it('lets exactly one of several simultaneous set-ups win', async () => {
    const results = await Promise.all(
      [1, 2, 3, 4].map((i) =>
        t.api
          .post('/api/instances/admins/sign-up/')
          .send({ email: `racer${i}@example.com`, password: 'racing password', first_name: `R${i}` }),
      ),
    );
    const statuses = results.map((r) => r.status).sort();
    assert.deepEqual(statuses, [201, 403, 403, 403], JSON.stringify(results.map((r) => r.body)));
    assert.equal((await t.sql('SELECT 1 FROM instance_admins')).length, 1);
  });
});
