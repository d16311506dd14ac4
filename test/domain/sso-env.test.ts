import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '#common';

const base = { NODE_ENV: 'test', SECRET_KEY: 'k'.repeat(64) };

describe('config: the OIDC connection of the OIDC_* variables (docs/sso-oidc.md)', () => {
  it('is absent without OIDC_ISSUER', () => {
    assert.equal(loadConfig({ ...base }).oidcEnv, null);
  });

  it('reads every variable, with the defaults', () => {
    const c = loadConfig({
      ...base,
      OIDC_ISSUER: 'https://sso.example.com/realms/x',
      OIDC_CLIENT_ID: 'meridian',
      OIDC_CLIENT_SECRET: 's3cret',
      OIDC_DOMAINS: 'Example.com, example.org ,example.com',
      OIDC_GROUP_ROLES: 'plane-admins=acme:20, engineering=acme:15',
    }).oidcEnv!;
    assert.deepEqual(c.domains, ['example.com', 'example.org']);
    assert.equal(c.allowPassword, false);
    assert.equal(c.jitProvisioning, true);
    assert.equal(c.scopes, 'openid email profile');
    assert.equal(c.groupsClaim, 'groups');
    assert.deepEqual(c.groupRoleMappings, [
      { group: 'plane-admins', workspace_slug: 'acme', role: 20 },
      { group: 'engineering', workspace_slug: 'acme', role: 15 },
    ]);
  });

  it('stops the start with the variable named for a missing or bad value', () => {
    const ok = {
      ...base,
      OIDC_ISSUER: 'https://sso.example.com',
      OIDC_CLIENT_ID: 'id',
      OIDC_CLIENT_SECRET: 'secret',
      OIDC_DOMAINS: 'example.com',
    };
    const cases: [Record<string, string>, RegExp][] = [
      [{ OIDC_CLIENT_ID: '' }, /OIDC_CLIENT_ID is required/],
      [{ OIDC_CLIENT_SECRET: '' }, /OIDC_CLIENT_SECRET is required/],
      [{ OIDC_DOMAINS: '' }, /OIDC_DOMAINS/],
      [{ OIDC_DOMAINS: 'example.com,not a domain' }, /OIDC_DOMAINS holds invalid domains: not a domain/],
      [{ OIDC_ISSUER: 'http://sso.example.com' }, /OIDC_ISSUER must be an https URL/],
      [{ OIDC_ISSUER: 'nope' }, /OIDC_ISSUER must be a URL/],
      [{ OIDC_JIT: 'maybe' }, /OIDC_JIT must be true or false/],
      [{ OIDC_GROUP_ROLES: 'admins=acme:30' }, /OIDC_GROUP_ROLES entry "admins=acme:30"/],
    ];
    for (const [change, message] of cases) {
      assert.throws(
        () => loadConfig({ ...ok, ...change }),
        (err: unknown) => {
          assert.ok(err instanceof ConfigError);
          assert.match((err as Error).message, message);
          return true;
        },
      );
    }
    assert.equal(loadConfig({ ...ok, OIDC_ISSUER: 'http://127.0.0.1:8080' }).oidcEnv!.issuer, 'http://127.0.0.1:8080');
  });
});
