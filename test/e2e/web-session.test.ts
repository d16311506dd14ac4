import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { redactUrl } from '#common';
import { assertError, createWorkspace, signUp, unique } from '../support/fixtures';
import { startTestApp, TEST_ADMIN, TestApp } from '../support/test-app';

// Plane's web session beside Bearer (issue: the web app signs in with a cookie): the CSRF token,
// the sign-in forms and their redirects, the cookie on /api/ with the CSRF check, never on /api/v1/,
// the instance admin's cookie, and CORS with credentials only for the configured origins.

const WEB = 'http://web.meridian.test';
const FORM = 'application/x-www-form-urlencoded';
const bearer = { type: 'bearer' } as const;

/** `name=value` pairs of the response's Set-Cookie headers, with their attributes. */
function cookiesOf(res: { headers: Record<string, unknown> }): Map<string, { value: string; attributes: string }> {
  const raw = res.headers['set-cookie'];
  const list = Array.isArray(raw) ? (raw as string[]) : raw ? [String(raw)] : [];
  const out = new Map<string, { value: string; attributes: string }>();
  for (const line of list) {
    const [pair, ...attributes] = line.split(';');
    const eq = pair.indexOf('=');
    out.set(pair.slice(0, eq).trim(), {
      value: decodeURIComponent(pair.slice(eq + 1)),
      attributes: attributes.join(';').toLowerCase(),
    });
  }
  return out;
}

interface Browser {
  /** the Cookie header the browser would send */
  cookie: string;
  csrf: string;
}

async function csrfToken(t: TestApp): Promise<{ csrf: string; cookie: string }> {
  const res = await t.api.get('/auth/get-csrf-token/');
  assert.equal(res.status, 200);
  const cookies = cookiesOf(res);
  assert.equal(cookies.get('csrftoken')?.value, res.body.csrf_token);
  return { csrf: res.body.csrf_token, cookie: `csrftoken=${res.body.csrf_token}` };
}

/** Posts Plane's sign-in/up form as a browser on WEB would, and returns the redirect and the browser's cookies. */
async function postForm(t: TestApp, path: string, fields: Record<string, string>, options: { csrf?: boolean } = {}) {
  const { csrf, cookie } = await csrfToken(t);
  const form = new URLSearchParams({ ...fields, ...(options.csrf === false ? {} : { csrfmiddlewaretoken: csrf }) });
  const res = await t.api
    .post(path)
    .set('Content-Type', FORM)
    .set('Origin', WEB)
    .set('Cookie', cookie)
    .send(form.toString());
  return { res, csrf, cookies: cookiesOf(res) };
}

async function webSignUp(
  t: TestApp,
  email = `${unique('web')}@example.com`,
  password = 'correct horse 1',
): Promise<Browser & { email: string }> {
  const { res, cookies } = await postForm(t, '/auth/sign-up/', { email, password });
  assert.equal(res.status, 302, JSON.stringify(res.body));
  const session = cookies.get('session-id');
  assert.ok(session?.value, 'a session cookie');
  const csrf = cookies.get('csrftoken')!.value;
  return { email, csrf, cookie: `session-id=${session.value}; csrftoken=${csrf}` };
}

