// Jest runs in native ESM mode (Nest 12 and several of its dependencies are ESM-only).
// Specs are transpiled one file at a time; `npm run typecheck` does the type checking.
// End-to-end suites drive the built service (dist/) in a child process over real HTTP.
import { readFileSync } from 'node:fs';
import { pathsToModuleNameMapper } from 'ts-jest';

// The contexts' entry points as tsconfig.json names them for the compiler: one list for both.
const { compilerOptions } = JSON.parse(readFileSync(new URL('./tsconfig.json', import.meta.url), 'utf8'));
const contexts = ['shared', 'persistence', 'health', 'auth', 'import', 'trades', 'calendar', 'portfolio', 'export'];

export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: {
    ...pathsToModuleNameMapper(compilerOptions.paths, { prefix: '<rootDir>/' }),
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  transform: {
    '^.+\\.ts$': ['ts-jest', { useESM: true, diagnostics: false }],
  },
  roots: ['<rootDir>/apps/api/src', ...contexts.map((c) => `<rootDir>/libs/${c}/src`), '<rootDir>/test'],
  testMatch: ['**/*.spec.ts', '**/*.e2e-spec.ts'],
  // A ceiling for a loaded machine (hooks that start services wait up to 3 minutes for one), not a speed goal.
  testTimeout: 240_000,
  maxWorkers: 2,
  // Every answer of the service a test receives is checked against docs/openapi.json.
  setupFilesAfterEnv: ['<rootDir>/test/support/check-api-responses.ts'],
  reporters: ['default', '<rootDir>/test/support/summary-reporter.mjs'],
};
