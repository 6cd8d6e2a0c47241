import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/** What every project on the run's throwaway PostgreSQL shares (tests/setup/postgres.global.ts). */
const onPostgres = {
  globalSetup: ['tests/setup/postgres.global.ts'],
  testTimeout: 30_000,
  hookTimeout: 60_000,
};

/**
 * The files with the most SQL, run again on PostgreSQL 17, the major hosted Supabase runs
 * (supabase/config.toml), while `integration` runs everything on 18 (decision 0033): the
 * migrations, schema and grants; money paths (checkout, orders, offers, refunds via revenue);
 * search; charities' bulk import; the staff functions, cleanup and seed; the mail outbox; exports.
 */
const POSTGRES_17_FILES = [
  'api/src/db/migrate.int.test.ts',
  'api/src/db/schema.int.test.ts',
  'api/src/db/privileges.int.test.ts',
  'api/src/commerce/checkout/checkout.int.test.ts',
  'api/src/commerce/orders/orders.int.test.ts',
  'api/src/commerce/offers/offers.int.test.ts',
  'api/src/catalogue/listings/listings.int.test.ts',
  'api/src/catalogue/listings/search-relevance.int.test.ts',
  'api/src/catalogue/discovery/discovery.int.test.ts',
  'api/src/charities/charity-selling.int.test.ts',
  'api/src/staff/dashboard/admin-functions.int.test.ts',
  'api/src/staff/dashboard/cleanup.int.test.ts',
  'api/src/staff/dashboard/seed-function.int.test.ts',
  'api/src/platform/mail/outbox.int.test.ts',
  'api/src/commerce/revenue/revenue.int.test.ts',
  'api/src/commerce/exports/exports.int.test.ts',
  'api/src/staff/global-admin/global-admin.int.test.ts',
];
/** `supabase db push` and the CLI's checks, against PostgreSQL 17 only (as hosted). */
const SUPABASE_CLI_FILES = ['tests/integration/supabase-cli.int.test.ts'];

// A list of paths is a guard only while each path names a file: a moved file would silently drop
// out of the PostgreSQL 17 run. Every listed file must exist.
const missing = [...POSTGRES_17_FILES, ...SUPABASE_CLI_FILES].filter(
  (file) => !existsSync(fileURLToPath(new URL(file, import.meta.url))),
);
if (missing.length > 0)
  throw new Error(`vitest.config.ts names test files that do not exist: ${missing.join(', ')}`);

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: [
            'packages/*/src/**/*.test.ts',
            'api/src/**/*.test.ts',
            'web/src/**/*.test.{ts,tsx}',
            // The bench's pure parts (arguments, /proc parsing, the results table); never its figures.
            'tests/bench/**/*.test.ts',
            // The first-load budget the web's build holds (scripts/first-load-js.mjs).
            'scripts/**/*.test.ts',
          ],
          exclude: ['**/*.int.test.ts', '**/node_modules/**'],
        },
      },
      {
        test: {
          name: 'integration',
          include: ['api/**/*.int.test.ts', 'tests/integration/**/*.int.test.ts'],
          exclude: ['**/node_modules/**', ...SUPABASE_CLI_FILES],
          ...onPostgres,
        },
      },
      {
        test: {
          name: 'integration-pg17',
          include: [...POSTGRES_17_FILES, ...SUPABASE_CLI_FILES],
          env: { RESHELF_PG_MAJOR: '17' },
          ...onPostgres,
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