describe('web session: cookies, forms and CSRF beside Bearer', () => {
  let t: TestApp;
  before(async () => (t = await startTestApp({ WEB_URL: WEB })));
  after(() => t.close());

  it('GET /auth/get-csrf-token/ returns {csrf_token} and sets it in the HttpOnly csrftoken and readable XSRF-TOKEN cookies', async () => {
    const res = await t.api.get('/auth/get-csrf-token/');
    assert.equal(res.status, 200);
    assert.match(res.body.csrf_token, /^[A-Za-z0-9_-]{43}$/);
    const cookies = cookiesOf(res);
    assert.equal(cookies.get('csrftoken')?.value, res.body.csrf_token);
    assert.match(cookies.get('csrftoken')!.attributes, /httponly/);
    assert.match(cookies.get('csrftoken')!.attributes, /samesite=lax/);
    assert.equal(cookies.get('XSRF-TOKEN')?.value, res.body.csrf_token);
    assert.doesNotMatch(cookies.get('XSRF-TOKEN')!.attributes, /httponly/);
    const again = await t.api.get('/auth/get-csrf-token/');
    assert.notEqual(again.body.csrf_token, res.body.csrf_token);
  });

  it('the sign-up form: 302 to onboarding with an HttpOnly session cookie of SESSION_COOKIE_AGE; refused without the CSRF token', async () => {
    const email = `${unique('web')}@example.com`;
    const refused = await postForm(t, '/auth/sign-up/', { email, password: 'correct horse 1' }, { csrf: false });
    assert.equal(refused.res.status, 302);
    assert.equal(
      refused.res.headers.location,
      `${WEB}/?error_code=5035&error_message=AUTHENTICATION_FAILED_SIGN_UP&email=${encodeURIComponent(email)}`,
    );
    assert.equal(refused.cookies.get('session-id'), undefined);
    assert.equal(
      (await t.sql('SELECT 1 FROM users WHERE email = $1', [email])).length,
      0,
      'no account without the token',
    );

    const { res, cookies } = await postForm(t, '/auth/sign-up/', { email, password: 'correct horse 1' });
    assert.equal(res.status, 302);
    assert.equal(res.headers.location, `${WEB}/onboarding`);
    const session = cookies.get('session-id')!;
    assert.match(session.attributes, /httponly/);
    assert.match(session.attributes, /max-age=604800/);
    assert.match(session.attributes, /path=\//);
    assert.doesNotMatch(session.attributes, /secure/, 'http WEB_URL: not Secure');
    // the stored token is a digest, never the cookie's value
    const stored = await t.sql<{ digest: string; kind: string }>(
      `SELECT t.digest, t.kind FROM auth_tokens t JOIN auth_sessions s ON s.id = t.session_id JOIN users u ON u.id = s.user_id WHERE u.email = $1`,
      [email],
    );
    assert.deepEqual(
      stored.map((r) => r.kind),
      ['web'],
    );
    assert.notEqual(stored[0].digest, session.value);

    // a taken email: back to the form with Plane's error code and the email
    const taken = await postForm(t, '/auth/sign-up/', { email, password: 'correct horse 1', next_path: '/x' });
    assert.equal(taken.res.status, 302);
    const url = new URL(taken.res.headers.location);
    assert.equal(`${url.origin}${url.pathname}`, `${WEB}/`);
    assert.equal(url.searchParams.get('error_code'), '5030');
    assert.equal(url.searchParams.get('error_message'), 'USER_ALREADY_EXIST');
    assert.equal(url.searchParams.get('email'), email);
    assert.equal(url.searchParams.get('next_path'), '/x');
    assert.equal(taken.cookies.get('session-id'), undefined);
    const weak = await postForm(t, '/auth/sign-up/', { email: `${unique('web')}@example.com`, password: 'short' });
    assert.equal(new URL(weak.res.headers.location).searchParams.get('error_code'), '5020');
    const missing = await postForm(t, '/auth/sign-up/', { email: '', password: '' });
    assert.equal(new URL(missing.res.headers.location).searchParams.get('error_code'), '5040');
  });

  it('the sign-in form: 302 to next_path or the workspace; failures go back to /sign-in with 5065, never an open redirect', async () => {
    const user = await signUp(t);
    const ws = await createWorkspace(t, user.token);
    const onboarding = await postForm(t, '/auth/sign-in/', { email: user.email, password: user.password });
    assert.equal(onboarding.res.headers.location, `${WEB}/onboarding`, 'not onboarded yet');
    assert.equal(
      (await t.api.patch('/api/users/me/onboard/').auth(user.token, bearer).send({ is_onboarded: true })).status,
      200,
    );
    const landing = await postForm(t, '/auth/sign-in/', { email: user.email, password: user.password });
    assert.equal(landing.res.status, 302);
    assert.equal(landing.res.headers.location, `${WEB}/${ws.slug}`);
    const next = await postForm(t, '/auth/sign-in/', {
      email: user.email,
      password: user.password,
      next_path: '/projects/',
    });
    assert.equal(next.res.headers.location, `${WEB}/projects/`);
    const offsite = await postForm(t, '/auth/sign-in/', {
      email: user.email,
      password: user.password,
      next_path: '//evil.test/',
    });
    assert.equal(offsite.res.headers.location, `${WEB}/${ws.slug}`);

    const wrong = await postForm(t, '/auth/sign-in/', { email: user.email, password: 'wrong password' });
    assert.equal(wrong.res.status, 302);
    const url = new URL(wrong.res.headers.location);
    assert.equal(`${url.origin}${url.pathname}`, `${WEB}/sign-in`);
    assert.equal(url.searchParams.get('error_code'), '5065');
    assert.equal(url.searchParams.get('error_message'), 'AUTHENTICATION_FAILED_SIGN_IN');
    assert.equal(url.searchParams.get('email'), user.email);
    assert.equal(url.searchParams.get('password'), null);
    const missing = await postForm(t, '/auth/sign-in/', { email: user.email });
    assert.equal(new URL(missing.res.headers.location).searchParams.get('error_code'), '5070');

    // the JSON flow on the same path is unchanged
    const json = await t.api.post('/auth/sign-in/').send({ email: user.email, password: user.password });
    assert.equal(json.status, 200);
    assert.equal(json.body.token_type, 'Bearer');
  });

  it('/api/ takes the cookie; unsafe requests need X-CSRFToken (or X-XSRF-TOKEN) and a trusted origin', async () => {
    const b = await webSignUp(t);
    const me = await t.api.get('/api/users/me/').set('Cookie', b.cookie);
    assert.equal(me.status, 200, JSON.stringify(me.body));
    assert.equal(me.body.email, b.email);

    const patch = (headers: Record<string, string>) => {
      const req = t.api.patch('/api/users/me/').set('Cookie', b.cookie);
      for (const [k, v] of Object.entries(headers)) req.set(k, v);
      return req.send({ first_name: 'Web' });
    };
    assertError(await patch({ Origin: WEB }), 403, 'CSRF_FAILED');
    assertError(await patch({ Origin: WEB, 'X-CSRFToken': 'not-the-token' }), 403, 'CSRF_FAILED');
    assertError(await patch({ Origin: 'http://evil.test', 'X-CSRFToken': b.csrf }), 403, 'CSRF_FAILED');
    assertError(await patch({ Referer: 'http://evil.test/page', 'X-CSRFToken': b.csrf }), 403, 'CSRF_FAILED');
    assert.equal((await t.api.get('/api/users/me/').set('Cookie', b.cookie)).body.first_name, '', 'nothing written');
    const ok = await patch({ Origin: WEB, 'X-CSRFToken': b.csrf });
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    assert.equal(ok.body.first_name, 'Web');
    assert.equal((await patch({ Origin: WEB, 'X-XSRF-TOKEN': b.csrf })).status, 200);
    // Bearer requests are never CSRF-checked, whatever cookie rides along
    const user = await signUp(t);
    const withBearer = await t.api
      .patch('/api/users/me/')
      .set('Cookie', b.cookie)
      .auth(user.token, bearer)
      .send({ first_name: 'B' });
    assert.equal(withBearer.status, 200);
    assert.equal(withBearer.body.email, user.email, 'Bearer wins over the cookie');
  });

  it('the cookie token and Bearer tokens are separate kinds; /api/v1/ never takes a cookie; an unknown cookie is 401', async () => {
    const b = await webSignUp(t);
    const token = /session-id=([^;]+)/.exec(b.cookie)![1];
    assertError(await t.api.get('/api/users/me/').auth(token, bearer), 401, 'INVALID_ACCESS_TOKEN');
    const user = await signUp(t);
    assertError(
      await t.api.get('/api/users/me/').set('Cookie', `session-id=${user.token}`),
      401,
      'AUTHENTICATION_REQUIRED',
    );
    assertError(await t.api.get('/api/users/me/').set('Cookie', 'session-id=nonsense'), 401, 'AUTHENTICATION_REQUIRED');
    const ws = await createWorkspace(t, user.token);
    assertError(
      await t.api.get(`/api/v1/workspaces/${ws.slug}/projects/`).set('Cookie', b.cookie),
      401,
      'AUTHENTICATION_REQUIRED',
    );
    // the session is listed with the others
    const sessions = await t.api.get('/auth/sessions/').set('Cookie', b.cookie);
    assert.equal(sessions.status, 200);
    assert.equal(sessions.body.filter((s: { is_current: boolean }) => s.is_current).length, 1);
  });

  it('the sign-out form ends the session, deletes the cookies and redirects to the app, signed in or not', async () => {
    const b = await webSignUp(t);
    const res = await t.api
      .post('/auth/sign-out/')
      .set('Content-Type', FORM)
      .set('Origin', WEB)
      .set('Cookie', b.cookie)
      .send(new URLSearchParams({ csrfmiddlewaretoken: b.csrf }).toString());
    assert.equal(res.status, 302);
    assert.equal(res.headers.location, `${WEB}/`);
    const cleared = cookiesOf(res).get('session-id')!;
    assert.equal(cleared.value, '');
    assert.match(cleared.attributes, /max-age=0/);
    assertError(await t.api.get('/api/users/me/').set('Cookie', b.cookie), 401, 'AUTHENTICATION_REQUIRED');
    // signed out already: the form with a CSRF token still deletes the cookies and redirects
    const { csrf, cookie } = await csrfToken(t);
    const again = await t.api
      .post('/auth/sign-out/')
      .set('Content-Type', FORM)
      .set('Origin', WEB)
      .set('Cookie', cookie)
      .send(new URLSearchParams({ csrfmiddlewaretoken: csrf }).toString());
    assert.equal(again.status, 302);
    // the JSON sign-out with Bearer is unchanged
    const user = await signUp(t);
    assert.equal((await t.api.post('/auth/sign-out/').auth(user.token, bearer)).status, 204);
  });

  it('a sign-out form that fails the CSRF check is 403 and changes nothing: the cookies stay and the session works', async () => {
    const b = await webSignUp(t);
    const signOut = (origin: string | null, fields: Record<string, string>, cookie = b.cookie) => {
      const req = t.api.post('/auth/sign-out/').set('Content-Type', FORM).set('Cookie', cookie);
      if (origin) req.set('Origin', origin);
      return req.send(new URLSearchParams(fields).toString());
    };
    const refused = [
      // a foreign page without the token (the cross-site sign-out), and with it
      await signOut('http://evil.test', {}),
      await signOut('http://evil.test', { csrfmiddlewaretoken: b.csrf }),
      // the app's own origin, or none, without the token or with a wrong one
      await signOut(WEB, {}),
      await signOut(null, {}),
      await signOut(WEB, { csrfmiddlewaretoken: 'x'.repeat(43) }),
      // the token but no csrftoken cookie
      await signOut(WEB, { csrfmiddlewaretoken: b.csrf }, b.cookie.replace(/; csrftoken=.*/, '')),
    ];
    for (const res of refused) {
      assertError(res, 403, 'CSRF_FAILED');
      assert.equal(res.headers['set-cookie'], undefined, 'no cookie is touched');
    }
    // the spaces twin too
    const space = await t.api
      .post('/auth/spaces/sign-out/')
      .set('Content-Type', FORM)
      .set('Origin', 'http://evil.test')
      .set('Cookie', b.cookie)
      .send('');
    assertError(space, 403, 'CSRF_FAILED');
    assert.equal(space.headers['set-cookie'], undefined);
    const me = await t.api.get('/api/users/me/').set('Cookie', b.cookie);
    assert.equal(me.status, 200, JSON.stringify(me.body));
    assert.equal(me.body.email, b.email);

    // same origin with the token: 302, the cookies deleted, and the old cookie no longer authenticates
    const out = await signOut(WEB, { csrfmiddlewaretoken: b.csrf });
    assert.equal(out.status, 302);
    const cleared = cookiesOf(out);
    for (const name of ['session-id', 'csrftoken', 'XSRF-TOKEN']) {
      assert.equal(cleared.get(name)?.value, '', name);
      assert.match(cleared.get(name)!.attributes, /max-age=0/, name);
    }
    assertError(await t.api.get('/api/users/me/').set('Cookie', b.cookie), 401, 'AUTHENTICATION_REQUIRED');
  });

  it('the instance admin sign-out form fails the same way from a foreign page: 403, the admin cookie kept', async () => {
    const { res, cookies } = await postForm(t, '/api/instances/admins/sign-in/', {
      email: TEST_ADMIN.email,
      password: TEST_ADMIN.password,
    });
    assert.equal(res.status, 302, JSON.stringify(res.body));
    const csrf = cookies.get('csrftoken')!.value;
    const cookie = `admin-session-id=${cookies.get('admin-session-id')!.value}; csrftoken=${csrf}`;
    const refused = await t.api
      .post('/api/instances/admins/sign-out/')
      .set('Content-Type', FORM)
      .set('Origin', 'http://evil.test')
      .set('Cookie', cookie)
      .send('');
    assertError(refused, 403, 'CSRF_FAILED');
    assert.equal(refused.headers['set-cookie'], undefined);
    assert.equal((await t.api.get('/api/instances/admins/me/').set('Cookie', cookie)).status, 200);
    const out = await t.api
      .post('/api/instances/admins/sign-out/')
      .set('Content-Type', FORM)
      .set('Origin', WEB)
      .set('Cookie', cookie)
      .send(new URLSearchParams({ csrfmiddlewaretoken: csrf }).toString());
    assert.equal(out.status, 302);
    assert.equal(cookiesOf(out).get('admin-session-id')?.value, '');
    assertError(await t.api.get('/api/instances/admins/me/').set('Cookie', cookie), 401, 'AUTHENTICATION_REQUIRED');
  });

  it('the magic code forms answer Plane codes (5095 without a live code, 5085 without the code) and the spaces twins redirect to the boards app', async () => {
    const email = `${unique('magic')}@example.com`;
    const noCode = await postForm(t, '/auth/magic-sign-in/', { email, code: 'abcd-efgh-ijkl' });
    assert.equal(noCode.res.status, 302);
    const url = new URL(noCode.res.headers.location);
    assert.equal(`${url.origin}${url.pathname}`, `${WEB}/sign-in`);
    assert.equal(url.searchParams.get('error_code'), '5095');
    const up = await postForm(t, '/auth/magic-sign-up/', { email, code: 'abcd-efgh-ijkl' });
    assert.equal(new URL(up.res.headers.location).searchParams.get('error_code'), '5097');
    const missing = await postForm(t, '/auth/magic-sign-in/', { email });
    assert.equal(new URL(missing.res.headers.location).searchParams.get('error_code'), '5085');

    // a live code (its digest as the magic-generate flow stores it): the account is made without a password
    const plant = (code: string) =>
      t.sql(
        `INSERT INTO auth_codes (kind, email, digest, expires_at) VALUES ('magic', $1, $2, now() + interval '10 minutes')`,
        [email, createHash('sha256').update(`magic:${email}:${code}`).digest('hex')],
      );
    await plant('abcd-efgh-ijkl');
    const wrong = await postForm(t, '/auth/magic-sign-in/', { email, code: 'zzzz-zzzz-zzzz' });
    assert.equal(new URL(wrong.res.headers.location).searchParams.get('error_code'), '5090');
    const first = await postForm(t, '/auth/magic-sign-in/', { email, code: 'abcd-efgh-ijkl', next_path: '/x/' });
    assert.equal(first.res.headers.location, `${WEB}/x/`, 'not onboarded: next_path');
    const cookie = `session-id=${first.cookies.get('session-id')!.value}; csrftoken=${first.cookies.get('csrftoken')!.value}`;
    const onboard = await t.api
      .patch('/api/users/me/onboard/')
      .set('Cookie', cookie)
      .set('Origin', WEB)
      .set('X-CSRFToken', first.cookies.get('csrftoken')!.value)
      .send({ is_onboarded: true });
    assert.equal(onboard.status, 200, JSON.stringify(onboard.body));
    await plant('mnop-qrst-uvwx');
    const again = await postForm(t, '/auth/magic-sign-in/', { email, code: 'mnop-qrst-uvwx', next_path: '/x/' });
    assert.equal(again.res.headers.location, `${WEB}/accounts/set-password`, 'onboarded without a password');

    const user = await signUp(t);
    const space = await postForm(t, '/auth/spaces/sign-in/', {
      email: user.email,
      password: user.password,
      next_path: '/board/1',
    });
    assert.equal(space.res.status, 302);
    assert.equal(space.res.headers.location, `${WEB}/spaces/board/1`);
    assert.ok(space.cookies.get('session-id')?.value);
  });

  it('the reset form sets the password with the emailed token, ends every session, and lands on sign-in; its token never reaches a log', async () => {
    const user = await signUp(t);
    const b = await webSignUp(t);
    const token = unique('reset-token-');
    await t.sql(
      `INSERT INTO auth_codes (kind, email, user_id, digest, expires_at) VALUES ('password_reset', $1, $2, $3, now() + interval '1 hour')`,
      [user.email, user.userId, createHash('sha256').update(token).digest('hex')],
    );
    const uid = Buffer.from(user.userId).toString('base64url');
    const short = await postForm(t, `/auth/reset-password/${uid}/${token}/`, { password: 'short' });
    const url = new URL(short.res.headers.location);
    assert.equal(`${url.origin}${url.pathname}`, `${WEB}/accounts/reset-password`);
    assert.equal(url.searchParams.get('error_code'), '5020');
    const ok = await postForm(t, `/auth/reset-password/${uid}/${token}/`, { password: 'brand new password 9' });
    assert.equal(ok.res.status, 302);
    assert.equal(ok.res.headers.location, `${WEB}/sign-in?success=True`);
    assertError(await t.api.get('/api/users/me/').auth(user.token, bearer), 401, 'INVALID_ACCESS_TOKEN');
    assert.equal(
      (await t.api.post('/auth/sign-in/').send({ email: user.email, password: 'brand new password 9' })).status,
      200,
    );
    const used = await postForm(t, `/auth/reset-password/${uid}/${token}/`, { password: 'another password 9' });
    assert.equal(new URL(used.res.headers.location).searchParams.get('error_code'), '5125');
    assert.equal(
      (await t.api.get('/api/users/me/').set('Cookie', b.cookie)).status,
      200,
      "another user's session is untouched",
    );
    assert.equal(redactUrl(`/auth/reset-password/${uid}/${token}/?x=1`), `/auth/reset-password/${uid}/[redacted]/?x=1`);
  });

  it("the boards app's JSON twins answer like the app's: /auth/spaces/email-check/", async () => {
    const user = await signUp(t);
    const res = await t.api.post('/auth/spaces/email-check/').send({ email: user.email });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { existing: true, status: 'CREDENTIAL' });
  });

  it("the instance admin's forms set the admin cookie, which only the instance API takes", async () => {
    const { res, cookies } = await postForm(t, '/api/instances/admins/sign-in/', {
      email: TEST_ADMIN.email,
      password: TEST_ADMIN.password,
    });
    assert.equal(res.status, 302, JSON.stringify(res.body));
    assert.equal(res.headers.location, `${WEB}/god-mode/general`);
    const admin = cookies.get('admin-session-id')!;
    assert.match(admin.attributes, /httponly/);
    assert.match(admin.attributes, /max-age=3600/);
    const csrf = cookies.get('csrftoken')!.value;
    const cookie = `admin-session-id=${admin.value}; csrftoken=${csrf}`;
    const me = await t.api.get('/api/instances/admins/me/').set('Cookie', cookie);
    assert.equal(me.status, 200);
    assert.equal(me.body.email, TEST_ADMIN.email);
    assertError(await t.api.get('/api/users/me/').set('Cookie', cookie), 401, 'AUTHENTICATION_REQUIRED');
    assertError(
      await t.api.patch('/api/instances/').set('Cookie', cookie).set('Origin', WEB).send({ instance_name: 'x' }),
      403,
      'CSRF_FAILED',
    );
    const patched = await t.api
      .patch('/api/instances/')
      .set('Cookie', cookie)
      .set('Origin', WEB)
      .set('X-CSRFToken', csrf)
      .send({ instance_name: 'Web admin' });
    assert.equal(patched.status, 200, JSON.stringify(patched.body));

    const wrong = await postForm(t, '/api/instances/admins/sign-in/', { email: TEST_ADMIN.email, password: 'nope' });
    const url = new URL(wrong.res.headers.location);
    assert.equal(`${url.origin}${url.pathname}`, `${WEB}/god-mode/`);
    assert.equal(url.searchParams.get('error_code'), '5175');
    const taken = await postForm(t, '/api/instances/admins/sign-up/', {
      email: 'x@example.com',
      password: 'correct horse 1',
      first_name: 'X',
    });
    assert.equal(new URL(taken.res.headers.location).searchParams.get('error_code'), '5150');

    const out = await t.api
      .post('/api/instances/admins/sign-out/')
      .set('Content-Type', FORM)
      .set('Origin', WEB)
      .set('Cookie', cookie)
      .send(new URLSearchParams({ csrfmiddlewaretoken: csrf }).toString());
    assert.equal(out.status, 302);
    assert.equal(out.headers.location, `${WEB}/god-mode/`);
    assertError(await t.api.get('/api/instances/admins/me/').set('Cookie', cookie), 401, 'AUTHENTICATION_REQUIRED');
  });

  it('CORS: credentials only for the configured origins, never with *', async () => {
    const trusted = await t.api.get('/api/instances/').set('Origin', WEB);
    assert.equal(trusted.headers['access-control-allow-origin'], WEB);
    assert.equal(trusted.headers['access-control-allow-credentials'], 'true');
    const other = await t.api.get('/api/instances/').set('Origin', 'http://evil.test');
    assert.equal(other.headers['access-control-allow-origin'], '*');
    assert.equal(other.headers['access-control-allow-credentials'], undefined);
    const preflight = await t.api
      .options('/api/users/me/')
      .set('Origin', WEB)
      .set('Access-Control-Request-Method', 'PATCH');
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers['access-control-allow-credentials'], 'true');
  });
});

