import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { adminToken, assertError, createWorkspace, signUp, unique } from '../support/fixtures';
import { BrowserJar } from '../support/browser-jar';
import { keyPair, SamlIdentity, SamlTamper, startTestSamlIdp, TestSamlIdp } from '../support/saml-idp';
import { postWebForm, sessionUser, WEB_ORIGIN as WEB, workspaceRole } from '../support/sso-fixtures';
import { startTestApp, TestApp } from '../support/test-app';

const SPACE = `${WEB}/spaces`;
const FORM = 'application/x-www-form-urlencoded';

/**
 * SAML 2.0 sign-in (docs/sso-saml.md) against a real identity provider (`samlify` in its IdP role,
 * test/support/saml-idp.ts) on loopback, driven as Plane's unmodified web app drives its sign-in
 * screen: `email-check`, the password form posted by the browser (cookie jar), Meridian's redirect to
 * the IdP with the AuthnRequest, the IdP's auto-posting form to the assertion consumer service, and
 * the same session cookie as any sign-in. The IdP parses Meridian's real AuthnRequest against
 * Meridian's served SP metadata and signs real Responses; the refusals bend one thing each.
 */
describe('auth: SAML 2.0 single sign-on against a samlify IdP on loopback', () => {
  let t: TestApp;
  let idp: TestSamlIdp;
  let admin: string;
  let connectionId: string;
  let ws: { id: string; slug: string };
  const corp = `${unique('saml')}.test`.toLowerCase();

  before(async () => {
    idp = await startTestSamlIdp();
    t = await startTestApp({ WEB_URL: WEB });
    admin = await adminToken(t);
    const owner = await signUp(t);
    ws = await createWorkspace(t, owner.token);
  });
  after(async () => {
    await t?.close();
    await idp?.close();
  });

  const connectionBody = (settings: Record<string, unknown> = {}, overrides: Record<string, unknown> = {}) => ({
    kind: 'saml',
    name: 'Corp SAML',
    domains: [corp],
    settings: { idp_entity_id: idp.entityId, sso_url: idp.ssoUrl, idp_certificates: [idp.certificate], ...settings },
    ...overrides,
  });

  const postForm = (browser: BrowserJar, path: string, fields: Record<string, string>) =>
    postWebForm(t, browser, path, fields);

  /** The browser posts the IdP's form to the ACS (the IdP's page submits it, cross-site). */
  function postToAcs(browser: BrowserJar, form: { action: string; fields: Record<string, string> }) {
    return browser.fetch(form.action, {
      method: 'POST',
      headers: { 'Content-Type': FORM, Origin: idp.url },
      body: new URLSearchParams(form.fields).toString(),
    });
  }

  /** Plane's sign-in form for `who`, the IdP, its form posted back: where the browser lands. */
  async function samlSignIn(
    who: SamlIdentity,
    options: { path?: string; nextPath?: string; tamper?: SamlTamper; browser?: BrowserJar } = {},
  ) {
    idp.next = who;
    idp.tamper = options.tamper;
    const browser = options.browser ?? new BrowserJar();
    const fields: Record<string, string> = { email: who.email!, password: 'anything' };
    if (options.nextPath) fields.next_path = options.nextPath;
    const posted = await postForm(browser, options.path ?? '/auth/sign-in/', fields);
    assert.equal(posted.status, 302);
    const authorize = new URL(posted.headers.get('location')!);
    assert.equal(`${authorize.origin}${authorize.pathname}`, idp.ssoUrl, 'to the IdP');
    const page = await browser.fetch(authorize.toString());
    const html = await page.text();
    assert.equal(page.status, 200, html);
    const form = idp.readForm(html);
    const acs = await postToAcs(browser, form);
    assert.equal(acs.status, 302, await acs.text());
    return { browser, landed: new URL(acs.headers.get('location')!), form, authorize };
  }

  const me = (browser: BrowserJar) => sessionUser(t, browser);

  const roleOf = (userId: string) => workspaceRole(t, ws.id, userId);

  /** A refusal: back on the sign-in page with Plane's 5065 and Meridian's code, no session, audited. */
  async function assertRefused(got: { browser: BrowserJar; landed: URL }, code: string) {
    assert.equal(`${got.landed.origin}${got.landed.pathname}`, `${WEB}/`);
    assert.equal(got.landed.searchParams.get('error_code'), '5065', got.landed.toString());
    assert.equal(got.landed.searchParams.get('sso_error'), code);
    assert.equal(got.browser.cookie(t.url, 'session-id'), undefined, 'no session cookie');
    assert.equal((await me(got.browser)).status, 401);
    const failures = await t.sql<{ metadata: Record<string, unknown> }>(
      `SELECT metadata FROM audit_logs WHERE event = 'auth.sign_in.failed' AND metadata->>'reason' = $1`,
      [code],
    );
    assert.ok(failures.length >= 1, `audited: ${code}`);
    assert.equal(failures[0].metadata.method, 'saml');
    assert.equal(failures[0].metadata.connection, connectionId);
  }

  it('the Instance API refuses wrong SAML settings when saved, with the fields named, and saves nothing', async () => {
    const none = await t.api.post('/api/instances/sso-connections/').send(connectionBody());
    assert.equal(none.status, 401, 'admin tokens only');
    const missing = await t.api
      .post('/api/instances/sso-connections/')
      .auth(admin, { type: 'bearer' })
      .send({ kind: 'saml', name: 'x', domains: [corp], settings: {} });
    const errors = assertError(missing, 422, 'VALIDATION_ERROR').errors as Record<string, string[]>;
    for (const field of ['settings.idp_entity_id', 'settings.sso_url', 'settings.idp_certificates'])
      assert.ok(errors[field], `${field} named: ${JSON.stringify(errors)}`);
    const bad = await t.api
      .post('/api/instances/sso-connections/')
      .auth(admin, { type: 'bearer' })
      .send(
        connectionBody({
          sso_url: 'ftp://idp.example.com/sso',
          idp_certificates: ['-----BEGIN CERTIFICATE-----\nnot base64 at all\n-----END CERTIFICATE-----'],
        }),
      );
    const badErrors = assertError(bad, 422, 'VALIDATION_ERROR').errors as Record<string, string[]>;
    assert.match(badErrors['settings.sso_url'].join(' '), /https URL/);
    assert.match(badErrors['settings.idp_certificates'].join(' '), /does not read/);
    const notPem = await t.api
      .post('/api/instances/sso-connections/')
      .auth(admin, { type: 'bearer' })
      .send(connectionBody({ idp_certificates: ['MIIB...'] }));
    assert.match(
      (assertError(notPem, 422, 'VALIDATION_ERROR').errors as Record<string, string[]>)['settings.idp_certificates'][0],
      /PEM/,
    );
    // an SP signing key that is not the certificate's
    const mismatch = await t.api
      .post('/api/instances/sso-connections/')
      .auth(admin, { type: 'bearer' })
      .send(connectionBody({ sp_certificate: idp.impostorCertificate, sp_private_key: 'not a key' }));
    assert.ok(
      (assertError(mismatch, 422, 'VALIDATION_ERROR').errors as Record<string, string[]>)['settings.sp_private_key'],
    );
    assert.equal((await t.sql('SELECT id FROM sso_connections')).length, 0);
  });

  it('creates a connection and serves its SP metadata (entity id, ACS URL, signed assertions wanted)', async () => {
    const created = await t.api
      .post('/api/instances/sso-connections/')
      .auth(admin, { type: 'bearer' })
      .send(
        connectionBody(
          {},
          {
            group_role_mappings: [
              { group: 'engineering-admins', workspace_slug: ws.slug, role: 20 },
              { group: 'engineering', workspace_slug: ws.slug, role: 15 },
            ],
          },
        ),
      );
    assert.equal(created.status, 201, JSON.stringify(created.body));
    connectionId = created.body.id;
    assert.equal(created.body.kind, 'saml');
    const acsUrl = `${t.url}/auth/saml/${connectionId}/acs/`;
    const metadataUrl = `${t.url}/auth/saml/${connectionId}/metadata/`;
    assert.equal(created.body.redirect_uri, acsUrl);
    assert.equal(created.body.settings.acs_url, acsUrl);
    assert.equal(created.body.settings.metadata_url, metadataUrl);
    assert.equal(created.body.settings.sp_entity_id, metadataUrl, 'the default SP entity id');
    assert.equal(created.body.settings.sp_private_key_set, false);
    assert.deepEqual(created.body.settings.idp_certificates, [idp.certificate.replace(/\r/g, '').trim()]);

    const metadata = await t.api.get(`/auth/saml/${connectionId}/metadata/`);
    assert.equal(metadata.status, 200);
    assert.match(metadata.headers['content-type'], /^application\/samlmetadata\+xml/);
    const xml = metadata.text;
    assert.match(xml, new RegExp(`entityID="${metadataUrl}"`));
    assert.match(xml, new RegExp(`Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST"\\s+Location="${acsUrl}"`));
    assert.match(xml, /WantAssertionsSigned="true"/);
    idp.sp = xml;
    const unknown = await t.api.get(`/auth/saml/00000000-0000-4000-8000-000000000001/metadata/`);
    assertError(unknown, 404, 'SSO_NOT_CONFIGURED');

    // a PATCH of the name keeps the settings
    const renamed = await t.api
      .patch(`/api/instances/sso-connections/${connectionId}/`)
      .auth(admin, { type: 'bearer' })
      .send({ name: 'Corp' });
    assert.equal(renamed.status, 200, JSON.stringify(renamed.body));
    assert.equal(renamed.body.settings.idp_entity_id, idp.entityId);
  });

  it("email-check sends the domain to Plane's password form, whose post redirects to the IdP with an AuthnRequest", async () => {
    const check = await t.api.post('/auth/email-check/').send({ email: `someone@${corp}` });
    assert.deepEqual(check.body, { existing: true, status: 'CREDENTIAL' });
    const posted = await postForm(new BrowserJar(), '/auth/sign-in/', { email: `someone@${corp}`, password: 'x' });
    assert.equal(posted.status, 302);
    const to = new URL(posted.headers.get('location')!);
    assert.equal(`${to.origin}${to.pathname}`, idp.ssoUrl);
    assert.ok(to.searchParams.get('SAMLRequest'));
    const [row] = await t.sql<{ connection_id: string }>('SELECT connection_id FROM saml_requests');
    assert.equal(row.connection_id, connectionId, 'the request is remembered for InResponseTo');
  });

  it('the first sign-in creates the user with the session cookie; the second finds them; a group change changes the role', async () => {
    const nameId = unique('nid');
    const email = `${unique('ada')}@${corp}`.toLowerCase();
    const first = await samlSignIn({
      nameId,
      email,
      firstName: 'Ada',
      lastName: 'Lovelace',
      groups: ['engineering-admins'],
    });
    assert.equal(first.landed.toString(), `${WEB}/onboarding`, 'a new user lands on onboarding');
    assert.ok(first.browser.cookie(t.url, 'session-id'), 'the session cookie of any sign-in');
    const who = await me(first.browser);
    assert.equal(who.status, 200, JSON.stringify(who.body));
    assert.equal(who.body.email, email);
    assert.equal(who.body.display_name, 'Ada Lovelace');
    const userId = who.body.id as string;
    assert.equal(await roleOf(userId), 20);
    assert.equal(
      idp.requests.at(-1)?.issuer,
      `${t.url}/auth/saml/${connectionId}/metadata/`,
      'the IdP read our request',
    );
    const [medium] = await t.sql<{ medium: string }>('SELECT medium FROM auth_sessions WHERE user_id = $1', [userId]);
    assert.equal(medium.medium, 'saml');
    const [signedIn] = await t.sql<{ metadata: Record<string, unknown> }>(
      `SELECT metadata FROM audit_logs WHERE event = 'auth.sign_in.succeeded' AND actor_id = $1`,
      [userId],
    );
    assert.equal(signedIn.metadata.method, 'saml');
    assert.equal(signedIn.metadata.connection, connectionId);

    const second = await samlSignIn({ nameId, email, groups: ['engineering'] });
    assert.equal((await me(second.browser)).body.id, userId, 'the same user');
    assert.equal(await roleOf(userId), 15, 'the new group gives the Member role');
    assert.equal((await t.sql('SELECT id FROM users WHERE email = $1', [email])).length, 1);
    assert.equal((await t.sql('SELECT id FROM saml_requests')).length, 1, 'answered requests are gone');
  });

  it('a replayed assertion is refused, with no session', async () => {
    const email = `${unique('rp')}@${corp}`.toLowerCase();
    const got = await samlSignIn({ nameId: unique('rp'), email });
    assert.ok(got.browser.cookie(t.url, 'session-id'));
    // the same Response posted again (another browser, as an attacker who captured it)
    const thief = new BrowserJar();
    const again = await postToAcs(thief, got.form);
    assert.equal(again.status, 302);
    await assertRefused({ browser: thief, landed: new URL(again.headers.get('location')!) }, 'SAML_ASSERTION_REPLAYED');
  });

  it('a bad signature, a wrong audience, an expired assertion, a wrong recipient and a wrong InResponseTo are refused', async () => {
    const cases: Array<[SamlTamper, string]> = [
      [{ impostor: true }, 'SAML_SIGNATURE_INVALID'],
      [{ audience: 'https://other-service.example.com/' }, 'SAML_AUDIENCE_MISMATCH'],
      [{ notOnOrAfter: new Date(Date.now() - 5 * 60_000) }, 'SAML_ASSERTION_EXPIRED'],
      [{ recipient: 'https://other-service.example.com/acs' }, 'SAML_RECIPIENT_MISMATCH'],
      [{ inResponseTo: `_${'a'.repeat(40)}` }, 'SAML_IN_RESPONSE_TO_MISMATCH'],
    ];
    for (const [tamper, code] of cases) {
      const email = `${unique('bad')}@${corp}`.toLowerCase();
      const got = await samlSignIn({ nameId: unique('bad'), email }, { tamper });
      await assertRefused(got, code);
      assert.equal((await t.sql('SELECT id FROM users WHERE email = $1', [email])).length, 0, `${code}: no user`);
    }
    // a tampered assertion (the email changed after signing): the digest no longer matches
    const email = `${unique('tamper')}@${corp}`.toLowerCase();
    idp.next = { nameId: unique('tamper'), email };
    const browser = new BrowserJar();
    const posted = await postForm(browser, '/auth/sign-in/', { email, password: 'x' });
    const form = idp.readForm(await (await browser.fetch(posted.headers.get('location')!)).text());
    const xml = Buffer.from(form.fields.SAMLResponse, 'base64').toString('utf8');
    const forged = xml.split(email).join(`boss@${corp}`);
    assert.notEqual(forged, xml);
    const res = await postToAcs(browser, {
      ...form,
      fields: { ...form.fields, SAMLResponse: Buffer.from(forged).toString('base64') },
    });
    await assertRefused({ browser, landed: new URL(res.headers.get('location')!) }, 'SAML_SIGNATURE_INVALID');
    // a Response posted without any sign-in started (unsolicited, IdP-initiated)
    const garbage = await postToAcs(new BrowserJar(), {
      action: form.action,
      fields: { SAMLResponse: 'bm90IHhtbA==' },
    });
    assert.equal(new URL(garbage.headers.get('location')!).searchParams.get('sso_error'), 'SAML_RESPONSE_INVALID');
  });

  it('password sign-in is refused for the SSO-only domain: the JSON route 403, the form goes to the IdP', async () => {
    const email = `${unique('pw')}@${corp}`.toLowerCase();
    await t.sql('DELETE FROM sso_connection_domains WHERE domain = $1', [corp]);
    const user = await signUp(t, email, 'correct horse 1');
    await t.sql('INSERT INTO sso_connection_domains (domain, connection_id) VALUES ($1, $2)', [corp, connectionId]);
    assertError(await t.api.post('/auth/sign-in/').send({ email, password: user.password }), 403, 'SSO_REQUIRED');
    assertError(await t.api.post('/auth/magic-generate/').send({ email }), 403, 'SSO_REQUIRED');
    const browser = new BrowserJar();
    const posted = await postForm(browser, '/auth/sign-in/', { email, password: user.password });
    assert.ok(posted.headers.get('location')!.startsWith(`${idp.ssoUrl}?`), 'to the IdP, not signed in');
    assert.equal(browser.cookie(t.url, 'session-id'), undefined);
  });

  it('the boards app (space) signs in through the IdP and lands on SPACE_BASE_URL + next_path', async () => {
    const email = `${unique('space')}@${corp}`.toLowerCase();
    const got = await samlSignIn(
      { nameId: unique('space'), email },
      { path: '/auth/spaces/sign-in/', nextPath: '/board' },
    );
    assert.equal(got.landed.toString(), `${SPACE}/board`);
    assert.equal((await me(got.browser)).body.email, email);
    // a refusal of a boards' sign-in goes back to the boards' app
    const bad = await samlSignIn(
      { nameId: unique('space'), email },
      { path: '/auth/spaces/sign-in/', nextPath: '/board', tamper: { impostor: true } },
    );
    assert.equal(`${bad.landed.origin}${bad.landed.pathname}`, `${SPACE}/`);
    assert.equal(bad.landed.searchParams.get('next_path'), '/board');
  });

  it('invitation only: an unknown user is refused (Plane 5015) and not created', async () => {
    const res = await t.api
      .patch(`/api/instances/sso-connections/${connectionId}/`)
      .auth(admin, { type: 'bearer' })
      .send({ jit_provisioning: false });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const email = `${unique('inv')}@${corp}`.toLowerCase();
    const refused = await samlSignIn({ nameId: unique('inv'), email });
    assert.equal(refused.landed.searchParams.get('error_code'), '5015');
    assert.equal(refused.landed.searchParams.get('sso_error'), 'SSO_INVITATION_REQUIRED');
    assert.equal((await t.sql('SELECT id FROM users WHERE email = $1', [email])).length, 0);
  });

  it('deletes the connection: its metadata and sign-in are gone', async () => {
    const del = await t.api.delete(`/api/instances/sso-connections/${connectionId}/`).auth(admin, { type: 'bearer' });
    assert.equal(del.status, 204);
    assertError(await t.api.get(`/auth/saml/${connectionId}/metadata/`), 404, 'SSO_NOT_CONFIGURED');
    const direct = await t.api.get(`/auth/saml/${connectionId}/`);
    assert.equal(new URL(direct.headers.location).searchParams.get('sso_error'), 'SSO_NOT_CONFIGURED');
  });
});

