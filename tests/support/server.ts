/**
 * A marketplace of a test file's own: the real BFF serving the browser-test build of the web
 * (built by the global setup) on a fresh embedded PostgreSQL with the first-start demo seed.
 * For tests that change data everyone else relies on (the staff dashboard's seed, reset and
 * clean-up remove or add listings across the whole catalogue).
 */
import { rm } from 'node:fs/promises';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { runJob } from '../../api/src/jobs.ts';
import { startMarketplace } from '../setup/e2e.global.ts';
import { launchBrowser } from './browser.ts';

export interface OwnMarketplace {
  baseURL: string;
  /**
   * Its database as the owner, for a test that must move time on (a carrier's window passing);
   * the marketplace itself connects as the runtime role.
   */
  databaseUrl: string;
  /**
   * Writes the request log's waiting lines: once it resolves, every API request answered
   * before the call is in /admin/logs (the recorder otherwise writes a few seconds later).
   */
  flushRequestLog(): Promise<void>;
  /**
   * Runs one background job now (the marketplace runs no job runner): what it moved, as the
   * runner would record it.
   */
  runJob(name: string): Promise<number | null>;
  stop(): Promise<void>;
}

export async function startOwnMarketplace(): Promise<OwnMarketplace> {
  const { app, database, baseURL, dataDir, services } = await startMarketplace('reshelf-e2e-own-');
  return {
    baseURL,
    databaseUrl: database.ownerUrl,
    flushRequestLog: () => app.requestLog.flush(),
    runJob: (name) =>
      runJob(
        {
          db: database.handle.db,
          payments: services.payments,
          mailer: services.mailer,
          storage: services.storage,
          origin: baseURL,
        },
        name,
      ),
    async stop() {
      await app.close();
      await database.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A browser and a marketplace of the test file's own, started before its tests and stopped
 * after them: `withOwnMarketplace((started) => ({ browser, marketplace } = started));`.
 */
export function withOwnMarketplace(
  use: (started: { browser: Browser; marketplace: OwnMarketplace }) => void,
): void {
  let browser: Browser | undefined;
  let marketplace: OwnMarketplace | undefined;
  beforeAll(async () => {
    [browser, marketplace] = await Promise.all([launchBrowser(), startOwnMarketplace()]);
    use({ browser, marketplace });
  });
  afterAll(async () => {
    await browser?.close();
    await marketplace?.stop();
  });
}
