import {
  APP_CONFIG,
  AppConfig,
  AuditActor,
  ConfigError,
  isEmailDomain,
  MeridianError,
  OidcEnvConnection,
  SsoEnvConnection,
  validationError,
} from '#common';
import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { recordAudit } from '../kernel/audit';
import { SecretBox } from '../instance-config';
import { iso } from '../kernel/time';
import { WorkspaceService } from '../workspace';
import { AuthRepository } from './auth.repository';
import { GroupRoleMapping, SsoConnection, SsoKind } from './sso-connection.entity';
import { discoverOidc, OidcSettings } from './oidc-client';
import { checkLdapDirectory, probeLdapDirectory } from './ldap-client';
import {
  checkLdapSettings,
  LdapSettings,
  LdapSettingsInput,
  LdapSettingsJson,
  ldapSettingsJson,
  ldapSettingsOf,
  ldapSettingsRow,
  mergeLdapSettings,
} from './ldap-settings';
import { checkSamlSettings, SamlSettings, samlSettingsJson, samlSettingsOf, samlUrls } from './saml-settings';

/** The id the connection of the `OIDC_*` environment variables answers to (it has no row). */
export const ENV_SSO_CONNECTION_ID = '00000000-0000-4000-8000-000000000e40';
/** The id of the `SAML_*` variables' connection (its URLs: `/auth/saml/<this id>/…`). */
export const ENV_SAML_CONNECTION_ID = '00000000-0000-4000-8000-000000000e41';
/** The id of the `LDAP_*` variables' connection. */
export const ENV_LDAP_CONNECTION_ID = '00000000-0000-4000-8000-000000000e42';

/** A connection of the environment: as the flows use it and as the Instance API shows it. */
interface EnvConnection {
  resolved: ResolvedSsoConnection;
  view: SsoConnectionJson;
}

/**
 * Checks the `SAML_*` and `LDAP_*` connections of the configuration by the rules an Instance API
 * save applies (`checkSamlSettings`, `checkLdapSettings`; the directory is not contacted), and
 * answers them ready for the flows. Throws `ConfigError` naming the variable of every refused
 * setting, e.g. `Invalid configuration: SAML_SSO_URL: The identity provider's SSO URL must be …`.
 * The server calls it right after reading its configuration, so a bad value stops the start.
 */
export function checkSsoEnvConnections(config: AppConfig): {
  saml: { settings: SamlSettings; row: Record<string, unknown> } | null;
  ldap: { settings: LdapSettings; bindPassword: string } | null;
} {
  const problems: string[] = [];
  const failFor = (env: SsoEnvConnection) => (field: string, message: string) =>
    problems.push(`${env.variables[field] ?? field}: ${message}`);
  let saml: { settings: SamlSettings; row: Record<string, unknown> } | null = null;
  let ldap: { settings: LdapSettings; bindPassword: string } | null = null;
  if (config.samlEnv) {
    const checked = checkSamlSettings(config.samlEnv.settings, failFor(config.samlEnv));
    const row = { ...checked.row } as Record<string, unknown>;
    saml = { settings: samlSettingsOf(row, checked.secret, config.apiBaseUrl, ENV_SAML_CONNECTION_ID), row };
  }
  if (config.ldapEnv) {
    const checked = checkLdapSettings(config.ldapEnv.settings as LdapSettingsInput, failFor(config.ldapEnv));
    ldap = { settings: checked.settings, bindPassword: checked.secret };
  }
  if (problems.length) throw new ConfigError(`Invalid configuration: ${problems.join('; ')}`);
  return { saml, ldap };
}

/**
 * Contacts the directory of the `LDAP_*` connection at start-up, as an Instance API save does
 * (`probeLdapDirectory`): a directory that answers and refuses (the service bind, a missing base
 * DN or group search base) is a configuration error, answered as `fatal` naming its variable
 * (`Invalid configuration: LDAP_BIND_PASSWORD: …`), which stops the start; a directory that does
 * not answer is a `warning` only (it may be down while Meridian starts; its sign-ins then answer
 * 503 `LDAP_UNAVAILABLE`). Both null without an `LDAP_*` connection or when all holds.
 */
