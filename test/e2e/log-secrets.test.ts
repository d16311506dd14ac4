import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pgliteExtensions } from '#database';
import { unique } from '../support/fixtures';
import { startMailCatcher } from '../support/mail-catcher';
import { startMockOAuthProvider } from '../support/oauth-provider';
import { jsonLines, startServer, waitExit } from '../support/processes';
import { ENGINE, migratedDatabaseEnv } from '../support/test-app';
import { Client } from 'pg';
import { loadConfig } from '#common';
import { startDatabase } from '#database';
import { templateFromEnv } from '../support/database-template';

/**
 * The log of a real server process (stdout, LOG_LEVEL=trace: the real pino pipeline) is scanned for
 * every secret a run created: passwords, access and refresh tokens (user and instance admin), API
 * keys, invitation tokens, magic codes, reset tokens, OAuth states and codes, attachment signatures,
 * the SMTP password. None may appear, in clear or URL-encoded; the one exception is the development
 * mail fallback ("email written to the log"), which exists only outside production.
 */

/** A port that was free a moment ago (the server prints its configured port, so PORT=0 will not do). */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const WEB = 'http://web.meridian.test';
const FALLBACK = 'email written to the log';

interface Answer {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  headers: Headers;
}

/** A spawned server with its database, and a small HTTP client for it. */
async function spawn(env: Record<string, string>) {
  const db = await migratedDatabaseEnv();
  const uploads = fs.mkdtempSync(path.join(os.tmpdir(), 'meridian-logscan-'));
  const port = await freePort();
  const server = await startServer({
    ...db.env,
    PORT: String(port),
    UPLOADS_DIR: uploads,
    LOG_LEVEL: 'trace',
    WEB_URL: WEB,
    AUTH_RATE_LIMIT: '10000/minute',
    AUTH_EMAIL_RATE_LIMIT: '10000/minute',
    AUTH_FAILED_SIGN_IN_LIMIT: '10000/minute',
    API_KEY_RATE_LIMIT: '10000/minute',
    ...env,
  });
  const base = `http://127.0.0.1:${port}`;
  async function call(
    method: string,
    url: string,
    opts: { body?: unknown; bearer?: string; key?: string; headers?: Record<string, string>; raw?: Buffer } = {},
  ): Promise<Answer> {
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.bearer) headers.Authorization = `Bearer ${opts.bearer}`;
    if (opts.key) headers['X-API-Key'] = opts.key;
    let body: string | Buffer | undefined;
    if (opts.raw) body = opts.raw;
    else if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers['Content-Type'] = 'application/json';
    }
    const res = await fetch(url.startsWith('http') ? url : `${base}${url}`, {
      method,
      headers,
      body,
      redirect: 'manual',
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // not JSON (a file, an empty body)
    }
    return { status: res.status, body: parsed, headers: res.headers };
  }
  /** The log so far, once a marker request has made it through (the child's pipe may lag). */
  async function log(): Promise<string> {
    const marker = unique('marker');
    await call('GET', `/health?marker=${marker}`);
    const deadline = Date.now() + 10_000;
    while (!server.output().includes(marker)) {
      if (Date.now() > deadline) throw new Error('the marker request never reached the log');
      await new Promise((r) => setTimeout(r, 50));
    }
    return server.output();
  }
  async function stop() {
    (server.child as ChildProcess).kill('SIGTERM');
    await waitExit(server.child);
    await db.drop();
    fs.rmSync(uploads, { recursive: true, force: true });
  }
  return { base, call, log, stop };
}

type Server = Awaited<ReturnType<typeof spawn>>;

function ok(res: Answer, status = 200): Answer {
  assert.equal(res.status, status, JSON.stringify(res.body));
  return res;
}

