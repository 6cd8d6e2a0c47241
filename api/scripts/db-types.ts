/**
 * Regenerates api/src/db/database.generated.ts from the migrations: a throwaway embedded
 * PostgreSQL, the auth bootstrap and every migration, then kysely-codegen.
 *   pnpm db:types           write the file
 *   pnpm db:types --verify  exit non-zero when the committed file is stale
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startEmbeddedPostgres } from '../src/db/embedded.ts';
import { migrate } from '../src/db/migrate.ts';

export const GENERATED_TYPES = fileURLToPath(new URL('../src/db/database.generated.ts', import.meta.url));
const CODEGEN = fileURLToPath(new URL('../node_modules/kysely-codegen/dist/cli/bin.js', import.meta.url));

export async function generateDatabaseTypes(options: {
  verify: boolean;
}): Promise<{ ok: boolean; output: string }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'reshelf-dbtypes-'));
  const server = await startEmbeddedPostgres({ dataDir: dir, ephemeral: true });
  try {
    await migrate(server.url(), { bootstrap: true });
    const args = [
      CODEGEN,
      '--dialect',
      'postgres',
      '--url',
      server.url(),
      '--default-schema',
      'public',
      '--include-pattern',
      '{public.*,auth.users,auth.sessions,auth.refresh_tokens,auth.one_time_tokens}',
      '--exclude-pattern',
      'public.schema_migrations',
      '--out-file',
      GENERATED_TYPES,
      '--log-level',
      'error',
      ...(options.verify ? ['--verify'] : []),
    ];
    try {
      const { stdout, stderr } = await promisify(execFile)(process.execPath, args);
      return { ok: true, output: `${stdout}${stderr}` };
    } catch (error) {
      const e = error as { stdout?: string; stderr?: string; message: string };
      return { ok: false, output: `${e.stdout ?? ''}${e.stderr ?? ''}` || e.message };
    }
  } finally {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const verify = process.argv.includes('--verify');
  const result = await generateDatabaseTypes({ verify });
  if (!result.ok) {
    console.error(result.output.trim() || 'database types are stale: run `pnpm db:types`');
    process.exit(1);
  }
  console.info(
    verify ? 'database types are up to date' : `wrote ${path.relative(process.cwd(), GENERATED_TYPES)}`,
  );
}