export async function checkLdapEnvDirectory(
  config: AppConfig,
  checked: ReturnType<typeof checkSsoEnvConnections>,
): Promise<{ fatal: string | null; warning: string | null }> {
  if (!checked.ldap || !config.ldapEnv) return { fatal: null, warning: null };
  const problem = await probeLdapDirectory(checked.ldap.settings, checked.ldap.bindPassword);
  if (!problem) return { fatal: null, warning: null };
  const variable = config.ldapEnv.variables[`settings.${problem.setting}`] ?? problem.setting;
  if (problem.reached) return { fatal: `Invalid configuration: ${variable}: ${problem.detail}`, warning: null };
  return { fatal: null, warning: `${problem.detail} LDAP sign-ins answer 503 LDAP_UNAVAILABLE until it does.` };
}

const SECRET_PURPOSE = 'meridian:sso-connection:v1';
const ROLES = new Set([5, 15, 20]);

/** A connection as the sign-in flows use it: everything, the secret in clear. */
export interface ResolvedSsoConnection {
  id: string;
  kind: SsoKind;
  name: string;
  domains: string[];
  allowPassword: boolean;
  jitProvisioning: boolean;
  groupRoleMappings: GroupRoleMapping[];
  /** an `oidc` connection's settings (empty strings for another kind) */
  oidc: OidcSettings;
  /** an `ldap` connection's settings and service password (docs/sso-ldap.md); null for other kinds */
  ldap: { settings: LdapSettings; bindPassword: string } | null;
  /** a `saml` connection's settings (docs/sso-saml.md), else null */
  saml: SamlSettings | null;
}

/**
 * A connection as the Instance API answers it (`GET /api/instances/sso-connections/`): the
 * client secret never, only `client_secret_set`.
 */
export interface SsoConnectionJson {
  id: string;
  kind: SsoKind;
  name: string;
  is_enabled: boolean;
  domains: string[];
  allow_password: boolean;
  jit_provisioning: boolean;
  /** `saml`: `samlSettingsJson` (docs/sso-saml.md) */
  settings:
    | { issuer: string; client_id: string; scopes: string; groups_claim: string; client_secret_set: boolean }
    | LdapSettingsJson
    | ReturnType<typeof samlSettingsJson>;
  group_role_mappings: GroupRoleMapping[];
  /** the URL to register at the provider as redirect URI (`saml`: the assertion consumer service URL) */
  redirect_uri: string;
  /** `database` (made through this API) or `environment` (the `OIDC_*` variables; read-only) */
  source: 'database' | 'environment';
  created_at: string | null;
  updated_at: string | null;
}

/** The body of a create (all required but the defaulted ones) or an update (any subset). */
export interface SsoConnectionInput {
  kind?: string;
  name?: string;
  is_enabled?: boolean;
  domains?: string[];
  allow_password?: boolean;
  jit_provisioning?: boolean;
  /** `saml`: see `checkSamlSettings` */
  settings?: {
    issuer?: string;
    client_id?: string;
    client_secret?: string;
    scopes?: string;
    groups_claim?: string;
    [saml: string]: unknown;
  } & LdapSettingsInput;
  group_role_mappings?: GroupRoleMapping[];
}

/**
 * The instance's enterprise sign-in connections (docs/sso-oidc.md): the ones stored through the
 * Instance API and the one of the `OIDC_*` environment variables. Each owns email domains; an email
 * of such a domain signs in through the connection's provider. Saving checks the configuration
 * against the provider (OIDC discovery), so a wrong one is refused then and not at a user's sign-in.
 */
