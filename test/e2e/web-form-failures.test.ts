import { Logger } from '@nestjs/common';
import assert from 'node:assert/strict';
import { after, before, describe, it, mock } from 'node:test';
import { signUp, unique } from '../support/fixtures';
import { startTestApp, TEST_ADMIN, TestApp } from '../support/test-app';

// Plane's HTML forms never leave the browser on a JSON page: every failure of a form route, the
// CSRF refusal included, redirects to the app's form with an error code the app shows (Plane's
// web/admin `authErrorHandler` shows only the numbers of its banner list), and a CSRF refusal
// writes one log line naming the refused origin and the setting that trusts it.

const WEB = 'http://web.meridian.test';
const FORM = 'application/x-www-form-urlencoded';

interface Post {
  /** the page's origin (`Origin`); null: none */
  origin?: string | null;
  /** send the CSRF token (cookie and field): `true`, only the cookie: `'cookie'`, nothing: `false` */
  csrf?: boolean | 'cookie';
  headers?: Record<string, string>;
}

/** Posts a form as a browser would, after fetching the CSRF token. */
async function postForm(t: TestApp, path: string, fields: Record<string, string>, options: Post = {}) {
  const token = await t.api.get('/auth/get-csrf-token/');
  const csrf = token.body.csrf_token as string;
  const send = options.csrf ?? true;
  const form = new URLSearchParams({ ...fields, ...(send === true ? { csrfmiddlewaretoken: csrf } : {}) });
  const req = t.api.post(path).set('Content-Type', FORM);
  const origin = options.origin === undefined ? WEB : options.origin;
  if (origin !== null) req.set('Origin', origin);
  if (send !== false) req.set('Cookie', `csrftoken=${csrf}`);
  for (const [k, v] of Object.entries(options.headers ?? {})) req.set(k, v);
  return req.send(form.toString());
}

/** The redirect's page (origin + path) and its query as an object. */
function target(res: { status: number; headers: Record<string, string>; body: unknown }) {
  assert.equal(res.status, 302, JSON.stringify(res.body));
  const url = new URL(res.headers.location);
  return { page: `${url.origin}${url.pathname}`, query: Object.fromEntries(url.searchParams) };
}

function setCookies(res: { headers: Record<string, unknown> }): string[] {
  const raw = res.headers['set-cookie'];
  return Array.isArray(raw) ? (raw as string[]) : raw ? [String(raw)] : [];
}

/** Captures the `warn` lines of Nest's loggers while `run` runs. */
async function warnings(run: () => Promise<void>): Promise<string[]> {
  const lines: string[] = [];
  const spy = mock.method(Logger.prototype, 'warn', function (this: Logger, message: unknown) {
    lines.push(typeof message === 'string' ? message : JSON.stringify(message));
  });
  try {
    await run();
  } finally {
    spy.mock.restore();
  }
  return lines;
}

