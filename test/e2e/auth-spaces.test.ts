import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { signUp, unique } from '../support/fixtures';
import { MockOAuthProvider, startMockOAuthProvider } from '../support/oauth-provider';
import { startTestApp, TestApp } from '../support/test-app';

const WEB = 'http://web.meridian.test';
const SPACE = `${WEB}/spaces`;
const FORM = 'application/x-www-form-urlencoded';
type Provider = 'github' | 'google' | 'gitlab';

/** `name → value` of the response's Set-Cookie headers. */
function cookiesOf(res: { headers: Record<string, unknown> }): Map<string, string> {
  const raw = res.headers['set-cookie'];
  const list = Array.isArray(raw) ? (raw as string[]) : raw ? [String(raw)] : [];
  const out = new Map<string, string>();
  for (const line of list) {
    const pair = line.split(';')[0];
    const eq = pair.indexOf('=');
    out.set(pair.slice(0, eq).trim(), pair.slice(eq + 1));
  }
  return out;
}

/**
 * Sign-in for the published boards' app (Plane `plane/authentication/views/space/*.py`): OAuth under
 * `/auth/spaces/{provider}/` with `next_path` and Plane's error numbers in the redirects, and the
 * space form posts that share the app's sign-in rules.
 */
describe('auth: /auth/spaces/ (published boards)', () => {
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

  async function start(provider: Provider, nextPath?: string) {
    const res = await t.api
      .get(`/auth/spaces/${provider}/`)
      .query(nextPath === undefined ? {} : { next_path: nextPath });
    assert.equal(res.status, 302, JSON.stringify(res.body));
    const location = new URL(res.headers.location);
    const cookies = cookiesOf(res);
    const cookie = ['meridian_oauth_state', 'meridian_oauth_next']
      .map((name) => `${name}=${cookies.get(name) ?? ''}`)
      .join('; ');
    return { location, state: location.searchParams.get('state')!, cookie, cookies };
  }

  async function signInWith(
    provider: Provider,
    identity: { id: string | number; email: string; verified?: boolean },
    nextPath?: string,
  ) {
    idp.next = identity;
    const { state, cookie } = await start(provider, nextPath);
    const code = idp.authorize();
    const res = await t.api.get(`/auth/spaces/${provider}/callback/`).query({ code, state }).set('Cookie', cookie);
    assert.equal(res.status, 302, JSON.stringify(res.body));
    return res;
  }

  it('the start redirects to the provider with the spaces callback and keeps next_path in an HttpOnly cookie', async () => {
    for (const provider of ['github', 'google', 'gitlab'] as const) {
      const { location, cookies } = await start(provider, '/board/abc');
      assert.match(
        location.searchParams.get('redirect_uri')!,
        new RegExp(`^http://127\\.0\\.0\\.1:\\d+/auth/spaces/${provider}/callback/$`),
      );
      assert.ok(location.searchParams.get('state'));
      assert.equal(decodeURIComponent(cookies.get('meridian_oauth_next')!), '/board/abc');
    }
  });

  for (const provider of ['github', 'google', 'gitlab'] as const) {
    it(`${provider}: the callback sets the web session cookie and lands on SPACE_BASE_URL + next_path`, async () => {
      const email = `${unique(provider)}@example.com`;
      const res = await signInWith(provider, { id: unique('id'), email }, '/workspace/board?peek=1');
      assert.equal(res.headers.location, `${SPACE}/workspace/board?peek=1`);
      const cookies = cookiesOf(res);
      const session = cookies.get('session-id');
      assert.ok(session, 'session cookie');
      assert.ok(cookies.get('csrftoken'), 'a fresh CSRF token');
      const me = await t.api.get('/api/users/me/').set('Cookie', `session-id=${session}`);
      assert.equal(me.status, 200, JSON.stringify(me.body));
      assert.equal(me.body.email, email);
      const last = idp.tokenRequests[idp.tokenRequests.length - 1];
      assert.match(last.redirect_uri, new RegExp(`/auth/spaces/${provider}/callback/$`));
    });
  }

  it('an unsafe next_path is dropped: the boards app root', async () => {
    const res = await signInWith('github', { id: unique('id'), email: `${unique('n')}@example.com` }, '//evil.example');
    assert.equal(res.headers.location, SPACE);
  });

  it("failures redirect to the boards app with Plane's error number, name and next_path", async () => {
    // a state that does not match
    const { cookie } = await start('github', '/board/x');
    idp.next = { id: 1, email: 'x@example.com' };
    const bad = await t.api
      .get('/auth/spaces/github/callback/')
      .query({ code: idp.authorize(), state: 'wrong' })
      .set('Cookie', cookie);
    assert.equal(bad.status, 302);
    const url = new URL(bad.headers.location);
    assert.equal(`${url.origin}${url.pathname}`, `${SPACE}/`);
    assert.equal(url.searchParams.get('error_code'), '5120');
    assert.equal(url.searchParams.get('error_message'), 'GITHUB_OAUTH_PROVIDER_ERROR');
    assert.equal(url.searchParams.get('next_path'), '/board/x');
    assert.ok(!cookiesOf(bad).get('session-id'), 'no session');

    // no code
    const { state, cookie: c2 } = await start('gitlab');
    const noCode = new URL(
      (await t.api.get('/auth/spaces/gitlab/callback/').query({ state }).set('Cookie', c2)).headers.location,
    );
    assert.equal(noCode.searchParams.get('error_code'), '5121');
    assert.equal(noCode.searchParams.get('next_path'), null);

    // an unverified email
    const u = await signUp(t);
    const unverified = new URL(
      (await signInWith('google', { id: unique('g'), email: u.email, verified: false }, '/b')).headers.location,
    );
    assert.equal(unverified.searchParams.get('error_code'), '5005');
    assert.equal(unverified.searchParams.get('error_message'), 'INVALID_EMAIL');
    assert.equal(unverified.searchParams.get('next_path'), '/b');
  });

  it('a deactivated account: 5019 USER_ACCOUNT_DEACTIVATED', async () => {
    const email = `${unique('gone')}@example.com`;
    const id = unique('id');
    await signInWith('github', { id, email });
    await t.sql('UPDATE users SET is_active = false WHERE email = $1', [email]);
    const url = new URL((await signInWith('github', { id, email })).headers.location);
    assert.equal(url.searchParams.get('error_code'), '5019');
  });

  it('the space form posts share the sign-in rules and land on the boards app', async () => {
    const user = await signUp(t);
    const token = await t.api.get('/auth/get-csrf-token/');
    const csrf = token.body.csrf_token as string;
    const post = (path: string, fields: Record<string, string>) =>
      t.api
        .post(path)
        .set('Content-Type', FORM)
        .set('Cookie', `csrftoken=${csrf}`)
        .set('Origin', WEB)
        .send(new URLSearchParams({ ...fields, csrfmiddlewaretoken: csrf }).toString());
    const ok = await post('/auth/spaces/sign-in/', { email: user.email, password: user.password, next_path: '/b/1' });
    assert.equal(ok.status, 302);
    assert.equal(ok.headers.location, `${SPACE}/b/1`);
    const wrong = await post('/auth/spaces/sign-in/', {
      email: user.email,
      password: 'nope nope 1',
      next_path: '/b/1',
    });
    const url = new URL(wrong.headers.location);
    assert.equal(`${url.origin}${url.pathname}`, `${SPACE}/`);
    assert.equal(url.searchParams.get('error_code'), '5065');
    assert.equal(url.searchParams.get('next_path'), '/b/1');
  });
});

