import { X509Certificate } from 'node:crypto';

type Ldapts = typeof import('ldapts');
let ldaptsLibrary: Ldapts | undefined;
/** ldapts (with its ASN.1 stack), loaded with the first LDAP sign-in or directory check, not at every start. */
export function ldapts(): Ldapts {
  return (ldaptsLibrary ??= require('ldapts') as Ldapts);
}

/**
 * The settings of an LDAP connection (`kind: "ldap"`, docs/sso-ldap.md), as stored in the
 * connection's `settings` (snake_case, no secret) and as the sign-in uses them. The service
 * account's password is the connection's sealed secret.
 */
export interface LdapSettings {
  /** `ldaps://host[:port]` or `ldap://host[:port]` (StartTLS, or plain only with `allowPlaintext`) */
  url: string;
  /** upgrade an `ldap://` connection with StartTLS before binding (required unless `allowPlaintext`) */
  startTls: boolean;
  /** the admin's explicit opt-in to a plain `ldap://` connection without TLS (a test directory) */
  allowPlaintext: boolean;
  /** PEM of the CA(s) that signed the directory's certificate (a private CA); empty: the system's CAs */
  caCertificate: string;
  /** the service account's DN, bound to search for users */
  bindDn: string;
  /** where users are searched (subtree) */
  baseDn: string;
  /** the search filter, `{email}` replaced by the escaped email typed in the form */
  userFilter: string;
  emailAttribute: string;
  firstNameAttribute: string;
  lastNameAttribute: string;
  displayNameAttribute: string;
  /** the user entry's attribute listing its groups' DNs (`memberOf`); empty to use the group search only */
  groupsAttribute: string;
  /** when set, groups are also searched here with `groupFilter` (`{dn}` the user's DN, `{email}` the email) */
  groupSearchBase: string;
  groupFilter: string;
  /** the group entry's attribute giving its name (`cn`) */
  groupNameAttribute: string;
  /** milliseconds to establish the connection (TCP and TLS) */
  connectTimeoutMs: number;
  /** milliseconds for each operation (bind, search) */
  timeoutMs: number;
}

/** The body's `settings` of an LDAP connection (snake_case; `bind_password` write-only). */
export interface LdapSettingsInput {
  url?: string;
  start_tls?: boolean;
  allow_plaintext?: boolean;
  ca_certificate?: string;
  bind_dn?: string;
  bind_password?: string;
  base_dn?: string;
  user_filter?: string;
  email_attribute?: string;
  first_name_attribute?: string;
  last_name_attribute?: string;
  display_name_attribute?: string;
  groups_attribute?: string;
  group_search_base?: string;
  group_filter?: string;
  group_name_attribute?: string;
  connect_timeout_ms?: number;
  timeout_ms?: number;
}

/** The settings as the Instance API answers them: the stored ones and `bind_password_set`. */
export interface LdapSettingsJson {
  url: string;
  start_tls: boolean;
  allow_plaintext: boolean;
  ca_certificate: string;
  bind_dn: string;
  base_dn: string;
  user_filter: string;
  email_attribute: string;
  first_name_attribute: string;
  last_name_attribute: string;
  display_name_attribute: string;
  groups_attribute: string;
  group_search_base: string;
  group_filter: string;
  group_name_attribute: string;
  connect_timeout_ms: number;
  timeout_ms: number;
  bind_password_set: boolean;
}

export const LDAP_DEFAULTS = {
  userFilter: '(mail={email})',
  emailAttribute: 'mail',
  firstNameAttribute: 'givenName',
  lastNameAttribute: 'sn',
  displayNameAttribute: 'displayName',
  groupsAttribute: 'memberOf',
  groupFilter: '(member={dn})',
  groupNameAttribute: 'cn',
  connectTimeoutMs: 5000,
  timeoutMs: 10000,
} as const;

const ATTRIBUTE = /^[A-Za-z][A-Za-z0-9-]{0,127}$/;

/**
 * The search filter for an email: `{email}` in `template` replaced by the value escaped as RFC 4515
 * asks (`*`, `(`, `)`, `\` and NUL as `\2a`, `\28`, `\29`, `\5c`, `\00`; ldapts's `Filter.escape`),
 * so a typed email can never change the filter's structure. `{dn}` likewise (the group search).
 */
export function ldapFilter(template: string, values: { email?: string; dn?: string }): string {
  return template.replace(/\{(email|dn)\}/g, (_, key: 'email' | 'dn') => ldapts().Filter.escape(values[key] ?? ''));
}

