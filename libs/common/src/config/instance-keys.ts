/**
 * Plane's instance configuration keys (as seeded by Plane's
 * `plane/license/management/commands/configure_instance.py`). Each key is answered by
 * `InstanceSettings` (libs/domain): the value an instance admin stored (`instance_configurations`),
 * else the environment variable of the same name, else `default`. Values are strings; booleans are
 * "1" / "0". `encrypted` keys are secrets: stored with AES-256-GCM under a key derived from
 * `SECRET_KEY`, never returned in clear.
 */
export type InstanceKeyKind = 'bool' | 'int' | 'string';

export interface InstanceKeySpec {
  key: string;
  category: string;
  encrypted: boolean;
  kind: InstanceKeyKind;
  /** Plane's seed default; `null` = computed (IS_<PROVIDER>_ENABLED) or empty */
  default: string | null;
}

const k = (
  key: string,
  category: string,
  kind: InstanceKeyKind,
  def: string | null,
  encrypted = false,
): InstanceKeySpec => ({
  key,
  category,
  kind,
  default: def,
  encrypted,
});

export const INSTANCE_CONFIG_KEYS: readonly InstanceKeySpec[] = [
  k('ENABLE_SIGNUP', 'AUTHENTICATION', 'bool', '1'),
  k('DISABLE_WORKSPACE_CREATION', 'WORKSPACE_MANAGEMENT', 'bool', '0'),
  k('ENABLE_EMAIL_PASSWORD', 'AUTHENTICATION', 'bool', '1'),
  k('ENABLE_MAGIC_LINK_LOGIN', 'AUTHENTICATION', 'bool', '1'),
  k('IS_GOOGLE_ENABLED', 'AUTHENTICATION', 'bool', null),
  k('IS_GITHUB_ENABLED', 'AUTHENTICATION', 'bool', null),
  k('IS_GITLAB_ENABLED', 'AUTHENTICATION', 'bool', null),
  k('GOOGLE_CLIENT_ID', 'GOOGLE', 'string', ''),
  k('GOOGLE_CLIENT_SECRET', 'GOOGLE', 'string', '', true),
  k('GITHUB_CLIENT_ID', 'GITHUB', 'string', ''),
  k('GITHUB_CLIENT_SECRET', 'GITHUB', 'string', '', true),
  k('GITLAB_HOST', 'GITLAB', 'string', 'https://gitlab.com'),
  k('GITLAB_CLIENT_ID', 'GITLAB', 'string', ''),
  k('GITLAB_CLIENT_SECRET', 'GITLAB', 'string', '', true),
  k('EMAIL_HOST', 'SMTP', 'string', ''),
  k('EMAIL_HOST_USER', 'SMTP', 'string', ''),
  k('EMAIL_HOST_PASSWORD', 'SMTP', 'string', '', true),
  k('EMAIL_PORT', 'SMTP', 'int', '587'),
  k('EMAIL_FROM', 'SMTP', 'string', 'Meridian <no-reply@localhost>'),
  k('EMAIL_USE_TLS', 'SMTP', 'bool', '1'),
  k('EMAIL_USE_SSL', 'SMTP', 'bool', '0'),
  k('LLM_API_KEY', 'AI', 'string', '', true),
  k('LLM_PROVIDER', 'AI', 'string', 'openai'),
  k('LLM_MODEL', 'AI', 'string', 'gpt-4o-mini'),
  k('GPT_ENGINE', 'SMTP', 'string', 'gpt-3.5-turbo'),
  k('UNSPLASH_ACCESS_KEY', 'UNSPLASH', 'string', '', true),
  k('IS_INTERCOM_ENABLED', 'INTERCOM', 'bool', '1'),
  k('INTERCOM_APP_ID', 'INTERCOM', 'string', ''),
];

export const INSTANCE_CONFIG_KEY_NAMES = new Set(INSTANCE_CONFIG_KEYS.map((s) => s.key));

/** Environment-only settings the instance info also reports (not editable through the API). */
export const INSTANCE_ENV_ONLY_KEYS = ['FILE_SIZE_LIMIT'] as const;

/** Truthy spellings accepted for boolean settings ("1" is Plane's). */
export function isTruthy(value: string | null | undefined): boolean {
  return typeof value === 'string' && ['1', 'true', 'yes', 'on'].includes(value.trim().toLowerCase());
}
