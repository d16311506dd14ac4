import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError, signUp, unique } from '../support/fixtures';
import { MockOAuthProvider, startMockOAuthProvider } from '../support/oauth-provider';
import { startTestApp, TestApp } from '../support/test-app';

const WEB = 'https://web.meridian.example';
type Provider = 'github' | 'google' | 'gitlab';

describe('auth: OAuth sign-in against a mock provider on loopback', () => {
  let t: TestApp;
  let idp: MockOAuthProvider;
  before(async () => {
    idp = await startMockOAuthProvider();
    t = await startTestApp({ ...idp.env, WEB_URL: WEB });
  });
  after(async () => {
    await t.close();
    await idp.close();
  });

  /** GET /auth/{provider}/: the redirect to the provider, its state and the state cookie. */
  async function start(provider: Provider) {
    const res = await t.api.get(`/auth/${provider}/`);
    assert.equal(res.status, 302, JSON.stringify(res.body));
    const location = new URL(res.headers.location);
    const cookie = (res.headers['set-cookie'] as unknown as string[]).find((c) =>
      c.startsWith('meridian_oauth_state='),
    );
    assert.ok(cookie, 'state cookie');
    assert.match(cookie, /HttpOnly/);
    assert.match(cookie, /SameSite=Lax/);
    return { location, state: location.searchParams.get('state')!, cookie: cookie.split(';')[0] };
  }

  /** The whole browser dance; returns the final redirect to the web app. */
  async function signInWith(
    provider: Provider,
    identity: { id: string | number; email: string; verified?: boolean; name?: string },
  ) {
    idp.next = identity;
    const { state, cookie } = await start(provider);
    const code = idp.authorize();
    const res = await t.api.get(`/auth/${provider}/callback/`).query({ code, state }).set('Cookie', cookie);
    assert.equal(res.status, 302, JSON.stringify(res.body));
    return new URL(res.headers.location);
  }

  async function exchange(target: URL) {
    assert.equal(`${target.origin}${target.pathname}`, `${WEB}/auth/callback/`, target.toString());
    const code = target.searchParams.get('code')!;
    const res = await t.api.post('/auth/token/').send({ code });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return { body: res.body, code };
  }

  it("redirects to the provider's authorize URL with the client id, scopes, callback and state", async () => {
    const gh = await start('github');
    assert.equal(`${gh.location.origin}${gh.location.pathname}`, `${idp.url}/github/authorize`);
    assert.equal(gh.location.searchParams.get('client_id'), 'test-client');
    assert.equal(gh.location.searchParams.get('response_type'), 'code');
    // passport-github2 joins scopes with commas, which GitHub accepts
    assert.deepEqual(gh.location.searchParams.get('scope')!.split(/[ ,]/), ['read:user', 'user:email']);
    assert.match(
      gh.location.searchParams.get('redirect_uri')!,
      /^http:\/\/127\.0\.0\.1:\d+\/auth\/github\/callback\/$/,
    );
    assert.ok(gh.state.length >= 32);
    const google = await start('google');
    assert.equal(`${google.location.origin}${google.location.pathname}`, `${idp.url}/google/authorize`);
    assert.equal(google.location.searchParams.get('scope'), 'openid email profile');
    const gitlab = await start('gitlab');
    assert.equal(`${gitlab.location.origin}${gitlab.location.pathname}`, `${idp.url}/gitlab/oauth/authorize`);
    assert.equal(gitlab.location.searchParams.get('scope'), 'read_user');
  });

  for (const provider of ['github', 'google', 'gitlab'] as const) {
    it(`${provider}: creates the account on first sign-in, then signs the same account in; the one-time code works once`, async () => {
      const email = `${unique(provider)}@example.com`;
      const id = Math.floor(Math.random() * 1e9);
      const first = await exchange(await signInWith(provider, { id, email, name: 'Ada Lovelace' }));
      assert.equal(first.body.token_type, 'Bearer');
      assert.equal(first.body.user.email, email);
      assert.equal(first.body.user.is_email_verified, true);
      assert.equal(first.body.user.is_password_autoset, true);
      const sessions = await t.api.get('/auth/sessions/').auth(first.body.access_token, { type: 'bearer' });
      assert.equal(sessions.body[0].medium, provider);
      assertError(await t.api.post('/auth/token/').send({ code: first.code }), 401, 'INVALID_AUTHORIZATION_CODE');

      const again = await exchange(await signInWith(provider, { id, email: `changed-${email}` }));
      assert.equal(again.body.user.id, first.body.user.id);
      const links = await t.sql('SELECT provider, provider_account_id FROM user_accounts WHERE user_id = $1', [
        first.body.user.id,
      ]);
      assert.deepEqual(links, [{ provider, provider_account_id: String(id) }]);
      // the provider's token request carried the same redirect_uri and our client credentials
      const last = idp.tokenRequests[idp.tokenRequests.length - 1];
      assert.match(last.redirect_uri, new RegExp(`/auth/${provider}/callback/$`));
    });
  }

  it('matches an existing account by verified email and links it', async () => {
    const u = await signUp(t);
    const got = await exchange(await signInWith('github', { id: 'gh-link-1', email: u.email.toUpperCase() }));
    assert.equal(got.body.user.id, u.userId);
    const [row] = await t.sql<{ is_email_verified: boolean; password_hash: string | null }>(
      'SELECT is_email_verified, password_hash FROM users WHERE id = $1',
      [u.userId],
    );
    assert.equal(row.is_email_verified, true);
    assert.equal(row.password_hash, null, 'a password set before the address was verified is cleared');
  });

  it('refuses an unverified email: no account is created or matched', async () => {
    const u = await signUp(t);
    for (const provider of ['github', 'google'] as const) {
      const target = await signInWith(provider, { id: `unverified-${provider}`, email: u.email, verified: false });
      assert.equal(`${target.origin}${target.pathname}`, `${WEB}/sign-in`);
      assert.equal(target.searchParams.get('error_code'), 'INVALID_EMAIL');
      assert.ok(target.searchParams.get('error_message'));
      assert.equal(target.searchParams.get('code'), null);
    }
    const links = await t.sql('SELECT 1 FROM user_accounts WHERE user_id = $1', [u.userId]);
    assert.equal(links.length, 0);
  });

  it('does not reactivate a deactivated account', async () => {
    const u = await signUp(t);
    await t.sql('UPDATE users SET is_active = false WHERE id = $1', [u.userId]);
    const target = await signInWith('gitlab', { id: 'deactivated-1', email: u.email });
    assert.equal(target.searchParams.get('error_code'), 'USER_ACCOUNT_DEACTIVATED');
    const [row] = await t.sql<{ is_active: boolean }>('SELECT is_active FROM users WHERE id = $1', [u.userId]);
    assert.equal(row.is_active, false);
  });

  it("refuses a callback whose state does not match the browser's cookie, or without a code", async () => {
    idp.next = { id: 'csrf-1', email: `${unique('csrf')}@example.com` };
    const { state, cookie } = await start('github');
    const other = await start('github');
    const code = idp.authorize();
    const cases = [
      t.api.get('/auth/github/callback/').query({ code, state }),
      t.api.get('/auth/github/callback/').query({ code, state }).set('Cookie', other.cookie),
      t.api.get('/auth/github/callback/').query({ state }).set('Cookie', cookie),
    ];
    for (const req of cases) {
      const res = await req;
      assert.equal(res.status, 302);
      const target = new URL(res.headers.location);
      assert.equal(`${target.origin}${target.pathname}`, `${WEB}/sign-in`);
      assert.equal(target.searchParams.get('error_code'), 'GITHUB_OAUTH_PROVIDER_ERROR');
    }
    assert.equal(idp.tokenRequests.filter((r) => r.code === code).length, 0, 'the code was never exchanged');
  });

  it("turns a provider failure into a redirect with the provider's error code", async () => {
    idp.failToken = true;
    try {
      const target = await signInWith('google', { id: 'fail-1', email: `${unique('fail')}@example.com` });
      assert.equal(target.searchParams.get('error_code'), 'GOOGLE_OAUTH_PROVIDER_ERROR');
    } finally {
      idp.failToken = false;
    }
    const denied = await start('gitlab');
    const res = await t.api
      .get('/auth/gitlab/callback/')
      .query({ error: 'access_denied', state: denied.state })
      .set('Cookie', denied.cookie);
    assert.equal(new URL(res.headers.location).searchParams.get('error_code'), 'GITLAB_OAUTH_PROVIDER_ERROR');
  });

  it('refuses unknown and expired one-time codes', async () => {
    assertError(await t.api.post('/auth/token/').send({ code: 'made-up' }), 401, 'INVALID_AUTHORIZATION_CODE');
    const target = await signInWith('github', { id: 'expire-1', email: `${unique('exp')}@example.com` });
    await t.sql(`UPDATE auth_codes SET expires_at = now() - interval '1 second' WHERE kind = 'oauth'`);
    assertError(
      await t.api.post('/auth/token/').send({ code: target.searchParams.get('code') }),
      401,
      'INVALID_AUTHORIZATION_CODE',
    );
    assertError(await t.api.post('/auth/token/').send({}), 422, 'VALIDATION_ERROR');
  });
});

describe('auth: OAuth providers without credentials are disabled', () => {
  let t: TestApp;
  before(async () => (t = await startTestApp({ GITHUB_CLIENT_ID: 'only-the-id' })));
  after(() => t.close());

  it('answers 404 <PROVIDER>_NOT_CONFIGURED on the start and callback routes', async () => {
    for (const [provider, code] of [
      ['github', 'GITHUB_NOT_CONFIGURED'],
      ['google', 'GOOGLE_NOT_CONFIGURED'],
      ['gitlab', 'GITLAB_NOT_CONFIGURED'],
    ]) {
      assertError(await t.api.get(`/auth/${provider}/`), 404, code);
      assertError(await t.api.get(`/auth/${provider}/callback/`).query({ code: 'x', state: 'y' }), 404, code);
    }
  });
});