describe('web forms: every failure redirects to the form with a code the app shows', () => {
  let t: TestApp;
  let user: { email: string; password: string };
  before(async () => {
    // every route is posted many times from one address: the limits are tested below on their own
    t = await startTestApp({
      WEB_URL: WEB,
      AUTH_RATE_LIMIT: '10000/minute',
      AUTH_FAILED_SIGN_IN_LIMIT: '10000/minute',
    });
    user = await signUp(t);
  });
  after(() => t.close());

  const uid = Buffer.from('00000000-0000-4000-8000-000000000000').toString('base64url');
  /**
   * Each form route: its fields, where its failures go, the code of a CSRF refusal, and one refusal
   * of its own (the domain's) with its code.
   */
  interface FormRoute {
    path: string;
    fields: Record<string, string>;
    page: string;
    csrf: [string, string];
    domain: [string, string];
    echo: Record<string, string>;
  }
  const routes = (): FormRoute[] => [
    {
      path: '/auth/sign-in/',
      fields: { email: user.email, password: 'not the password' },
      page: `${WEB}/sign-in`,
      csrf: ['5065', 'AUTHENTICATION_FAILED_SIGN_IN'],
      domain: ['5065', 'AUTHENTICATION_FAILED_SIGN_IN'],
      echo: { email: user.email },
    },
    {
      path: '/auth/sign-up/',
      fields: { email: user.email, password: 'long enough pw 1' },
      page: `${WEB}/`,
      csrf: ['5035', 'AUTHENTICATION_FAILED_SIGN_UP'],
      domain: ['5030', 'USER_ALREADY_EXIST'],
      echo: { email: user.email },
    },
    {
      path: '/auth/magic-sign-in/',
      fields: { email: user.email, code: 'abcd-efgh-ijkl' },
      page: `${WEB}/sign-in`,
      csrf: ['5065', 'AUTHENTICATION_FAILED_SIGN_IN'],
      domain: ['5095', 'EXPIRED_MAGIC_CODE_SIGN_IN'],
      echo: { email: user.email },
    },
    {
      path: '/auth/magic-sign-up/',
      fields: { email: user.email, code: 'abcd-efgh-ijkl' },
      page: `${WEB}/`,
      csrf: ['5035', 'AUTHENTICATION_FAILED_SIGN_UP'],
      domain: ['5097', 'EXPIRED_MAGIC_CODE_SIGN_UP'],
      echo: { email: user.email },
    },
    {
      path: `/auth/reset-password/${uid}/not-a-token/`,
      fields: { password: 'brand new password 9' },
      page: `${WEB}/accounts/reset-password`,
      csrf: ['5065', 'AUTHENTICATION_FAILED_SIGN_IN'],
      domain: ['5125', 'INVALID_PASSWORD_TOKEN'],
      echo: {},
    },
    {
      path: '/auth/spaces/sign-in/',
      fields: { email: user.email, password: 'not the password', next_path: '/board/1' },
      page: `${WEB}/spaces/`,
      csrf: ['5065', 'AUTHENTICATION_FAILED_SIGN_IN'],
      domain: ['5065', 'AUTHENTICATION_FAILED_SIGN_IN'],
      echo: { email: user.email, next_path: '/board/1' },
    },
    {
      path: '/auth/spaces/sign-up/',
      fields: { email: user.email, password: 'long enough pw 1', next_path: '/board/1' },
      page: `${WEB}/spaces/`,
      csrf: ['5035', 'AUTHENTICATION_FAILED_SIGN_UP'],
      domain: ['5030', 'USER_ALREADY_EXIST'],
      echo: { email: user.email, next_path: '/board/1' },
    },
    {
      path: '/auth/spaces/magic-sign-in/',
      fields: { email: user.email, code: 'abcd-efgh-ijkl', next_path: '/board/1' },
      page: `${WEB}/spaces/`,
      csrf: ['5065', 'AUTHENTICATION_FAILED_SIGN_IN'],
      domain: ['5095', 'EXPIRED_MAGIC_CODE_SIGN_IN'],
      echo: { email: user.email, next_path: '/board/1' },
    },
    {
      path: '/auth/spaces/magic-sign-up/',
      fields: { email: user.email, code: 'abcd-efgh-ijkl', next_path: '/board/1' },
      page: `${WEB}/spaces/`,
      csrf: ['5035', 'AUTHENTICATION_FAILED_SIGN_UP'],
      domain: ['5097', 'EXPIRED_MAGIC_CODE_SIGN_UP'],
      echo: { email: user.email, next_path: '/board/1' },
    },
    {
      path: `/auth/spaces/reset-password/${uid}/not-a-token/`,
      fields: { password: 'brand new password 9' },
      page: `${WEB}/spaces/accounts/reset-password`,
      csrf: ['5065', 'AUTHENTICATION_FAILED_SIGN_IN'],
      domain: ['5125', 'INVALID_PASSWORD_TOKEN'],
      echo: {},
    },
    {
      path: '/api/instances/admins/sign-in/',
      fields: { email: TEST_ADMIN.email, password: 'not the password' },
      page: `${WEB}/god-mode/`,
      csrf: ['5175', 'ADMIN_AUTHENTICATION_FAILED'],
      domain: ['5175', 'ADMIN_AUTHENTICATION_FAILED'],
      echo: { email: TEST_ADMIN.email },
    },
    {
      path: '/api/instances/admins/sign-up/',
      fields: { email: `${unique('admin')}@example.com`, password: 'long enough pw 1', first_name: 'Ada' },
      page: `${WEB}/god-mode/`,
      csrf: ['5175', 'ADMIN_AUTHENTICATION_FAILED'],
      domain: ['5150', 'ADMIN_ALREADY_EXIST'],
      echo: { first_name: 'Ada' },
    },
  ];

  it('a CSRF refusal (a foreign origin, no token, no cookie) redirects to the form; nothing is signed in', async () => {
    for (const route of routes()) {
      const refusals = [
        await postForm(t, route.path, route.fields, { origin: 'http://evil.test' }),
        await postForm(t, route.path, route.fields, { csrf: 'cookie' }),
        await postForm(t, route.path, route.fields, { csrf: false }),
      ];
      for (const res of refusals) {
        const got = target(res);
        assert.equal(got.page, route.page, route.path);
        const [code, name] = route.csrf;
        assert.deepEqual(
          { error_code: got.query.error_code, error_message: got.query.error_message },
          { error_code: code, error_message: name },
          route.path,
        );
        for (const [key, value] of Object.entries(route.echo))
          assert.equal(got.query[key], value, `${route.path} ${key}`);
        assert.equal(got.query.password, undefined);
        assert.ok(
          !setCookies(res).some((c) => /^(session-id|admin-session-id)=/.test(c)),
          `${route.path}: no session cookie`,
        );
      }
    }
    assert.equal((await t.sql(`SELECT 1 FROM users WHERE email LIKE 'admin%@example.com'`)).length, 0);
  });

  it("each route's own failure redirects to the form with Plane's code", async () => {
    for (const route of routes()) {
      const got = target(await postForm(t, route.path, route.fields));
      assert.equal(got.page, route.page, route.path);
      const [code, name] = route.domain;
      assert.equal(got.query.error_code, code, route.path);
      assert.equal(got.query.error_message, name, route.path);
      for (const [key, value] of Object.entries(route.echo))
        assert.equal(got.query[key], value, `${route.path} ${key}`);
    }
  });

  it('logs one line per CSRF refusal naming the refused origin, the route and the settings that trust it', async () => {
    const lines = await warnings(async () => {
      await postForm(
        t,
        '/auth/sign-in/',
        { email: user.email, password: user.password },
        { origin: 'http://evil.test' },
      );
    });
    const csrf = lines.filter((l) => l.includes('CSRF'));
    assert.equal(csrf.length, 1, lines.join('\n'));
    assert.match(csrf[0], /POST \/auth\/sign-in\//);
    assert.match(csrf[0], /origin http:\/\/evil\.test is not trusted/);
    assert.match(csrf[0], /WEB_URL/);
    assert.match(csrf[0], /TRUST_PROXY/);
    assert.ok(!csrf[0].includes(user.password), 'never the form');

    const missing = await warnings(async () => {
      await postForm(t, '/auth/sign-up/', { email: user.email, password: user.password }, { csrf: false });
    });
    assert.equal(missing.filter((l) => l.includes('CSRF')).length, 1);
    assert.match(
      missing.find((l) => l.includes('CSRF'))!,
      /no csrftoken cookie/,
    );
  });

  it('the right form from the app still signs in (302 with the session cookie)', async () => {
    const res = await postForm(t, '/auth/sign-in/', { email: user.email, password: user.password });
    assert.equal(res.status, 302);
    assert.doesNotMatch(res.headers.location, /error_code/);
    assert.ok(setCookies(res).some((c) => c.startsWith('session-id=')));
  });
});

describe('web forms: a rate limit redirects too', () => {
  let t: TestApp;
  before(async () => (t = await startTestApp({ WEB_URL: WEB, AUTH_RATE_LIMIT: '2/minute' })));
  after(() => t.close());

  it('past AUTH_RATE_LIMIT the form lands on its page with 5900 RATE_LIMIT_EXCEEDED, not a JSON 429', async () => {
    const fields = { password: 'brand new password 9' };
    const path = '/auth/reset-password/x/not-a-token/';
    for (let i = 0; i < 2; i++) assert.equal(target(await postForm(t, path, fields)).query.error_code, '5125');
    const limited = target(await postForm(t, path, fields));
    assert.equal(limited.page, `${WEB}/accounts/reset-password`);
    assert.deepEqual(limited.query, { error_code: '5900', error_message: 'RATE_LIMIT_EXCEEDED' });
  });
});

describe('web forms behind a proxy that rewrites Host: X-Forwarded-Host only with TRUST_PROXY', () => {
  const PUBLIC = 'https://plane.public.test';
  const proxied = {
    Host: 'meridian.internal:8000',
    'X-Forwarded-Host': 'plane.public.test',
    'X-Forwarded-Proto': 'https',
  };
  const apps: TestApp[] = [];
  after(async () => {
    for (const t of apps) await t.close();
  });

  async function signInThroughProxy(env: Record<string, string>) {
    // WEB_URL is not the public origin: only the request's own origin can make the form pass
    const t = await startTestApp({ WEB_URL: WEB, ...env });
    apps.push(t);
    const user = await signUp(t);
    let res: Awaited<ReturnType<typeof postForm>> | undefined;
    const lines = await warnings(async () => {
      res = await postForm(
        t,
        '/auth/sign-in/',
        { email: user.email, password: user.password },
        {
          origin: PUBLIC,
          headers: proxied,
        },
      );
    });
    return { res: res!, lines: lines.filter((l) => l.includes('CSRF')) };
  }

  it('without TRUST_PROXY the public origin is refused: redirect with 5065 and a log line that names TRUST_PROXY', async () => {
    const { res, lines } = await signInThroughProxy({});
    const got = target(res);
    assert.equal(got.page, `${WEB}/sign-in`);
    assert.equal(got.query.error_code, '5065');
    assert.ok(!setCookies(res).some((c) => c.startsWith('session-id=')));
    assert.equal(lines.length, 1);
    assert.match(lines[0], /origin https:\/\/plane\.public\.test is not trusted/);
    assert.match(lines[0], /sees itself as http:\/\/meridian\.internal:8000/);
    assert.match(lines[0], /TRUST_PROXY is off/);
  });

  it('with TRUST_PROXY trusting the proxy, X-Forwarded-Host and -Proto make the public origin its own: signed in', async () => {
    const { res, lines } = await signInThroughProxy({ TRUST_PROXY: 'loopback' });
    assert.equal(res.status, 302, JSON.stringify(res.body));
    assert.doesNotMatch(res.headers.location, /error_code/);
    assert.ok(setCookies(res).some((c) => c.startsWith('session-id=')));
    assert.deepEqual(lines, []);
  });

  it('with TRUST_PROXY naming another proxy, X-Forwarded-Host from this peer is ignored', async () => {
    const { res, lines } = await signInThroughProxy({ TRUST_PROXY: '10.0.0.1' });
    assert.equal(target(res).query.error_code, '5065');
    assert.equal(lines.length, 1);
  });
});
