/**
 * A marketplace of a test file's own: the real BFF serving the browser-test build of the web
 * (built by the global setup) on a fresh embedded PostgreSQL with the first-start demo seed.
 * For tests that change data everyone else relies on (the staff dashboard's seed, reset and
 * clean-up remove or add listings across the whole catalogue).
 */
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { buildApp } from '../../api/src/app.ts';
import { prepare } from '../../api/src/bootstrap.ts';
import { loadConfig } from '../../api/src/config.ts';
import { freePort } from '../../api/src/db/embedded.ts';
import { assertRuntimeRole, E2E_WEB_DIST } from '../setup/e2e.global.ts';
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
  stop(): Promise<void>;
}

export async function startOwnMarketplace(): Promise<OwnMarketplace> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'reshelf-e2e-own-'));
  await chmod(dataDir, 0o755);
  const env = {
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    WEB_DIST: E2E_WEB_DIST,
    // Browser contexts are separate visitors, each with its own X-Forwarded-For
    // (tests/support/browser.ts), as if through a proxy on this machine.
    TRUST_PROXY: 'loopback',
  };
  const quiet = { info: () => {}, debug: () => {} };
  const { database, secrets, services } = await prepare(loadConfig(env), quiet);
  assertRuntimeRole(database.runtimeRole);
  // The port is chosen once PostgreSQL holds its own; links in emails lead back to this very
  // server, as the browser reaches it.
  const port = await freePort();
  const baseURL = `http://127.0.0.1:${port}`;
  const config = loadConfig({ ...env, PORT: String(port), PUBLIC_ORIGIN: baseURL });
  const app = await buildApp({ config, database: database.handle, secrets, services });
  await app.listen({ port, host: '127.0.0.1' });
  return {
    baseURL,
    databaseUrl: database.ownerUrl,
    flushRequestLog: () => app.requestLog.flush(),
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