describe('no secret in the log (development, real server process, LOG_LEVEL=trace)', () => {
  let s: Server;
  let mail: Awaited<ReturnType<typeof startMailCatcher>>;
  let idp: Awaited<ReturnType<typeof startMockOAuthProvider>>;
  /** every secret the run saw → what it is */
  const secrets = new Map<string, string>();
  const keep = (what: string, value: unknown) => {
    assert.equal(typeof value, 'string', `${what} is a string`);
    assert.ok((value as string).length >= 8, `${what} is long enough to search for`);
    secrets.set(value as string, what);
  };
  let devCode = '';
  let logText = '';

  before(async () => {
    mail = await startMailCatcher();
    idp = await startMockOAuthProvider();
    s = await spawn({ NODE_ENV: 'development', ...idp.env });
  });
  after(async () => {
    await s.stop();
    await mail.close();
    await idp.close();
  });

  it('runs every flow that hands out a secret', async () => {
    // instance admin: first set-up, refresh, sign-in again
    const adminPassword = `admin ${unique('pw')}`;
    keep('admin password', adminPassword);
    const setup = ok(
      await s.call('POST', '/api/instances/admins/sign-up/', {
        body: { email: 'ops@example.com', password: adminPassword, first_name: 'Ops', company_name: 'Acme' },
      }),
      201,
    );
    keep('admin access token', setup.body.access_token);
    keep('admin refresh token', setup.body.refresh_token);
    const adminRefreshed = ok(
      await s.call('POST', '/api/instances/admins/token/refresh/', {
        body: { refresh_token: setup.body.refresh_token },
      }),
    );
    keep('admin access token (refreshed)', adminRefreshed.body.access_token);
    keep('admin refresh token (refreshed)', adminRefreshed.body.refresh_token);
    const adminSignIn = ok(
      await s.call('POST', '/api/instances/admins/sign-in/', {
        body: { email: 'ops@example.com', password: adminPassword },
      }),
    );
    keep('admin access token (sign-in)', adminSignIn.body.access_token);
    keep('admin refresh token (sign-in)', adminSignIn.body.refresh_token);
    const admin = adminSignIn.body.access_token as string;
    ok(await s.call('GET', '/api/instances/admins/me/', { bearer: admin }));

    // a user: sign-up, sign-in, refresh
    const email = `${unique('ada')}@example.com`;
    const password = `ada ${unique('pw')}`;
    keep('user password', password);
    const signUp = ok(await s.call('POST', '/auth/sign-up/', { body: { email, password } }), 201);
    keep('access token (sign-up)', signUp.body.access_token);
    keep('refresh token (sign-up)', signUp.body.refresh_token);
    const signIn = ok(await s.call('POST', '/auth/sign-in/', { body: { email, password } }));
    keep('access token (sign-in)', signIn.body.access_token);
    keep('refresh token (sign-in)', signIn.body.refresh_token);
    const refreshed = ok(
      await s.call('POST', '/auth/token/refresh/', { body: { refresh_token: signIn.body.refresh_token } }),
    );
    keep('access token (refreshed)', refreshed.body.access_token);
    keep('refresh token (refreshed)', refreshed.body.refresh_token);
    const token = refreshed.body.access_token as string;
    ok(await s.call('GET', '/api/users/me/', { bearer: token }));
    // credentials where they do not belong: in a query string
    await s.call(
      'GET',
      `/api/users/me/?access_token=${encodeURIComponent(token)}&api_key=${encodeURIComponent(password)}`,
      { bearer: token },
    );
    // and a token in a URL is not a credential (passport-http-bearer would take `access_token` there)
    const inUrl = await s.call('GET', `/api/users/me/?access_token=${encodeURIComponent(token)}`);
    assert.equal(inUrl.status, 401);
    assert.equal(inUrl.body.error_code, 'AUTHENTICATION_REQUIRED');
    assert.equal((await s.call('PATCH', '/api/instances/', { body: { access_token: admin } })).status, 401);

    // magic code without SMTP (development): the code goes to the log fallback line, and only there
    const magicEmail = `${unique('magic')}@example.com`;
    ok(await s.call('POST', '/auth/magic-generate/', { body: { email: magicEmail } }));
    const fallbackLine = (await s.log()).split('\n').find((l) => l.includes(FALLBACK) && l.includes(magicEmail));
    assert.ok(fallbackLine, 'the development fallback logs the mail');
    devCode = /login code is ([a-z]{4}-[a-z]{4}-[a-z]{4})/.exec(fallbackLine)![1];
    keep('magic code (development log fallback)', devCode);
    const magic = ok(await s.call('POST', '/auth/magic-sign-in/', { body: { email: magicEmail, code: devCode } }));
    keep('access token (magic code)', magic.body.access_token);
    keep('refresh token (magic code)', magic.body.refresh_token);

    // from here on, mail goes through SMTP (set as instance configuration, with a stored secret)
    const smtpPassword = unique('smtp-secret-');
    keep('SMTP password', smtpPassword);
    ok(
      await s.call('PATCH', '/api/instances/configurations/', {
        bearer: admin,
        body: {
          EMAIL_HOST: mail.env.EMAIL_HOST,
          EMAIL_PORT: mail.env.EMAIL_PORT,
          EMAIL_USE_TLS: '0',
          EMAIL_USE_SSL: '0',
          EMAIL_HOST_PASSWORD: smtpPassword,
        },
      }),
    );

    const smtpMagicEmail = `${unique('magic2')}@example.com`;
    ok(await s.call('POST', '/auth/magic-generate/', { body: { email: smtpMagicEmail } }));
    const code = /^([a-z]{4}-[a-z]{4}-[a-z]{4})$/m.exec((await mail.lastTo(smtpMagicEmail)).text)![1];
    keep('magic code (SMTP)', code);
    await s.call('POST', '/auth/magic-sign-in/', { body: { email: smtpMagicEmail, code: 'wron-gcod-eeee' } });
    const magic2 = ok(await s.call('POST', '/auth/magic-sign-in/', { body: { email: smtpMagicEmail, code } }));
    keep('access token (magic code, SMTP)', magic2.body.access_token);
    keep('refresh token (magic code, SMTP)', magic2.body.refresh_token);

    // password reset; the reset link's token also travels in a URL once
    ok(await s.call('POST', '/auth/forgot-password/', { body: { email } }));
    const resetToken = /Reset token:\r?\n(\S+)/.exec((await mail.lastTo(email)).text)![1];
    keep('password reset token', resetToken);
    await s.call('GET', `/auth/reset-password/?token=${encodeURIComponent(resetToken)}`);
    const newPassword = `new ${unique('pw')}`;
    keep('new password', newPassword);
    ok(await s.call('POST', '/auth/reset-password/', { body: { token: resetToken, password: newPassword } }));
    const again = ok(await s.call('POST', '/auth/sign-in/', { body: { email, password: newPassword } }));
    keep('access token (after reset)', again.body.access_token);
    keep('refresh token (after reset)', again.body.refresh_token);
    const me = again.body.access_token as string;

    // workspace, API key and its use
    const slug = unique('ws-');
    const workspace = ok(
      await s.call('POST', '/api/workspaces/', { bearer: me, body: { name: 'Log scan', slug } }),
      201,
    );
    const created = ok(
      await s.call('POST', `/api/workspaces/${slug}/api-tokens/`, { bearer: me, body: { label: 'scan' } }),
      201,
    );
    keep('API key', created.body.token);
    const key = created.body.token as string;
    // the service token: made, answered again (it is kept sealed to be), and used
    const svc = ok(await s.call('POST', `/api/workspaces/${slug}/service-api-tokens/`, { bearer: me }), 201);
    keep('service API token', svc.body.token);
    ok(await s.call('POST', `/api/workspaces/${slug}/service-api-tokens/`, { bearer: me }), 200);
    ok(await s.call('GET', `/api/v1/workspaces/${slug}/projects/`, { key: svc.body.token }));
    const project = ok(
      await s.call('POST', `/api/v1/workspaces/${slug}/projects/`, { key, body: { name: 'Scan', identifier: 'SCAN' } }),
      201,
    );
    const p = `/api/v1/workspaces/${slug}/projects/${project.body.id}`;
    const item = ok(await s.call('POST', `${p}/work-items/`, { key, body: { name: 'with a file' } }), 201);
    // a request's line says who asked: the key's user, and the workspace the route resolved
    const whoId = unique('req');
    ok(await s.call('GET', `${p}/work-items/${item.body.id}/`, { key, headers: { 'X-Request-Id': whoId } }));
    const whoLine = (await s.log())
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { req?: { id?: string }; user_id?: string; workspace_id?: string })
      .find((l) => l.req?.id === whoId);
    assert.equal(whoLine?.user_id, ok(await s.call('GET', '/api/users/me/', { bearer: me })).body.id);
    assert.equal(whoLine?.workspace_id, workspace.body.id);

    // attachment through signed URLs: upload URL, 302 Location, download URL
    const content = Buffer.from('secret-free file\n');
    const att = ok(
      await s.call('POST', `${p}/work-items/${item.body.id}/attachments/`, {
        key,
        body: { name: 'a.txt', type: 'text/plain', size: content.length },
      }),
    );
    const upload = new URL(att.body.upload_data.url);
    keep('upload signature', upload.searchParams.get('signature'));
    ok(
      await s.call('PUT', att.body.upload_data.url, {
        raw: content,
        headers: { 'Content-Type': 'application/octet-stream' },
      }),
      204,
    );
    ok(
      await s.call('PATCH', `${p}/work-items/${item.body.id}/attachments/${att.body.asset_id}/`, {
        key,
        body: { is_uploaded: true },
      }),
    );
    const redirect = ok(
      await s.call('GET', `${p}/work-items/${item.body.id}/attachments/${att.body.asset_id}/`, { key }),
      302,
    );
    const location = redirect.headers.get('location')!;
    keep('download signature', new URL(location, s.base).searchParams.get('signature'));
    const download = ok(await s.call('GET', location));
    assert.equal(download.body, content.toString());

    // invitation: the emailed link's token, and opening the link
    const invitee = `${unique('inv')}@example.com`;
    ok(
      await s.call('POST', `/api/workspaces/${slug}/invitations/`, {
        bearer: me,
        body: { emails: [{ email: invitee, role: 15 }] },
      }),
    );
    const link = new URL(/(http\S+workspace-invitations\/\?\S+)/.exec((await mail.lastTo(invitee)).text)![1]);
    keep('invitation token', link.searchParams.get('token'));
    const invitationId = link.searchParams.get('invitation_id')!;
    const inviteToken = link.searchParams.get('token')!;
    ok(
      await s.call(
        'GET',
        `/api/workspaces/${slug}/invitations/${invitationId}/join/?token=${encodeURIComponent(inviteToken)}`,
      ),
    );
    ok(
      await s.call('POST', `/api/workspaces/${slug}/invitations/${invitationId}/join/`, {
        body: { email: invitee, accepted: true, token: inviteToken },
      }),
    );

    // OAuth: state (URL and cookie), the provider's code, the session cookie the callback sets
    const begin = ok(await s.call('GET', '/auth/github/'), 302);
    const state = new URL(begin.headers.get('location')!).searchParams.get('state');
    keep('OAuth state', state);
    const cookie = begin.headers
      .getSetCookie()
      .find((c) => c.startsWith('meridian_oauth_state='))!
      .split(';')[0];
    idp.next = { id: 4242, email: `${unique('gh')}@example.com` };
    const providerCode = idp.authorize();
    keep('provider authorization code', providerCode);
    const callback = ok(
      await s.call('GET', `/auth/github/callback/?code=${providerCode}&state=${state}`, {
        headers: { Cookie: cookie },
      }),
      302,
    );
    assert.equal(callback.headers.get('location'), `${WEB}/onboarding`);
    const session = callback.headers
      .getSetCookie()
      .find((c) => c.startsWith('session-id='))!
      .split(';')[0]
      .slice('session-id='.length);
    keep('session cookie (OAuth)', session);
    ok(await s.call('GET', '/api/users/me/', { headers: { Cookie: `session-id=${session}` } }));

    logText = await s.log();
    assert.ok(secrets.size >= 30, `collected ${secrets.size} secrets`);
  });

  it('finds none of them in the log, in clear or URL-encoded, outside the development mail fallback', () => {
    assert.ok(logText, 'the run produced a log');
    const lines = logText.split('\n');
    const elsewhere = lines.filter((l) => !l.includes(FALLBACK)).join('\n');
    const leaks: string[] = [];
    for (const [value, what] of secrets) {
      for (const form of new Set([value, encodeURIComponent(value), JSON.stringify(value).slice(1, -1)])) {
        if (elsewhere.includes(form)) leaks.push(`${what}: ${elsewhere.split('\n').find((l) => l.includes(form))}`);
      }
    }
    assert.deepEqual(leaks, []);
  });

  it('writes only the development mail to the log, and only before SMTP was configured', () => {
    const fallback = logText.split('\n').filter((l) => l.includes(FALLBACK));
    assert.equal(fallback.length, 1, fallback.join('\n'));
    assert.ok(fallback[0].includes(devCode));
    assert.match(fallback[0], /NODE_ENV=development only, never in production/);
  });

  it('shows the redaction where the secrets were (so removing it fails the scan above)', () => {
    const lines = logText.split('\n');
    const has = (re: RegExp, what: string) =>
      assert.ok(
        lines.some((l) => re.test(l)),
        `${what}: no line matches ${re}`,
      );
    has(
      /"url":"\/api\/workspaces\/[^"]+\/invitations\/[0-9a-f-]+\/join\/\?token=\[redacted\]"/,
      'the opened invitation link',
    );
    has(/"url":"\/api\/v1\/assets\/[0-9a-f-]+\/upload\/\?expires=\d+&signature=\[redacted\]"/, 'the signed upload URL');
    has(
      /"url":"\/api\/v1\/assets\/[0-9a-f-]+\/download\/\?expires=\d+&signature=\[redacted\]"/,
      'the signed download URL',
    );
    has(
      /"location":"[^"]*\/api\/v1\/assets\/[0-9a-f-]+\/download\/\?expires=\d+&signature=\[redacted\]"/,
      'the 302 Location',
    );
    has(/"url":"\/auth\/github\/callback\/\?code=\[redacted\]&state=\[redacted\]"/, 'the OAuth callback');
    has(/session-id=\[redacted\]/, 'the session cookie set by the OAuth callback');
    has(/meridian_oauth_state=\[redacted\]/, 'the state cookie');
    has(/"url":"\/auth\/reset-password\/\?token=\[redacted\]"/, 'the reset link');
    has(/"url":"\/api\/users\/me\/\?access_token=\[redacted\]&api_key=\[redacted\]"/, 'credentials in a query string');
    // the log is still useful: request lines keep their method, path and status
    has(/"method":"GET","url":"\/api\/users\/me\/"/, 'an ordinary request');
  });

  it('logs every request once it is answered, under the id its X-Request-Id carries (OpenAPI and refusals included)', async () => {
    const given = unique('req');
    const docs = await s.call('GET', '/api/openapi.json', { headers: { 'X-Request-Id': given } });
    assert.equal(docs.status, 200);
    assert.equal(docs.headers.get('x-request-id'), given, 'the caller’s id is kept');
    const refused = await s.call('GET', '/api/users/me/');
    assert.equal(refused.status, 401);
    const made = refused.headers.get('x-request-id');
    assert.match(made ?? '', /^[0-9a-f-]{36}$/, 'a new UUID otherwise');
    const lines = (await s.log())
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map(
        (l) =>
          JSON.parse(l) as {
            msg: string;
            req?: { id: string; url: string };
            res?: { statusCode: number; headers?: Record<string, unknown> };
          },
      );
    for (const [id, url, status] of [
      [given, '/api/openapi.json', 200],
      [made, '/api/users/me/', 401],
    ] as const) {
      const done = lines.filter((l) => l.req?.id === id && l.res);
      assert.equal(done.length, 1, `one completion line for ${url}`);
      assert.equal(done[0].req!.url, url);
      assert.equal(done[0].res!.statusCode, status);
      // the few headers worth a log line, not the ones every answer carries (helmet's, CORS)
      assert.deepEqual(Object.keys(done[0].res!.headers ?? {}).sort(), ['content-length']);
    }
  });
});

