// The SAML_* and LDAP_* variables read into connections (docs/sso-saml.md, docs/sso-ldap.md): the
// variables' form; the settings' own rules are the Instance API's (checked at start-up, e2e).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkEnvDomainsApart, ldapEnvConnection, samlEnvConnection } from './sso-env';

const PEM = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----';
const noFiles = (p: string): string => {
  throw new Error(`no such file ${p}`);
};

function throwsNaming(fn: () => unknown, message: RegExp) {
  assert.throws(fn, (err: unknown) => {
    assert.match((err as Error).message, message);
    return true;
  });
}

describe('SAML_* variables', () => {
  const ok = {
    SAML_IDP_ENTITY_ID: 'https://idp.example.com/realms/corp',
    SAML_SSO_URL: 'https://idp.example.com/sso',
    SAML_IDP_CERTIFICATES: PEM,
    SAML_DOMAINS: 'Example.com, example.org,example.com',
  };

  it('is absent without SAML_IDP_ENTITY_ID', () => {
    assert.equal(samlEnvConnection({}), null);
    assert.equal(samlEnvConnection({ SAML_SSO_URL: 'https://x.example.com' }), null);
  });

  it('reads the settings under the API names, with the defaults and the variable of each', () => {
    const c = samlEnvConnection({ ...ok, SAML_GROUP_ROLES: 'eng=acme:15, admins=Acme:20', SAML_JIT: 'no' }, noFiles)!;
    assert.equal(c.kind, 'saml');
    assert.equal(c.name, 'SAML');
    assert.deepEqual(c.domains, ['example.com', 'example.org']);
    assert.equal(c.allowPassword, false);
    assert.equal(c.jitProvisioning, false);
    assert.deepEqual(c.groupRoleMappings, [
      { group: 'eng', workspace_slug: 'acme', role: 15 },
      { group: 'admins', workspace_slug: 'acme', role: 20 },
    ]);
    assert.deepEqual(c.settings, {
      idp_entity_id: ok.SAML_IDP_ENTITY_ID,
      sso_url: ok.SAML_SSO_URL,
      idp_certificates: PEM,
    });
    assert.equal(c.variables['settings.sp_private_key'], 'SAML_SP_PRIVATE_KEY');
    assert.equal(c.variables['settings.groups_attribute'], 'SAML_GROUPS_ATTRIBUTE');
    assert.equal(c.variables['settings.slo_url'], 'SAML_SLO_URL');
    const slo = samlEnvConnection({ ...ok, SAML_SLO_URL: ' https://idp.example.com/slo ' }, noFiles)!;
    assert.equal(slo.settings.slo_url, 'https://idp.example.com/slo');
  });

  it('reads a PEM from its _FILE variable, or with \\n for line breaks', () => {
    const files: Record<string, string> = { '/run/secrets/idp.pem': PEM, '/run/secrets/sp.key': 'KEY' };
    const c = samlEnvConnection(
      {
        ...ok,
        SAML_IDP_CERTIFICATES: undefined,
        SAML_IDP_CERTIFICATES_FILE: '/run/secrets/idp.pem',
        SAML_SP_PRIVATE_KEY_FILE: '/run/secrets/sp.key',
        SAML_SP_CERTIFICATE: PEM.replace(/\n/g, '\\n'),
      },
      (p) => files[p] ?? noFiles(p),
    )!;
    assert.equal(c.settings.idp_certificates, PEM);
    assert.equal(c.settings.sp_private_key, 'KEY');
    assert.equal(c.settings.sp_certificate, PEM);
  });

  it('names the variable of a missing or malformed value', () => {
    const cases: [Record<string, string | undefined>, RegExp][] = [
      [{ SAML_SSO_URL: undefined }, /SAML_SSO_URL is required with SAML_IDP_ENTITY_ID/],
      [{ SAML_IDP_CERTIFICATES: '' }, /SAML_IDP_CERTIFICATES \(or SAML_IDP_CERTIFICATES_FILE\) is required/],
      [{ SAML_DOMAINS: ' , ' }, /SAML_DOMAINS .* is required/],
      [{ SAML_DOMAINS: 'example.com,not a domain' }, /SAML_DOMAINS holds invalid domains: not a domain/],
      [{ SAML_ALLOW_PASSWORD: 'maybe' }, /SAML_ALLOW_PASSWORD must be true or false/],
      [{ SAML_GROUP_ROLES: 'eng=acme:10' }, /SAML_GROUP_ROLES entry "eng=acme:10"/],
      [{ SAML_SP_PRIVATE_KEY_FILE: '/nowhere/key.pem' }, /SAML_SP_PRIVATE_KEY_FILE: cannot read "\/nowhere\/key.pem"/],
      [{ SAML_IDP_CERTIFICATES_FILE: '/x.pem' }, /Set SAML_IDP_CERTIFICATES or SAML_IDP_CERTIFICATES_FILE, not both/],
    ];
    for (const [change, message] of cases)
      throwsNaming(() => samlEnvConnection({ ...ok, ...change }, noFiles), message);
  });
});

