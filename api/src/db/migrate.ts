/**
 * Applies supabase/migrations/*.sql in filename order, each exactly once, each in its own
 * transaction together with its record in public.schema_migrations. An applied migration
 * whose file has changed stops start-up with a message naming the file (unless the change is a
 * listed revision that does the same where it already ran: REVISED_MIGRATIONS). A session-level
 * advisory lock makes concurrent starts (several BFF instances) take turns.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { BOOTSTRAP_AUTH_SQL, MIGRATIONS_DIR } from '../paths.ts';

export { MIGRATIONS_DIR };

const MIGRATION_FILE = /^(\d{14})_[a-z0-9_]+\.sql$/;
/** Arbitrary constant shared by every runner: "reshelf migrations". */
const LOCK_KEY = 726_175_001;

/**
 * Applied migrations revised afterwards, with the checksums of their earlier texts. A revision
 * must do exactly what the earlier text did on a database where that text ran (it may only make
 * the file run somewhere else as well); such a database then has its record brought up to date
 * instead of refusing to start. Each entry says why.
 */
export const REVISED_MIGRATIONS: Readonly<Record<string, readonly string[]>> = {
  // Its first text narrowed the runtime role's grants on public.schema_migrations, the embedded
  // runner's own table, which `supabase db push` never creates: hosted, the push failed there.
  // The revision skips that one statement where the table does not exist (decision 0033).
  '20261124180000_database_privileges.sql': [
    '21ea6e5dcd7df67d753901921e4b3a8cda80d0498f2e28db3c98fc292dceca5b',
  ],
  // Its first text created order_items' deferred "items add up" check before backfilling the
  // existing orders' items and then altered the table, which PostgreSQL refuses while those
  // checks are pending: it ran only on a database without orders. The revision enables RLS
  // first and creates the check after the backfill; the objects it makes are the same.
  '20261126100000_basket_and_order_items.sql': [
    'e1f7d986dd7708bd2368a64c80fe89ea40a741655a296e6fcf1d3583b9542303',
  ],
};

export class MigrationError extends Error {
  constructor(
    message: string,
    readonly file?: string,
  ) {
    super(message);
    this.name = 'MigrationError';
  }
}

export interface MigrationFile {
  name: string;
  sql: string;
  checksum: string;
}

export interface MigrateResult {
  applied: string[];
  alreadyApplied: number;
}

export function checksumOf(sql: string): string {
  return createHash('sha256').update(sql).digest('hex');
}

export async function readMigrations(dir = MIGRATIONS_DIR): Promise<MigrationFile[]> {
  const names = (await readdir(dir)).filter((name) => name.endsWith('.sql')).sort();
  const files: MigrationFile[] = [];
  for (const name of names) {
    if (!MIGRATION_FILE.test(name)) {
      throw new MigrationError(
        `Migration file name ${name} must look like YYYYMMDDHHMMSS_description.sql (lower case)`,
        name,
      );
    }
    const sql = await readFile(path.join(dir, name), 'utf8');
    files.push({ name, sql, checksum: checksumOf(sql) });
  }
  return files;
}

function describePgError(error: unknown, sql: string): string {
  const e = error as { message?: string; position?: string };
  let where = '';
  if (e.position) {
    const offset = Number(e.position);
    const line = sql.slice(0, offset).split('\n').length;
    where = ` (line ${line})`;
  }
  return `${e.message ?? String(error)}${where}`;
}

/** Embedded-only: Supabase's auth schema shapes that the migrations reference. */
export async function bootstrapAuth(client: pg.ClientBase): Promise<void> {
  const sql = await readFile(BOOTSTRAP_AUTH_SQL, 'utf8');
  await client.query('select pg_advisory_lock($1)', [LOCK_KEY]);
  try {
    await client.query(sql);
  } finally {
    await client.query('select pg_advisory_unlock($1)', [LOCK_KEY]);
  }
}

export async function migrate(
  connectionString: string,
  options: {
    dir?: string;
    bootstrap?: boolean;
    log?: (line: string) => void;
    /** Accepted earlier texts of applied migrations (REVISED_MIGRATIONS by default). */
    revised?: Readonly<Record<string, readonly string[]>>;
  } = {},
): Promise<MigrateResult> {
  const log = options.log ?? (() => {});
  const revised = options.revised ?? REVISED_MIGRATIONS;
  const files = await readMigrations(options.dir);
  const client = new pg.Client({ connectionString, application_name: 'reshelf-migrate' });
  // A lost connection fails the statement in progress (and so the run); it must not end the process.
  client.on('error', () => {});
  await client.connect();
  try {
    if (options.bootstrap) await bootstrapAuth(client);
    await client.query('select pg_advisory_lock($1)', [LOCK_KEY]);
    try {
      await client.query(`
        create table if not exists public.schema_migrations (
          name text primary key,
          checksum text not null,
          applied_at timestamptz not null default now()
        );
        alter table public.schema_migrations enable row level security;
      `);
      const { rows } = await client.query<{ name: string; checksum: string }>(
        'select name, checksum from public.schema_migrations order by name',
      );
      const applied = new Map(rows.map((row) => [row.name, row.checksum]));
      const lastApplied = rows.at(-1)?.name;

      const revisions: MigrationFile[] = [];
      for (const file of files) {
        const checksum = applied.get(file.name);
        if (checksum !== undefined && checksum !== file.checksum) {
          if (revised[file.name]?.includes(checksum)) {
            revisions.push(file);
            continue;
          }
          throw new MigrationError(
            `Migration ${file.name} was edited after it was applied (its checksum no longer matches). ` +
              'Restore the original file and put the change in a new migration.',
            file.name,
          );
        }
      }
      for (const file of revisions) {
        await client.query('update public.schema_migrations set checksum = $2 where name = $1', [
          file.name,
          file.checksum,
        ]);
        log(
          `migration ${file.name} was revised (it does the same here): its record now has the new checksum`,
        );
      }

      const pending = files.filter((file) => !applied.has(file.name));
      for (const file of pending) {
        if (lastApplied && file.name < lastApplied) {
          throw new MigrationError(
            `Migration ${file.name} sorts before ${lastApplied}, which is already applied. ` +
              'Rename it with a later timestamp so migrations stay in order.',
            file.name,
          );
        }
      }

      const done: string[] = [];
      for (const file of pending) {
        await client.query('begin');
        try {
          await client.query(file.sql);
          await client.query('insert into public.schema_migrations (name, checksum) values ($1, $2)', [
            file.name,
            file.checksum,
          ]);
          await client.query('commit');
        } catch (error) {
          await client.query('rollback');
          throw new MigrationError(
            `Migration ${file.name} failed and was rolled back: ${describePgError(error, file.sql)}`,
            file.name,
          );
        }
        log(`applied migration ${file.name}`);
        done.push(file.name);
      }
      return { applied: done, alreadyApplied: applied.size };
    } finally {
      await client.query('select pg_advisory_unlock($1)', [LOCK_KEY]).catch(() => {});
    }
  } finally {
    await client.end();
  }
}