@Injectable()
export class SsoConnectionService {
  private readonly box: SecretBox;
  /** the `SAML_*` and `LDAP_*` connections, checked once (a bad value stops the start) */
  private readonly checkedEnv: ReturnType<typeof checkSsoEnvConnections>;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly repo: AuthRepository,
    private readonly workspaces: WorkspaceService,
  ) {
    this.box = new SecretBox(config.secret.key, SECRET_PURPOSE);
    this.checkedEnv = checkSsoEnvConnections(config);
  }

  /**
   * The connections of the `OIDC_*`, `SAML_*` and `LDAP_*` variables, in that order; built on each
   * use, as their URLs follow `API_BASE_URL`.
   */
  private get envs(): EnvConnection[] {
    return this.envConnections();
  }

  private env(id: string): EnvConnection | undefined {
    return this.envs.find((e) => e.resolved.id === id);
  }

  /** The callback every OIDC provider redirects to: `API_BASE_URL/auth/oidc/callback/`. */
  redirectUri(): string {
    return `${this.config.apiBaseUrl}/auth/oidc/callback/`;
  }

  /** 200: every connection, the environment's first. */
  async list(): Promise<SsoConnectionJson[]> {
    const rows = await this.repo.listSsoConnections();
    const domains = await this.repo.ssoDomainsOf(rows.map((r) => r.id));
    return [...this.envs.map((e) => e.view), ...rows.map((r) => this.view(r, domains.get(r.id) ?? []))];
  }

  /** 200; 404 `NOT_FOUND`. */
  async get(id: string): Promise<SsoConnectionJson> {
    const env = this.env(id);
    if (env) return env.view;
    const row = await this.repo.findSsoConnection(id);
    if (!row) throw new MeridianError('NOT_FOUND');
    return this.view(row, (await this.repo.ssoDomainsOf([id])).get(id) ?? []);
  }

  /**
   * Creates a connection. 422 `VALIDATION_ERROR` naming the fields (kind other than `oidc` or
   * `ldap`, no domain, a malformed domain, issuer not an https URL, no client id or secret, an LDAP
   * setting refused by `checkLdapSettings`, a mapping with an unknown workspace or a role other than
   * 20/15/5); 409 `SSO_DOMAIN_TAKEN`; 422 `SSO_DISCOVERY_FAILED` (with the provider's answer) when
   * the issuer's discovery document cannot be read or lacks what the flow needs; 422
   * `LDAP_CHECK_FAILED` (the cause in `detail`) when the directory cannot be reached, refuses the
   * service bind or lacks the base DN. Nothing is stored on any refusal.
   */
  async create(input: SsoConnectionInput, actor: AuditActor): Promise<SsoConnectionJson> {
    const actorId = actor.userId;
    const checked = await this.check(input, null);
    const row = await this.repo.saveSsoConnection(
      {
        kind: checked.kind,
        name: checked.name,
        isEnabled: checked.isEnabled,
        allowPassword: checked.allowPassword,
        jitProvisioning: checked.jitProvisioning,
        settings: checked.settings,
        secret: checked.secret ? this.box.seal(checked.secret) : null,
        groupRoleMappings: checked.mappings,
        createdById: actorId,
        updatedById: actorId,
      },
      checked.domains,
      (em, saved) => this.audit(em, 'instance.sso_connection_created', actor, saved),
    );
    return this.view(row, checked.domains);
  }

  /**
   * Changes the given fields (the secret only when `settings.client_secret`, or an LDAP
   * connection's `settings.bind_password`, is sent), checked as a
   * create with the stored values for the rest. 404 `NOT_FOUND`; 409 `SSO_CONNECTION_READ_ONLY` for
   * the environment's connection; the create's 422 and 409.
   */
  async update(id: string, input: SsoConnectionInput, actor: AuditActor): Promise<SsoConnectionJson> {
    const actorId = actor.userId;
    if (this.env(id)) throw new MeridianError('SSO_CONNECTION_READ_ONLY');
    const row = await this.repo.findSsoConnection(id);
    if (!row) throw new MeridianError('NOT_FOUND');
    const current = (await this.repo.ssoDomainsOf([id])).get(id) ?? [];
    const s = row.settings as Record<string, string>;
    const merged: SsoConnectionInput = {
      kind: input.kind ?? row.kind,
      name: input.name ?? row.name,
      is_enabled: input.is_enabled ?? row.isEnabled,
      domains: input.domains ?? current,
      allow_password: input.allow_password ?? row.allowPassword,
      jit_provisioning: input.jit_provisioning ?? row.jitProvisioning,
      settings:
        (input.kind ?? row.kind) === 'ldap'
          ? (mergeLdapSettings(
              input.settings,
              row.settings,
              row.secret ? (this.box.open(row.secret) ?? '') : '',
            ) as SsoConnectionInput['settings'])
          : {
              issuer: input.settings?.issuer ?? s.issuer,
              client_id: input.settings?.client_id ?? s.client_id,
              client_secret: input.settings?.client_secret ?? (row.secret ? (this.box.open(row.secret) ?? '') : ''),
              scopes: input.settings?.scopes ?? s.scopes,
              groups_claim: input.settings?.groups_claim ?? s.groups_claim,
            },
      group_role_mappings: input.group_role_mappings ?? row.groupRoleMappings,
    };
    if (row.kind === 'saml') {
      // the stored settings, the sent ones over them; the private key only when sent
      const key = row.secret ? (this.box.open(row.secret) ?? '') : '';
      merged.settings = { ...row.settings, sp_private_key: key, ...(input.settings ?? {}) };
    }
    if (input.kind !== undefined && input.kind !== row.kind)
      throw validationError({ kind: ['The kind of a connection cannot be changed; make a new one.'] });
    const checked = await this.check(merged, id);
    const storedSecret = row.secret ? (this.box.open(row.secret) ?? '') : '';
    const fields = changedFields(row, current, checked, storedSecret);
    const saved = await this.repo.saveSsoConnection(
      {
        id,
        kind: checked.kind,
        name: checked.name,
        isEnabled: checked.isEnabled,
        allowPassword: checked.allowPassword,
        jitProvisioning: checked.jitProvisioning,
        settings: checked.settings,
        secret: checked.secret ? this.box.seal(checked.secret) : null,
        groupRoleMappings: checked.mappings,
        updatedById: actorId,
      },
      checked.domains,
      (em, fresh) =>
        fields.length ? this.audit(em, 'instance.sso_connection_updated', actor, fresh, { fields }) : Promise.resolve(),
    );
    return this.view(saved, checked.domains);
  }

  /**
   * 204; 404 `NOT_FOUND`; 409 `SSO_CONNECTION_READ_ONLY` for the environment's connection. The
   * `instance.sso_connection_deleted` audit row is written in the delete's transaction.
   */
  async remove(id: string, actor: AuditActor): Promise<void> {
    if (this.env(id)) throw new MeridianError('SSO_CONNECTION_READ_ONLY');
    const deleted = await this.repo.deleteSsoConnection(id, (em, row) =>
      this.audit(em, 'instance.sso_connection_deleted', actor, row),
    );
    if (!deleted) throw new MeridianError('NOT_FOUND');
  }

  /**
   * One `instance.sso_connection_*` audit row (docs/audit.md) in the change's transaction: the
   * connection's id (target), `kind`, `name`, and for an update the names of the fields that
   * changed (`settings.<name>` for a setting; a write-only secret by its name only, never its value).
   */
  private audit(
    em: EntityManager,
    event: 'instance.sso_connection_created' | 'instance.sso_connection_updated' | 'instance.sso_connection_deleted',
    actor: AuditActor,
    row: SsoConnection,
    extra: Record<string, unknown> = {},
  ): Promise<void> {
    return recordAudit(em, {
      event,
      actor,
      target: { type: 'sso_connection', id: row.id },
      metadata: { kind: row.kind, name: row.name, ...extra },
    });
  }

  /** The enabled connection owning the email's domain, or null (the environment's first). */
  async forEmail(email: string): Promise<ResolvedSsoConnection | null> {
    const domain = email
      .slice(email.lastIndexOf('@') + 1)
      .trim()
      .toLowerCase();
    if (!domain || !email.includes('@')) return null;
    const env = this.envs.find((e) => e.resolved.domains.includes(domain));
    if (env) return env.resolved;
    const row = await this.repo.ssoConnectionOfDomain(domain);
    if (!row || !row.isEnabled) return null;
    return this.resolve(row);
  }

  /** The enabled connection with this id, or null. */
  async byId(id: string): Promise<ResolvedSsoConnection | null> {
    const env = this.env(id);
    if (env) return env.resolved;
    if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
    const row = await this.repo.findSsoConnection(id);
    if (!row || !row.isEnabled) return null;
    return this.resolve(row);
  }

  private async resolve(row: SsoConnection): Promise<ResolvedSsoConnection | null> {
    const s = row.settings as Record<string, string>;
    // sealed under another SECRET_KEY: the connection still owns its domains (no password sign-in
    // opens for them), but cannot sign in until the secret is set again (SSO_NOT_CONFIGURED)
    const secret = row.secret ? (this.box.open(row.secret) ?? '') : '';
    const domains = (await this.repo.ssoDomainsOf([row.id])).get(row.id) ?? [];
    return {
      id: row.id,
      kind: row.kind,
      name: row.name,
      domains,
      allowPassword: row.allowPassword,
      jitProvisioning: row.jitProvisioning,
      groupRoleMappings: row.groupRoleMappings ?? [],
      ldap: row.kind === 'ldap' ? { settings: ldapSettingsOf(row.settings), bindPassword: secret } : null,
      oidc: {
        issuer: s.issuer ?? '',
        clientId: s.client_id ?? '',
        // another kind's secret is no OIDC client secret: an OIDC flow of it is SSO_NOT_CONFIGURED
        clientSecret: row.kind === 'oidc' ? secret : '',
        scopes: s.scopes || 'openid email profile',
        groupsClaim: s.groups_claim || 'groups',
      },
      saml: row.kind === 'saml' ? samlSettingsOf(row.settings, secret, this.config.apiBaseUrl, row.id) : null,
    };
  }

  /** The environment's connections (`checkSsoEnvConnections`; a bad value is a `ConfigError`). */
  private envConnections(): EnvConnection[] {
    const out: EnvConnection[] = [];
    const oidc = this.config.oidcEnv;
    if (oidc) out.push({ resolved: this.resolveEnv(oidc), view: this.envView(oidc) });
    const checked = this.checkedEnv;
    const common = (env: SsoEnvConnection, id: string) => ({
      id,
      kind: env.kind,
      name: env.name,
      domains: env.domains,
      allowPassword: env.allowPassword,
      jitProvisioning: env.jitProvisioning,
      groupRoleMappings: env.groupRoleMappings,
      oidc: { issuer: '', clientId: '', clientSecret: '', scopes: 'openid email profile', groupsClaim: 'groups' },
    });
    const viewOf = (env: SsoEnvConnection, id: string, settings: SsoConnectionJson['settings'], redirect: string) => ({
      id,
      kind: env.kind,
      name: env.name,
      is_enabled: true,
      domains: env.domains,
      allow_password: env.allowPassword,
      jit_provisioning: env.jitProvisioning,
      settings,
      group_role_mappings: env.groupRoleMappings,
      redirect_uri: redirect,
      source: 'environment' as const,
      created_at: null,
      updated_at: null,
    });
    const samlEnv = this.config.samlEnv;
    if (samlEnv && checked.saml) {
      const id = ENV_SAML_CONNECTION_ID;
      const key = checked.saml.settings.spPrivateKey ?? '';
      out.push({
        resolved: {
          ...common(samlEnv, id),
          ldap: null,
          saml: samlSettingsOf(checked.saml.row, key, this.config.apiBaseUrl, id),
        },
        view: viewOf(
          samlEnv,
          id,
          samlSettingsJson(checked.saml.row, !!key, this.config.apiBaseUrl, id),
          samlUrls(this.config.apiBaseUrl, id).acs,
        ),
      });
    }
    const ldapEnv = this.config.ldapEnv;
    if (ldapEnv && checked.ldap) {
      const id = ENV_LDAP_CONNECTION_ID;
      out.push({
        resolved: { ...common(ldapEnv, id), ldap: checked.ldap, saml: null },
        view: viewOf(ldapEnv, id, ldapSettingsJson(checked.ldap.settings, true), this.redirectUri()),
      });
    }
    return out;
  }

  private resolveEnv(env: OidcEnvConnection): ResolvedSsoConnection {
    return {
      id: ENV_SSO_CONNECTION_ID,
      kind: 'oidc',
      name: env.name,
      domains: env.domains,
      allowPassword: env.allowPassword,
      jitProvisioning: env.jitProvisioning,
      groupRoleMappings: env.groupRoleMappings,
      ldap: null,
      oidc: {
        issuer: env.issuer,
        clientId: env.clientId,
        clientSecret: env.clientSecret,
        scopes: env.scopes,
        groupsClaim: env.groupsClaim,
      },
      saml: null,
    };
  }

  private async check(input: SsoConnectionInput, id: string | null) {
    const errors: Record<string, string[]> = {};
    const fail = (field: string, message: string) => (errors[field] ??= []).push(message);
    const kind = input.kind ?? 'oidc';
    if (kind !== 'oidc' && kind !== 'ldap' && kind !== 'saml') fail('kind', 'The kind is "oidc", "saml" or "ldap".');
    const name = typeof input.name === 'string' ? input.name.trim() : '';
    if (!name || name.length > 255) fail('name', 'A name of 1 to 255 characters is required.');
    const domains = Array.isArray(input.domains)
      ? [...new Set(input.domains.map((d) => (typeof d === 'string' ? d.trim().toLowerCase() : '')))]
      : [];
    if (domains.length === 0) fail('domains', 'At least one email domain (e.g. "example.com") is required.');
    else if (domains.length > 100) fail('domains', 'At most 100 domains.');
    const bad = domains.filter((d) => !isEmailDomain(d));
    if (bad.length) fail('domains', `Not email domains: ${bad.join(', ')}.`);
    const s = input.settings ?? {};
    // the kind's settings: checked here, and against the provider or directory once all else is right
    const kindSettings =
      kind === 'ldap' ? checkLdapKind(s, fail) : kind === 'saml' ? checkSamlKind(s, fail) : checkOidcKind(s, fail);
    const mappings: GroupRoleMapping[] = [];
    const raw = input.group_role_mappings ?? [];
    if (!Array.isArray(raw) || raw.length > 500) fail('group_role_mappings', 'A list of at most 500 mappings.');
    else {
      for (const m of raw) {
        const ok =
          m &&
          typeof m.group === 'string' &&
          m.group.trim() !== '' &&
          typeof m.workspace_slug === 'string' &&
          ROLES.has(m.role);
        if (!ok) fail('group_role_mappings', 'Each mapping is {group, workspace_slug, role: 20, 15 or 5}.');
        else mappings.push({ group: m.group.trim(), workspace_slug: m.workspace_slug.trim(), role: m.role });
      }
      const unknown = await this.workspaces.unknownSlugs([...new Set(mappings.map((m) => m.workspace_slug))]);
      if (unknown.length) fail('group_role_mappings', `Unknown workspaces: ${unknown.join(', ')}.`);
    }
    if (Object.keys(errors).length) throw validationError(errors);
    const envDomains = this.envs.flatMap((e) => e.resolved.domains);
    const taken = [...domains.filter((d) => envDomains.includes(d)), ...(await this.repo.ssoDomainsTaken(domains, id))];
    if (taken.length) {
      throw new MeridianError('SSO_DOMAIN_TAKEN', `These domains belong to another connection: ${taken.join(', ')}.`);
    }
    await kindSettings.verify();
    return {
      kind: kind as SsoKind,
      name,
      domains,
      isEnabled: input.is_enabled ?? true,
      allowPassword: input.allow_password ?? false,
      jitProvisioning: input.jit_provisioning ?? true,
      settings: kindSettings.settings,
      secret: kindSettings.secret,
      mappings,
    };
  }

  private view(row: SsoConnection, domains: string[]): SsoConnectionJson {
    const s = row.settings as Record<string, string>;
    const ldap = row.kind === 'ldap' ? ldapSettingsJson(ldapSettingsOf(row.settings), !!row.secret) : null;
    return {
      id: row.id,
      kind: row.kind,
      name: row.name,
      is_enabled: row.isEnabled,
      domains,
      allow_password: row.allowPassword,
      jit_provisioning: row.jitProvisioning,
      settings:
        ldap ??
        (row.kind === 'saml'
          ? samlSettingsJson(row.settings, !!row.secret, this.config.apiBaseUrl, row.id)
          : {
              issuer: s.issuer,
              client_id: s.client_id,
              scopes: s.scopes,
              groups_claim: s.groups_claim,
              client_secret_set: !!row.secret,
            }),
      group_role_mappings: row.groupRoleMappings ?? [],
      redirect_uri: row.kind === 'saml' ? samlUrls(this.config.apiBaseUrl, row.id).acs : this.redirectUri(),
      source: 'database',
      created_at: iso(row.createdAt),
      updated_at: iso(row.updatedAt),
    };
  }

  private envView(env: OidcEnvConnection): SsoConnectionJson {
    return {
      id: ENV_SSO_CONNECTION_ID,
      kind: 'oidc',
      name: env.name,
      is_enabled: true,
      domains: env.domains,
      allow_password: env.allowPassword,
      jit_provisioning: env.jitProvisioning,
      settings: {
        issuer: env.issuer,
        client_id: env.clientId,
        scopes: env.scopes,
        groups_claim: env.groupsClaim,
        client_secret_set: true,
      },
      group_role_mappings: env.groupRoleMappings,
      redirect_uri: this.redirectUri(),
      source: 'environment',
      created_at: null,
      updated_at: null,
    };
  }
}

