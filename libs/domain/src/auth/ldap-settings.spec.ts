// An LDAP connection's settings and its search filters (no directory, no database).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { caPemOk, checkLdapSettings, filterShapeOk, ldapFilter, LdapSettingsInput } from './ldap-settings';

function check(input: LdapSettingsInput) {
  const errors: Record<string, string[]> = {};
  const result = checkLdapSettings(input, (field, message) => (errors[field] ??= []).push(message));
  return { ...result, errors };
}

// a self-signed P-256 CA certificate (no key anywhere; only its parsing matters)
const CA_PEM = `-----BEGIN CERTIFICATE-----
MIIBeTCCAR+gAwIBAgIUS3rG2OZ5cDNfle2oF0Z9Iu70ADowCgYIKoZIzj0EAwIw
EjEQMA4GA1UEAwwHc3BlYy1jYTAeFw0yNjExMjkwOTEzMjBaFw0zNjExMjYwOTEz
MjBaMBIxEDAOBgNVBAMMB3NwZWMtY2EwWTATBgcqhkjOPQIBBggqhkjOPQMBBwNC
AARuXyy/ZfAHOnSwDfTU6OKgtMzlEFBj/ikmgZc/bu8gIcSD6HqesvGR5xYDyoC9
qYi9eEyo2ac57+MlkT3FgAsmo1MwUTAdBgNVHQ4EFgQUDNonuS90sJ+vKCR3ls4D
H5+IWLIwHwYDVR0jBBgwFoAUDNonuS90sJ+vKCR3ls4DH5+IWLIwDwYDVR0TAQH/
BAUwAwEB/zAKBggqhkjOPQQDAgNIADBFAiEAr05J2xDPRhFVLMxLVtwgjkbG5Sca
bT9PXNBoDTyXaxwCIE1Y1ZkmqfDyQfwGxpDIL9XqplDPB9xFa/F4gsN1R5ss
-----END CERTIFICATE-----`;

const good: LdapSettingsInput = {
  url: 'ldaps://ldap.example.com:636',
  bind_dn: 'cn=svc,dc=example,dc=com',
  bind_password: 's3cret',
  base_dn: 'ou=people,dc=example,dc=com',
};

describe('LDAP settings', () => {
  it('escapes the typed email in the filter: no filter syntax passes through', () => {
    assert.equal(ldapFilter('(mail={email})', { email: 'ann@corp.test' }), '(mail=ann@corp.test)');
    assert.equal(ldapFilter('(mail={email})', { email: '*' }), '(mail=\\2a)');
    assert.equal(
      ldapFilter('(|(mail={email})(userPrincipalName={email}))', { email: 'a)(uid=*' }),
      '(|(mail=a\\29\\28uid=\\2a)(userPrincipalName=a\\29\\28uid=\\2a))',
    );
    assert.equal(ldapFilter('(mail={email})', { email: 'back\\slash\u0000' }), '(mail=back\\5cslash\\00)');
    assert.equal(
      ldapFilter('(member={dn})', { dn: 'cn=Smith\\, J (x),dc=a' }),
      '(member=cn=Smith\\5c, J \\28x\\29,dc=a)',
    );
  });

  it('takes a filter wrapped in one balanced pair of parentheses only', () => {
    for (const f of ['(mail={email})', '(&(objectClass=person)(mail={email}))', '(cn=a\\29b)'])
      assert.ok(filterShapeOk(f), f);
    for (const f of ['mail={email}', '(mail={email}', '(a)(b)', '(a))(', ')(']) assert.ok(!filterShapeOk(f), f);
  });

  it('takes ldaps, and ldap with StartTLS; plain ldap only when explicitly allowed', () => {
    const ok = check(good);
    assert.deepEqual(ok.errors, {});
    assert.equal(ok.secret, 's3cret');
    assert.equal(ok.settings.userFilter, '(mail={email})');
    assert.equal(ok.settings.connectTimeoutMs, 5000);
    assert.deepEqual(check({ ...good, url: 'ldap://ldap.example.com', start_tls: true }).errors, {});
    assert.ok(check({ ...good, url: 'ldap://ldap.example.com' }).errors['settings.start_tls']);
    assert.deepEqual(check({ ...good, url: 'ldap://127.0.0.1:3389', allow_plaintext: true }).errors, {});
    assert.ok(check({ ...good, start_tls: true }).errors['settings.start_tls'], 'StartTLS on ldaps');
  });

  it('names each wrong field', () => {
    const { errors } = check({
      url: 'http://ldap.example.com',
      base_dn: '',
      user_filter: '(uid=x)',
      email_attribute: 'mail;x',
      ca_certificate: 'not a pem',
      timeout_ms: 5,
    });
    for (const field of [
      'settings.url',
      'settings.bind_dn',
      'settings.bind_password',
      'settings.base_dn',
      'settings.user_filter',
      'settings.email_attribute',
      'settings.ca_certificate',
      'settings.timeout_ms',
    ])
      assert.ok(errors[field], `${field}: ${JSON.stringify(errors)}`);
    assert.ok(check({ ...good, url: 'ldaps://h/dc=x?cn' }).errors['settings.url'], 'a URL with a DN or query');
  });

  it('takes a CA certificate in PEM, and refuses a broken one', () => {
    assert.ok(caPemOk(CA_PEM));
    assert.ok(caPemOk(`${CA_PEM}\n${CA_PEM}`), 'a bundle');
    assert.ok(!caPemOk(CA_PEM.replace('MIIBeTCCAR+gAwIBAgIU', 'MIIBeTCCAR+gAwIBAgIV')), 'a broken DER');
    assert.ok(!caPemOk(`junk\n${CA_PEM}`));
    assert.ok(!caPemOk('-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----'));
    assert.deepEqual(check({ ...good, ca_certificate: CA_PEM }).errors, {});
  });
});