describe('production without SMTP: no secret is created that only the log could deliver', () => {
  let s: Server;
  let mail: Awaited<ReturnType<typeof startMailCatcher>>;
  before(async () => {
    mail = await startMailCatcher();
    s = await spawn({
      NODE_ENV: 'production',
      SECRET_KEY: 'a-production-secret-key-of-more-than-32-characters-0123456789',
    });
  });
  after(async () => {
    await s.stop();
    await mail.close();
  });

  it('refuses magic codes and reset tokens with 400 SMTP_NOT_CONFIGURED (as Plane); invitations are made but not mailed; SMTP set later works', async () => {
    const setup = ok(
      await s.call('POST', '/api/instances/admins/sign-up/', {
        body: { email: 'ops@example.com', password: 'an admin passphrase', first_name: 'Ops', company_name: 'Acme' },
      }),
      201,
    );
    const admin = setup.body.access_token as string;
    const email = `${unique('ada')}@example.com`;
    const owner = ok(await s.call('POST', '/auth/sign-up/', { body: { email, password: 'a long passphrase' } }), 201)
      .body.access_token as string;

    for (const [path, who] of [
      ['/auth/magic-generate/', email],
      ['/auth/magic-generate/', `${unique('new')}@example.com`],
      ['/auth/forgot-password/', email],
      ['/auth/forgot-password/', `${unique('nobody')}@example.com`],
    ]) {
      const res = await s.call('POST', path, { body: { email: who } });
      // Plane's status (MagicCodeProvider, ForgotPasswordEndpoint): a configuration state, not an outage
      assert.equal(res.status, 400, `${path} ${JSON.stringify(res.body)}`);
      assert.equal(res.body.error_code, 'SMTP_NOT_CONFIGURED');
      assert.match(res.body.detail, /SMTP/);
      assert.equal(res.headers.get('retry-after'), null);
    }

    // an invitation is still useful: the invitee accepts it signed in, without any link
    const slug = unique('ws-');
    ok(await s.call('POST', '/api/workspaces/', { bearer: owner, body: { name: 'Prod', slug } }), 201);
    const invitee = `${unique('inv')}@example.com`;
    const invited = ok(
      await s.call('POST', `/api/workspaces/${slug}/invitations/`, {
        bearer: owner,
        body: { emails: [{ email: invitee, role: 15 }] },
      }),
    );
    assert.match(invited.body.message, /no email was sent/);
    const inviteeToken = ok(
      await s.call('POST', '/auth/sign-up/', { body: { email: invitee, password: 'another passphrase' } }),
      201,
    ).body.access_token as string;
    const mine = ok(await s.call('GET', '/api/users/me/workspaces/invitations/', { bearer: inviteeToken }));
    assert.equal(mine.body.length, 1);
    ok(
      await s.call('POST', '/api/users/me/workspaces/invitations/', {
        bearer: inviteeToken,
        body: { invitations: [mine.body[0].id] },
      }),
      204,
    );
    const joined = ok(await s.call('GET', '/api/users/me/workspaces/', { bearer: inviteeToken }));
    assert.deepEqual(
      joined.body.map((w: { slug: string }) => w.slug),
      [slug],
    );

    let log = await s.log();
    assert.doesNotMatch(log, new RegExp(FALLBACK));
    assert.doesNotMatch(log, /workspace-invitations\/\?/);
    assert.doesNotMatch(log, /login code is|Reset token/);
    assert.match(log, /No SMTP server configured; invitation emails not sent/);

    // the admin configures SMTP: codes are mailed, not logged
    ok(
      await s.call('PATCH', '/api/instances/configurations/', {
        bearer: admin,
        body: {
          EMAIL_HOST: mail.env.EMAIL_HOST,
          EMAIL_PORT: mail.env.EMAIL_PORT,
          EMAIL_USE_TLS: '0',
          EMAIL_USE_SSL: '0',
        },
      }),
    );
    ok(await s.call('POST', '/auth/magic-generate/', { body: { email } }));
    const code = /^([a-z]{4}-[a-z]{4}-[a-z]{4})$/m.exec((await mail.lastTo(email)).text)![1];
    ok(await s.call('POST', '/auth/magic-sign-in/', { body: { email, code } }));
    log = await s.log();
    assert.ok(!log.includes(code), 'the magic code is not in the log');
  });
});

