import { readFileSync } from 'node:fs';

/**
 * The OIDC connection configured by environment variables, for automated installs
 * (docs/sso-oidc.md): present when `OIDC_ISSUER` is set. Shown read-only by the Instance API
 * (`source: "environment"`); connections made through the API sit beside it.
 */
export interface OidcEnvConnection {
  name: string;
  issuer: string;
  clientId: string;
  clientSecret: string;
  domains: string[];
  allowPassword: boolean;
  jitProvisioning: boolean;
  scopes: string;
  groupsClaim: string;
  /** `OIDC_GROUP_ROLES`: `group=workspace-slug:role,…` (role 20, 15 or 5) */
  groupRoleMappings: { group: string; workspace_slug: string; role: number }[];
}

const DOMAIN = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,62}$/;

/** Whether `value` is a lower-case DNS domain name such as `example.com`. */
export function isEmailDomain(value: string): boolean {
  return DOMAIN.test(value);
}

function flag(name: string, value: string | undefined, def: boolean): boolean {
  if (value === undefined || value === '') return def;
  const v = value.trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(v)) return true;
  if (['0', 'false', 'no', 'off'].includes(v)) return false;
  throw new Error(`${name} must be true or false, not "${value}"`);
}

/**
 * Reads `OIDC_ISSUER`, `OIDC_CLIENT_ID`, `OIDC_CLIENT_SECRET`, `OIDC_DOMAINS` (comma separated),
 * `OIDC_NAME`, `OIDC_ALLOW_PASSWORD` (false), `OIDC_JIT` (true), `OIDC_SCOPES` ("openid email
 * profile"), `OIDC_GROUPS_CLAIM` ("groups"), `OIDC_GROUP_ROLES`. Null without `OIDC_ISSUER`; throws
 * an `Error` naming the variable for a bad or missing value (the caller makes it a `ConfigError`).
 */
export function oidcEnvConnection(env: Record<string, string | undefined>): OidcEnvConnection | null {
  const issuer = env.OIDC_ISSUER?.trim();
  if (!issuer) return null;
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    throw new Error(`OIDC_ISSUER must be a URL, not "${issuer}"`);
  }
  const loopback = url.hostname === 'localhost' || url.hostname === '[::1]' || /^127\./.test(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback))
    throw new Error(`OIDC_ISSUER must be an https URL (http only on a loopback address), not "${issuer}"`);
  const clientId = env.OIDC_CLIENT_ID?.trim();
  const clientSecret = env.OIDC_CLIENT_SECRET ?? '';
  if (!clientId) throw new Error('OIDC_CLIENT_ID is required with OIDC_ISSUER');
  if (!clientSecret) throw new Error('OIDC_CLIENT_SECRET is required with OIDC_ISSUER');
  const domains = [
    ...new Set(
      (env.OIDC_DOMAINS ?? '')
        .split(',')
        .map((d) => d.trim().toLowerCase())
        .filter(Boolean),
    ),
  ];
  if (domains.length === 0)
    throw new Error('OIDC_DOMAINS (the email domains the provider signs in) is required with OIDC_ISSUER');
  const bad = domains.filter((d) => !isEmailDomain(d));
  if (bad.length) throw new Error(`OIDC_DOMAINS holds invalid domains: ${bad.join(', ')}`);
  const groupRoleMappings = (env.OIDC_GROUP_ROLES ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((entry) => {
      const m = /^(.+)=([a-z0-9_-]+):(20|15|5)$/i.exec(entry);
      if (!m)
        throw new Error(`OIDC_GROUP_ROLES entry "${entry}" must read group=workspace-slug:role (role 20, 15 or 5)`);
      return { group: m[1].trim(), workspace_slug: m[2].toLowerCase(), role: Number(m[3]) };
    });
  return {
    name: env.OIDC_NAME?.trim() || 'OIDC',
    issuer,
    clientId,
    clientSecret,
    domains,
    allowPassword: flag('OIDC_ALLOW_PASSWORD', env.OIDC_ALLOW_PASSWORD, false),
    jitProvisioning: flag('OIDC_JIT', env.OIDC_JIT, true),
    scopes: env.OIDC_SCOPES?.trim() || 'openid email profile',
    groupsClaim: env.OIDC_GROUPS_CLAIM?.trim() || 'groups',
    groupRoleMappings,
  };
}

