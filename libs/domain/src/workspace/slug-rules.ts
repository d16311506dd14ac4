/**
 * Plane's `RESTRICTED_WORKSPACE_SLUGS` (utils/constants.py at v0.25.3): paths of the web app that a
 * workspace slug must not shadow.
 */
export const RESTRICTED_WORKSPACE_SLUGS: ReadonlySet<string> = new Set([
  '404', 'accounts', 'api', 'create-workspace', 'god-mode', 'installations', 'invitations', 'onboarding',
  'profile', 'spaces', 'workspace-invitations', 'password', 'flags', 'monitor', 'monitoring', 'ingest',
  'plane-pro', 'plane-ultimate', 'enterprise', 'plane-enterprise', 'disco', 'silo', 'chat', 'calendar',
  'drive', 'channels', 'upgrade', 'billing', 'sign-in', 'sign-up', 'signin', 'signup', 'config', 'live',
  'admin', 'm', 'import', 'importers', 'integrations', 'integration', 'configuration', 'initiatives',
  'initiative', 'workflow', 'workflows', 'epics', 'epic', 'story', 'mobile', 'dashboard', 'desktop',
  'onload', 'real-time', 'one', 'pages', 'business', 'pro', 'settings', 'license', 'licenses',
  'instances', 'instance',
]);

/** Plane's slug alphabet (DRF SlugField): letters, digits, `-` and `_`; at most 48 characters. */
export const WORKSPACE_SLUG_PATTERN = /^[-a-zA-Z0-9_]{1,48}$/;

export function isRestrictedSlug(slug: string): boolean {
  return RESTRICTED_WORKSPACE_SLUGS.has(slug.toLowerCase());
}