describe('a 500 (a real bug): its log line has the stack and the request id, and no query or parameter values', () => {
  // The bug is made on purpose: a trigger refuses new users whose email starts with "boom", so a
  // sign-up fails inside an INSERT whose parameters hold the email and the password's argon2 hash.
  const TRIGGER = `
    CREATE FUNCTION refuse_boom() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NEW.email LIKE 'boom%' THEN RAISE EXCEPTION 'refused by a test trigger'; END IF;
      RETURN NEW;
    END $$;
    CREATE TRIGGER refuse_boom BEFORE INSERT ON users FOR EACH ROW EXECUTE FUNCTION refuse_boom();`;
  let db: Awaited<ReturnType<typeof migratedDatabaseEnv>>;
  let server: Awaited<ReturnType<typeof startServer>>;
  let base = '';
  const env = async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    return {
      ...db.env,
      PORT: String(port),
      LOG_LEVEL: 'info',
      NODE_ENV: 'development',
      AUTH_RATE_LIMIT: '10000/minute',
    };
  };
  const stop = async () => {
    (server.child as ChildProcess).kill('SIGTERM');
    await waitExit(server.child);
  };

  before(async () => {
    // a migrated database, the trigger added before the server starts (the embedded database
    // belongs to the server process once it runs)
    db = await migratedDatabaseEnv();
    if (!templateFromEnv()) {
      // run without `npm test`'s template: the database is empty, so migrate it first
      const database = await startDatabase(loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', ...db.env }));
      await database.close();
    }
    if (ENGINE === 'postgres') {
      const c = new Client({ connectionString: db.env.DATABASE_URL });
      await c.connect();
      await c.query(TRIGGER);
      await c.end();
    } else {
      const { PGlite } = await import('@electric-sql/pglite');
      const pg = await PGlite.create({
        dataDir: path.join(db.env.DATA_DIR, 'pg'),
        extensions: await pgliteExtensions(),
      });
      await pg.exec(TRIGGER);
      await pg.close();
    }
    server = await startServer(await env());
  });
  after(async () => {
    await stop();
    await db.drop();
  });

  it('answers 500 INTERNAL_ERROR and logs type, message, stack, SQLSTATE and req_id; not the SQL, not the email or the password hash', async () => {
    const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
      fetch(`${base}${url}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...headers },
        body: JSON.stringify(body),
      });
    assert.equal(
      (
        await post('/api/instances/admins/sign-up/', {
          email: 'ops@example.com',
          password: 'an admin passphrase',
          first_name: 'Ops',
          company_name: 'Acme',
        })
      ).status,
      201,
    );
    const email = `${unique('boom')}@example.com`;
    const requestId = unique('req-');
    const res = await post('/auth/sign-up/', { email, password: 'a long passphrase' }, { 'X-Request-Id': requestId });
    assert.equal(res.status, 500);
    assert.deepEqual(await res.json(), {
      detail: 'Something went wrong, please try again later.',
      error_code: 'INTERNAL_ERROR',
    });

    const deadline = Date.now() + 10_000;
    while (!server.output().includes('Unhandled exception') && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    const text = server.output();
    const lines = jsonLines(text).filter((l) => l.msg === 'Unhandled exception');
    assert.equal(lines.length, 1, text);
    const line = lines[0] as { req_id?: string; method?: string; url?: string; error?: Record<string, unknown> };
    // nothing the statement carried: not its parameters (the email, the argon2 hash), not its SQL
    assert.ok(!text.includes(email), 'the email (a parameter) is not logged');
    assert.ok(!text.includes('$argon2'), 'the password hash (a parameter) is not logged');
    assert.ok(!/INSERT INTO/i.test(text), 'the SQL is not logged');
    assert.equal(line.req_id, requestId);
    assert.equal(line.method, 'POST');
    assert.equal(line.url, '/auth/sign-up/');
    assert.deepEqual(Object.keys(line.error ?? {}).sort(), ['code', 'message', 'stack', 'type']);
    assert.equal(line.error!.type, 'QueryFailedError');
    assert.equal(line.error!.code, 'P0001', 'the SQLSTATE of RAISE EXCEPTION');
    assert.match(String(line.error!.message), /refused by a test trigger/);
    assert.match(String(line.error!.stack), /QueryFailedError: refused by a test trigger\n\s+at /);
  });
});

describe('redactUrl and redactResponseHeaders (the one place the log masks URLs)', () => {
  it('masks secret query and fragment parameters by name, case and separator insensitively, and nothing else', async () => {
    const { redactUrl, redactResponseHeaders } = await import('#common');
    assert.equal(
      redactUrl('/api/v1/workspaces/acme/projects/?per_page=2&cursor=1:0:0'),
      '/api/v1/workspaces/acme/projects/?per_page=2&cursor=1:0:0',
    );
    assert.equal(redactUrl('/x/?Token=abc&email=a%40b.c&slug=s'), '/x/?Token=[redacted]&email=a%40b.c&slug=s');
    assert.equal(
      redactUrl(
        'https://bucket.s3.amazonaws.com/k?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIA%2F1&X-Amz-Security-Token=t&X-Amz-Signature=s',
      ),
      'https://bucket.s3.amazonaws.com/k?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=[redacted]&X-Amz-Security-Token=[redacted]&X-Amz-Signature=[redacted]',
    );
    assert.equal(redactUrl('/cb#access_token=a&state=b&x=1'), '/cb#access_token=[redacted]&state=[redacted]&x=1');
    assert.equal(
      redactUrl('/r?reset_token=a&apiKey=b&client-secret=c&db_password=d&code=e&key=f&signature=g'),
      '/r?reset_token=[redacted]&apiKey=[redacted]&client-secret=[redacted]&db_password=[redacted]&code=[redacted]&key=[redacted]&signature=[redacted]',
    );
    assert.equal(redactUrl('/plain/path/'), '/plain/path/');
    assert.deepEqual(
      redactResponseHeaders({
        location: '/d/?expires=1&signature=abc',
        'set-cookie': ['s=v; Path=/; HttpOnly', 'gone=; Max-Age=0'],
        'x-request-id': 'r',
      }),
      {
        location: '/d/?expires=1&signature=[redacted]',
        'set-cookie': ['s=[redacted]; Path=/; HttpOnly', 'gone=; Max-Age=0'],
        'x-request-id': 'r',
      },
    );
  });
});