/** Whether a filter template is balanced in its parentheses and wrapped in one pair, e.g. `(mail={email})`. */
export function filterShapeOk(filter: string): boolean {
  if (!filter.startsWith('(') || !filter.endsWith(')')) return false;
  let depth = 0;
  for (let i = 0; i < filter.length; i++) {
    const c = filter[i];
    if (c === '\\') i += 2;
    else if (c === '(') depth++;
    else if (c === ')' && --depth < 0) return false;
    if (depth === 0 && i < filter.length - 1) return false;
  }
  return depth === 0;
}

/** The CA PEM's certificates parse (node's X.509 parser); false for anything else. */
export function caPemOk(pem: string): boolean {
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g);
  if (!blocks || blocks.join('').replace(/\s/g, '') !== pem.replace(/\s/g, '')) return false;
  try {
    for (const block of blocks) new X509Certificate(block);
    return true;
  } catch {
    return false;
  }
}

function text(value: unknown): string {
  return typeof value === 'string' ? value.trim() : '';
}

function attr(value: unknown, fallback: string, field: string, fail: (f: string, m: string) => void, empty = false) {
  const v = text(value);
  if (!v) return empty && value === '' ? '' : fallback;
  if (!ATTRIBUTE.test(v)) fail(field, `"${v}" is not an attribute name.`);
  return v;
}

function millis(value: unknown, fallback: number, field: string, fail: (f: string, m: string) => void): number {
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 100 || value > 120_000) {
    fail(field, 'Milliseconds, an integer from 100 to 120000.');
    return fallback;
  }
  return value;
}

/**
 * Checks an LDAP connection's `settings` (refusals through `fail(field, message)`, field names
 * `settings.<name>`) and answers the settings to store and the service password. Refused: a URL
 * that is not `ldap://` or `ldaps://` with a host (and no path but `/`), `ldap://` without
 * `start_tls` unless `allow_plaintext`, StartTLS on `ldaps://`, a CA that is not PEM
 * certificates, no bind DN or password, no base DN, a filter without `{email}` or with unbalanced
 * parentheses, a malformed attribute name, a timeout outside 100–120000 ms.
 */
export function checkLdapSettings(
  s: LdapSettingsInput,
  fail: (field: string, message: string) => void,
): { settings: LdapSettings; secret: string } {
  const url = text(s.url);
  let scheme = '';
  try {
    const parsed = new URL(url);
    scheme = parsed.protocol;
    if (
      !['ldap:', 'ldaps:'].includes(scheme) ||
      !parsed.hostname ||
      (parsed.pathname !== '' && parsed.pathname !== '/') ||
      parsed.search ||
      parsed.username
    )
      throw new Error('bad');
  } catch {
    fail('settings.url', 'The URL must be ldaps://host[:port] or ldap://host[:port] (with StartTLS).');
  }
  const startTls = s.start_tls === true;
  const allowPlaintext = s.allow_plaintext === true;
  if (scheme === 'ldaps:' && startTls)
    fail('settings.start_tls', 'StartTLS is for ldap:// URLs; ldaps:// is TLS already.');
  if (scheme === 'ldap:' && !startTls && !allowPlaintext) {
    fail(
      'settings.start_tls',
      'An ldap:// URL needs start_tls: true (or use ldaps://); a plain connection only with allow_plaintext: true.',
    );
  }
  const caCertificate = typeof s.ca_certificate === 'string' ? s.ca_certificate.trim() : '';
  if (caCertificate && (caCertificate.length > 65_536 || !caPemOk(caCertificate)))
    fail('settings.ca_certificate', 'The CA certificate must be PEM (-----BEGIN CERTIFICATE----- …).');
  const bindDn = text(s.bind_dn);
  if (!bindDn || bindDn.length > 1000) fail('settings.bind_dn', "The service account's bind DN is required.");
  const secret = typeof s.bind_password === 'string' ? s.bind_password : '';
  if (!secret || secret.length > 4000) fail('settings.bind_password', "The service account's password is required.");
  const baseDn = text(s.base_dn);
  if (!baseDn || baseDn.length > 1000 || !baseDn.includes('=')) {
    fail('settings.base_dn', 'The base DN where users are searched is required (e.g. "ou=people,dc=example,dc=com").');
  }
  const userFilter = text(s.user_filter) || LDAP_DEFAULTS.userFilter;
  if (!userFilter.includes('{email}') || !filterShapeOk(userFilter) || userFilter.length > 1000) {
    fail('settings.user_filter', 'A filter in parentheses with {email}, e.g. "(mail={email})".');
  }
  const groupSearchBase = text(s.group_search_base);
  const groupFilter = text(s.group_filter) || LDAP_DEFAULTS.groupFilter;
  if (!filterShapeOk(groupFilter) || groupFilter.length > 1000) {
    fail('settings.group_filter', 'A filter in parentheses, e.g. "(member={dn})".');
  }
  const settings: LdapSettings = {
    url: url.replace(/\/$/, ''),
    startTls,
    allowPlaintext,
    caCertificate,
    bindDn,
    baseDn,
    userFilter,
    emailAttribute: attr(s.email_attribute, LDAP_DEFAULTS.emailAttribute, 'settings.email_attribute', fail),
    firstNameAttribute: attr(
      s.first_name_attribute,
      LDAP_DEFAULTS.firstNameAttribute,
      'settings.first_name_attribute',
      fail,
    ),
    lastNameAttribute: attr(
      s.last_name_attribute,
      LDAP_DEFAULTS.lastNameAttribute,
      'settings.last_name_attribute',
      fail,
    ),
    displayNameAttribute: attr(
      s.display_name_attribute,
      LDAP_DEFAULTS.displayNameAttribute,
      'settings.display_name_attribute',
      fail,
    ),
    groupsAttribute: attr(s.groups_attribute, LDAP_DEFAULTS.groupsAttribute, 'settings.groups_attribute', fail, true),
    groupSearchBase,
    groupFilter,
    groupNameAttribute: attr(
      s.group_name_attribute,
      LDAP_DEFAULTS.groupNameAttribute,
      'settings.group_name_attribute',
      fail,
    ),
    connectTimeoutMs: millis(s.connect_timeout_ms, LDAP_DEFAULTS.connectTimeoutMs, 'settings.connect_timeout_ms', fail),
    timeoutMs: millis(s.timeout_ms, LDAP_DEFAULTS.timeoutMs, 'settings.timeout_ms', fail),
  };
  return { settings, secret };
}