/**
 * SAML single logout (docs/sso-saml.md) against the same samlify IdP: Plane's sign-out of a SAML
 * session sends the browser to the IdP with a signed LogoutRequest (samlify checks its signature
 * against Meridian's metadata) and the IdP's signed LogoutResponse comes back to Meridian's single
 * logout service; the IdP's own signed LogoutRequests (both bindings) end the matching sessions and
 * are answered with a signed LogoutResponse that samlify checks; forged, unsigned, foreign and
 * replayed ones are refused and change nothing.
 */
describe('auth: SAML single logout against a samlify IdP on loopback', () => {
  let t: TestApp;
  let idp: TestSamlIdp;
  let admin: string;
  let withSlo: string;
  let withoutSlo: string;
  /** the SP metadata of each connection: the IdP answers sign-ins at the ACS it names */
  const metadata: Record<string, string> = {};
  const corp = `${unique('slo')}.test`.toLowerCase();
  const other = `${unique('noslo')}.test`.toLowerCase();
  const sp = keyPair('meridian-test-sp');

  before(async () => {
    idp = await startTestSamlIdp();
    t = await startTestApp({ WEB_URL: WEB });
    admin = await adminToken(t);
  });
  after(async () => {
    await t?.close();
    await idp?.close();
  });

  const settings = (extra: Record<string, unknown> = {}) => ({
    idp_entity_id: idp.entityId,
    sso_url: idp.ssoUrl,
    idp_certificates: [idp.certificate],
    ...extra,
  });

  const postForm = (browser: BrowserJar, path: string, fields: Record<string, string>) =>
    postWebForm(t, browser, path, fields);

  /** Signs `who` in through the IdP (the domain picks the connection): the browser and its session cookie. */
  async function samlSignIn(who: SamlIdentity) {
    idp.next = who;
    idp.sp = metadata[who.email!.endsWith(`@${other}`) ? withoutSlo : withSlo];
    const browser = new BrowserJar();
    const posted = await postForm(browser, '/auth/sign-in/', { email: who.email!, password: 'x' });
    assert.equal(posted.status, 302);
    const html = await (await browser.fetch(posted.headers.get('location')!)).text();
    const form = idp.readForm(html);
    const acs = await browser.fetch(form.action, {
      method: 'POST',
      headers: { 'Content-Type': FORM, Origin: idp.url },
      body: new URLSearchParams(form.fields).toString(),
    });
    assert.equal(acs.status, 302, await acs.text());
    const cookie = browser.cookie(t.url, 'session-id');
    idp.sp = metadata[withSlo];
    assert.ok(cookie, `signed in: ${acs.headers.get('location')}`);
    return { browser, cookie, sessionIndex: idp.signIns.at(-1)!.sessionIndex };
  }

  /** Whether a session cookie still works (sent by hand: the browser may have dropped it). */
  async function works(cookie: string): Promise<boolean> {
    const res = await fetch(`${t.url}/api/users/me/`, { headers: { Cookie: `session-id=${cookie}` } });
    return res.status === 200;
  }

  async function sloError(res: Response, code: string) {
    const body = (await res.json()) as { error_code: string; detail: string };
    assert.equal(body.error_code, code, JSON.stringify(body));
    assert.ok(body.detail);
    assert.ok(res.status === 400 || res.status === 404, `status ${res.status}`);
  }

  it('checks slo_url when saved: a URL, and only with an SP signing key', async () => {
    const bad = await t.api
      .post('/api/instances/sso-connections/')
      .auth(admin, { type: 'bearer' })
      .send({ kind: 'saml', name: 'x', domains: [corp], settings: settings({ slo_url: 'ftp://idp.example.com/slo' }) });
    const errors = assertError(bad, 422, 'VALIDATION_ERROR').errors as Record<string, string[]>;
    assert.match(errors['settings.slo_url'].join(' '), /https URL/);
    const keyless = await t.api
      .post('/api/instances/sso-connections/')
      .auth(admin, { type: 'bearer' })
      .send({ kind: 'saml', name: 'x', domains: [corp], settings: settings({ slo_url: idp.sloUrl }) });
    const keylessErrors = assertError(keyless, 422, 'VALIDATION_ERROR').errors as Record<string, string[]>;
    assert.match(keylessErrors['settings.slo_url'].join(' '), /sp_private_key/);
    assert.equal((await t.sql('SELECT id FROM sso_connections')).length, 0);
  });

  it('serves the single logout service in the metadata of a connection with slo_url, not of one without', async () => {
    const created = await t.api
      .post('/api/instances/sso-connections/')
      .auth(admin, { type: 'bearer' })
      .send({
        kind: 'saml',
        name: 'Corp SLO',
        domains: [corp],
        settings: settings({ slo_url: idp.sloUrl, sp_private_key: sp.key, sp_certificate: sp.cert }),
      });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    withSlo = created.body.id;
    const sloUrl = `${t.url}/auth/saml/${withSlo}/slo/`;
    assert.equal(created.body.settings.slo_url, idp.sloUrl);
    assert.equal(created.body.settings.sp_slo_url, sloUrl);
    const plain = await t.api
      .post('/api/instances/sso-connections/')
      .auth(admin, { type: 'bearer' })
      .send({ kind: 'saml', name: 'Other', domains: [other], settings: settings() });
    assert.equal(plain.status, 201, JSON.stringify(plain.body));
    withoutSlo = plain.body.id;
    assert.equal(plain.body.settings.slo_url, '');

    const xml = (await t.api.get(`/auth/saml/${withSlo}/metadata/`)).text;
    for (const binding of ['HTTP-Redirect', 'HTTP-POST'])
      assert.match(
        xml,
        new RegExp(
          `<SingleLogoutService Binding="urn:oasis:names:tc:SAML:2.0:bindings:${binding}" Location="${sloUrl}"/>`,
        ),
      );
    idp.sp = metadata[withSlo] = xml;
    metadata[withoutSlo] = (await t.api.get(`/auth/saml/${withoutSlo}/metadata/`)).text;
    assert.doesNotMatch(metadata[withoutSlo], /SingleLogoutService/);
    // the SLO service of a connection without single logout
    await sloError(
      await fetch(`${t.url}/auth/saml/${withoutSlo}/slo/?SAMLRequest=x`, { redirect: 'manual' }),
      'SAML_SLO_NOT_CONFIGURED',
    );
  });

  it("SP-initiated: Plane's sign-out ends the session and goes to the IdP with a signed LogoutRequest; its LogoutResponse lands on the sign-in page", async () => {
    const nameId = unique('sp-nid');
    const email = `${unique('ada')}@${corp}`.toLowerCase();
    const { browser, cookie, sessionIndex } = await samlSignIn({ nameId, email });
    const [kept] = await t.sql<{ name_id: string; session_index: string; connection_id: string }>(
      'SELECT s.name_id, s.session_index, s.connection_id FROM saml_sessions s JOIN auth_tokens k ON k.session_id = s.session_id',
    );
    assert.deepEqual(kept, { name_id: nameId, session_index: sessionIndex, connection_id: withSlo });

    const out = await postForm(browser, '/auth/sign-out/', {});
    assert.equal(out.status, 302);
    const toIdp = new URL(out.headers.get('location')!);
    assert.equal(`${toIdp.origin}${toIdp.pathname}`, idp.sloUrl, 'to the IdP');
    assert.ok(toIdp.searchParams.get('Signature') && toIdp.searchParams.get('SigAlg'), 'a signed query');
    assert.equal(await works(cookie), false, "Meridian's session ended at once");
    const [pending] = await t.sql<{ purpose: string }>('SELECT purpose FROM saml_requests');
    assert.equal(pending.purpose, 'logout');

    // the IdP checks the signature against the metadata (samlify refuses an unsigned or forged one)
    const atIdp = await browser.fetch(toIdp.toString());
    assert.equal(atIdp.status, 302, await atIdp.text());
    const received = idp.logoutRequests.at(-1)!;
    assert.equal(received.extract.nameID, nameId);
    assert.equal(received.extract.sessionIndex, sessionIndex);
    assert.equal(received.extract.issuer, `${t.url}/auth/saml/${withSlo}/metadata/`);
    assert.match(received.xml, new RegExp(`Destination="${idp.sloUrl}"`));

    const back = new URL(atIdp.headers.get('location')!);
    assert.equal(back.toString().split('?')[0], `${t.url}/auth/saml/${withSlo}/slo/`);
    const landed = await browser.fetch(back.toString());
    assert.equal(landed.status, 302, await landed.text());
    assert.equal(landed.headers.get('location'), `${WEB}/`, 'the sign-in page');
    assert.equal((await t.sql('SELECT id FROM saml_requests')).length, 0, 'the LogoutRequest is answered');
    // the same LogoutResponse again: its request is answered already
    await sloError(await browser.fetch(back.toString()), 'SAML_IN_RESPONSE_TO_MISMATCH');
    const [audit] = await t.sql<{ n: number }>(
      `SELECT count(*)::int AS n FROM audit_logs WHERE event = 'auth.sign_out' AND metadata->>'via' IS NULL`,
    );
    assert.equal(audit.n, 1, 'the sign-out is audited once');
  });

  it('SP-initiated: a LogoutResponse signed by another key is refused', async () => {
    const { browser } = await samlSignIn({ nameId: unique('sp-bad'), email: `${unique('b')}@${corp}`.toLowerCase() });
    const out = await postForm(browser, '/auth/sign-out/', {});
    idp.tamperLogoutResponse = true;
    const atIdp = await browser.fetch(out.headers.get('location')!);
    await sloError(await browser.fetch(atIdp.headers.get('location')!), 'SAML_SIGNATURE_INVALID');
  });

  it('without slo_url, sign-out ends the session only and lands as before', async () => {
    const { browser, cookie } = await samlSignIn({ nameId: unique('plain'), email: `${unique('p')}@${other}` });
    const before = idp.logoutRequests.length;
    const out = await postForm(browser, '/auth/sign-out/', {});
    assert.equal(out.headers.get('location'), `${WEB}/`);
    assert.equal(await works(cookie), false);
    assert.equal(idp.logoutRequests.length, before);
  });

  it("IdP-initiated (HTTP-Redirect): ends that user's sessions of this connection, answers a signed LogoutResponse; others untouched", async () => {
    const nameId = unique('idp-nid');
    const mine = await samlSignIn({ nameId, email: `${unique('m')}@${corp}`.toLowerCase() });
    const mineToo = await samlSignIn({ nameId, email: `${unique('m')}@${corp}`.toLowerCase() });
    const someoneElse = await samlSignIn({ nameId: unique('idp-nid'), email: `${unique('e')}@${corp}`.toLowerCase() });
    // the same NameID through the other connection
    const otherConnection = await samlSignIn({ nameId, email: `${unique('o')}@${other}` });

    const asked = idp.logoutRequest({ nameId }, { binding: 'redirect' });
    assert.ok(asked.url.startsWith(`${t.url}/auth/saml/${withSlo}/slo/?SAMLRequest=`), asked.url);
    const res = await fetch(asked.url, { redirect: 'manual' });
    assert.equal(res.status, 302, await res.text());
    assert.equal(await works(mine.cookie), false, 'the session cookie no longer works');
    assert.equal(await works(mineToo.cookie), false, 'every session of that NameID (no SessionIndex named)');
    assert.equal(await works(someoneElse.cookie), true, "another user's session is untouched");
    assert.equal(await works(otherConnection.cookie), true, "another connection's session is untouched");

    // the answer: a LogoutResponse the IdP checks (signature, issuer) and reads
    const answer = new URL(res.headers.get('location')!);
    assert.equal(`${answer.origin}${answer.pathname}`, idp.sloUrl);
    assert.equal(answer.searchParams.get('RelayState'), 'relay-1');
    const atIdp = await fetch(answer.toString());
    assert.equal(atIdp.status, 200, await atIdp.text());
    const response = idp.logoutResponses.at(-1)!;
    assert.equal((response.extract.response as Record<string, string>).inResponseTo, asked.id);
    assert.match(response.xml, /urn:oasis:names:tc:SAML:2.0:status:Success/);
    const audits = await t.sql<{ metadata: Record<string, unknown> }>(
      `SELECT metadata FROM audit_logs WHERE event = 'auth.sign_out' AND metadata->>'via' = 'saml_slo'`,
    );
    assert.equal(audits.length, 2);
    assert.equal(audits[0].metadata.connection, withSlo);

    // the same LogoutRequest again (replayed): refused
    await sloError(await fetch(asked.url, { redirect: 'manual' }), 'SAML_LOGOUT_REPLAYED');
  });

  it('IdP-initiated (HTTP-POST) with a SessionIndex ends only that session', async () => {
    const nameId = unique('post-nid');
    const email = `${unique('q')}@${corp}`.toLowerCase();
    const first = await samlSignIn({ nameId, email });
    const second = await samlSignIn({ nameId, email });
    const asked = idp.logoutRequest({ nameId, sessionIndex: first.sessionIndex }, { binding: 'post' });
    assert.equal(asked.form.action, `${t.url}/auth/saml/${withSlo}/slo/`);
    const res = await fetch(asked.form.action, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'Content-Type': FORM, Origin: idp.url },
      body: new URLSearchParams(asked.form.fields).toString(),
    });
    assert.equal(res.status, 302, await res.text());
    assert.equal(await works(first.cookie), false);
    assert.equal(await works(second.cookie), true, 'the session of another SessionIndex stays');
    assert.ok(res.headers.get('location')!.startsWith(`${idp.sloUrl}?SAMLResponse=`));
  });

  it('IdP-initiated: forged, unsigned, foreign and tampered LogoutRequests are refused and end nothing', async () => {
    const nameId = unique('forged');
    const victim = await samlSignIn({ nameId, email: `${unique('v')}@${corp}`.toLowerCase() });
    const post = (form: { action: string; fields: Record<string, string> }) =>
      fetch(form.action, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'Content-Type': FORM, Origin: idp.url },
        body: new URLSearchParams(form.fields).toString(),
      });
    const redirect = (url: string) => fetch(url, { redirect: 'manual' });
    await sloError(
      await redirect(idp.logoutRequest({ nameId }, { binding: 'redirect', impostor: true }).url),
      'SAML_SIGNATURE_INVALID',
    );
    await sloError(
      await redirect(idp.logoutRequest({ nameId }, { binding: 'redirect', unsigned: true }).url),
      'SAML_SIGNATURE_INVALID',
    );
    await sloError(
      await post(idp.logoutRequest({ nameId }, { binding: 'post', impostor: true }).form),
      'SAML_SIGNATURE_INVALID',
    );
    await sloError(
      await post(idp.logoutRequest({ nameId }, { binding: 'post', unsigned: true }).form),
      'SAML_SIGNATURE_INVALID',
    );
    for (const binding of ['redirect', 'post'] as const) {
      const foreign = idp.logoutRequest({ nameId }, { binding, issuer: 'https://unknown-idp.example.com/' });
      await sloError(
        binding === 'post' ? await post(foreign.form) : await redirect(foreign.url),
        'SAML_ISSUER_MISMATCH',
      );
    }
    // a signed request for someone else, its NameID changed after signing
    const signed = idp.logoutRequest({ nameId: unique('someone') }, { binding: 'post' });
    const xml = Buffer.from(signed.form.fields.SAMLRequest, 'base64').toString('utf8');
    const forged = xml.replace(/(<saml:NameID[^>]*>)[^<]*/, `$1${nameId}`);
    assert.notEqual(forged, xml);
    await sloError(
      await post({
        ...signed.form,
        fields: { ...signed.form.fields, SAMLRequest: Buffer.from(forged).toString('base64') },
      }),
      'SAML_SIGNATURE_INVALID',
    );
    await sloError(
      await post({ action: signed.form.action, fields: { SAMLRequest: 'bm90IHhtbA==' } }),
      'SAML_LOGOUT_INVALID',
    );
    assert.equal(await works(victim.cookie), true, 'nothing changed');
  });
});