/**
 * A SAML or LDAP connection configured by environment variables (docs/sso-saml.md,
 * docs/sso-ldap.md): the same fields as a connection made through the Instance API, `settings`
 * in the API body's shape (snake_case, the write-only secret included). The variables are read and
 * their form checked here; `settings` is checked at start-up by the same rules as an API save
 * (`checkSsoEnvConnections` in the auth room), each refusal naming its variable (`variables`).
 */
export interface SsoEnvConnection {
  kind: 'saml' | 'ldap';
  name: string;
  domains: string[];
  allowPassword: boolean;
  jitProvisioning: boolean;
  groupRoleMappings: { group: string; workspace_slug: string; role: number }[];
  /** the settings as an Instance API body's `settings` (secret included) */
  settings: Record<string, unknown>;
  /** `settings.<key>` (the API's field name) → the variable it came from */
  variables: Record<string, string>;
}

type Env = Record<string, string | undefined>;

function domainsOf(env: Env, prefix: string, trigger: string): string[] {
  const name = `${prefix}_DOMAINS`;
  const domains = [
    ...new Set(
      (env[name] ?? '')
        .split(',')
        .map((d) => d.trim().toLowerCase())
        .filter(Boolean),
    ),
  ];
  if (domains.length === 0)
    throw new Error(`${name} (the email domains the connection signs in) is required with ${trigger}`);
  const bad = domains.filter((d) => !isEmailDomain(d));
  if (bad.length) throw new Error(`${name} holds invalid domains: ${bad.join(', ')}`);
  return domains;
}

