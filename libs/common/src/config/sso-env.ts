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
