/**
 * One throwaway PostgreSQL cluster per test run, with a migrated template database that
 * each test file clones (api/src/testing/db.ts), so files run in parallel in isolation.
 * The BFF's runtime role gets a login, so the apps under test connect as it (decision 0026).
 *
 * The cluster's major is RESHELF_PG_MAJOR (the project's `env`, else the environment's): 18 by
 * default, 17 for the `integration-pg17` project, the major hosted Supabase runs (decision 0033).
 */
import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { parsePostgresMajor, startEmbeddedPostgres } from '../../api/src/db/embedded.ts';
import { migrate } from '../../api/src/db/migrate.ts';
import { provisionRuntimeRole } from '../../api/src/db/runtime-role.ts';
import { ensureDatabaseExists } from '../../api/src/runtime.ts';
import { TEMPLATE_DATABASE } from '../../api/src/testing/db.ts';

export default async function setup(project: TestProject) {
  const major = parsePostgresMajor(
    project.config.env?.RESHELF_PG_MAJOR ?? process.env.RESHELF_PG_MAJOR,
    'RESHELF_PG_MAJOR',
  );
  const dir = await mkdtemp(path.join(tmpdir(), `reshelf-test-pg${major}-`));
  await chmod(dir, 0o755);
  const server = await startEmbeddedPostgres({ dataDir: dir, ephemeral: true, major });
  await ensureDatabaseExists(server.url(), TEMPLATE_DATABASE);
  await migrate(server.url(TEMPLATE_DATABASE), { bootstrap: true });
  const appPassword = randomBytes(18).toString('base64url');
  await provisionRuntimeRole(server.url(TEMPLATE_DATABASE), appPassword);
  project.provide('pgServerUrl', server.url());
  project.provide('pgAppPassword', appPassword);
  project.provide('pgMajor', major);
  return async () => {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  };
}
