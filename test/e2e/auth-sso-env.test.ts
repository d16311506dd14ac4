import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { adminToken, assertError, createWorkspace, signUp, unique } from '../support/fixtures';
import { BrowserJar } from '../support/browser-jar';
import { startTestLdapDirectory, TestLdapDirectory } from '../support/ldap-directory';
import { runNode, SERVER, startServer, waitExit } from '../support/processes';
import { startTestSamlIdp, TestSamlIdp } from '../support/saml-idp';
import { postWebForm, sessionUser, WEB_ORIGIN as WEB, workspaceRole } from '../support/sso-fixtures';
import { startTestApp, TestApp } from '../support/test-app';

const FORM = 'application/x-www-form-urlencoded';
const ENV_SAML_ID = '00000000-0000-4000-8000-000000000e41';
const ENV_LDAP_ID = '00000000-0000-4000-8000-000000000e42';

/** A throwaway RSA key and its self-signed certificate (openssl), PEM. */
function keyPair(): { key: string; cert: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sso-env-'));
  try {
    execFileSync(
      'openssl',
      ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', '/CN=Meridian SP'].concat([
        '-keyout',
        path.join(dir, 'key.pem'),
        '-out',
        path.join(dir, 'cert.pem'),
      ]),
      { stdio: 'pipe' },
    );
    return {
      key: fs.readFileSync(path.join(dir, 'key.pem'), 'utf8'),
      cert: fs.readFileSync(path.join(dir, 'cert.pem'), 'utf8'),
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The SAML and LDAP connections of the `SAML_*` and `LDAP_*` environment variables
 * (docs/sso-saml.md, docs/sso-ldap.md): a server started with them signs in through a samlify IdP
 * and through slapd, shows them read-only in the Instance API (`source: "environment"`), and
 * refuses to start on a bad value, naming the variable. Also the audit rows of the connections
 * made, changed and deleted through the Instance API (docs/audit.md), which never hold a secret.
 */
describe('auth: SAML and LDAP connections of the environment variables; SSO connection audit rows', () => {
  let t: TestApp;
  let idp: TestSamlIdp;
  let dir: TestLdapDirectory;
  let admin: string;
  let ws: { id: string; slug: string };
  let caFile: string;
  const slug = unique('envws').toLowerCase();
  const samlDomain = `${unique('envsaml')}.test`.toLowerCase();
  const ldapDomain = `${unique('envldap')}.test`.toLowerCase();

  before(async () => {
    idp = await startTestSamlIdp();
    dir = await startTestLdapDirectory();
    caFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sso-env-ca-')), 'ca.pem');
    fs.writeFileSync(caFile, dir.caPem);
    t = await startTestApp({
      WEB_URL: WEB,
      SAML_NAME: 'Env SAML',
      SAML_IDP_ENTITY_ID: idp.entityId,
      SAML_SSO_URL: idp.ssoUrl,
      // one line, as an env file holds it
      SAML_IDP_CERTIFICATES: idp.certificate.replace(/\r?\n/g, '\\n'),
      SAML_DOMAINS: samlDomain,
      SAML_GROUP_ROLES: `engineering=${slug}:15`,
      LDAP_NAME: 'Env LDAP',
      LDAP_URL: dir.ldapUrl,
      LDAP_START_TLS: 'true',
      LDAP_CA_CERTIFICATE_FILE: caFile,
      LDAP_BIND_DN: dir.serviceDn,
      LDAP_BIND_PASSWORD: dir.servicePassword,
      LDAP_BASE_DN: `ou=people,${dir.baseDn}`,
      LDAP_DOMAINS: ldapDomain,
      // groups by searching the group entries only, not the user's memberOf
      LDAP_GROUPS_ATTRIBUTE: 'none',
      LDAP_GROUP_SEARCH_BASE: `ou=groups,${dir.baseDn}`,
      LDAP_GROUP_FILTER: '(&(objectClass=groupOfNames)(member={dn}))',
      LDAP_GROUP_ROLES: `env-admins=${slug}:20`,
      LDAP_TIMEOUT_MS: '5000',
    });
    admin = await adminToken(t);
    const owner = await signUp(t);
    ws = await createWorkspace(t, owner.token, slug);
  });
  after(async () => {
    await t?.close();
    await idp?.close();
    await dir?.close();
    if (caFile) fs.rmSync(path.dirname(caFile), { recursive: true, force: true });
  });

  const postForm = (browser: BrowserJar, path: string, fields: Record<string, string>) =>
    postWebForm(t, browser, path, fields);

  const me = (browser: BrowserJar) => sessionUser(t, browser);

  const roleOf = (userId: string) => workspaceRole(t, ws.id, userId);

  it('the Instance API shows both read-only, source "environment", without their secrets', async () => {
    const list = await t.api.get('/api/instances/sso-connections/').auth(admin, { type: 'bearer' });
    assert.equal(list.status, 200);
    type Connection = {
      id: string;
      kind: string;
      name: string;
      source: string;
      domains: string[];
      settings: Record<string, unknown>;
      group_role_mappings: unknown[];
    };
    const byId = new Map((list.body as Connection[]).map((c) => [c.id, c]));
    const saml = byId.get(ENV_SAML_ID)!;
    assert.ok(saml, JSON.stringify(list.body));
    assert.equal(saml.kind, 'saml');
    assert.equal(saml.name, 'Env SAML');
    assert.equal(saml.source, 'environment');
    assert.deepEqual(saml.domains, [samlDomain]);
    assert.equal(saml.settings.idp_entity_id, idp.entityId);
    assert.deepEqual(saml.settings.idp_certificates, [idp.certificate.replace(/\r/g, '').trim()]);
    assert.equal(saml.settings.acs_url, `${t.url}/auth/saml/${ENV_SAML_ID}/acs/`);
    assert.equal(saml.settings.sp_private_key_set, false);
    assert.deepEqual(saml.group_role_mappings, [{ group: 'engineering', workspace_slug: slug, role: 15 }]);
    const ldap = byId.get(ENV_LDAP_ID)!;
    assert.equal(ldap.kind, 'ldap');
    assert.equal(ldap.source, 'environment');
    assert.equal(ldap.settings.url, dir.ldapUrl);
    assert.equal(ldap.settings.start_tls, true);
    assert.equal(ldap.settings.ca_certificate, dir.caPem.trim());
    assert.equal(ldap.settings.groups_attribute, '');
    assert.equal(ldap.settings.group_search_base, `ou=groups,${dir.baseDn}`);
    assert.equal(ldap.settings.timeout_ms, 5000);
    assert.equal(ldap.settings.bind_password_set, true);
    assert.ok(!JSON.stringify(list.body).includes(dir.servicePassword), 'no bind password answered');
    const one = await t.api.get(`/api/instances/sso-connections/${ENV_LDAP_ID}/`).auth(admin, { type: 'bearer' });
    assert.equal(one.status, 200);
    assert.equal(one.body.name, 'Env LDAP');
    for (const id of [ENV_SAML_ID, ENV_LDAP_ID]) {
      const patch = await t.api
        .patch(`/api/instances/sso-connections/${id}/`)
        .auth(admin, { type: 'bearer' })
        .send({ name: 'x' });
      assertError(patch, 409, 'SSO_CONNECTION_READ_ONLY');
      const del = await t.api.delete(`/api/instances/sso-connections/${id}/`).auth(admin, { type: 'bearer' });
      assertError(del, 409, 'SSO_CONNECTION_READ_ONLY');
    }
    // their domains are taken for connections made through the API
    const taken = await t.api
      .post('/api/instances/sso-connections/')
      .auth(admin, { type: 'bearer' })
      .send({
        kind: 'saml',
        name: 'Other',
        domains: [ldapDomain],
        settings: { idp_entity_id: idp.entityId, sso_url: idp.ssoUrl, idp_certificates: [idp.certificate] },
      });
    assertError(taken, 409, 'SSO_DOMAIN_TAKEN');
  });

  it('signs in through the SAML IdP of the SAML_* variables; the group role applies', async () => {
    const metadata = await t.api.get(`/auth/saml/${ENV_SAML_ID}/metadata/`);
    assert.equal(metadata.status, 200);
    idp.sp = metadata.text;
    const email = `${unique('sam')}@${samlDomain}`.toLowerCase();
    idp.next = { nameId: unique('nid'), email, firstName: 'Sam', lastName: 'Env', groups: ['engineering'] };
    const browser = new BrowserJar();
    const check = await t.api.post('/auth/email-check/').send({ email });
    assert.deepEqual(check.body, { existing: true, status: 'CREDENTIAL' });
    const posted = await postForm(browser, '/auth/sign-in/', { email, password: 'anything' });
    assert.equal(posted.status, 302);
    const authorize = new URL(posted.headers.get('location')!);
    assert.equal(`${authorize.origin}${authorize.pathname}`, idp.ssoUrl, 'to the IdP');
    const page = await browser.fetch(authorize.toString());
    const html = await page.text();
    assert.equal(page.status, 200, html);
    const form = idp.readForm(html);
    assert.equal(form.action, `${t.url}/auth/saml/${ENV_SAML_ID}/acs/`);
    const acs = await browser.fetch(form.action, {
      method: 'POST',
      headers: { 'Content-Type': FORM, Origin: idp.url },
      body: new URLSearchParams(form.fields).toString(),
    });
    assert.equal(acs.status, 302, await acs.text());
    assert.equal(acs.headers.get('location'), `${WEB}/onboarding`);
    const who = await me(browser);
    assert.equal(who.status, 200, JSON.stringify(who.body));
    assert.equal(who.body.email, email);
    assert.equal(who.body.display_name, 'Sam Env');
    assert.equal(await roleOf(who.body.id as string), 15, 'SAML_GROUP_ROLES: engineering gives Member');
    const [audit] = await t.sql<{ metadata: Record<string, unknown> }>(
      `SELECT metadata FROM audit_logs WHERE event = 'auth.sign_in.succeeded' AND actor_id = $1`,
      [who.body.id],
    );
    assert.deepEqual([audit.metadata.method, audit.metadata.connection], ['saml', ENV_SAML_ID]);
  });

  it('signs in through the directory of the LDAP_* variables; the group search gives the role', async () => {
    const user = { email: `lee@${ldapDomain}`, password: 'lee-pass-1' };
    const dn = await dir.addUser({ uid: 'lee-env', mail: user.email, password: user.password, givenName: 'Lee' });
    await dir.addGroup('env-admins', [dn]);
    const form = await postForm(new BrowserJar(), '/auth/sign-in/', user);
    assert.equal(form.status, 302);
    assert.equal(form.headers.get('location'), `${WEB}/onboarding`);
    const json = await t.api.post('/auth/sign-in/').send(user);
    assert.equal(json.status, 200, JSON.stringify(json.body));
    assert.equal(json.body.user.email, user.email);
    assert.equal(await roleOf(json.body.user.id), 20, 'LDAP_GROUP_ROLES: env-admins (found by the search) gives Admin');
    const [audit] = await t.sql<{ metadata: Record<string, unknown> }>(
      `SELECT metadata FROM audit_logs WHERE event = 'auth.sign_in.succeeded' AND actor_id = $1 LIMIT 1`,
      [json.body.user.id],
    );
    assert.deepEqual([audit.metadata.method, audit.metadata.connection], ['ldap', ENV_LDAP_ID]);
    assertError(
      await t.api.post('/auth/sign-in/').send({ ...user, password: 'wrong' }),
      401,
      'AUTHENTICATION_FAILED_SIGN_IN',
    );
  });

  it('a connection made, changed and deleted through the Instance API leaves audit rows without its secrets', async () => {
    const sp = keyPair();
    const domain = `${unique('audit')}.test`.toLowerCase();
    const created = await t.api
      .post('/api/instances/sso-connections/')
      .auth(admin, { type: 'bearer' })
      .send({
        kind: 'saml',
        name: 'Audited SAML',
        domains: [domain],
        settings: {
          idp_entity_id: idp.entityId,
          sso_url: idp.ssoUrl,
          idp_certificates: [idp.certificate],
          sp_certificate: sp.cert,
          sp_private_key: sp.key,
        },
      });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const id = created.body.id as string;
    const renamed = await t.api
      .patch(`/api/instances/sso-connections/${id}/`)
      .auth(admin, { type: 'bearer' })
      .send({ name: 'Audited SAML 2', settings: { groups_attribute: 'memberOf' } });
    assert.equal(renamed.status, 200, JSON.stringify(renamed.body));
    // the same values again change nothing: no row
    const same = await t.api
      .patch(`/api/instances/sso-connections/${id}/`)
      .auth(admin, { type: 'bearer' })
      .send({ name: 'Audited SAML 2' });
    assert.equal(same.status, 200);
    const rekeyed = keyPair();
    const newKey = await t.api
      .patch(`/api/instances/sso-connections/${id}/`)
      .auth(admin, { type: 'bearer' })
      .send({ settings: { sp_certificate: rekeyed.cert, sp_private_key: rekeyed.key } });
    assert.equal(newKey.status, 200, JSON.stringify(newKey.body));
    // a refused change records nothing
    const refused = await t.api
      .patch(`/api/instances/sso-connections/${id}/`)
      .auth(admin, { type: 'bearer' })
      .send({ settings: { sso_url: 'ftp://nowhere' } });
    assertError(refused, 422, 'VALIDATION_ERROR');
    // an LDAP connection's bind password, changed
    const ldapDomain2 = `${unique('auditldap')}.test`.toLowerCase();
    const ldap = await t.api
      .post('/api/instances/sso-connections/')
      .auth(admin, { type: 'bearer' })
      .send({
        kind: 'ldap',
        name: 'Audited LDAP',
        domains: [ldapDomain2],
        settings: {
          url: dir.ldapsUrl,
          ca_certificate: dir.caPem,
          bind_dn: dir.serviceDn,
          bind_password: dir.servicePassword,
          base_dn: dir.baseDn,
        },
      });
    assert.equal(ldap.status, 201, JSON.stringify(ldap.body));
    const del = await t.api.delete(`/api/instances/sso-connections/${id}/`).auth(admin, { type: 'bearer' });
    assert.equal(del.status, 204);

    const log = await t.api
      .get(
        '/api/instances/audit-logs/?event=instance.sso_connection_created,instance.sso_connection_updated,instance.sso_connection_deleted&per_page=100',
      )
      .auth(admin, { type: 'bearer' });
    assert.equal(log.status, 200, JSON.stringify(log.body));
    type Row = {
      event: string;
      target_type: string;
      target_id: string;
      actor_id: string;
      metadata: Record<string, unknown>;
    };
    const rows = (log.body.results as Row[]).filter((r) => r.target_id === id || r.target_id === ldap.body.id);
    const ofSaml = rows
      .filter((r) => r.target_id === id)
      .reverse()
      .map((r) => [r.event, r.metadata]);
    assert.deepEqual(ofSaml, [
      ['instance.sso_connection_created', { kind: 'saml', name: 'Audited SAML' }],
      [
        'instance.sso_connection_updated',
        { kind: 'saml', name: 'Audited SAML 2', fields: ['name', 'settings.groups_attribute'] },
      ],
      [
        'instance.sso_connection_updated',
        { kind: 'saml', name: 'Audited SAML 2', fields: ['settings.sp_certificate', 'settings.sp_private_key'] },
      ],
      ['instance.sso_connection_deleted', { kind: 'saml', name: 'Audited SAML 2' }],
    ]);
    const ofLdap = rows.filter((r) => r.target_id === ldap.body.id);
    assert.deepEqual(
      ofLdap.map((r) => [r.event, r.metadata]),
      [['instance.sso_connection_created', { kind: 'ldap', name: 'Audited LDAP' }]],
    );
    const [adminId] = await t.sql<{ id: string }>('SELECT id FROM users WHERE is_active AND id = $1', [
      rows[0].actor_id,
    ]);
    assert.ok(adminId, 'the admin is the actor');
    assert.ok(rows.every((r) => r.target_type === 'sso_connection'));
    const text = JSON.stringify(log.body);
    for (const secret of [sp.key, rekeyed.key, dir.servicePassword])
      assert.ok(!text.includes(secret.trim().split('\n')[1] ?? secret), 'no secret in the audit log');
    const stored = JSON.stringify(await t.sql("SELECT metadata FROM audit_logs WHERE event LIKE 'instance.sso_%'"));
    assert.ok(!stored.includes(dir.servicePassword) && !stored.includes('PRIVATE KEY'), 'none stored either');
  });

  it('a bad SAML_* or LDAP_* value stops the server at start-up, naming the variable', async () => {
    const base = { SECRET_KEY: 'k'.repeat(64), DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'sso-env-bad-')) };
    try {
      const cases: [Record<string, string>, RegExp][] = [
        [
          {
            SAML_IDP_ENTITY_ID: 'https://idp.example.com',
            SAML_SSO_URL: 'ftp://idp.example.com/sso',
            SAML_IDP_CERTIFICATES: '-----BEGIN CERTIFICATE-----\\nnot base64\\n-----END CERTIFICATE-----',
            SAML_DOMAINS: 'example.com',
          },
          /SAML_SSO_URL: .*https URL.*SAML_IDP_CERTIFICATES: A certificate does not read/,
        ],
        [
          {
            LDAP_URL: 'ldap://127.0.0.1:389',
            LDAP_BIND_DN: 'cn=svc,dc=example,dc=com',
            LDAP_BIND_PASSWORD: 'x',
            LDAP_BASE_DN: 'dc=example,dc=com',
            LDAP_DOMAINS: 'example.com',
            LDAP_USER_FILTER: 'mail=x',
          },
          /LDAP_START_TLS: An ldap:\/\/ URL needs start_tls.*LDAP_USER_FILTER: A filter in parentheses with \{email\}/,
        ],
        [{ LDAP_URL: 'ldaps://127.0.0.1', LDAP_BIND_DN: 'cn=x' }, /LDAP_BIND_PASSWORD \(or LDAP_BIND_PASSWORD_FILE\)/],
      ];
      for (const [env, message] of cases) {
        const run = await runNode([SERVER], { ...base, ...env }, 120_000);
        assert.equal(run.code, 1, run.stdout + run.stderr);
        assert.match(run.stderr, /^meridian: Invalid configuration: /);
        assert.match(run.stderr, message);
        assert.ok(!run.stderr.includes('listening'), 'never listened');
      }
    } finally {
      fs.rmSync(base.DATA_DIR, { recursive: true, force: true });
    }
  });

  it('a directory that refuses the LDAP_* service bind or base DN stops the start; one that does not answer is a warning', async () => {
    const base = { SECRET_KEY: 'k'.repeat(64), DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'sso-env-dir-')) };
    const ldap = {
      LDAP_URL: dir.ldapUrl,
      LDAP_START_TLS: 'true',
      LDAP_CA_CERTIFICATE_FILE: caFile,
      LDAP_BIND_DN: dir.serviceDn,
      LDAP_BIND_PASSWORD: dir.servicePassword,
      LDAP_BASE_DN: `ou=people,${dir.baseDn}`,
      LDAP_DOMAINS: `${unique('envdir')}.test`.toLowerCase(),
      LDAP_TIMEOUT_MS: '5000',
    };
    try {
      const refusals: [Record<string, string>, RegExp][] = [
        [
          { LDAP_BIND_PASSWORD: 'not-the-password' },
          /LDAP_BIND_PASSWORD: The directory refused the service account's bind/,
        ],
        [{ LDAP_BASE_DN: `ou=nowhere,${dir.baseDn}` }, /LDAP_BASE_DN: The base DN "ou=nowhere,.*" does not exist/],
        [{ LDAP_GROUP_SEARCH_BASE: `ou=nogroups,${dir.baseDn}` }, /LDAP_GROUP_SEARCH_BASE: The group search base/],
      ];
      for (const [change, message] of refusals) {
        const run = await runNode([SERVER], { ...base, ...ldap, ...change }, 120_000);
        assert.equal(run.code, 1, run.stdout + run.stderr);
        assert.match(run.stderr, /^meridian: Invalid configuration: /);
        assert.match(run.stderr, message);
        assert.ok(!run.stderr.includes('not-the-password'), 'the password is never printed');
        assert.ok(!(run.stdout + run.stderr).includes('listening'), 'never listened');
      }
      // a closed port: the directory is down while Meridian starts
      const closed = await new Promise<number>((resolve) => {
        const s = net.createServer().listen(0, '127.0.0.1', () => {
          const port = (s.address() as net.AddressInfo).port;
          s.close(() => resolve(port));
        });
      });
      const server = await startServer(
        { ...base, ...ldap, LDAP_URL: `ldap://127.0.0.1:${closed}`, LDAP_CONNECT_TIMEOUT_MS: '2000' },
        120_000,
      );
      try {
        assert.match(server.output(), /could not be reached over StartTLS/);
        assert.match(server.output(), /LDAP sign-ins answer 503 LDAP_UNAVAILABLE/);
      } finally {
        server.child.kill('SIGTERM');
        await waitExit(server.child);
      }
    } finally {
      fs.rmSync(base.DATA_DIR, { recursive: true, force: true });
    }
  });
});
