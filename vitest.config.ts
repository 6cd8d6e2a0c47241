import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['packages/*/src/**/*.test.ts', 'api/src/**/*.test.ts', 'web/src/**/*.test.{ts,tsx}'],
          exclude: ['**/*.int.test.ts', '**/node_modules/**'],
        },
      },
      {
        test: {
          name: 'integration',
          include: ['api/**/*.int.test.ts', 'tests/integration/**/*.int.test.ts'],
          exclude: ['**/node_modules/**'],
          globalSetup: ['tests/setup/postgres.global.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        // The fault suite (decision 0024): the real site and PostgreSQL as processes, restarted,
        // killed and overloaded. Run on its own (`pnpm test:faults`), never beside other tests.
        test: {
          name: 'faults',
          include: ['tests/faults/**/*.faults.test.ts'],
          fileParallelism: false,
          testTimeout: 180_000,
          hookTimeout: 180_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.e2e.test.ts'],
          globalSetup: ['tests/setup/e2e.global.ts'],
          fileParallelism: false,
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // expect.poll waits for the page like a locator wait does, so it gets the same budget
          // (Playwright's 30 s) instead of Vitest's 1 s: a busy machine is slower, not broken.
          expect: { poll: { timeout: 30_000 } },
        },
      },
    ],
  },
});
