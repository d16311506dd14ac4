import { createPrivateKey, createPublicKey, X509Certificate } from 'node:crypto';

/** A SAML connection's settings as the flow uses them (docs/sso-saml.md), the SP private key in clear. */
export interface SamlSettings {
  /** the IdP's entity id: the `Issuer` its assertions must carry */
  idpEntityId: string;
  /** the IdP's single sign-on URL (HTTP-Redirect binding) */
  ssoUrl: string;
  /** the IdP's single logout URL (HTTP-Redirect binding), or null: sign-out then ends Meridian's session only */
  sloUrl: string | null;
  /** the IdP's signing certificates (PEM), any of which may sign */
  idpCertificates: string[];
  /** Meridian's entity id at this IdP: the audience the assertions must name */
  spEntityId: string;
  emailAttribute: string;
  firstNameAttribute: string;
  lastNameAttribute: string;
  groupsAttribute: string;
  /** the SP certificate (PEM) published in the metadata when AuthnRequests are signed, else null */
  spCertificate: string | null;
  /** the SP private key (PEM) signing AuthnRequests, else null */
  spPrivateKey: string | null;
}

/** The stored (jsonb) form of a SAML connection's non-secret settings. */
export interface SamlSettingsRow {
  idp_entity_id: string;
  sso_url: string;
  /** the IdP's single logout URL; absent or '' = none (older rows have no key) */
  slo_url?: string;
  idp_certificates: string[];
  /** '' = the default, `API_BASE_URL/auth/saml/<connection id>/metadata/` */
  sp_entity_id: string;
  email_attribute: string;
  first_name_attribute: string;
  last_name_attribute: string;
  groups_attribute: string;
  sp_certificate: string | null;
}

/** The attributes read when the settings name none (the common names of Keycloak, Authentik, Entra ID, ADFS). */
export const SAML_DEFAULT_ATTRIBUTES = {
  email: 'email',
  first_name: 'first_name',
  last_name: 'last_name',
  groups: 'groups',
};

/** Where each SAML connection's metadata, sign-in, assertion consumer and single logout service live. */
export function samlUrls(apiBaseUrl: string, connectionId: string) {
  const base = `${apiBaseUrl}/auth/saml/${connectionId}`;
  return { metadata: `${base}/metadata/`, acs: `${base}/acs/`, slo: `${base}/slo/`, start: `${base}/` };
}

function text(value: unknown, max = 1000): string {
  return typeof value === 'string' ? value.trim().slice(0, max + 1) : '';
}

/** The PEM blocks of a text (one or several certificates pasted together), normalised. */
function pemBlocks(value: string, label: string): string[] {
  const re = new RegExp(`-----BEGIN ${label}-----[\\s\\S]*?-----END ${label}-----`, 'g');
  return (value.match(re) ?? []).map((b) => b.replace(/\r/g, ''));
}

/**
 * Checks the `settings` of a SAML connection (and its write-only `sp_private_key`) as
 * `SsoConnectionService` saves them, calling `fail(field, message)` for each problem: `idp_entity_id`
 * required; `sso_url` an https URL (http only on loopback); `slo_url` empty or such a URL, and then
 * with `sp_private_key` (single logout messages are signed); `idp_certificates` (a list, or one string,
 * of PEM certificates) at least one, each a readable X.509 certificate; `sp_entity_id` at most 1000
 * characters; attribute names at most 255; `sp_private_key` and `sp_certificate` both or neither, the
 * key a readable private key matching the certificate. Answers the row to store and the secret.
 */