/** The stored form (the connection's `settings` column). */
export function ldapSettingsRow(s: LdapSettings): Record<string, unknown> {
  const row: Record<string, unknown> = { ...ldapSettingsJson(s, false) };
  delete row.bind_password_set;
  return row;
}

/** The stored column read back (defaults for what an older row lacks). */
export function ldapSettingsOf(row: Record<string, unknown>): LdapSettings {
  const s = row as Partial<LdapSettingsJson>;
  return {
    url: s.url ?? '',
    startTls: s.start_tls === true,
    allowPlaintext: s.allow_plaintext === true,
    caCertificate: s.ca_certificate ?? '',
    bindDn: s.bind_dn ?? '',
    baseDn: s.base_dn ?? '',
    userFilter: s.user_filter || LDAP_DEFAULTS.userFilter,
    emailAttribute: s.email_attribute || LDAP_DEFAULTS.emailAttribute,
    firstNameAttribute: s.first_name_attribute || LDAP_DEFAULTS.firstNameAttribute,
    lastNameAttribute: s.last_name_attribute || LDAP_DEFAULTS.lastNameAttribute,
    displayNameAttribute: s.display_name_attribute || LDAP_DEFAULTS.displayNameAttribute,
    groupsAttribute: s.groups_attribute ?? LDAP_DEFAULTS.groupsAttribute,
    groupSearchBase: s.group_search_base ?? '',
    groupFilter: s.group_filter || LDAP_DEFAULTS.groupFilter,
    groupNameAttribute: s.group_name_attribute || LDAP_DEFAULTS.groupNameAttribute,
    connectTimeoutMs: s.connect_timeout_ms ?? LDAP_DEFAULTS.connectTimeoutMs,
    timeoutMs: s.timeout_ms ?? LDAP_DEFAULTS.timeoutMs,
  };
}

/** The Instance API's view of the settings. */
export function ldapSettingsJson(s: LdapSettings, passwordSet: boolean): LdapSettingsJson {
  return {
    url: s.url,
    start_tls: s.startTls,
    allow_plaintext: s.allowPlaintext,
    ca_certificate: s.caCertificate,
    bind_dn: s.bindDn,
    base_dn: s.baseDn,
    user_filter: s.userFilter,
    email_attribute: s.emailAttribute,
    first_name_attribute: s.firstNameAttribute,
    last_name_attribute: s.lastNameAttribute,
    display_name_attribute: s.displayNameAttribute,
    groups_attribute: s.groupsAttribute,
    group_search_base: s.groupSearchBase,
    group_filter: s.groupFilter,
    group_name_attribute: s.groupNameAttribute,
    connect_timeout_ms: s.connectTimeoutMs,
    timeout_ms: s.timeoutMs,
    bind_password_set: passwordSet,
  };
}

/**
 * An update's settings: the stored ones (`row`, the column) overlaid with the body's, the stored
 * password when none is sent, as a create's input for `checkLdapSettings`.
 */
export function mergeLdapSettings(
  input: LdapSettingsInput | undefined,
  row: Record<string, unknown>,
  storedSecret: string,
): LdapSettingsInput {
  const stored = ldapSettingsRow(ldapSettingsOf(row)) as LdapSettingsInput;
  return { ...stored, ...(input ?? {}), bind_password: input?.bind_password ?? storedSecret };
}