function groupRolesOf(env: Env, prefix: string): SsoEnvConnection['groupRoleMappings'] {
  const name = `${prefix}_GROUP_ROLES`;
  return (env[name] ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((entry) => {
      const m = /^(.+)=([a-z0-9_-]+):(20|15|5)$/i.exec(entry);
      if (!m) throw new Error(`${name} entry "${entry}" must read group=workspace-slug:role (role 20, 15 or 5)`);
      return { group: m[1].trim(), workspace_slug: m[2].toLowerCase(), role: Number(m[3]) };
    });
}

/**
 * A PEM or secret value: the variable itself (a literal `\n` read as a line break, for env files
 * that hold one line), or the content of the file its `<NAME>_FILE` variable names; not both.
 */
function valueOrFile(env: Env, name: string, readFile: (path: string) => string, pem: boolean): string | undefined {
  const direct = env[name];
  const file = env[`${name}_FILE`]?.trim();
  if (direct !== undefined && direct !== '' && file) throw new Error(`Set ${name} or ${name}_FILE, not both`);
  if (file) {
    try {
      return readFile(file);
    } catch (err) {
      throw new Error(`${name}_FILE: cannot read "${file}": ${(err as Error).message}`);
    }
  }
  if (direct === undefined || direct === '') return undefined;
  return pem ? direct.replace(/\\n/g, '\n') : direct;
}

function integer(name: string, value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  if (!/^\d+$/.test(value.trim())) throw new Error(`${name} must be a whole number of milliseconds, not "${value}"`);
  return Number(value.trim());
}

/** Copies the set variables into `settings` under their API names, noting which variable gave each. */
function collect(
  pairs: [key: string, variable: string, value: unknown][],
): Pick<SsoEnvConnection, 'settings' | 'variables'> {
  const settings: Record<string, unknown> = {};
  const variables: Record<string, string> = {};
  for (const [key, variable, value] of pairs) {
    variables[`settings.${key}`] = variable;
    if (value !== undefined) settings[key] = value;
  }
  return { settings, variables };
}

const readUtf8 = (path: string) => readFileSync(path, 'utf8');

/**
 * Reads the `SAML_*` variables (docs/sso-saml.md): present when `SAML_IDP_ENTITY_ID` is set.
 * `SAML_SSO_URL`, `SAML_IDP_CERTIFICATES` (PEM, several concatenated; or `SAML_IDP_CERTIFICATES_FILE`),
 * `SAML_DOMAINS` (comma separated), `SAML_NAME` ("SAML"), `SAML_SP_ENTITY_ID`, `SAML_EMAIL_ATTRIBUTE`,
 * `SAML_FIRST_NAME_ATTRIBUTE`, `SAML_LAST_NAME_ATTRIBUTE`, `SAML_GROUPS_ATTRIBUTE`,
 * `SAML_SP_CERTIFICATE` and `SAML_SP_PRIVATE_KEY` (or their `_FILE`s; both or neither),
 * `SAML_SLO_URL` (the IdP's single logout URL; needs the SP key and certificate),
 * `SAML_ALLOW_PASSWORD` (false), `SAML_JIT` (true), `SAML_GROUP_ROLES`. Throws an `Error` naming the
 * variable for a bad form; the settings' own rules are checked at start-up by the auth room.
 */
export function samlEnvConnection(env: Env, readFile: (path: string) => string = readUtf8): SsoEnvConnection | null {
  const entityId = env.SAML_IDP_ENTITY_ID?.trim();
  if (!entityId) return null;
  const trigger = 'SAML_IDP_ENTITY_ID';
  if (!env.SAML_SSO_URL?.trim()) throw new Error(`SAML_SSO_URL is required with ${trigger}`);
  const certificates = valueOrFile(env, 'SAML_IDP_CERTIFICATES', readFile, true);
  if (!certificates?.trim())
    throw new Error(`SAML_IDP_CERTIFICATES (or SAML_IDP_CERTIFICATES_FILE) is required with ${trigger}`);
  return {
    kind: 'saml',
    name: env.SAML_NAME?.trim() || 'SAML',
    domains: domainsOf(env, 'SAML', trigger),
    allowPassword: flag('SAML_ALLOW_PASSWORD', env.SAML_ALLOW_PASSWORD, false),
    jitProvisioning: flag('SAML_JIT', env.SAML_JIT, true),
    groupRoleMappings: groupRolesOf(env, 'SAML'),
    ...collect([
      ['idp_entity_id', 'SAML_IDP_ENTITY_ID', entityId],
      ['sso_url', 'SAML_SSO_URL', env.SAML_SSO_URL?.trim()],
      ['idp_certificates', 'SAML_IDP_CERTIFICATES', certificates],
      ['sp_entity_id', 'SAML_SP_ENTITY_ID', env.SAML_SP_ENTITY_ID],
      ['email_attribute', 'SAML_EMAIL_ATTRIBUTE', env.SAML_EMAIL_ATTRIBUTE],
      ['first_name_attribute', 'SAML_FIRST_NAME_ATTRIBUTE', env.SAML_FIRST_NAME_ATTRIBUTE],
      ['last_name_attribute', 'SAML_LAST_NAME_ATTRIBUTE', env.SAML_LAST_NAME_ATTRIBUTE],
      ['groups_attribute', 'SAML_GROUPS_ATTRIBUTE', env.SAML_GROUPS_ATTRIBUTE],
      ['sp_certificate', 'SAML_SP_CERTIFICATE', valueOrFile(env, 'SAML_SP_CERTIFICATE', readFile, true)],
      ['sp_private_key', 'SAML_SP_PRIVATE_KEY', valueOrFile(env, 'SAML_SP_PRIVATE_KEY', readFile, true)],
      ['slo_url', 'SAML_SLO_URL', env.SAML_SLO_URL?.trim() || undefined],
    ]),
  };
}

/**
 * Reads the `LDAP_*` variables (docs/sso-ldap.md): present when `LDAP_URL` is set. `LDAP_START_TLS`
 * and `LDAP_ALLOW_PLAINTEXT` (false), `LDAP_CA_CERTIFICATE` (or `_FILE`), `LDAP_BIND_DN`,
 * `LDAP_BIND_PASSWORD` (or `_FILE`), `LDAP_BASE_DN`, `LDAP_USER_FILTER`, `LDAP_EMAIL_ATTRIBUTE`,
 * `LDAP_FIRST_NAME_ATTRIBUTE`, `LDAP_LAST_NAME_ATTRIBUTE`, `LDAP_DISPLAY_NAME_ATTRIBUTE`,
 * `LDAP_GROUPS_ATTRIBUTE` (`none`: no such attribute, the group search only),
 * `LDAP_GROUP_SEARCH_BASE`, `LDAP_GROUP_FILTER`, `LDAP_GROUP_NAME_ATTRIBUTE`,
 * `LDAP_CONNECT_TIMEOUT_MS`, `LDAP_TIMEOUT_MS`, `LDAP_DOMAINS`, `LDAP_NAME` ("LDAP"),
 * `LDAP_ALLOW_PASSWORD` (false), `LDAP_JIT` (true), `LDAP_GROUP_ROLES`. Throws as `samlEnvConnection`.
 */
export function ldapEnvConnection(env: Env, readFile: (path: string) => string = readUtf8): SsoEnvConnection | null {
  const url = env.LDAP_URL?.trim();
  if (!url) return null;
  const trigger = 'LDAP_URL';
  if (!env.LDAP_BIND_DN?.trim()) throw new Error(`LDAP_BIND_DN is required with ${trigger}`);
  const password = valueOrFile(env, 'LDAP_BIND_PASSWORD', readFile, false);
  if (!password) throw new Error(`LDAP_BIND_PASSWORD (or LDAP_BIND_PASSWORD_FILE) is required with ${trigger}`);
  if (!env.LDAP_BASE_DN?.trim()) throw new Error(`LDAP_BASE_DN is required with ${trigger}`);
  const groupsAttribute = env.LDAP_GROUPS_ATTRIBUTE?.trim();
  return {
    kind: 'ldap',
    name: env.LDAP_NAME?.trim() || 'LDAP',
    domains: domainsOf(env, 'LDAP', trigger),
    allowPassword: flag('LDAP_ALLOW_PASSWORD', env.LDAP_ALLOW_PASSWORD, false),
    jitProvisioning: flag('LDAP_JIT', env.LDAP_JIT, true),
    groupRoleMappings: groupRolesOf(env, 'LDAP'),
    ...collect([
      ['url', 'LDAP_URL', url],
      ['start_tls', 'LDAP_START_TLS', flag('LDAP_START_TLS', env.LDAP_START_TLS, false)],
      ['allow_plaintext', 'LDAP_ALLOW_PLAINTEXT', flag('LDAP_ALLOW_PLAINTEXT', env.LDAP_ALLOW_PLAINTEXT, false)],
      ['ca_certificate', 'LDAP_CA_CERTIFICATE', valueOrFile(env, 'LDAP_CA_CERTIFICATE', readFile, true)],
      ['bind_dn', 'LDAP_BIND_DN', env.LDAP_BIND_DN],
      ['bind_password', 'LDAP_BIND_PASSWORD', password],
      ['base_dn', 'LDAP_BASE_DN', env.LDAP_BASE_DN],
      ['user_filter', 'LDAP_USER_FILTER', env.LDAP_USER_FILTER],
      ['email_attribute', 'LDAP_EMAIL_ATTRIBUTE', env.LDAP_EMAIL_ATTRIBUTE],
      ['first_name_attribute', 'LDAP_FIRST_NAME_ATTRIBUTE', env.LDAP_FIRST_NAME_ATTRIBUTE],
      ['last_name_attribute', 'LDAP_LAST_NAME_ATTRIBUTE', env.LDAP_LAST_NAME_ATTRIBUTE],
      ['display_name_attribute', 'LDAP_DISPLAY_NAME_ATTRIBUTE', env.LDAP_DISPLAY_NAME_ATTRIBUTE],
      ['groups_attribute', 'LDAP_GROUPS_ATTRIBUTE', groupsAttribute?.toLowerCase() === 'none' ? '' : groupsAttribute],
      ['group_search_base', 'LDAP_GROUP_SEARCH_BASE', env.LDAP_GROUP_SEARCH_BASE],
      ['group_filter', 'LDAP_GROUP_FILTER', env.LDAP_GROUP_FILTER],
      ['group_name_attribute', 'LDAP_GROUP_NAME_ATTRIBUTE', env.LDAP_GROUP_NAME_ATTRIBUTE],
      [
        'connect_timeout_ms',
        'LDAP_CONNECT_TIMEOUT_MS',
        integer('LDAP_CONNECT_TIMEOUT_MS', env.LDAP_CONNECT_TIMEOUT_MS),
      ],
      ['timeout_ms', 'LDAP_TIMEOUT_MS', integer('LDAP_TIMEOUT_MS', env.LDAP_TIMEOUT_MS)],
    ]),
  };
}

/**
 * The `OIDC_*`, `SAML_*` and `LDAP_*` connections must not claim the same email domain: the
 * variables of the first two that share one are named.
 */
export function checkEnvDomainsApart(connections: { prefix: string; domains: string[] }[]): void {
  const owner = new Map<string, string>();
  for (const c of connections)
    for (const d of c.domains) {
      const other = owner.get(d);
      if (other) throw new Error(`${other}_DOMAINS and ${c.prefix}_DOMAINS both claim ${d}`);
      owner.set(d, c.prefix);
    }
}