export function checkSamlSettings(
  s: Record<string, unknown>,
  fail: (field: string, message: string) => void,
): { row: SamlSettingsRow; secret: string } {
  const idpEntityId = text(s.idp_entity_id);
  if (!idpEntityId || idpEntityId.length > 1000)
    fail('settings.idp_entity_id', "The identity provider's entity id (its Issuer) is required.");
  const ssoUrl = text(s.sso_url, 2000);
  if (!urlOk(ssoUrl))
    fail('settings.sso_url', "The identity provider's SSO URL must be an https URL (http only on a loopback address).");
  const sloUrl = text(s.slo_url, 2000);
  if (sloUrl && !urlOk(sloUrl))
    fail(
      'settings.slo_url',
      "The identity provider's single logout URL must be an https URL (http only on a loopback address).",
    );
  const rawCerts = Array.isArray(s.idp_certificates)
    ? s.idp_certificates
    : typeof s.idp_certificates === 'string'
      ? [s.idp_certificates]
      : [];
  const certs: string[] = [];
  for (const raw of rawCerts) {
    const blocks = typeof raw === 'string' ? pemBlocks(raw, 'CERTIFICATE') : [];
    if (blocks.length === 0)
      fail('settings.idp_certificates', 'Each entry must be a PEM certificate (-----BEGIN CERTIFICATE-----).');
    for (const pem of blocks) {
      try {
        new X509Certificate(pem);
        certs.push(pem);
      } catch (err) {
        fail('settings.idp_certificates', `A certificate does not read: ${(err as Error).message}.`);
      }
    }
  }
  if (rawCerts.length === 0)
    fail(
      'settings.idp_certificates',
      "At least one of the identity provider's signing certificates (PEM) is required.",
    );
  if (certs.length > 10) fail('settings.idp_certificates', 'At most 10 certificates.');
  const spEntityId = text(s.sp_entity_id);
  if (spEntityId.length > 1000) fail('settings.sp_entity_id', 'At most 1000 characters.');
  const attribute = (name: keyof typeof SAML_DEFAULT_ATTRIBUTES) => {
    const value = text(s[`${name}_attribute`], 255) || SAML_DEFAULT_ATTRIBUTES[name];
    if (value.length > 255) fail(`settings.${name}_attribute`, 'At most 255 characters.');
    return value;
  };
  const spKey = typeof s.sp_private_key === 'string' ? s.sp_private_key.trim() : '';
  const spCertText = text(s.sp_certificate, 20000);
  let spCertificate: string | null = null;
  if (spKey || spCertText) {
    const certBlocks = pemBlocks(spCertText, 'CERTIFICATE');
    if (!spKey) fail('settings.sp_private_key', 'The SP private key (PEM) is required with sp_certificate.');
    if (certBlocks.length !== 1)
      fail('settings.sp_certificate', 'One PEM certificate is required with sp_private_key.');
    else {
      try {
        const cert = new X509Certificate(certBlocks[0]);
        spCertificate = certBlocks[0];
        if (spKey) {
          try {
            const key = createPrivateKey(spKey);
            const pub = createPublicKey(key).export({ format: 'der', type: 'spki' });
            if (!pub.equals(cert.publicKey.export({ format: 'der', type: 'spki' })))
              fail('settings.sp_private_key', 'The SP private key does not match sp_certificate.');
          } catch (err) {
            fail('settings.sp_private_key', `The SP private key does not read: ${(err as Error).message}.`);
          }
        }
      } catch (err) {
        fail('settings.sp_certificate', `The certificate does not read: ${(err as Error).message}.`);
      }
    }
  }
  if (sloUrl && !spKey)
    fail(
      'settings.slo_url',
      'Single logout needs sp_private_key and sp_certificate: its LogoutRequest and LogoutResponse are signed.',
    );
  return {
    row: {
      idp_entity_id: idpEntityId,
      sso_url: ssoUrl,
      slo_url: sloUrl,
      idp_certificates: certs,
      sp_entity_id: spEntityId,
      email_attribute: attribute('email'),
      first_name_attribute: attribute('first_name'),
      last_name_attribute: attribute('last_name'),
      groups_attribute: attribute('groups'),
      sp_certificate: spCertificate,
    },
    secret: spKey,
  };
}

/** The settings of a stored row for the flow (`spEntityId` defaulted for the connection). */
export function samlSettingsOf(
  row: Record<string, unknown>,
  secret: string,
  apiBaseUrl: string,
  connectionId: string,
): SamlSettings {
  const s = row as Partial<SamlSettingsRow>;
  return {
    idpEntityId: s.idp_entity_id ?? '',
    ssoUrl: s.sso_url ?? '',
    sloUrl: s.slo_url || null,
    idpCertificates: s.idp_certificates ?? [],
    spEntityId: s.sp_entity_id || samlUrls(apiBaseUrl, connectionId).metadata,
    emailAttribute: s.email_attribute || SAML_DEFAULT_ATTRIBUTES.email,
    firstNameAttribute: s.first_name_attribute || SAML_DEFAULT_ATTRIBUTES.first_name,
    lastNameAttribute: s.last_name_attribute || SAML_DEFAULT_ATTRIBUTES.last_name,
    groupsAttribute: s.groups_attribute || SAML_DEFAULT_ATTRIBUTES.groups,
    spCertificate: s.sp_certificate ?? null,
    spPrivateKey: secret || null,
  };
}

/**
 * The Instance API's view of a SAML connection's settings: everything but the private key
 * (`sp_private_key_set` says whether one is stored), the SP entity id as used, `slo_url` ('' when
 * none), and the URLs to enter at the IdP (`metadata_url`, `acs_url`, `sp_slo_url`: Meridian's single
 * logout service).
 */
export function samlSettingsJson(row: Record<string, unknown>, hasSecret: boolean, apiBaseUrl: string, id: string) {
  const s = samlSettingsOf(row, '', apiBaseUrl, id);
  const urls = samlUrls(apiBaseUrl, id);
  return {
    idp_entity_id: s.idpEntityId,
    sso_url: s.ssoUrl,
    slo_url: s.sloUrl ?? '',
    idp_certificates: s.idpCertificates,
    sp_entity_id: s.spEntityId,
    email_attribute: s.emailAttribute,
    first_name_attribute: s.firstNameAttribute,
    last_name_attribute: s.lastNameAttribute,
    groups_attribute: s.groupsAttribute,
    sp_certificate: s.spCertificate,
    sp_private_key_set: hasSecret,
    metadata_url: urls.metadata,
    acs_url: urls.acs,
    sp_slo_url: urls.slo,
  };
}

function urlOk(value: string): boolean {
  try {
    const url = new URL(value);
    if (url.protocol === 'https:') return true;
    return (
      url.protocol === 'http:' &&
      (url.hostname === 'localhost' || url.hostname === '[::1]' || /^127\./.test(url.hostname))
    );
  } catch {
    return false;
  }
}