describe('LDAP_* variables', () => {
  const ok = {
    LDAP_URL: 'ldaps://ldap.example.com',
    LDAP_BIND_DN: 'cn=svc,dc=example,dc=com',
    LDAP_BIND_PASSWORD: 'pw',
    LDAP_BASE_DN: 'ou=people,dc=example,dc=com',
    LDAP_DOMAINS: 'example.com',
  };

  it('is absent without LDAP_URL', () => {
    assert.equal(ldapEnvConnection({ LDAP_BIND_DN: 'cn=x' }), null);
  });

  it('reads the settings under the API names: flags, numbers, `none` for no groups attribute', () => {
    const c = ldapEnvConnection(
      {
        ...ok,
        LDAP_URL: 'ldap://ldap.example.com:389',
        LDAP_START_TLS: 'true',
        LDAP_GROUPS_ATTRIBUTE: 'none',
        LDAP_GROUP_SEARCH_BASE: 'ou=groups,dc=example,dc=com',
        LDAP_TIMEOUT_MS: '3000',
        LDAP_NAME: 'Corp directory',
        LDAP_ALLOW_PASSWORD: 'on',
      },
      noFiles,
    )!;
    assert.equal(c.kind, 'ldap');
    assert.equal(c.name, 'Corp directory');
    assert.equal(c.allowPassword, true);
    assert.equal(c.jitProvisioning, true);
    assert.deepEqual(c.settings, {
      url: 'ldap://ldap.example.com:389',
      start_tls: true,
      allow_plaintext: false,
      bind_dn: ok.LDAP_BIND_DN,
      bind_password: 'pw',
      base_dn: ok.LDAP_BASE_DN,
      groups_attribute: '',
      group_search_base: 'ou=groups,dc=example,dc=com',
      timeout_ms: 3000,
    });
    assert.equal(c.variables['settings.bind_password'], 'LDAP_BIND_PASSWORD');
    assert.equal(c.variables['settings.connect_timeout_ms'], 'LDAP_CONNECT_TIMEOUT_MS');
    const memberOf = ldapEnvConnection({ ...ok, LDAP_GROUPS_ATTRIBUTE: 'memberOf' }, noFiles)!;
    assert.equal(memberOf.settings.groups_attribute, 'memberOf');
  });

  it('reads the bind password from LDAP_BIND_PASSWORD_FILE as written (no \\n turned into a line break)', () => {
    const c = ldapEnvConnection(
      { ...ok, LDAP_BIND_PASSWORD: undefined, LDAP_BIND_PASSWORD_FILE: '/run/secrets/ldap' },
      () => 'a\\nb',
    )!;
    assert.equal(c.settings.bind_password, 'a\\nb');
  });

  it('names the variable of a missing or malformed value', () => {
    const cases: [Record<string, string | undefined>, RegExp][] = [
      [{ LDAP_BIND_DN: undefined }, /LDAP_BIND_DN is required with LDAP_URL/],
      [{ LDAP_BIND_PASSWORD: undefined }, /LDAP_BIND_PASSWORD \(or LDAP_BIND_PASSWORD_FILE\) is required/],
      [{ LDAP_BASE_DN: undefined }, /LDAP_BASE_DN is required/],
      [{ LDAP_DOMAINS: undefined }, /LDAP_DOMAINS .* is required with LDAP_URL/],
      [{ LDAP_START_TLS: 'sometimes' }, /LDAP_START_TLS must be true or false, not "sometimes"/],
      [{ LDAP_TIMEOUT_MS: '3s' }, /LDAP_TIMEOUT_MS must be a whole number of milliseconds, not "3s"/],
      [{ LDAP_GROUP_ROLES: 'cn=admins,dc=x=acme:20' }, /LDAP_GROUP_ROLES entry "cn=admins"/],
    ];
    for (const [change, message] of cases)
      throwsNaming(() => ldapEnvConnection({ ...ok, ...change }, noFiles), message);
  });
});

describe('the environment connections own distinct domains', () => {
  it('names both variables when two claim a domain', () => {
    checkEnvDomainsApart([
      { prefix: 'OIDC', domains: ['a.example'] },
      { prefix: 'SAML', domains: ['b.example'] },
    ]);
    throwsNaming(
      () =>
        checkEnvDomainsApart([
          { prefix: 'OIDC', domains: ['a.example'] },
          { prefix: 'SAML', domains: [] },
          { prefix: 'LDAP', domains: ['c.example', 'a.example'] },
        ]),
      /OIDC_DOMAINS and LDAP_DOMAINS both claim a\.example/,
    );
  });
});