/** The write-only secret of each kind, by its field name in `settings`. */
const SECRET_FIELD: Record<SsoKind, string> = {
  oidc: 'client_secret',
  ldap: 'bind_password',
  saml: 'sp_private_key',
};

/**
 * The names of what an update changes (`name`, `is_enabled`, `domains`, `allow_password`,
 * `jit_provisioning`, `group_role_mappings`, `settings.<key>`, and the kind's secret as
 * `settings.<its field>`), sorted; the values are compared, never recorded.
 */
function changedFields(
  row: SsoConnection,
  domains: string[],
  next: {
    name: string;
    isEnabled: boolean;
    domains: string[];
    allowPassword: boolean;
    jitProvisioning: boolean;
    settings: Record<string, unknown>;
    secret: string;
    mappings: GroupRoleMapping[];
  },
  storedSecret: string,
): string[] {
  const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
  const fields: string[] = [];
  if (row.name !== next.name) fields.push('name');
  if (row.isEnabled !== next.isEnabled) fields.push('is_enabled');
  if (!same([...domains].sort(), [...next.domains].sort())) fields.push('domains');
  if (row.allowPassword !== next.allowPassword) fields.push('allow_password');
  if (row.jitProvisioning !== next.jitProvisioning) fields.push('jit_provisioning');
  if (!same(row.groupRoleMappings ?? [], next.mappings)) fields.push('group_role_mappings');
  const before = (row.settings ?? {}) as Record<string, unknown>;
  for (const key of new Set([...Object.keys(before), ...Object.keys(next.settings)]))
    if (!same(before[key], next.settings[key])) fields.push(`settings.${key}`);
  if ((next.secret ?? '') !== storedSecret) fields.push(`settings.${SECRET_FIELD[row.kind]}`);
  return fields.sort();
}

