/**
 * Browser tests run against the real marketplace: the built web served by the real BFF on
 * a throwaway embedded PostgreSQL with the demo seed, on a free port.
 *
 * The web served is the production build plus the browser-test hooks (`vite build --mode e2e`,
 * docs/decisions/0003-shell-test-hooks.md), rebuilt on every run into tests/.artifacts/web-e2e.
 * The production build (web/dist) is built too when missing, so a test can check that the hooks
 * are not in it.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { buildApp } from '../../api/src/app.ts';
import { prepare } from '../../api/src/bootstrap.ts';
import { loadConfig } from '../../api/src/config.ts';
import { freePort } from '../../api/src/db/embedded.ts';
import { RUNTIME_ROLE, type RuntimeRoleReport } from '../../api/src/db/runtime-role.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    baseURL: string;
    e2eDatabaseUrl: string;
  }
}

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const E2E_WEB_DIST = path.join(ROOT, 'tests/.artifacts/web-e2e');

function buildWeb(args: string[]): void {
  const vite = path.join(ROOT, 'web/node_modules/vite/bin/vite.js');
  const build = spawnSync(process.execPath, [vite, 'build', '--logLevel', 'warn', ...args], {
    cwd: path.join(ROOT, 'web'),
    stdio: 'inherit',
    // Vitest runs with NODE_ENV=test, which would give a development build of React.
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (build.status !== 0) throw new Error(`web build failed (vite build ${args.join(' ')})`);
}

/** The marketplace under test must connect as the runtime role, as a real one does (decision 0026). */
export function assertRuntimeRole(report: RuntimeRoleReport): void {
  if (report.role !== RUNTIME_ROLE || report.superuser || report.ownsTables) {
    throw new Error(`the BFF under test connects as ${JSON.stringify(report)}, not as ${RUNTIME_ROLE}`);
  }
}

/**
 * The real BFF serving the browser-test build of the web on a fresh embedded PostgreSQL (in a
 * temporary folder named from `folderPrefix`) with the first-start demo seed, listening on a
 * free port; it connects as the runtime role. The caller closes the app, stops the database
 * and removes the folder.
 */
export async function startMarketplace(folderPrefix: string) {
  const dataDir = await mkdtemp(path.join(tmpdir(), folderPrefix));
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
  return { app, database, baseURL, dataDir, services };
}

export default async function setup(project: TestProject) {
  if (!existsSync(path.join(ROOT, 'web/dist/index.html'))) buildWeb([]);
  buildWeb(['--mode', 'e2e', '--outDir', E2E_WEB_DIST]);
  // The server bundle beside it (the BFF finds it at WEB_DIST + "-ssr"): public pages are
  // server-rendered in the browser tests as in production.
  buildWeb(['--mode', 'e2e', '--ssr', 'src/entry-server.tsx', '--outDir', `${E2E_WEB_DIST}-ssr`]);
  const { app, database, baseURL, dataDir } = await startMarketplace('reshelf-e2e-');
  project.provide('baseURL', baseURL);
  // Tests arrange data as the owner; the BFF itself connects as its runtime role.
  project.provide('e2eDatabaseUrl', database.ownerUrl);
  return async () => {
    await app.close();
    await database.stop();
    await rm(dataDir, { recursive: true, force: true });
  };
}
