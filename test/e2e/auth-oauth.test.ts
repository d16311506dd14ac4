import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createWorkspace, signUp, unique } from '../support/fixtures';
import { BrowserJar } from '../support/browser-jar';
import { MockOAuthProvider, startMockOAuthProvider } from '../support/oauth-provider';
import { startTestApp, TestApp } from '../support/test-app';

const WEB = 'http://web.meridian.test';
const SPACE = `${WEB}/spaces`;
type Provider = 'github' | 'google' | 'gitlab';
const PROVIDERS = ['github', 'google', 'gitlab'] as const;
const PROVIDER_ERROR = { github: '5120', google: '5115', gitlab: '5121' } as const;
const NAMES = {
  github: 'GITHUB_OAUTH_PROVIDER_ERROR',
  google: 'GOOGLE_OAUTH_PROVIDER_ERROR',
  gitlab: 'GITLAB_OAUTH_PROVIDER_ERROR',
} as const;

/**
 * OAuth sign-in as Plane's web app and space app drive it (Plane
 * `plane/authentication/views/{app,space}/{google,github,gitlab}.py`): a browser (cookie jar, no
 * JavaScript) opens `/auth/{provider}/`, follows the redirects through a provider on loopback that
 * speaks GitHub's, Google's and GitLab's protocols, and lands on the web app with the same session
 * cookie as the password form.
 */
