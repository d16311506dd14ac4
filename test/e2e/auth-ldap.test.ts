import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import { adminToken, assertError, createWorkspace, signUp, unique } from '../support/fixtures';
import { BrowserJar } from '../support/browser-jar';
import { startTestLdapDirectory, TestLdapDirectory } from '../support/ldap-directory';
import { postWebForm, sessionUser, WEB_ORIGIN as WEB, workspaceRole } from '../support/sso-fixtures';
import { startTestApp, TestApp } from '../support/test-app';

const SPACE = `${WEB}/spaces`;

/**
 * LDAP sign-in (docs/sso-ldap.md) against a real directory: Debian's OpenLDAP `slapd`, started by
 * the test on loopback ports with its own CA (test/support/ldap-directory.ts), reached over LDAPS
 * and over StartTLS. Driven as Plane's unmodified web app drives its sign-in screen: `email-check`,
 * then the password form (browser cookie jar), and through the JSON sign-in.
 */
describe('auth: LDAP sign-in behind the password form against slapd', () => {
  let t: TestApp;
  let dir: TestLdapDirectory;
  let admin: string;
  let ws: { id: string; slug: string };
  let ldapsId: string;
  const corp = `${unique('ldap')}.test`.toLowerCase();
  const branch = `${unique('branch')}.test`.toLowerCase();
  const ann = { email: `ann@${corp}`, password: 'ann-pass-1' };
  const bob = { email: `bob@${corp}`, password: 'bob-pass-1' };
  let annDn: string;
  let dave: { email: string; password: string };

  before(async () => {
    dir = await startTestLdapDirectory();
    t = await startTestApp({ WEB_URL: WEB, AUTH_RATE_LIMIT: '10000/minute', FAILED_AUTH_RATE_LIMIT: '10000/minute' });
    admin = await adminToken(t);
    const owner = await signUp(t);
    ws = await createWorkspace(t, owner.token);
    annDn = await dir.addUser({
      uid: 'ann',
      mail: ann.email,
      password: ann.password,
      givenName: 'Ann',
      sn: 'Lee',
      cn: 'Ann Lee',
    });
    const bobDn = await dir.addUser({
      uid: 'bob',
      mail: bob.email,
      password: bob.password,
      givenName: 'Bob',
      sn: 'Ray',
    });
    await dir.addGroup('meridian-admins', [annDn, dir.serviceDn]);
    await dir.addGroup('meridian-devs', [bobDn, dir.serviceDn]);
    // the StartTLS connection's directory users: carl has no account, dave has one made before
    await dir.addUser({ uid: 'carl', mail: `carl@${branch}`, password: 'carl-pass-1' });
    dave = await signUp(t, `dave@${branch}`, 'local-pass-1');
    await dir.addUser({ uid: 'dave', mail: dave.email, password: 'dave-ldap-1' });
  });
  after(async () => {
    await t?.close();
    await dir?.close();
  });

  const ldapsBody = (settings: Record<string, unknown> = {}, overrides: Record<string, unknown> = {}) => ({
    kind: 'ldap',
    name: 'Corp directory',
    domains: [corp],
    settings: {
      url: dir.ldapsUrl,
      ca_certificate: dir.caPem,
      bind_dn: dir.serviceDn,
      bind_password: dir.servicePassword,
      base_dn: `ou=people,${dir.baseDn}`,
      connect_timeout_ms: 2000,
      timeout_ms: 3000,
      ...settings,
    },
    ...overrides,
  });

  const create = (body: unknown) =>
    t.api
      .post('/api/instances/sso-connections/')
      .auth(admin, { type: 'bearer' })
      .send(body as object);

  async function postForm(browser: BrowserJar, path: string, fields: Record<string, string>) {
    const res = await postWebForm(t, browser, path, fields);
    await res.arrayBuffer();
    assert.equal(res.status, 302);
    return { browser, location: new URL(res.headers.get('location')!) };
  }

  const me = (browser: BrowserJar) => sessionUser(t, browser);

  const roleOf = (userId: string) => workspaceRole(t, ws.id, userId);

  it('refuses wrong settings when they are saved, with a clear error, and saves nothing', async () => {
    const invalid = await create({
      kind: 'ldap',
      name: 'x',
      domains: [corp],
      settings: { url: 'http://127.0.0.1/', ca_certificate: 'not a certificate', user_filter: 'mail={email}' },
    });
    const errors = assertError(invalid, 422, 'VALIDATION_ERROR').errors as Record<string, string[]>;
    for (const field of [
      'settings.url',
      'settings.base_dn',
      'settings.bind_dn',
      'settings.bind_password',
      'settings.ca_certificate',
      'settings.user_filter',
    ])
      assert.ok(errors[field], `${field} named: ${JSON.stringify(errors)}`);
    const plain = await create(ldapsBody({ url: dir.ldapUrl, ca_certificate: '' }));
    assert.ok((assertError(plain, 422, 'VALIDATION_ERROR').errors as Record<string, string[]>)['settings.start_tls']);

    const wrongBind = await create(ldapsBody({ bind_password: 'not-the-password' }));
    assert.match(assertError(wrongBind, 422, 'LDAP_CHECK_FAILED').detail, /refused the service account's bind/);
    const noBase = await create(ldapsBody({ base_dn: `ou=nowhere,${dir.baseDn}` }));
    assert.match(assertError(noBase, 422, 'LDAP_CHECK_FAILED').detail, /ou=nowhere.*does not exist/);
    // the directory's certificate is signed by a private CA: without it, TLS refuses the directory
    const noCa = await create(ldapsBody({ ca_certificate: '' }));
    assert.match(assertError(noCa, 422, 'LDAP_CHECK_FAILED').detail, /could not be reached over LDAPS/);
    const dead = await create(ldapsBody({ url: 'ldaps://127.0.0.1:9' }));
    assert.match(assertError(dead, 422, 'LDAP_CHECK_FAILED').detail, /127\.0\.0\.1:9/);
    assert.equal((await t.sql('SELECT id FROM sso_connections')).length, 0);
  });

  it('creates an LDAPS connection: the service password is stored sealed and never answered', async () => {
    const created = await create(
      ldapsBody(
        {},
        {
          group_role_mappings: [
            { group: 'meridian-admins', workspace_slug: ws.slug, role: 20 },
            { group: `cn=meridian-devs,ou=groups,${dir.baseDn}`, workspace_slug: ws.slug, role: 15 },
          ],
        },
      ),
    );
    assert.equal(created.status, 201, JSON.stringify(created.body));
    ldapsId = created.body.id;
    assert.equal(created.body.kind, 'ldap');
    assert.equal(created.body.settings.bind_password_set, true);
    assert.equal(created.body.settings.user_filter, '(mail={email})');
    assert.equal(created.body.settings.groups_attribute, 'memberOf');
    assert.ok(!JSON.stringify(created.body).includes(dir.servicePassword));
    const [row] = await t.sql<{ secret: string }>('SELECT secret FROM sso_connections WHERE id = $1', [ldapsId]);
    assert.ok(row.secret.startsWith('v1:') && !row.secret.includes(dir.servicePassword), 'sealed');
    // a PATCH without the password keeps it (the service bind passes with the stored one)
    const renamed = await t.api
      .patch(`/api/instances/sso-connections/${ldapsId}/`)
      .auth(admin, { type: 'bearer' })
      .send({ name: 'Corp LDAP', settings: { timeout_ms: 4000 } });
    assert.equal(renamed.status, 200, JSON.stringify(renamed.body));
    assert.equal(renamed.body.settings.timeout_ms, 4000);
    assert.equal(renamed.body.settings.base_dn, `ou=people,${dir.baseDn}`);
  });

  it("the first sign-in through Plane's password form creates the user, the second finds them; a group change changes the role", async () => {
    const check = await t.api.post('/auth/email-check/').send({ email: ann.email });
    assert.deepEqual(check.body, { existing: true, status: 'CREDENTIAL' }, "Plane's app shows its password field");
    const first = await postForm(new BrowserJar(), '/auth/sign-in/', { email: 'Ann@' + corp, password: ann.password });
    assert.equal(first.location.toString(), `${WEB}/onboarding`, 'a new user lands on onboarding, as in Plane');
    assert.ok(first.browser.cookie(t.url, 'session-id'), 'the session cookie of any sign-in');
    const who = await me(first.browser);
    assert.equal(who.status, 200, JSON.stringify(who.body));
    assert.equal(who.body.email, ann.email);
    assert.equal(who.body.first_name, 'Ann');
    assert.equal(who.body.last_name, 'Lee');
    assert.equal(who.body.display_name, 'Ann Lee');
    const userId = who.body.id as string;
    assert.equal(await roleOf(userId), 20, 'meridian-admins (by name) gives Admin');
    const [session] = await t.sql<{ medium: string }>('SELECT medium FROM auth_sessions WHERE user_id = $1', [userId]);
    assert.equal(session.medium, 'ldap');
    const [audit] = await t.sql<{ metadata: Record<string, unknown> }>(
      `SELECT metadata FROM audit_logs WHERE event = 'auth.sign_in.succeeded' AND actor_id = $1`,
      [userId],
    );
    assert.equal(audit.metadata.method, 'ldap');
    assert.equal(audit.metadata.connection, ldapsId);

    await dir.changeMember('meridian-admins', annDn, 'delete');
    await dir.changeMember('meridian-devs', annDn, 'add');
    const second = await t.api.post('/auth/sign-in/').send(ann);
    assert.equal(second.status, 200, JSON.stringify(second.body));
    assert.equal(second.body.user.id, userId, 'the same user');
    assert.equal(await roleOf(userId), 15, 'meridian-devs (by DN) gives Member');
    assert.equal((await t.sql('SELECT id FROM users WHERE email = $1', [ann.email])).length, 1);

    // the published boards' form signs in the same way
    const space = await postForm(new BrowserJar(), '/auth/spaces/sign-in/', { ...bob, next_path: '/board' });
    assert.equal(space.location.toString(), `${SPACE}/board`);
    assert.equal((await me(space.browser)).body.email, bob.email);
  });

  it('a wrong password is refused as any wrong password, with no session, and audited with method ldap', async () => {
    const form = await postForm(new BrowserJar(), '/auth/sign-in/', { email: ann.email, password: 'wrong' });
    assert.equal(form.location.searchParams.get('error_code'), '5065');
    assert.equal(form.location.searchParams.get('error_message'), 'AUTHENTICATION_FAILED_SIGN_IN');
    assert.equal(form.browser.cookie(t.url, 'session-id'), undefined);
    assert.equal((await me(form.browser)).status, 401);
    assertError(
      await t.api.post('/auth/sign-in/').send({ email: ann.email, password: 'wrong' }),
      401,
      'AUTHENTICATION_FAILED_SIGN_IN',
    );
    // an email the directory does not know: the same answer
    assertError(
      await t.api.post('/auth/sign-in/').send({ email: `nobody@${corp}`, password: 'x' }),
      401,
      'AUTHENTICATION_FAILED_SIGN_IN',
    );
    // a filter value is escaped: a wildcard matches no entry
    assertError(
      await t.api.post('/auth/sign-in/').send({ email: `*@${corp}`, password: ann.password }),
      401,
      'AUTHENTICATION_FAILED_SIGN_IN',
    );
    const failures = await t.sql<{ metadata: Record<string, unknown>; actor_email: string }>(
      `SELECT metadata, actor_email FROM audit_logs WHERE event = 'auth.sign_in.failed' AND metadata->>'method' = 'ldap'`,
    );
    const annFailures = failures.filter((f) => f.actor_email === ann.email);
    assert.ok(annFailures.length >= 2, JSON.stringify(failures));
    assert.equal(annFailures[0].metadata.reason, 'AUTHENTICATION_FAILED_SIGN_IN');
    assert.equal(annFailures[0].metadata.connection, ldapsId);
  });

  it('StartTLS works too; an invitation-only connection refuses an unknown user and finds a known one', async () => {
    const created = await create({
      kind: 'ldap',
      name: 'Branch directory',
      domains: [branch],
      jit_provisioning: false,
      settings: {
        url: dir.ldapUrl,
        start_tls: true,
        ca_certificate: dir.caPem,
        bind_dn: dir.serviceDn,
        bind_password: dir.servicePassword,
        base_dn: dir.baseDn,
      },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const carl = await t.api.post('/auth/sign-in/').send({ email: `carl@${branch}`, password: 'carl-pass-1' });
    assertError(carl, 403, 'SSO_INVITATION_REQUIRED');
    const carlForm = await postForm(new BrowserJar(), '/auth/sign-in/', {
      email: `carl@${branch}`,
      password: 'carl-pass-1',
    });
    assert.equal(carlForm.location.searchParams.get('error_code'), '5015');
    assert.equal(carlForm.location.searchParams.get('sso_error'), 'SSO_INVITATION_REQUIRED');
    assert.equal((await t.sql('SELECT id FROM users WHERE email = $1', [`carl@${branch}`])).length, 0);
    // dave's account exists: the directory's password signs in, the old local one no longer
    const daveSignIn = await t.api.post('/auth/sign-in/').send({ email: dave.email, password: 'dave-ldap-1' });
    assert.equal(daveSignIn.status, 200, JSON.stringify(daveSignIn.body));
    assert.equal(daveSignIn.body.user.email, dave.email);
    assertError(
      await t.api.post('/auth/sign-in/').send({ email: dave.email, password: dave.password }),
      401,
      'AUTHENTICATION_FAILED_SIGN_IN',
    );
  });

  it('groups found by searching the group entries (group_search_base, no memberOf) map to roles', async () => {
    const searched = `${unique('search')}.test`.toLowerCase();
    const gina = { email: `gina@${searched}`, password: 'gina-pass-1' };
    const hal = { email: `hal@${searched}`, password: 'hal-pass-1' };
    const ginaDn = await dir.addUser({ uid: 'gina', mail: gina.email, password: gina.password });
    const halDn = await dir.addUser({ uid: 'hal', mail: hal.email, password: hal.password });
    await dir.addGroup('search-leads', [ginaDn]);
    await dir.addGroup('search-crew', [halDn]);
    const created = await create(
      ldapsBody(
        {
          // the user's memberOf is not read: only the search of ou=groups finds the groups
          groups_attribute: '',
          group_search_base: `ou=groups,${dir.baseDn}`,
          group_filter: '(&(objectClass=groupOfNames)(member={dn}))',
          group_name_attribute: 'cn',
        },
        {
          name: 'Searched groups',
          domains: [searched],
          group_role_mappings: [
            { group: 'search-leads', workspace_slug: ws.slug, role: 20 },
            { group: `cn=search-crew,ou=groups,${dir.baseDn}`, workspace_slug: ws.slug, role: 5 },
          ],
        },
      ),
    );
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.equal(created.body.settings.groups_attribute, '');
    assert.equal(created.body.settings.group_search_base, `ou=groups,${dir.baseDn}`);
    const ginaIn = await t.api.post('/auth/sign-in/').send(gina);
    assert.equal(ginaIn.status, 200, JSON.stringify(ginaIn.body));
    assert.equal(await roleOf(ginaIn.body.user.id), 20, 'search-leads (by its cn) gives Admin');
    const halIn = await postForm(new BrowserJar(), '/auth/sign-in/', hal);
    const halMe = await me(halIn.browser);
    assert.equal(halMe.status, 200, JSON.stringify(halMe.body));
    assert.equal(await roleOf(halMe.body.id as string), 5, 'search-crew (by its DN) gives Guest');
    // hal joins search-leads in the directory: the next sign-in finds it by the search
    await dir.changeMember('search-leads', halDn, 'add');
    const again = await t.api.post('/auth/sign-in/').send(hal);
    assert.equal(again.status, 200, JSON.stringify(again.body));
    assert.equal(await roleOf(halMe.body.id as string), 20);
    const [changed] = await t.sql<{ metadata: Record<string, unknown> }>(
      `SELECT metadata FROM audit_logs WHERE event = 'member.role_changed' AND metadata->>'member_id' = $1
       ORDER BY created_at DESC LIMIT 1`,
      [halMe.body.id],
    );
    assert.deepEqual(
      [changed.metadata.old_role, changed.metadata.new_role, changed.metadata.via],
      [5, 20, 'sso_groups'],
    );
    // a group search base the directory lacks is refused when saved
    const missing = await t.api
      .patch(`/api/instances/sso-connections/${created.body.id}/`)
      .auth(admin, { type: 'bearer' })
      .send({ settings: { group_search_base: `ou=nowhere,${dir.baseDn}` } });
    assert.match(assertError(missing, 422, 'LDAP_CHECK_FAILED').detail, /group search base "ou=nowhere/);
  });

  it('the directory down: a clear 503-class answer, and no lockout of the other methods', async () => {
    const other = await signUp(t, `${unique('pw')}@example.com`, 'correct horse 1');
    await dir.stop();
    try {
      const json = await t.api.post('/auth/sign-in/').send(ann);
      assertError(json, 503, 'LDAP_UNAVAILABLE');
      assert.ok(Number(json.headers['retry-after']) > 0, 'Retry-After');
      const form = await postForm(new BrowserJar(), '/auth/sign-in/', ann);
      assert.equal(`${form.location.origin}${form.location.pathname}`, `${WEB}/sign-in`);
      assert.equal(form.location.searchParams.get('error_code'), '5065');
      assert.equal(form.location.searchParams.get('sso_error'), 'LDAP_UNAVAILABLE');
      assert.equal(form.browser.cookie(t.url, 'session-id'), undefined);
      // more outages than AUTH_FAILED_SIGN_IN_LIMIT (10): none counts as a failed sign-in
      for (let i = 0; i < 10; i++) assertError(await t.api.post('/auth/sign-in/').send(ann), 503, 'LDAP_UNAVAILABLE');
      // a password user of another domain signs in, by JSON and by the form
      const pw = await t.api.post('/auth/sign-in/').send({ email: other.email, password: other.password });
      assert.equal(pw.status, 200, JSON.stringify(pw.body));
      const pwForm = await postForm(new BrowserJar(), '/auth/sign-in/', {
        email: other.email,
        password: other.password,
      });
      assert.ok(pwForm.browser.cookie(t.url, 'session-id'), 'signed in');
      const [down] = await t.sql<{ metadata: Record<string, unknown> }>(
        `SELECT metadata FROM audit_logs WHERE event = 'auth.sign_in.failed' AND metadata->>'reason' = 'LDAP_UNAVAILABLE' LIMIT 1`,
      );
      assert.equal(down.metadata.method, 'ldap');
    } finally {
      await dir.start();
    }
    const back = await t.api.post('/auth/sign-in/').send(ann);
    assert.equal(back.status, 200, `not locked out once the directory is back: ${JSON.stringify(back.body)}`);
  });

  it('a directory that accepts the connection but never answers: 503 within the configured timeouts', async () => {
    const sockets = new Set<net.Socket>();
    const silent = net.createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as net.AddressInfo).port;
    const [saved] = await t.sql<{ settings: Record<string, unknown> }>(
      'SELECT settings FROM sso_connections WHERE id = $1',
      [ldapsId],
    );
    // the directory moved to a host that hangs (a save would be refused by its check: set in the row)
    const hanging = { ...saved.settings, url: `ldaps://127.0.0.1:${port}`, connect_timeout_ms: 500, timeout_ms: 500 };
    await t.sql('UPDATE sso_connections SET settings = $2 WHERE id = $1', [ldapsId, JSON.stringify(hanging)]);
    try {
      const started = Date.now();
      const res = await t.api.post('/auth/sign-in/').send(ann);
      assertError(res, 503, 'LDAP_UNAVAILABLE');
      assert.ok(Date.now() - started < 5000, `answered in ${Date.now() - started} ms`);
    } finally {
      await t.sql('UPDATE sso_connections SET settings = $2 WHERE id = $1', [ldapsId, JSON.stringify(saved.settings)]);
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});
