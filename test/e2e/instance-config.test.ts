import { InstanceSettings, MailService, SecretBox } from '#domain';
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { adminToken, assertError, configure, signUp, unique } from '../support/fixtures';
import { startSmtpStub } from '../support/smtp-stub';
import { startTestApp, TestApp } from '../support/test-app';

describe('instance configuration: GET and PATCH /api/instances/configurations/', () => {
  let t: TestApp;
  let token: string;
  before(async () => {
    t = await startTestApp({
      GITLAB_CLIENT_ID: 'gl-env-id',
      GITLAB_CLIENT_SECRET: 'gl-env-secret',
      EMAIL_PORT: '2525',
    });
    token = await adminToken(t);
  });
  after(() => t.close());

  const get = () => t.api.get('/api/instances/configurations/').auth(token, { type: 'bearer' });
  const entry = (body: { key: string }[], key: string) => body.find((e) => e.key === key) as Record<string, unknown>;

  it('lists Plane’s keys with their value and where it comes from (database, environment, default); env secrets masked', async () => {
    const res = await get();
    assert.equal(res.status, 200);
    const keys = res.body.map((e: { key: string }) => e.key);
    for (const k of [
      'ENABLE_SIGNUP',
      'ENABLE_MAGIC_LINK_LOGIN',
      'ENABLE_EMAIL_PASSWORD',
      'DISABLE_WORKSPACE_CREATION',
      'EMAIL_HOST',
      'EMAIL_HOST_PASSWORD',
      'GITHUB_CLIENT_ID',
      'GITHUB_CLIENT_SECRET',
      'GOOGLE_CLIENT_SECRET',
      'GITLAB_HOST',
      'LLM_API_KEY',
    ]) {
      assert.ok(keys.includes(k), k);
    }
    assert.deepEqual(entry(res.body, 'ENABLE_SIGNUP'), {
      id: null,
      key: 'ENABLE_SIGNUP',
      value: '1',
      category: 'AUTHENTICATION',
      is_encrypted: false,
      is_set: true,
      source: 'default',
      created_at: null,
      updated_at: null,
      created_by: null,
      updated_by: null,
    });
    assert.deepEqual(
      [entry(res.body, 'EMAIL_PORT').value, entry(res.body, 'EMAIL_PORT').source],
      ['2525', 'environment'],
    );
    const secret = entry(res.body, 'GITLAB_CLIENT_SECRET');
    assert.deepEqual(
      [secret.value, secret.is_set, secret.is_encrypted, secret.source],
      ['********', true, true, 'environment'],
    );
    assert.deepEqual(
      [entry(res.body, 'GITHUB_CLIENT_SECRET').value, entry(res.body, 'GITHUB_CLIENT_SECRET').is_set],
      ['', false],
    );
    assert.ok(!JSON.stringify(res.body).includes('gl-env-secret'));
    // IS_GITLAB_ENABLED defaults to on because the environment configures GitLab
    assert.equal(entry(res.body, 'IS_GITLAB_ENABLED').value, '1');
    assert.equal((await t.api.get('/api/instances/')).body.config.is_gitlab_enabled, true);
  });

  it('refuses unknown keys and bad values with 422 naming each key, and changes nothing', async () => {
    const res = await t.api.patch('/api/instances/configurations/').auth(token, { type: 'bearer' }).send({
      ENABLE_SIGNUP: '0',
      NOT_A_KEY: 'x',
      ENABLE_MAGIC_LINK_LOGIN: 'yes',
      EMAIL_PORT: '99999',
      EMAIL_HOST: 5,
      GITLAB_HOST: 'gitlab',
    });
    const body = assertError(res, 422, 'VALIDATION_ERROR');
    assert.deepEqual(Object.keys(body.errors as object).sort(), [
      'EMAIL_HOST',
      'EMAIL_PORT',
      'ENABLE_MAGIC_LINK_LOGIN',
      'GITLAB_HOST',
      'NOT_A_KEY',
    ]);
    assert.equal((await t.sql('SELECT 1 FROM instance_configurations')).length, 0);
    assertError(
      await t.api.patch('/api/instances/configurations/').auth(token, { type: 'bearer' }).send([]),
      400,
      'MALFORMED_REQUEST',
    );
    assertError(
      await t.api.patch('/api/instances/configurations/').auth(token, { type: 'bearer' }).send({}),
      422,
      'VALIDATION_ERROR',
    );
  });

  it('ENABLE_SIGNUP "0" stops the very next sign-up with 403 SIGNUP_DISABLED; null restores the default', async () => {
    const changed = await configure(t, token, { ENABLE_SIGNUP: '0' });
    assert.deepEqual(
      changed.map((e) => [e.key, e.value, e.source]),
      [['ENABLE_SIGNUP', '0', 'database']],
    );
    assertError(
      await t.api.post('/auth/sign-up/').send({ email: `${unique('no')}@example.com`, password: 'long enough pw' }),
      403,
      'SIGNUP_DISABLED',
    );
    assert.equal((await t.api.get('/api/instances/')).body.config.enable_signup, false);
    await configure(t, token, { ENABLE_SIGNUP: null });
    assert.equal(
      (await t.api.post('/auth/sign-up/').send({ email: `${unique('yes')}@example.com`, password: 'long enough pw' }))
        .status,
      201,
    );
    assert.equal((await t.api.get('/api/instances/')).body.config.enable_signup, true);
  });

  it('ENABLE_EMAIL_PASSWORD "0" blocks password sign-in and sign-up at once', async () => {
    const u = await signUp(t);
    await configure(t, token, { ENABLE_EMAIL_PASSWORD: '0' });
    assertError(
      await t.api.post('/auth/sign-in/').send({ email: u.email, password: u.password }),
      403,
      'EMAIL_PASSWORD_AUTHENTICATION_DISABLED',
    );
    assertError(
      await t.api.post('/auth/sign-up/').send({ email: `${unique('pw')}@example.com`, password: 'long enough pw' }),
      403,
      'EMAIL_PASSWORD_AUTHENTICATION_DISABLED',
    );
    assert.equal((await t.api.get('/api/instances/')).body.config.is_email_password_enabled, false);
    // instance admins still sign in (their own flow)
    assert.ok(await adminToken(t));
    await configure(t, token, { ENABLE_EMAIL_PASSWORD: '1' });
    assert.equal((await t.api.post('/auth/sign-in/').send({ email: u.email, password: u.password })).status, 200);
  });

  it('DISABLE_WORKSPACE_CREATION "1" makes the next POST /api/workspaces/ a 403 WORKSPACE_CREATION_DISABLED', async () => {
    const u = await signUp(t);
    await configure(t, token, { DISABLE_WORKSPACE_CREATION: '1' });
    const res = await t.api
      .post('/api/workspaces/')
      .auth(u.token, { type: 'bearer' })
      .send({ name: 'Blocked', slug: unique('blocked-') });
    assertError(res, 403, 'WORKSPACE_CREATION_DISABLED');
    assert.equal((await t.api.get('/api/instances/')).body.config.is_workspace_creation_disabled, true);
    await configure(t, token, { DISABLE_WORKSPACE_CREATION: '0' });
    assert.equal(
      (
        await t.api
          .post('/api/workspaces/')
          .auth(u.token, { type: 'bearer' })
          .send({ name: 'Open', slug: unique('open-') })
      ).status,
      201,
    );
  });

  it('encrypts secrets at rest, never returns them, keeps them when the mask is sent back, and enables the provider', async () => {
    assert.equal((await t.api.get('/api/instances/')).body.config.is_github_enabled, false);
    assert.match(
      (await t.api.get('/auth/github/')).headers.location,
      /\?error_code=5110&error_message=GITHUB_NOT_CONFIGURED$/,
    );
    const changed = await configure(t, token, {
      GITHUB_CLIENT_ID: 'gh-client-id',
      GITHUB_CLIENT_SECRET: 'gh-very-secret-value',
    });
    assert.deepEqual(
      changed.map((e) => [e.key, e.value, e.is_set]),
      [
        ['GITHUB_CLIENT_ID', 'gh-client-id', true],
        ['GITHUB_CLIENT_SECRET', '********', true],
      ],
    );
    const [row] = await t.sql<{ value: string; is_encrypted: boolean }>(
      `SELECT value, is_encrypted FROM instance_configurations WHERE key = 'GITHUB_CLIENT_SECRET'`,
    );
    assert.equal(row.is_encrypted, true);
    assert.ok(!row.value.includes('gh-very-secret-value'), row.value);
    assert.match(row.value, /^v1:[\w-]{16}:[\w-]{22}:[\w-]+$/);
    assert.ok(!JSON.stringify((await get()).body).includes('gh-very-secret-value'));
    assert.ok(!JSON.stringify((await t.api.get('/api/instances/')).body).includes('gh-very-secret-value'));
    // the next request sees the provider enabled, and the OAuth code can read the credentials
    assert.equal((await t.api.get('/api/instances/')).body.config.is_github_enabled, true);
    // …and the OAuth flow starts with the stored application, without a restart
    const start = await t.api.get('/auth/github/');
    assert.equal(start.status, 302);
    const authorize = new URL(start.headers.location);
    assert.equal(`${authorize.origin}${authorize.pathname}`, 'https://github.com/login/oauth/authorize');
    assert.equal(authorize.searchParams.get('client_id'), 'gh-client-id');
    const settings = t.app.get(InstanceSettings);
    assert.deepEqual(await settings.providerCredentials('github'), {
      clientId: 'gh-client-id',
      clientSecret: 'gh-very-secret-value',
    });
    assert.equal(await settings.isProviderEnabled('google'), false);
    // a different SECRET_KEY cannot read it
    assert.equal(new SecretBox('another secret key of 32+ characters!!').open(row.value), null);
    assert.equal(new SecretBox(t.config.secret.key).open(row.value), 'gh-very-secret-value');

    // sending back the mask changes nothing; the same plaintext twice is stored differently (random IV)
    await configure(t, token, { GITHUB_CLIENT_SECRET: '********' });
    assert.equal(
      (
        await t.sql<{ value: string }>(`SELECT value FROM instance_configurations WHERE key = 'GITHUB_CLIENT_SECRET'`)
      )[0].value,
      row.value,
    );
    await configure(t, token, { GITHUB_CLIENT_SECRET: 'gh-very-secret-value' });
    assert.notEqual(
      (
        await t.sql<{ value: string }>(`SELECT value FROM instance_configurations WHERE key = 'GITHUB_CLIENT_SECRET'`)
      )[0].value,
      row.value,
    );

    // the admin's flag switches the provider off without forgetting it
    await configure(t, token, { IS_GITHUB_ENABLED: '0' });
    assert.equal((await t.api.get('/api/instances/')).body.config.is_github_enabled, false);
    assert.match(
      (await t.api.get('/auth/github/')).headers.location,
      /\?error_code=5110&error_message=GITHUB_NOT_CONFIGURED$/,
    );
    assert.equal(await settings.providerCredentials('github'), null);
  });

  it('prefers the database over the environment (GitLab from env, overridden by the admin)', async () => {
    const settings = t.app.get(InstanceSettings);
    assert.deepEqual(await settings.providerCredentials('gitlab'), {
      clientId: 'gl-env-id',
      clientSecret: 'gl-env-secret',
      host: 'https://gitlab.com',
    });
    await configure(t, token, { GITLAB_CLIENT_SECRET: '', GITLAB_HOST: 'https://gitlab.example.com/' });
    assert.equal((await t.api.get('/api/instances/')).body.config.is_gitlab_enabled, false);
    await configure(t, token, { GITLAB_CLIENT_SECRET: null });
    assert.deepEqual(await settings.providerCredentials('gitlab'), {
      clientId: 'gl-env-id',
      clientSecret: 'gl-env-secret',
      host: 'https://gitlab.example.com',
    });
  });

  it('MailService reads SMTP settings through the configuration: a change applies to the next message', async () => {
    const smtp = await startSmtpStub();
    try {
      const mail = t.app.get(MailService);
      assert.equal(await mail.isConfigured(), false);
      await configure(t, token, {
        EMAIL_HOST: '127.0.0.1',
        EMAIL_PORT: String(smtp.port),
        EMAIL_USE_TLS: '0',
        EMAIL_HOST_USER: 'mailer',
        EMAIL_HOST_PASSWORD: 'smtp-pass-1',
        EMAIL_FROM: 'Ops <ops@example.com>',
      });
      assert.equal(await mail.isConfigured(), true);
      assert.equal((await t.api.get('/api/instances/')).body.config.is_smtp_configured, true);
      await mail.send({ to: 'someone@example.com', subject: 'Hello', text: 'first' });
      await configure(t, token, { EMAIL_HOST_PASSWORD: 'smtp-pass-2' });
      await mail.send({ to: 'someone@example.com', subject: 'Hello', text: 'second' });
      assert.deepEqual(
        smtp.mails.map((m) => [m.auth, m.from, m.to[0]]),
        [
          ['mailer:smtp-pass-1', '<ops@example.com>', '<someone@example.com>'],
          ['mailer:smtp-pass-2', '<ops@example.com>', '<someone@example.com>'],
        ],
      );
      assert.match(smtp.mails[1].data, /second/);
    } finally {
      await configure(t, token, { EMAIL_HOST: null });
      await smtp.close();
    }
  });

  it('is for instance admins only', async () => {
    const u = await signUp(t);
    assertError(
      await t.api
        .patch('/api/instances/configurations/')
        .auth(u.token, { type: 'bearer' })
        .send({ ENABLE_SIGNUP: '0' }),
      401,
      'INVALID_ACCESS_TOKEN',
    );
    assertError(await t.api.get('/api/instances/configurations/'), 401, 'AUTHENTICATION_REQUIRED');
  });
});

describe('instance configuration from the environment', () => {
  let t: TestApp;
  before(async () => (t = await startTestApp({ ENABLE_SIGNUP: '0', DISABLE_WORKSPACE_CREATION: '1' })));
  after(() => t.close());

  it('applies environment values when the database has none, and a database value wins over them', async () => {
    assertError(
      await t.api.post('/auth/sign-up/').send({ email: `${unique('env')}@example.com`, password: 'long enough pw' }),
      403,
      'SIGNUP_DISABLED',
    );
    const info = (await t.api.get('/api/instances/')).body.config;
    assert.deepEqual([info.enable_signup, info.is_workspace_creation_disabled], [false, true]);
    const token = await adminToken(t);
    await configure(t, token, { ENABLE_SIGNUP: '1' });
    assert.equal(
      (await t.api.post('/auth/sign-up/').send({ email: `${unique('db')}@example.com`, password: 'long enough pw' }))
        .status,
      201,
    );
  });
});
