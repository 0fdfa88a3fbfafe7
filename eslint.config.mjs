// One lint setup for every workspace (flat config).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/coverage/**',
      '.tools/**',
      '.data/**',
      'test-output/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    files: ['**/*.js', '**/*.cjs', '**/*.mjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['frontend/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    files: ['infra/**', '**/bench/**', '**/scripts/**'],
    rules: { 'no-console': 'off' },
  },
  // Layers of every service (STYLE.md rule 9): entry-points → domain → data-access, with record
  // types owned by the domain. The domain sees the platform only through its domain entry and
  // data access and integrations only as types (they are injected); nothing below the entry
  // points knows them. A service made of modules (notification: mail/, activity/, privacy/)
  // has the same layers inside each module, hence `src/**/domain/**`.
  {
    files: ['services/*/src/**/domain/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@furniture/platform',
              message: 'Domain code imports the platform only through @furniture/platform/domain.',
            },
            ...['express', 'mongoose', 'mongodb', 'amqplib', 'amqp-connection-manager', 'pino'].map(
              (name) => ({ name, message: 'Domain code does not use infrastructure libraries.' }),
            ),
          ],
          patterns: [
            {
              group: [
                '@furniture/platform/*',
                '!@furniture/platform/domain',
                '**/libs/platform/**',
              ],
              message:
                'The domain imports no lock and nothing of the store: what must not interleave is a repository\'s business (docs/service-guide.md "The store").',
            },
            {
              group: ['**/entry-points', '**/entry-points/**'],
              message: 'The domain does not know its entry points.',
            },
            {
              group: ['**/data-access/**', '**/integrations/**'],
              allowTypeImports: true,
              message:
                'The domain uses data access and integrations only as types (injected); records and errors live in domain/records.ts.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['services/*/src/**/data-access/**/*.ts', 'services/*/src/**/integrations/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@furniture/platform/src/**', '**/libs/platform/src/**'],
              message:
                'Repositories use the store through @furniture/platform; its locks and internals stay inside it.',
            },
            {
              group: ['**/entry-points', '**/entry-points/**'],
              message: 'Data access and integrations do not know the entry points.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['services/*/src/**/entry-points/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/data-access/**', '**/integrations/**'],
              message:
                'Entry points call the domain; they do not reach data access or integrations.',
            },
          ],
        },
      ],
    },
  },
);