describe('web session: the first set-up through the admin form', () => {
  let t: TestApp;
  before(async () => (t = await startTestApp({ WEB_URL: 'https://plane.example.com' }, { setup: false })));
  after(() => t.close());

  it('creates the admin, sets a Secure admin cookie (https web URL) and lands on /god-mode/general', async () => {
    const token = await t.api.get('/auth/get-csrf-token/');
    const csrf = token.body.csrf_token as string;
    const res = await t.api
      .post('/api/instances/admins/sign-up/')
      .set('Content-Type', FORM)
      .set('Origin', 'https://plane.example.com')
      .set('Cookie', `csrftoken=${csrf}`)
      .send(
        new URLSearchParams({
          csrfmiddlewaretoken: csrf,
          email: 'first@example.com',
          password: 'correct horse 1',
          first_name: 'First',
          company_name: 'Acme',
          is_telemetry_enabled: 'True',
        }).toString(),
      );
    assert.equal(res.status, 302, JSON.stringify(res.body));
    assert.equal(res.headers.location, 'https://plane.example.com/god-mode/general');
    const admin = cookiesOf(res).get('admin-session-id')!;
    assert.match(admin.attributes, /secure/);
    const instance = await t.api.get('/api/instances/');
    assert.equal(instance.body.instance.is_setup_done, true);
  });
});
