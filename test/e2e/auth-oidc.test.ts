import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { adminToken, assertError, createWorkspace, signUp, unique } from '../support/fixtures';
import { BrowserJar } from '../support/browser-jar';
import { OidcIdentity, startTestOidcProvider, TestOidcProvider } from '../support/oidc-provider';
import { postWebForm, sessionUser, WEB_ORIGIN as WEB, workspaceRole } from '../support/sso-fixtures';
import { startTestApp, TestApp } from '../support/test-app';

const SPACE = `${WEB}/spaces`;

/**
 * OpenID Connect sign-in (docs/sso-oidc.md) against a real provider (`oidc-provider`) on loopback,
 * driven as Plane's unmodified web app drives its sign-in screen: `email-check`, then the password
 * form posted by the browser (cookie jar, no JavaScript), redirected by Meridian to the provider and
 * back, ending with the same session cookie as any sign-in. Connections come from the Instance API
 * and from the `OIDC_*` environment variables.
 */
describe('auth: OIDC single sign-on against oidc-provider on loopback', () => {
  let t: TestApp;
  let idp: TestOidcProvider;
  let admin: string;
  let connectionId: string;
  let ws: { id: string; slug: string };
  const corp = `${unique('corp')}.test`.toLowerCase();

  before(async () => {
    idp = await startTestOidcProvider();
    t = await startTestApp({
      WEB_URL: WEB,
      OIDC_ISSUER: idp.url,
      OIDC_CLIENT_ID: 'env-client',
      OIDC_CLIENT_SECRET: 'env-secret',
      OIDC_DOMAINS: 'env.test',
      OIDC_NAME: 'Env IdP',
    });
    const callback = `${t.url}/auth/oidc/callback/`;
    for (const [id, secret] of [
      ['env-client', 'env-secret'],
      ['api-client', 'api-secret-value'],
    ]) {
      idp.clients.set(id, {
        client_id: id,
        client_secret: secret,
        redirect_uris: [callback],
        post_logout_redirect_uris: [`${WEB}/`, `${SPACE}/board`],
      });
    }
    admin = await adminToken(t);
    const owner = await signUp(t);
    ws = await createWorkspace(t, owner.token);
  });
  after(async () => {
    await t?.close();
    await idp?.close();
  });

  const connectionBody = (overrides: Record<string, unknown> = {}) => ({
    kind: 'oidc',
    name: 'Corp IdP',
    domains: [corp],
    settings: {
      issuer: idp.url,
      client_id: 'api-client',
      client_secret: 'api-secret-value',
      scopes: 'openid email profile groups',
    },
    ...overrides,
  });

  /** A browser on the web app: the CSRF token, then Plane's form posted to `path`. */
  const postForm = (browser: BrowserJar, path: string, fields: Record<string, string>) =>
    postWebForm(t, browser, path, fields);

  const inside = (url: string) => url.startsWith(t.url) || url.startsWith(idp.url);

  /** Plane's sign-in form for `who`, then every redirect: where the browser lands, the hops, the jar. */
  async function formSignIn(
    who: OidcIdentity,
    options: { path?: string; nextPath?: string; password?: string; browser?: BrowserJar } = {},
  ) {
    idp.next = who;
    const browser = options.browser ?? new BrowserJar();
    const fields: Record<string, string> = { email: who.email!, password: options.password ?? 'anything' };
    if (options.nextPath) fields.next_path = options.nextPath;
    const posted = await postForm(browser, options.path ?? '/auth/sign-in/', fields);
    assert.equal(posted.status, 302);
    const location = posted.headers.get('location')!;
    await posted.arrayBuffer();
    const { hops, landed } = await browser.navigate(location, inside);
    assert.ok(landed, JSON.stringify(hops));
    return { browser, landed: new URL(landed), hops, authorize: new URL(location) };
  }

  const me = (browser: BrowserJar) => sessionUser(t, browser);

  const roleOf = (userId: string) => workspaceRole(t, ws.id, userId);

  it('the Instance API refuses a wrong configuration when it is saved, with a clear error, and saves nothing', async () => {
    const none = await t.api.post('/api/instances/sso-connections/').send(connectionBody());
    assert.equal(none.status, 401, 'admin tokens only');
    const missing = await t.api
      .post('/api/instances/sso-connections/')
      .auth(admin, { type: 'bearer' })
      .send({ kind: 'oidc', name: 'x', domains: ['not a domain'], settings: { issuer: 'ftp://x' } });
    const body = assertError(missing, 422, 'VALIDATION_ERROR');
    const errors = body.errors as Record<string, string[]>;
    for (const field of ['domains', 'settings.issuer', 'settings.client_id', 'settings.client_secret'])
      assert.ok(errors[field], `${field} named: ${JSON.stringify(errors)}`);
    // nothing listens on the issuer: discovery fails at save time
    const dead = await t.api
      .post('/api/instances/sso-connections/')
      .auth(admin, { type: 'bearer' })
      .send(connectionBody({ settings: { ...connectionBody().settings, issuer: 'http://127.0.0.1:9/realms/x' } }));
    const refused = assertError(dead, 422, 'SSO_DISCOVERY_FAILED');
    assert.match(refused.detail, /http:\/\/127\.0\.0\.1:9\/realms\/x/);
    // a mapping naming a workspace that does not exist
    const badMap = await t.api
      .post('/api/instances/sso-connections/')
      .auth(admin, { type: 'bearer' })
      .send(connectionBody({ group_role_mappings: [{ group: 'g', workspace_slug: 'no-such-ws-x', role: 15 }] }));
    assertError(badMap, 422, 'VALIDATION_ERROR');
    // the environment's domain is taken
    const taken = await t.api
      .post('/api/instances/sso-connections/')
      .auth(admin, { type: 'bearer' })
      .send(connectionBody({ domains: ['env.test'] }));
    assertError(taken, 409, 'SSO_DOMAIN_TAKEN');
    assert.equal((await t.sql('SELECT id FROM sso_connections')).length, 0);
  });

  it('creates a connection: the secret is stored encrypted and never answered; the environment connection is listed read-only', async () => {
    const created = await t.api
      .post('/api/instances/sso-connections/')
      .auth(admin, { type: 'bearer' })
      .send(
        connectionBody({
          group_role_mappings: [
            { group: 'engineering-admins', workspace_slug: ws.slug, role: 20 },
            { group: 'engineering', workspace_slug: ws.slug, role: 15 },
          ],
        }),
      );
    assert.equal(created.status, 201, JSON.stringify(created.body));
    connectionId = created.body.id;
    assert.equal(created.body.settings.client_secret_set, true);
    assert.equal(created.body.redirect_uri, `${t.url}/auth/oidc/callback/`);
    assert.deepEqual(created.body.domains, [corp]);
    assert.ok(!JSON.stringify(created.body).includes('api-secret-value'), 'the secret is not answered');
    const [row] = await t.sql<{ secret: string }>('SELECT secret FROM sso_connections WHERE id = $1', [connectionId]);
    assert.ok(row.secret.startsWith('v1:') && !row.secret.includes('api-secret-value'), 'sealed');
    const list = await t.api.get('/api/instances/sso-connections/').auth(admin, { type: 'bearer' });
    assert.equal(list.status, 200);
    assert.ok(!JSON.stringify(list.body).includes('secret-value') && !JSON.stringify(list.body).includes('env-secret'));
    const env = (list.body as { source: string; id: string; domains: string[] }[]).find(
      (c) => c.source === 'environment',
    )!;
    assert.deepEqual(env.domains, ['env.test']);
    const patchEnv = await t.api
      .patch(`/api/instances/sso-connections/${env.id}/`)
      .auth(admin, { type: 'bearer' })
      .send({ name: 'x' });
    assertError(patchEnv, 409, 'SSO_CONNECTION_READ_ONLY');
    // a PATCH without the secret keeps it (discovery passes with the stored one)
    const renamed = await t.api
      .patch(`/api/instances/sso-connections/${connectionId}/`)
      .auth(admin, { type: 'bearer' })
      .send({ name: 'Corp' });
    assert.equal(renamed.status, 200, JSON.stringify(renamed.body));
    assert.equal(renamed.body.name, 'Corp');
  });

  it("email-check sends an SSO domain to Plane's password form, whose post redirects to the provider", async () => {
    const check = await t.api.post('/auth/email-check/').send({ email: `someone@${corp}` });
    assert.equal(check.status, 200, JSON.stringify(check.body));
    assert.deepEqual(check.body, { existing: true, status: 'CREDENTIAL' });
    const other = await t.api.post('/auth/email-check/').send({ email: `someone@elsewhere.test` });
    assert.equal(other.body.existing, false);
    const posted = await postForm(new BrowserJar(), '/auth/sign-in/', { email: `Someone@${corp}`, password: 'x' });
    assert.equal(posted.status, 302);
    const to = new URL(posted.headers.get('location')!);
    assert.equal(`${to.origin}${to.pathname}`, `${idp.url}/auth`);
    assert.equal(to.searchParams.get('client_id'), 'api-client');
    assert.equal(to.searchParams.get('redirect_uri'), `${t.url}/auth/oidc/callback/`);
    assert.equal(to.searchParams.get('response_type'), 'code');
    assert.equal(to.searchParams.get('code_challenge_method'), 'S256');
    assert.ok(to.searchParams.get('code_challenge'));
    assert.ok(to.searchParams.get('state')!.length >= 32);
    assert.ok(to.searchParams.get('nonce')!.length >= 32);
    assert.equal(to.searchParams.get('login_hint'), `someone@${corp}`);
  });

  it('the first sign-in creates the user with the session cookie; the second finds them; a group change changes the role', async () => {
    const sub = unique('sub');
    const email = `${unique('ada')}@${corp}`.toLowerCase();
    const first = await formSignIn({ sub, email, email_verified: true, name: 'Ada', groups: ['engineering-admins'] });
    assert.equal(new URL(first.hops[first.hops.length - 1].url).pathname, '/auth/oidc/callback/');
    assert.equal(first.landed.toString(), `${WEB}/onboarding`, 'a new user lands on onboarding, as in Plane');
    assert.ok(first.browser.cookie(t.url, 'session-id'), 'the session cookie of any sign-in');
    const who = await me(first.browser);
    assert.equal(who.status, 200, JSON.stringify(who.body));
    assert.equal(who.body.email, email);
    assert.equal(who.body.is_email_verified, true);
    const userId = who.body.id as string;
    assert.equal(await roleOf(userId), 20);
    const [medium] = await t.sql<{ medium: string }>('SELECT medium FROM auth_sessions WHERE user_id = $1', [userId]);
    assert.equal(medium.medium, 'oidc');
    const [signedIn] = await t.sql<{ metadata: Record<string, unknown> }>(
      `SELECT metadata FROM audit_logs WHERE event = 'auth.sign_in.succeeded' AND actor_id = $1`,
      [userId],
    );
    assert.equal(signedIn.metadata.method, 'oidc', 'the audit log names the method');
    assert.equal(signedIn.metadata.connection, connectionId, 'and the connection');

    const second = await formSignIn({ sub, email, name: 'Ada', groups: ['engineering'] });
    const again = await me(second.browser);
    assert.equal(again.body.id, userId, 'the same user');
    assert.equal(await roleOf(userId), 15, 'the new group gives the Member role');
    const users = await t.sql('SELECT id FROM users WHERE email = $1', [email]);
    assert.equal(users.length, 1);
  });

  it('a wrong state and a wrong nonce are refused with a clear error and no session', async () => {
    // state: the callback URL's state is not the one bound to this browser
    idp.next = { sub: unique('st'), email: `${unique('st')}@${corp}` };
    const browser = new BrowserJar();
    const posted = await postForm(browser, '/auth/sign-in/', { email: idp.next.email!, password: 'x' });
    const atIdp = await browser.navigate(posted.headers.get('location')!, (u) => u.startsWith(idp.url));
    const callback = new URL(atIdp.landed!);
    assert.equal(callback.pathname, '/auth/oidc/callback/');
    callback.searchParams.set('state', 'x'.repeat(32));
    const wrongState = await browser.fetch(callback.toString());
    assert.equal(wrongState.status, 302);
    const back = new URL(wrongState.headers.get('location')!);
    assert.equal(`${back.origin}${back.pathname}`, `${WEB}/`);
    assert.equal(back.searchParams.get('error_code'), '5065');
    assert.equal(back.searchParams.get('sso_error'), 'OIDC_STATE_MISMATCH');
    assert.equal(browser.cookie(t.url, 'session-id'), undefined);
    assert.equal((await me(browser)).status, 401);

    // nonce: the provider is asked with another nonce than the one bound to this browser
    idp.next = { sub: unique('nn'), email: `${unique('nn')}@${corp}` };
    const b2 = new BrowserJar();
    const p2 = await postForm(b2, '/auth/sign-in/', { email: idp.next.email!, password: 'x' });
    const authorize = new URL(p2.headers.get('location')!);
    authorize.searchParams.set('nonce', 'n'.repeat(43));
    const trip = await b2.navigate(authorize.toString(), inside);
    const nonceBack = new URL(trip.landed!);
    assert.equal(nonceBack.searchParams.get('error_code'), '5065');
    assert.equal(nonceBack.searchParams.get('sso_error'), 'OIDC_NONCE_MISMATCH');
    assert.equal(b2.cookie(t.url, 'session-id'), undefined);
    assert.equal((await me(b2)).status, 401);
    const created = await t.sql('SELECT id FROM users WHERE email = $1', [idp.next.email]);
    assert.equal(created.length, 0, 'no user was created');
    const failures = await t.sql<{ metadata: Record<string, unknown> }>(
      `SELECT metadata FROM audit_logs WHERE event = 'auth.sign_in.failed' AND metadata->>'method' = 'oidc'`,
    );
    const reasons = failures.map((f) => f.metadata.reason);
    assert.ok(reasons.includes('OIDC_STATE_MISMATCH'), JSON.stringify(failures));
    const nonce = failures.find((f) => f.metadata.reason === 'OIDC_NONCE_MISMATCH');
    assert.equal(nonce?.metadata.connection, connectionId, 'a refused sign-in is in the audit log with its connection');
  });

  it('password sign-in is refused for an SSO-only domain: the JSON route 403, the form goes to the provider, no magic code', async () => {
    // an account made with a password before the domain was given to the connection
    const email = `${unique('pw')}@${corp}`.toLowerCase();
    await t.sql('DELETE FROM sso_connection_domains WHERE domain = $1', [corp]);
    const user = await signUp(t, email, 'correct horse 1');
    await t.sql('INSERT INTO sso_connection_domains (domain, connection_id) VALUES ($1, $2)', [corp, connectionId]);
    const json = await t.api.post('/auth/sign-in/').send({ email, password: user.password });
    assertError(json, 403, 'SSO_REQUIRED');
    const magic = await t.api.post('/auth/magic-generate/').send({ email });
    assertError(magic, 403, 'SSO_REQUIRED');
    const browser = new BrowserJar();
    const posted = await postForm(browser, '/auth/sign-in/', { email, password: user.password });
    assert.equal(posted.status, 302);
    assert.ok(posted.headers.get('location')!.startsWith(`${idp.url}/auth?`), 'to the provider, not signed in');
    assert.equal(browser.cookie(t.url, 'session-id'), undefined);
    // with password sign-in allowed for the connection, the right password signs in as before
    const allow = await t.api
      .patch(`/api/instances/sso-connections/${connectionId}/`)
      .auth(admin, { type: 'bearer' })
      .send({ allow_password: true });
    assert.equal(allow.status, 200, JSON.stringify(allow.body));
    const ok = await t.api.post('/auth/sign-in/').send({ email, password: user.password });
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    const b2 = new BrowserJar();
    const form = await postForm(b2, '/auth/sign-in/', { email, password: user.password });
    assert.ok(form.headers.get('location')!.startsWith(WEB), 'signed in with the password');
    assert.ok(b2.cookie(t.url, 'session-id'));
    const wrong = await postForm(new BrowserJar(), '/auth/sign-in/', { email, password: 'wrong password 1' });
    assert.ok(wrong.headers.get('location')!.startsWith(`${idp.url}/auth?`), 'a wrong password: the provider');
    await t.api
      .patch(`/api/instances/sso-connections/${connectionId}/`)
      .auth(admin, { type: 'bearer' })
      .send({ allow_password: false });
  });

  it('invitation only: an unknown user is refused (Plane 5015) and not created; an invited one gets in', async () => {
    const res = await t.api
      .patch(`/api/instances/sso-connections/${connectionId}/`)
      .auth(admin, { type: 'bearer' })
      .send({ jit_provisioning: false });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const email = `${unique('inv')}@${corp}`.toLowerCase();
    const refused = await formSignIn({ sub: unique('inv'), email });
    assert.equal(refused.landed.searchParams.get('error_code'), '5015');
    assert.equal(refused.landed.searchParams.get('sso_error'), 'SSO_INVITATION_REQUIRED');
    assert.equal(refused.browser.cookie(t.url, 'session-id'), undefined);
    assert.equal((await t.sql('SELECT id FROM users WHERE email = $1', [email])).length, 0);
    await t.sql(
      `INSERT INTO workspace_member_invites (workspace_id, email, role, token_digest) VALUES ($1, $2, 15, $3)`,
      [ws.id, email, 'd'.repeat(64)],
    );
    const invited = await formSignIn({ sub: unique('inv2'), email });
    assert.equal((await me(invited.browser)).body.email, email);
    await t.api
      .patch(`/api/instances/sso-connections/${connectionId}/`)
      .auth(admin, { type: 'bearer' })
      .send({ jit_provisioning: true });
  });

  it("an email outside the connection's domains is refused (Plane 5005)", async () => {
    // the provider answers for another domain than the one typed
    idp.next = { sub: unique('dom'), email: `${unique('dom')}@elsewhere.test` };
    const browser = new BrowserJar();
    const posted = await postForm(browser, '/auth/sign-in/', { email: `x@${corp}`, password: 'x' });
    const trip = await browser.navigate(posted.headers.get('location')!, inside);
    const back = new URL(trip.landed!);
    assert.equal(back.searchParams.get('error_code'), '5005');
    assert.equal(back.searchParams.get('sso_error'), 'INVALID_EMAIL');
    assert.equal(browser.cookie(t.url, 'session-id'), undefined);
  });

  it('the boards app (space) signs in through the provider and lands on SPACE_BASE_URL + next_path', async () => {
    const email = `${unique('space')}@${corp}`.toLowerCase();
    const got = await formSignIn(
      { sub: unique('space'), email },
      { path: '/auth/spaces/sign-in/', nextPath: '/board' },
    );
    assert.equal(got.landed.toString(), `${SPACE}/board`);
    assert.equal((await me(got.browser)).body.email, email);
  });

  it("the environment's connection signs in; sign-out ends the session and the provider's", async () => {
    const email = `${unique('env')}@env.test`.toLowerCase();
    const got = await formSignIn({ sub: unique('env'), email });
    assert.equal(got.authorize.searchParams.get('client_id'), 'env-client');
    assert.equal((await me(got.browser)).status, 200);
    const out = await postForm(got.browser, '/auth/sign-out/', {});
    assert.equal(out.status, 302);
    const logout = new URL(out.headers.get('location')!);
    assert.equal(`${logout.origin}${logout.pathname}`, `${idp.url}/session/end`);
    assert.equal(logout.searchParams.get('post_logout_redirect_uri'), `${WEB}/`);
    assert.ok(logout.searchParams.get('id_token_hint'));
    assert.equal((await me(got.browser)).status, 401, 'the session is over');
    // the provider accepts the request (its sign-out confirmation page)
    const page = await got.browser.fetch(logout.toString());
    assert.equal(page.status, 200, await page.text());
    // a password session's sign-out does not go to any provider
    const plain = new BrowserJar();
    const u = await signUp(t);
    const signedIn = await postForm(plain, '/auth/sign-in/', { email: u.email, password: u.password });
    assert.equal(signedIn.status, 302);
    const plainOut = await postForm(plain, '/auth/sign-out/', {});
    assert.equal(plainOut.headers.get('location'), `${WEB}/`);
  });

  it('a secret that no longer reads (SECRET_KEY changed) keeps the domain SSO-only and fails its sign-ins clearly', async () => {
    const [saved] = await t.sql<{ secret: string }>('SELECT secret FROM sso_connections WHERE id = $1', [connectionId]);
    await t.sql(`UPDATE sso_connections SET secret = 'v1:AAAAAAAAAAAAAAAA:AAAAAAAAAAAAAAAAAAAAAA:AAAA' WHERE id = $1`, [
      connectionId,
    ]);
    const email = `${unique('key')}@${corp}`;
    assert.deepEqual((await t.api.post('/auth/email-check/').send({ email })).body, {
      existing: true,
      status: 'CREDENTIAL',
    });
    assertError(await t.api.post('/auth/sign-in/').send({ email, password: 'correct horse 1' }), 403, 'SSO_REQUIRED');
    const posted = await postForm(new BrowserJar(), '/auth/sign-in/', { email, password: 'x' });
    const back = new URL(posted.headers.get('location')!);
    assert.equal(`${back.origin}${back.pathname}`, `${WEB}/sign-in`);
    assert.equal(back.searchParams.get('error_code'), '5065');
    const direct = await t.api.get(`/auth/oidc/${connectionId}/`);
    assert.equal(new URL(direct.headers.location).searchParams.get('sso_error'), 'SSO_NOT_CONFIGURED');
    await t.sql('UPDATE sso_connections SET secret = $2 WHERE id = $1', [connectionId, saved.secret]);
  });

  it('deletes a connection: its domains sign in as any other again', async () => {
    const del = await t.api.delete(`/api/instances/sso-connections/${connectionId}/`).auth(admin, { type: 'bearer' });
    assert.equal(del.status, 204);
    const check = await t.api.post('/auth/email-check/').send({ email: `nobody@${corp}` });
    assert.equal(check.body.existing, false);
    const again = await t.api.delete(`/api/instances/sso-connections/${connectionId}/`).auth(admin, { type: 'bearer' });
    assertError(again, 404, 'NOT_FOUND');
  });
});
