import {
  APP_CONFIG,
  AppConfig,
  AuditActor,
  INSTANCE_CONFIG_KEYS,
  InstanceKeySpec,
  isTruthy,
  validationError,
} from '#common';
import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { auditActorById, recordAudit } from '../kernel/audit';
import { iso } from '../kernel/time';
import { InstanceConfigRepository } from './instance-config.repository';
import type { InstanceConfiguration } from './instance-configuration.entity';
import { SecretBox } from './secret-box';

/** What a secret's value reads as once it is set; sending it back in a PATCH leaves the secret unchanged. */
export const SECRET_MASK = '********';

/** How long a process trusts its copy of the stored values; a PATCH through this process clears it at once. */
export const SETTINGS_CACHE_MS = 5_000;

export type OAuthProvider = 'google' | 'github' | 'gitlab';

/** A configured OAuth application, for the `/auth/<provider>/` flows. */
export interface ProviderCredentials {
  clientId: string;
  clientSecret: string;
  /** GitLab only: the GitLab base URL (default https://gitlab.com) */
  host?: string;
}

/** The effective SMTP settings (DB over environment over defaults). */
export interface SmtpSettings {
  /** empty = not configured: mail is written to the log */
  host: string;
  port: number;
  user: string;
  password: string;
  useTls: boolean;
  useSsl: boolean;
  from: string;
}

/** One configuration key as `GET /api/instances/configurations/` shows it. */
export interface ConfigurationEntry {
  /** the `instance_configurations` row id; null when the value comes from the environment or the default */
  id: string | null;
  key: string;
  /** the value; for secrets `"********"` once set, `""` otherwise (never the secret) */
  value: string;
  category: string;
  is_encrypted: boolean;
  /** whether the key has a non-empty value */
  is_set: boolean;
  /** where the value comes from */
  source: 'database' | 'environment' | 'default';
  created_at: string | null;
  updated_at: string | null;
  created_by: string | null;
  updated_by: string | null;
}

interface Stored {
  row: InstanceConfiguration;
  /** decrypted value (null: a secret sealed under another SECRET_KEY, treated as unset) */
  plain: string | null;
}

const SPECS = new Map(INSTANCE_CONFIG_KEYS.map((s) => [s.key, s]));
const PROVIDER_KEYS: Record<OAuthProvider, { flag: string; id: string; secret: string; host?: string }> = {
  google: { flag: 'IS_GOOGLE_ENABLED', id: 'GOOGLE_CLIENT_ID', secret: 'GOOGLE_CLIENT_SECRET' },
  github: { flag: 'IS_GITHUB_ENABLED', id: 'GITHUB_CLIENT_ID', secret: 'GITHUB_CLIENT_SECRET' },
  gitlab: { flag: 'IS_GITLAB_ENABLED', id: 'GITLAB_CLIENT_ID', secret: 'GITLAB_CLIENT_SECRET', host: 'GITLAB_HOST' },
};

/**
 * Instance configuration by key (Plane's `plane/license/utils/instance_value.py`
 * `get_configuration_value`): the value stored by an instance admin in `instance_configurations`,
 * else the environment variable of the same name, else Plane's default (`INSTANCE_CONFIG_KEYS`).
 * `IS_<PROVIDER>_ENABLED` defaults to "1" when the provider's client id and secret are set.
 *
 * Stored values are read once per `SETTINGS_CACHE_MS` (5 s) per process; `update` clears the
 * cache, so the next request served by this process sees the change (other processes within 5 s).
 * Secrets are sealed with `SecretBox` (AES-256-GCM, key from `SECRET_KEY`).
 */