describe('auth: OAuth sign-in in the browser (web app and space) against providers on loopback', () => {
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

  /** Meridian's and the provider's pages are followed; the web app's are where the browser lands. */
  const inside = (url: string) => url.startsWith(t.url) || url.startsWith(idp.url);

  /** The browser's whole sign-in: returns where it landed and the jar (its cookies). */
  async function browserSignIn(
    provider: Provider,
    identity: { id: string | number; email: string; verified?: boolean; name?: string },
    options: { site?: 'app' | 'space'; nextPath?: string; browser?: BrowserJar } = {},
  ) {
    idp.next = identity;
    const browser = options.browser ?? new BrowserJar();
    const prefix = options.site === 'space' ? '/auth/spaces' : '/auth';
    const query = options.nextPath === undefined ? '' : `?next_path=${encodeURIComponent(options.nextPath)}`;
    const { hops, landed } = await browser.navigate(`${t.url}${prefix}/${provider}/${query}`, inside);
    assert.ok(landed, JSON.stringify(hops));
    return { browser, landed: new URL(landed), hops };
  }

  async function me(browser: BrowserJar) {
    const res = await browser.fetch(`${t.url}/api/users/me/`);
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }

  it("the start redirects to the provider's authorize URL with the client id, scopes, callback and state", async () => {
    const paths = {
      github: '/github/login/oauth/authorize',
      google: '/google/authorize',
      gitlab: '/gitlab/oauth/authorize',
    };
    for (const provider of PROVIDERS) {
      const res = await t.api.get(`/auth/${provider}/`);
      assert.equal(res.status, 302, JSON.stringify(res.body));
      const location = new URL(res.headers.location);
      assert.equal(`${location.origin}${location.pathname}`, `${idp.url}${paths[provider]}`);
      assert.equal(location.searchParams.get('client_id'), 'test-client');
      assert.equal(location.searchParams.get('response_type'), 'code');
      assert.equal(location.searchParams.get('redirect_uri'), `${t.url}/auth/${provider}/callback/`);
      assert.ok(location.searchParams.get('state')!.length >= 32);
      const state = (res.headers['set-cookie'] as unknown as string[]).find((c) =>
        c.startsWith('meridian_oauth_state='),
      );
      assert.match(state!, /HttpOnly/);
      assert.match(state!, /SameSite=Lax/);
    }
    const gh = new URL((await t.api.get('/auth/github/')).headers.location);
    // passport-github2 joins scopes with commas, which GitHub accepts
    assert.deepEqual(gh.searchParams.get('scope')!.split(/[ ,]/), ['read:user', 'user:email']);
    const google = new URL((await t.api.get('/auth/google/')).headers.location);
    assert.equal(google.searchParams.get('scope'), 'openid email profile');
    const gitlab = new URL((await t.api.get('/auth/gitlab/')).headers.location);
    assert.equal(gitlab.searchParams.get('scope'), 'read_user');
  });

  for (const provider of PROVIDERS) {
    it(`${provider}: the first sign-in creates the account and sets the session cookie; the second finds the same account`, async () => {
      const email = `${unique(provider)}@example.com`;
      const id = Math.floor(Math.random() * 1e9);
      const first = await browserSignIn(provider, { id, email, name: 'Ada Lovelace' });
      // browser → Meridian → provider (authorize) → Meridian (callback) → the web app
      assert.deepEqual(
        first.hops.map((h) => new URL(h.url).pathname),
        [`/auth/${provider}/`, new URL(first.hops[1].url).pathname, `/auth/${provider}/callback/`],
      );
      assert.equal(first.landed.toString(), `${WEB}/onboarding`, 'a new user lands on onboarding, as in Plane');
      const session = first.browser.cookie(t.url, 'session-id');
      assert.ok(session, 'the session cookie of the password form');
      assert.ok(first.browser.cookie(t.url, 'csrftoken'), 'a fresh CSRF token');
      assert.equal(
        first.browser.cookie(`${t.url}/auth/`, 'meridian_oauth_state'),
        undefined,
        'the state cookie is gone',
      );
      const who = await me(first.browser);
      assert.equal(who.status, 200, JSON.stringify(who.body));
      assert.equal(who.body.email, email);
      assert.equal(who.body.is_email_verified, true);
      assert.equal(who.body.is_password_autoset, true);
      const [medium] = await t.sql<{ medium: string }>(
        `SELECT s.medium FROM auth_sessions s JOIN users u ON u.id = s.user_id WHERE u.email = $1`,
        [email],
      );
      assert.equal(medium.medium, provider);

      // a new browser, the same provider account (its email changed at the provider)
      const again = await browserSignIn(provider, { id, email: `changed-${email}` });
      assert.equal(again.landed.toString(), `${WEB}/onboarding`);
      const same = await me(again.browser);
      assert.equal(same.body.id, who.body.id);
      const links = await t.sql('SELECT provider, provider_account_id FROM user_accounts WHERE user_id = $1', [
        who.body.id,
      ]);
      assert.deepEqual(links, [{ provider, provider_account_id: String(id) }]);
      // the token request carried the callback and the client credentials
      const last = idp.tokenRequests[idp.tokenRequests.length - 1];
      assert.equal(last.redirect_uri, `${t.url}/auth/${provider}/callback/`);
      assert.equal(last.client_secret, 'test-secret');
    });
  }

  it('lands on next_path when the start named one (a path only), else where Plane lands an onboarded user', async () => {
    const u = await signUp(t);
    const ws = await createWorkspace(t, u.token);
    const onboard = await t.api
      .patch('/api/users/me/onboard/')
      .auth(u.token, { type: 'bearer' })
      .send({ is_onboarded: true });
    assert.equal(onboard.status, 200, JSON.stringify(onboard.body));
    const plain = await browserSignIn('github', { id: unique('landing'), email: u.email });
    assert.equal(plain.landed.toString(), `${WEB}/${ws.slug}`);
    const next = await browserSignIn(
      'gitlab',
      { id: unique('next'), email: u.email },
      { nextPath: `/${ws.slug}/projects` },
    );
    assert.equal(next.landed.toString(), `${WEB}/${ws.slug}/projects`);
    const foreign = await browserSignIn(
      'google',
      { id: unique('foreign'), email: u.email },
      { nextPath: 'https://evil.test/x' },
    );
    assert.equal(foreign.landed.toString(), `${WEB}/${ws.slug}`, 'not a path: ignored');
  });

  for (const provider of PROVIDERS) {
    it(`${provider} for space: the session cookie, then SPACE_BASE_URL + next_path`, async () => {
      const email = `${unique(`space-${provider}`)}@example.com`;
      const got = await browserSignIn(provider, { id: unique('sp'), email }, { site: 'space', nextPath: '/board/abc' });
      assert.equal(got.landed.toString(), `${SPACE}/board/abc`);
      assert.equal(new URL(got.hops[2].url).pathname, `/auth/spaces/${provider}/callback/`);
      const who = await me(got.browser);
      assert.equal(who.status, 200, JSON.stringify(who.body));
      assert.equal(who.body.email, email);
    });
  }

  it("refuses a callback whose state is not the browser's: no session, back to the sign-in page with Plane's code", async () => {
    for (const provider of PROVIDERS) {
      idp.next = { id: unique('csrf'), email: `${unique('csrf')}@example.com` };
      // the victim's browser is handed a callback URL from the attacker's own flow
      const attacker = new BrowserJar();
      const start = await attacker.fetch(`${t.url}/auth/${provider}/`);
      const authorize = await attacker.fetch(start.headers.get('location')!);
      const callback = authorize.headers.get('location')!;
      const code = new URL(callback).searchParams.get('code')!;
      const victim = new BrowserJar();
      await (await victim.fetch(`${t.url}/auth/${provider}/`)).arrayBuffer(); // the victim has a state cookie of their own
      const tampered = new URL(callback);
      tampered.searchParams.set('state', 'x'.repeat(32));
      for (const [browser, url] of [
        [victim, callback],
        [new BrowserJar(), callback],
        [attacker, tampered.toString()],
      ] as const) {
        const res = await browser.fetch(url);
        assert.equal(res.status, 302);
        assert.equal(
          res.headers.get('location'),
          `${WEB}/?error_code=${PROVIDER_ERROR[provider]}&error_message=${NAMES[provider]}`,
        );
        assert.equal(browser.cookie(t.url, 'session-id'), undefined, 'no session cookie');
        assert.equal((await me(browser)).status, 401);
      }
      assert.equal(idp.tokenRequests.filter((r) => r.code === code).length, 0, 'the code was never exchanged');
    }
  });

  it('matches an existing account by verified email and links it', async () => {
    const u = await signUp(t);
    const got = await browserSignIn('github', { id: unique('gh-link'), email: u.email.toUpperCase() });
    assert.equal((await me(got.browser)).body.id, u.userId);
    const [row] = await t.sql<{ is_email_verified: boolean; password_hash: string | null }>(
      'SELECT is_email_verified, password_hash FROM users WHERE id = $1',
      [u.userId],
    );
    assert.equal(row.is_email_verified, true);
    assert.equal(row.password_hash, null, 'a password set before the address was verified is cleared');
  });

  it('refuses an unverified email (5005) and a deactivated account (5019), with next_path kept', async () => {
    const u = await signUp(t);
    for (const provider of ['github', 'google'] as const) {
      const got = await browserSignIn(
        provider,
        { id: unique('unverified'), email: u.email, verified: false },
        {
          nextPath: '/ws/x',
        },
      );
      assert.equal(got.landed.toString(), `${WEB}/?error_code=5005&error_message=INVALID_EMAIL&next_path=%2Fws%2Fx`);
      assert.equal(got.browser.cookie(t.url, 'session-id'), undefined);
    }
    assert.equal((await t.sql('SELECT 1 FROM user_accounts WHERE user_id = $1', [u.userId])).length, 0);

    const d = await signUp(t);
    await t.sql('UPDATE users SET is_active = false WHERE id = $1', [d.userId]);
    const got = await browserSignIn('gitlab', { id: unique('deactivated'), email: d.email });
    assert.equal(got.landed.toString(), `${WEB}/?error_code=5019&error_message=USER_ACCOUNT_DEACTIVATED`);
    const [row] = await t.sql<{ is_active: boolean }>('SELECT is_active FROM users WHERE id = $1', [d.userId]);
    assert.equal(row.is_active, false);
  });

  it("turns a provider failure or refusal into the provider's error code (space: on SPACE_BASE_URL/)", async () => {
    idp.failToken = true;
    try {
      const got = await browserSignIn('google', { id: unique('fail'), email: `${unique('fail')}@example.com` });
      assert.equal(got.landed.toString(), `${WEB}/?error_code=5115&error_message=GOOGLE_OAUTH_PROVIDER_ERROR`);
      const space = await browserSignIn(
        'github',
        { id: unique('fail'), email: `${unique('fail')}@example.com` },
        {
          site: 'space',
          nextPath: '/board/1',
        },
      );
      assert.equal(
        space.landed.toString(),
        `${SPACE}/?error_code=5120&error_message=GITHUB_OAUTH_PROVIDER_ERROR&next_path=%2Fboard%2F1`,
      );
    } finally {
      idp.failToken = false;
    }
    // the user denied access at the provider
    const browser = new BrowserJar();
    const start = await browser.fetch(`${t.url}/auth/gitlab/`);
    const state = new URL(start.headers.get('location')!).searchParams.get('state')!;
    const denied = await browser.fetch(`${t.url}/auth/gitlab/callback/?error=access_denied&state=${state}`);
    assert.equal(denied.headers.get('location'), `${WEB}/?error_code=5121&error_message=GITLAB_OAUTH_PROVIDER_ERROR`);
  });
});