/** An `oidc` connection's settings, verified by reading the issuer's discovery document. */
function checkOidcKind(s: SsoConnectionInput['settings'] & object, fail: (field: string, message: string) => void) {
  const issuer = typeof s.issuer === 'string' ? s.issuer.trim() : '';
  if (!issuerOk(issuer)) fail('settings.issuer', 'The issuer must be an https URL (http only on a loopback address).');
  const clientId = typeof s.client_id === 'string' ? s.client_id.trim() : '';
  if (!clientId || clientId.length > 1000) fail('settings.client_id', 'The client id is required.');
  const secret = typeof s.client_secret === 'string' ? s.client_secret : '';
  if (!secret || secret.length > 4000) fail('settings.client_secret', 'The client secret is required.');
  const scopes = typeof s.scopes === 'string' && s.scopes.trim() ? s.scopes.trim() : 'openid email profile';
  if (!scopes.split(/\s+/).includes('openid')) fail('settings.scopes', 'The scopes must include "openid".');
  const groupsClaim = typeof s.groups_claim === 'string' && s.groups_claim.trim() ? s.groups_claim.trim() : 'groups';
  return {
    settings: { issuer, client_id: clientId, scopes, groups_claim: groupsClaim } as Record<string, unknown>,
    secret,
    verify: async () => {
      await discoverOidc({ issuer, clientId, clientSecret: secret, scopes, groupsClaim }, true);
    },
  };
}

/** A `saml` connection's settings (saml-settings.ts): checked locally (certificates, URLs), nothing to fetch. */
function checkSamlKind(s: Record<string, unknown>, fail: (field: string, message: string) => void) {
  const saml = checkSamlSettings(s, fail);
  return { settings: { ...saml.row } as Record<string, unknown>, secret: saml.secret, verify: async () => {} };
}

/** An `ldap` connection's settings (ldap-settings.ts), verified by a service bind (ldap-client.ts). */
function checkLdapKind(s: LdapSettingsInput, fail: (field: string, message: string) => void) {
  const { settings, secret } = checkLdapSettings(s, fail);
  return { settings: ldapSettingsRow(settings), secret, verify: () => checkLdapDirectory(settings, secret) };
}

/** An https URL, or http on a loopback host (a provider on the same machine, tests). */
export function issuerOk(issuer: string): boolean {
  try {
    const url = new URL(issuer);
    if (url.protocol === 'https:') return true;
    return url.protocol === 'http:' && isLoopback(url.hostname);
  } catch {
    return false;
  }
}

export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '[::1]' || /^127\./.test(host);
}
