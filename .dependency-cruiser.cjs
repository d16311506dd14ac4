// The module boundaries of Meridian, checked by `npm run deps` (dependency-cruiser) in CI, with
// .dependency-cruiser.runtime.cjs (no import cycles at run time). See docs/architecture.md.
/** @type {import('dependency-cruiser').IConfiguration} */
const DOMAIN = '^libs/domain/src/';
const API_MODULES = ['app-api', 'external-v1', 'public', 'auth', 'instance', 'health', 'live'];

/**
 * The repositories that still import another room's door at run time (a type-only import is
 * allowed everywhere): they read other rooms' tables by entity, or build their SQL with the issue
 * room's fragments (visibility, the Guest rule, the filter compiler, the ranked search). The list
 * only shrinks: a repository that moves its reads behind the owners' doors leaves it
 * (docs/architecture.md, "Reading another room's rows").
 */
const REPOSITORIES_READING_OTHER_ROOMS = [
  // SQL fragments of the issue room (guestRule, guestCondition, notInTriage, VISIBLE_ISSUE, filters)
  'analytics/analytics.repository.ts',
  'automation/automation.repository.ts',
  'cycle/distribution.repository.ts',
  'email-notification/email-notification.repository.ts',
  'exporter/exporter.repository.ts',
  'notification/notification.repository.ts',
  // other rooms' entities read in the repository (and, for some, the issue room's fragments)
  'workspace-profile/workspace-profile.repository.ts',
];

module.exports = {
  forbidden: [
    {
      name: 'kernel-imports-no-feature',
      severity: 'error',
      comment: 'libs/domain/src/kernel is what every feature shares; it imports no feature (not even types).',
      from: { path: `${DOMAIN}kernel/` },
      to: { path: DOMAIN, pathNot: `${DOMAIN}kernel/` },
    },
    {
      name: 'features-meet-through-index',
      severity: 'error',
      comment:
        "A feature reaches another feature only through that feature's index.ts (its door), and the kernel directly.",
      from: { path: `${DOMAIN}([^/]+)/` },
      to: {
        path: `${DOMAIN}[^/]+/`,
        pathNot: [`${DOMAIN}$1/`, `${DOMAIN}kernel/`, `${DOMAIN}[^/]+/index\\.ts$`],
      },
    },
    {
      name: 'repositories-keep-to-their-room',
      severity: 'error',
      comment:
        "A room's repository queries its own tables; what it needs of another room's rows its service reads through that room's door (a type-only import is fine). The repositories not yet converted are listed in REPOSITORIES_READING_OTHER_ROOMS.",
      from: {
        path: `${DOMAIN}([^/]+)/[^/]+\\.repository\\.ts$`,
        pathNot: REPOSITORIES_READING_OTHER_ROOMS.map((f) => `^libs/domain/src/${f.replace(/\./g, '\\.')}$`),
      },
      to: {
        path: `${DOMAIN}[^/]+/index\\.ts$`,
        pathNot: [`${DOMAIN}$1/`],
        dependencyTypesNot: ['type-only'],
      },
    },
    {
      name: 'feature-not-through-own-index',
      severity: 'error',
      comment: "Inside a feature, files import each other directly, never through the feature's own index.ts.",
      from: { path: `${DOMAIN}([^/]+)/(?!index\\.ts$)` },
      to: { path: `${DOMAIN}$1/index\\.ts$` },
    },
    {
      name: 'domain-index-reexports-doors',
      severity: 'error',
      comment: "libs/domain/src/index.ts re-exports the features' doors (index.ts) and the kernel only.",
      from: { path: `${DOMAIN}index\\.ts$` },
      to: { path: `${DOMAIN}[^/]+/`, pathNot: [`${DOMAIN}[^/]+/index\\.ts$`, `${DOMAIN}kernel/`] },
    },
    {
      name: 'libraries-through-package-imports',
      severity: 'error',
      comment: 'apps/ and test/ reach a library through #common, #domain or #database (its index.ts), never by path.',
      from: { path: '^(apps|test)/' },
      to: { path: '^libs/[^/]+/src/', pathNot: '^libs/[^/]+/src/index\\.ts$' },
    },
    {
      name: 'api-modules-apart',
      severity: 'error',
      comment: 'An API module never imports another API module; shared code lives in libs/ or apps/server/src/shared/.',
      from: { path: `^apps/server/src/(${API_MODULES.join('|')})/` },
      to: { path: `^apps/server/src/(${API_MODULES.join('|')})/`, pathNot: '^apps/server/src/$1/' },
    },
    {
      name: 'libraries-do-not-import-apps',
      severity: 'error',
      comment: 'libs/ never import apps/ or test/.',
      from: { path: '^libs/' },
      to: { path: '^(apps|test)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['node_modules', '^dist/'] },
    // type-only imports are recorded (as `type-only`), so the rules above see them too
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { conditionNames: ['types', 'import', 'require', 'node', 'default'] },
  },
};
