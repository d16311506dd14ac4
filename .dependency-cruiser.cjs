// The module boundaries of Meridian, checked by `npm run deps` (dependency-cruiser) in CI, with
// .dependency-cruiser.runtime.cjs (no import cycles at run time). See docs/architecture.md.
/** @type {import('dependency-cruiser').IConfiguration} */
const DOMAIN = '^libs/domain/src/';
const API_MODULES = ['app-api', 'external-v1', 'public', 'auth', 'instance', 'health', 'live'];

/**
 * The read models of work items (with the issue room's read contract, in
 * .dependency-cruiser.read-models.cjs): the repositories that compose the issue room's published SQL
 * with other rooms' tables, and so import the issue door at run time. Every other repository imports
 * no other room's door at run time.
 */
const { READ_MODEL_REPOSITORIES } = require('./.dependency-cruiser.read-models.cjs');

/** A path of libs/domain/src/ (as `READ_MODEL_REPOSITORIES` lists them) as an anchored pattern. */
const domainFile = (f) => `^libs/domain/src/${f.replace(/\./g, '\\.')}$`;

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
        "A room's repository queries its own tables; what it needs of another room's rows its service reads through that room's door (a type-only import is fine). The read models of work items (READ_MODEL_REPOSITORIES in .dependency-cruiser.read-models.cjs) have a rule of their own.",
      from: {
        path: `${DOMAIN}([^/]+)/[^/]+\\.repository\\.ts$`,
        pathNot: READ_MODEL_REPOSITORIES.map(domainFile),
      },
      to: {
        path: `${DOMAIN}[^/]+/index\\.ts$`,
        pathNot: [`${DOMAIN}$1/`],
        dependencyTypesNot: ['type-only'],
      },
    },
    {
      name: 'read-models-compose-the-issue-contract',
      severity: 'error',
      comment:
        "A read model of work items (READ_MODEL_REPOSITORIES) imports at run time the issue room's door, for its read contract (the names: eslint.config.mjs), and no other room's door (a type-only import is fine).",
      from: { path: READ_MODEL_REPOSITORIES.map(domainFile) },
      to: {
        path: `${DOMAIN}[^/]+/index\\.ts$`,
        pathNot: [`${DOMAIN}issue/index\\.ts$`],
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