describe('auth: OAuth with sign-up disabled (ENABLE_SIGNUP=0)', () => {
  let t: TestApp;
  let idp: MockOAuthProvider;
  before(async () => {
    idp = await startMockOAuthProvider();
    t = await startTestApp({ ...idp.env, WEB_URL: WEB, ENABLE_SIGNUP: '0' });
  });
  after(async () => {
    await t.close();
    await idp.close();
  });

  it('refuses a new user with 5015 SIGNUP_DISABLED and creates nothing; an existing user signs in', async () => {
    const inside = (url: string) => url.startsWith(t.url) || url.startsWith(idp.url);
    const email = `${unique('nosignup')}@example.com`;
    idp.next = { id: unique('nosignup'), email };
    const refused = new BrowserJar();
    const first = await refused.navigate(`${t.url}/auth/github/`, inside);
    assert.equal(first.landed, `${WEB}/?error_code=5015&error_message=SIGNUP_DISABLED`);
    assert.equal(refused.cookie(t.url, 'session-id'), undefined);
    assert.equal((await t.sql('SELECT 1 FROM users WHERE email = $1', [email])).length, 0);
    const space = await refused.navigate(`${t.url}/auth/spaces/google/?next_path=/board/2`, inside);
    assert.equal(space.landed, `${SPACE}/?error_code=5015&error_message=SIGNUP_DISABLED&next_path=%2Fboard%2F2`);

    idp.next = { id: unique('admin'), email: t.admin!.email };
    const browser = new BrowserJar();
    const ok = await browser.navigate(`${t.url}/auth/gitlab/`, inside);
    assert.ok(ok.landed?.startsWith(`${WEB}/`), JSON.stringify(ok));
    assert.doesNotMatch(ok.landed!, /error_code/);
    const me = await browser.fetch(`${t.url}/api/users/me/`);
    assert.equal(me.status, 200);
    assert.equal(((await me.json()) as { email: string }).email, t.admin!.email);
  });
});