describe('auth: /auth/spaces/{provider}/ without the provider configured', () => {
  let t: TestApp;
  before(async () => (t = await startTestApp({ WEB_URL: WEB })));
  after(() => t.close());

  it("redirects to the boards app with Plane's <PROVIDER>_NOT_CONFIGURED number (the app's route to the app's page)", async () => {
    for (const [provider, code] of [
      ['github', '5110'],
      ['google', '5105'],
      ['gitlab', '5111'],
    ] as const) {
      const res = await t.api.get(`/auth/spaces/${provider}/`).query({ next_path: '/b' });
      assert.equal(res.status, 302, JSON.stringify(res.body));
      const url = new URL(res.headers.location);
      assert.equal(url.searchParams.get('error_code'), code);
      assert.equal(url.searchParams.get('error_message'), `${provider.toUpperCase()}_NOT_CONFIGURED`);
      assert.equal(url.searchParams.get('next_path'), '/b');
      const cb = new URL((await t.api.get(`/auth/spaces/${provider}/callback/`)).headers.location);
      assert.equal(cb.searchParams.get('error_code'), code);
      const app = await t.api.get(`/auth/${provider}/`);
      assert.equal(app.status, 302);
      assert.equal(
        app.headers.location,
        `${WEB}/?error_code=${code}&error_message=${provider.toUpperCase()}_NOT_CONFIGURED`,
      );
    }
  });
});
