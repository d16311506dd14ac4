// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'data/**', 'eslint.config.mjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': [
        'error',
        { allowForKnownSafeCalls: [{ from: 'package', package: 'node:test', name: ['describe', 'it', 'test', 'suite'] }] },
      ],
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-require-imports': 'off',
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/libs/*/src/**', '../../libs/**'], message: 'Import libraries through #common, #domain or #database.' },
          ],
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
    // an API module never imports another API module
    files: ['apps/server/src/*/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['../app-api/**', '../external-v1/**', '../public/**', '../auth/**', '../instance/**', '../health/**'], message: 'API modules must not import each other; share code through libs/.' },
          ],
        },
      ],
    },
  },
);