describe('auth: OAuth providers without credentials are disabled', () => {
  let t: TestApp;
  before(async () => (t = await startTestApp({ GITHUB_CLIENT_ID: 'only-the-id', WEB_URL: WEB })));
  after(() => t.close());

  it("redirects the start and the callback to the sign-in page with Plane's <PROVIDER>_NOT_CONFIGURED", async () => {
    for (const [provider, code, name] of [
      ['github', '5110', 'GITHUB_NOT_CONFIGURED'],
      ['google', '5105', 'GOOGLE_NOT_CONFIGURED'],
      ['gitlab', '5111', 'GITLAB_NOT_CONFIGURED'],
    ]) {
      const start = await t.api.get(`/auth/${provider}/`).query({ next_path: '/ws' });
      assert.equal(start.status, 302);
      assert.equal(start.headers.location, `${WEB}/?error_code=${code}&error_message=${name}&next_path=%2Fws`);
      const callback = await t.api.get(`/auth/${provider}/callback/`).query({ code: 'x', state: 'y' });
      assert.equal(callback.headers.location, `${WEB}/?error_code=${code}&error_message=${name}`);
      assert.equal(
        (callback.headers['set-cookie'] as unknown as string[] | undefined)?.some((c) => c.startsWith('session-id=')) ??
          false,
        false,
      );
    }
  });
});