@Injectable()
export class InstanceSettings {
  private readonly box: SecretBox;
  private cache: { at: number; stored: Map<string, Stored> } | null = null;
  private loading: Promise<Map<string, Stored>> | null = null;
  private generation = 0;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly configs: InstanceConfigRepository,
  ) {
    this.box = new SecretBox(config.secret.key);
  }

  /** The effective value of `key` (decrypted for secrets). Throws for a key not in `INSTANCE_CONFIG_KEYS`. */
  async get(key: string): Promise<string> {
    return this.resolve(key, await this.stored()).value;
  }

  /** `get(key)` read as a boolean ("1", "true", "yes", "on" are true). */
  async getBool(key: string): Promise<boolean> {
    return isTruthy(await this.get(key));
  }

  /** Several keys at once, from one read of the stored values. */
  async getMany<K extends string>(keys: readonly K[]): Promise<Record<K, string>> {
    const stored = await this.stored();
    return Object.fromEntries(keys.map((key) => [key, this.resolve(key, stored).value])) as Record<K, string>;
  }

  /**
   * Whether users may sign in with `provider`: its `IS_<PROVIDER>_ENABLED` flag is on (by default
   * it is when credentials exist) and both its client id and client secret are set.
   */
  async isProviderEnabled(provider: OAuthProvider): Promise<boolean> {
    return (await this.providerCredentials(provider)) !== null;
  }

  /** The provider's OAuth application when it is enabled and configured, else null. */
  async providerCredentials(provider: OAuthProvider): Promise<ProviderCredentials | null> {
    const keys = PROVIDER_KEYS[provider];
    const v = await this.getMany([keys.flag, keys.id, keys.secret, ...(keys.host ? [keys.host] : [])]);
    if (!isTruthy(v[keys.flag]) || !v[keys.id].trim() || !v[keys.secret].trim()) return null;
    const credentials: ProviderCredentials = { clientId: v[keys.id].trim(), clientSecret: v[keys.secret].trim() };
    if (keys.host) credentials.host = (v[keys.host].trim() || 'https://gitlab.com').replace(/\/+$/, '');
    return credentials;
  }

  /** SMTP settings for `MailService`. */
  async smtp(): Promise<SmtpSettings> {
    const v = await this.getMany([
      'EMAIL_HOST',
      'EMAIL_PORT',
      'EMAIL_HOST_USER',
      'EMAIL_HOST_PASSWORD',
      'EMAIL_USE_TLS',
      'EMAIL_USE_SSL',
      'EMAIL_FROM',
    ]);
    const port = Number(v.EMAIL_PORT);
    return {
      host: v.EMAIL_HOST.trim(),
      port: Number.isInteger(port) && port > 0 && port < 65536 ? port : 587,
      user: v.EMAIL_HOST_USER,
      password: v.EMAIL_HOST_PASSWORD,
      useTls: isTruthy(v.EMAIL_USE_TLS),
      useSsl: isTruthy(v.EMAIL_USE_SSL),
      from: v.EMAIL_FROM || 'Meridian <no-reply@localhost>',
    };
  }

  /**
   * The last known value without waiting for the database (the environment or default before the
   * first read). For synchronous callers only; prefer `get`.
   */
  peek(key: string): string {
    return this.resolve(key, this.cache?.stored ?? new Map()).value;
  }

  /** Every key, as instance admins see it: secrets masked. */
  async list(): Promise<ConfigurationEntry[]> {
    const stored = await this.stored();
    return INSTANCE_CONFIG_KEYS.map((spec) => this.entry(spec, stored));
  }

  /**
   * Sets (string) or clears (null: back to the environment or default) configuration values, in
   * one transaction, and returns the changed keys as `list` shows them. An unknown key, a non-string
   * value, a boolean other than "0"/"1", a bad port or host is a 422 naming each key. A secret sent
   * as `"********"` is left unchanged (so a client may send back what it read). Records
   * `instance.settings_changed` (the keys' names, never their values) in the same transaction.
   */
  async update(
    changes: Record<string, unknown>,
    actorId: string | null,
    actor: AuditActor = auditActorById(actorId),
  ): Promise<ConfigurationEntry[]> {
    const errors: Record<string, string[]> = {};
    const clean: [InstanceKeySpec, string | null][] = [];
    for (const [key, raw] of Object.entries(changes)) {
      const spec = SPECS.get(key);
      if (!spec) {
        errors[key] = ['Unknown configuration key.'];
        continue;
      }
      const problem = checkValue(spec, raw);
      if (problem) errors[key] = [problem];
      else if (!(spec.encrypted && raw === SECRET_MASK))
        clean.push([spec, raw === null ? null : (raw as string).trim()]);
    }
    if (Object.keys(errors).length) throw validationError(errors);
    if (Object.keys(changes).length === 0)
      throw validationError({ non_field_errors: ['Send at least one configuration key.'] });

    await this.dataSource.transaction(async (em) => {
      for (const [spec, value] of clean) {
        if (value === null) {
          await this.configs.deleteKey(em, spec.key);
          continue;
        }
        const stored = spec.encrypted && value !== '' ? this.box.seal(value) : value;
        const existing = await this.configs.findByKey(em, spec.key);
        if (existing) {
          await this.configs.update(em, existing.id, {
            value: stored,
            isEncrypted: spec.encrypted && value !== '',
            updatedById: actorId,
          });
        } else {
          await this.configs.insert(em, {
            key: spec.key,
            value: stored,
            category: spec.category,
            isEncrypted: spec.encrypted && value !== '',
            createdById: actorId,
            updatedById: actorId,
          });
        }
      }
      // the keys' names only: a value may be a secret
      if (clean.length)
        await recordAudit(em, {
          event: 'instance.settings_changed',
          actor,
          target: { type: 'instance', id: null },
          metadata: {
            set: clean.filter(([, v]) => v !== null).map(([spec]) => spec.key),
            cleared: clean.filter(([, v]) => v === null).map(([spec]) => spec.key),
          },
        });
    });
    this.invalidate();
    const stored = await this.stored();
    return Object.keys(changes).map((key) => this.entry(SPECS.get(key)!, stored));
  }

  /** Drops this process's copy of the stored values; the next read goes to the database. */
  invalidate(): void {
    this.generation += 1;
    this.cache = null;
    this.loading = null;
  }

  private async stored(): Promise<Map<string, Stored>> {
    if (this.cache && Date.now() - this.cache.at < SETTINGS_CACHE_MS) return this.cache.stored;
    if (!this.loading) {
      const generation = this.generation;
      const loading = this.configs
        .all()
        .then((rows) => {
          const stored = new Map(
            rows.map((row) => [row.key, { row, plain: row.isEncrypted ? this.box.open(row.value) : row.value }]),
          );
          if (generation === this.generation) this.cache = { at: Date.now(), stored };
          return stored;
        })
        .finally(() => {
          if (this.loading === loading) this.loading = null;
        });
      this.loading = loading;
    }
    return this.loading;
  }

  private resolve(key: string, stored: Map<string, Stored>): { value: string; source: ConfigurationEntry['source'] } {
    const spec = SPECS.get(key);
    if (!spec) throw new Error(`Unknown instance configuration key ${key}`);
    const row = stored.get(key);
    if (row) return { value: row.plain ?? '', source: 'database' };
    const env = this.config.instanceEnv[key];
    if (env !== undefined) return { value: env, source: 'environment' };
    if (spec.default !== null) return { value: spec.default, source: 'default' };
    // IS_<PROVIDER>_ENABLED: on when the provider's credentials are there
    const provider = Object.values(PROVIDER_KEYS).find((p) => p.flag === key)!;
    const on = !!this.resolve(provider.id, stored).value.trim() && !!this.resolve(provider.secret, stored).value.trim();
    return { value: on ? '1' : '0', source: 'default' };
  }

  private entry(spec: InstanceKeySpec, stored: Map<string, Stored>): ConfigurationEntry {
    const { value, source } = this.resolve(spec.key, stored);
    const row = stored.get(spec.key)?.row;
    const isSet = value !== '';
    return {
      id: row?.id ?? null,
      key: spec.key,
      value: spec.encrypted ? (isSet ? SECRET_MASK : '') : value,
      category: spec.category,
      is_encrypted: spec.encrypted,
      is_set: isSet,
      source,
      created_at: row ? iso(row.createdAt) : null,
      updated_at: row ? iso(row.updatedAt) : null,
      created_by: row?.createdById ?? null,
      updated_by: row?.updatedById ?? null,
    };
  }
}

function checkValue(spec: InstanceKeySpec, raw: unknown): string | null {
  if (raw === null) return null;
  if (typeof raw !== 'string') return 'Must be a string, or null to fall back to the environment.';
  const value = raw.trim();
  if (value.length > 4096) return 'Must have at most 4096 characters.';
  if (spec.kind === 'bool' && !['0', '1'].includes(value)) return 'Must be "0" or "1".';
  if (spec.kind === 'int' && !(/^\d{1,5}$/.test(value) && Number(value) >= 1 && Number(value) <= 65535)) {
    return 'Must be a port number from 1 to 65535.';
  }
  if (spec.key === 'GITLAB_HOST' && value !== '' && !/^https?:\/\/[^\s/]+/.test(value))
    return 'Must be an http(s) URL.';
  return null;
}
