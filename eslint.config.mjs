// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import meridian from './eslint-rules/entity-manager-calls.mjs';
import readModels from './.dependency-cruiser.read-models.cjs';

const { ISSUE_READ_CONTRACT, READ_MODEL_REPOSITORIES } = readModels;

/** Libraries are reached through their package imports only (their index.ts), never by path. */
const LIBRARY_BY_PATH = {
  group: ['**/libs/*/src/**', '../../libs/**'],
  message: 'Import libraries through #common, #domain or #database.',
};
const API_MODULES = ['app-api', 'external-v1', 'public', 'auth', 'instance', 'health'];

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      // an earlier build kept to compare against (BENCHMARKS.md: `--variant '…;main=dist-before/server/main.js'`)
      'dist-before/**',
      'node_modules/**',
      'data/**',
      'eslint.config.mjs',
      'eslint-rules/**',
      '.dependency-cruiser*.cjs',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          allowForKnownSafeCalls: [
            { from: 'package', package: 'node:test', name: ['describe', 'it', 'test', 'suite'] },
          ],
        },
      ],
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-require-imports': 'off',
      'no-restricted-imports': [
        'error',
        {
          patterns: [LIBRARY_BY_PATH],
        },
      ],
    },
  },
  {
    // plain Node scripts (CommonJS, not compiled): no type-aware rules
    files: ['scripts/**/*.js'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      ...tseslint.configs.disableTypeChecked.languageOptions,
      sourceType: 'commonjs',
      globals: { require: 'readonly', process: 'readonly', __dirname: 'readonly' },
    },
  },
  {
    // an API module never imports another API module (from its folder or from its dto/ folder);
    // this block replaces the rule for these files, so it repeats the library rule above
    files: ['apps/server/src/*/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            LIBRARY_BY_PATH,
            {
              group: API_MODULES.flatMap((m) => [`../${m}/**`, `../../${m}/**`]),
              message: 'API modules must not import each other; share code through libs/ (or apps/server/src/shared/).',
            },
          ],
        },
      ],
    },
  },
  {
    // only repositories build or send SQL (and the kernel's driver plumbing): services keep rules
    // and transactions, so one concept's SQL has one owner. A room's hot texts may sit in an
    // import-free <feature>.sql.ts beside its repository (the bare benchmark server loads them alone).
    files: ['libs/domain/src/**/*.ts'],
    ignores: ['libs/domain/src/**/*.repository.ts', 'libs/domain/src/kernel/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.property.name='createQueryBuilder']",
          message: 'Query builders belong in the feature repository (*.repository.ts).',
        },
        {
          selector: "CallExpression[callee.property.name='query']",
          message: 'SQL belongs in the feature repository (*.repository.ts).',
        },
        {
          selector: 'CallExpression[callee.name=/^hot(Tx)?(Query|Pipeline|Transaction)$/]',
          message: 'SQL belongs in the feature repository (*.repository.ts).',
        },
        {
          selector: 'ImportSpecifier[imported.name=/^SQL_/]',
          message: 'SQL texts belong in the feature repository (*.repository.ts).',
        },
      ],
    },
  },
  {
    // nor do they call TypeORM's entity manager, data source, repositories or query runners (only
    // `transaction`, which services own): the rule reads types, so `em.find`, `tx.save`,
    // `this.dataSource.manager.count` and `getRepository(X).findOne` are all caught, in every file
    // but the repositories and the kernel.
    files: ['libs/domain/src/**/*.ts'],
    ignores: ['libs/domain/src/**/*.repository.ts', 'libs/domain/src/kernel/**'],
    plugins: { meridian },
    rules: { 'meridian/entity-manager-calls': 'error' },
  },
  {
    // the read models of work items (.dependency-cruiser.read-models.cjs) take from the issue door,
    // at run time, its read contract alone (visibility, the Guest rule, the visible work items'
    // query, the filter compiler); `npm run deps` keeps them off the other rooms' doors
    files: READ_MODEL_REPOSITORIES.map((f) => `libs/domain/src/${f}`),
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '../issue',
              allowImportNames: ISSUE_READ_CONTRACT,
              allowTypeImports: true,
              message:
                "A read model takes the issue room's read contract alone from its door; read other rows through the owners' doors in the service.",
            },
          ],
        },
      ],
    },
  },
);
