import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'api',
          include: ['tests/api/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/setup/api-global-setup.ts'],
          // Every response is checked against the OpenAPI document.
          setupFiles: ['tests/setup/api-contract-check.ts'],
          // Each file gets its own database; two workers suit a 2-core machine.
          pool: 'forks',
          maxWorkers: 2,
          // As `npm start` runs the server: PGlite's WebAssembly compiled once, by the baseline compiler
          // (docs/decisions/002).
          execArgv: ['--liftoff-only'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
