import eslint from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const ACROSS_CONTEXTS = {
  group: ['../../*/src/**', '../../../*/src/**', '../../../../*/src/**', '**/libs/*/src/**'],
  message: "Import another context through '@app/<context>'.",
};
const TEST_HELPERS = { group: ['@app/*/testing'], message: 'Test helpers are for specs, not for the service.' };

export default tseslint.config(
  { ignores: ['dist/**', '.builds/**', 'node_modules/**', 'coverage/**', 'data/**'] },
  eslint.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: globals.node },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'off',
    },
  },
  {
    // The browser app runs in a browser (its build config and tests in Node, with both sets of globals).
    files: ['apps/web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: globals.browser },
  },
  {
    // Tests read JSON bodies of many shapes.
    files: ['test/**/*.ts', '**/*.spec.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // Contexts talk to each other only through their public index (`@app/<context>`), and test
    // helpers (`@app/<context>/testing`) stay out of the service.
    files: ['libs/**/*.ts', 'apps/api/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [ACROSS_CONTEXTS, TEST_HELPERS] }] },
  },
  {
    // The layering rule of docs/architecture.md: domain code is plain TypeScript (this block
    // comes last, so it carries the context rule too: a later block replaces a rule, it does not merge).
    files: ['libs/*/src/domain/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['@nestjs/*', 'typeorm', 'fastify', '@fastify/*', 'class-validator', 'class-transformer', 'pg'], message: 'Domain code must not depend on the framework or the database.' },
            { group: ['**/infrastructure/**', '**/http/**', '**/application/**'], message: 'Domain code must not import outer layers.' },
            ACROSS_CONTEXTS,
            // The trade ledger's model is the language the import's domain produces and the reports read;
            // the import's figure parser reads the portfolio's holdings CSV too.
            {
              regex: '^@app/(?!(shared|trades|import)/domain$)',
              message: "Domain code may import only '@app/shared/domain', '@app/trades/domain' and '@app/import/domain' of other contexts.",
            },
          ],
        },
      ],
    },
  },
  {
    // Specs and test helpers may use other contexts' test helpers (last: it replaces the rules above for them).
    files: ['libs/**/*.spec.ts', 'apps/api/**/*.spec.ts', 'libs/*/src/testing/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [ACROSS_CONTEXTS] }] },
  },
);
