import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEmptyDatabase } from '../testing/db.ts';
import { checksumOf, MigrationError, migrate, REVISED_MIGRATIONS, readMigrations } from './migrate.ts';

let dir: string;
let database: Awaited<ReturnType<typeof createEmptyDatabase>>;

async function query<T extends pg.QueryResultRow>(sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

async function tables(): Promise<string[]> {
  const rows = await query<{ name: string }>(
    "select table_name as name from information_schema.tables where table_schema = 'public' order by 1",
  );
  return rows.map((row) => row.name);
}

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'reshelf-migrations-'));
  database = await createEmptyDatabase();
});

afterEach(async () => {
  await database.drop();
  await rm(dir, { recursive: true, force: true });
});

describe('migration runner', () => {
  it('applies files in name order, each exactly once', async () => {
    await writeFile(path.join(dir, '20260102000000_second.sql'), 'insert into log values (2);');
    await writeFile(
      path.join(dir, '20260101000000_first.sql'),
      'create table log (n int); insert into log values (1);',
    );

    const first = await migrate(database.url, { dir });
    expect(first.applied).toEqual(['20260101000000_first.sql', '20260102000000_second.sql']);

    const again = await migrate(database.url, { dir });
    expect(again).toEqual({ applied: [], alreadyApplied: 2 });
    expect(await query('select n from log order by n')).toEqual([{ n: 1 }, { n: 2 }]);

    await writeFile(path.join(dir, '20260103000000_third.sql'), 'insert into log values (3);');
    expect((await migrate(database.url, { dir })).applied).toEqual(['20260103000000_third.sql']);
    expect(await query('select n from log order by n')).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
  });

  it('refuses to start when an applied migration was edited, naming the file', async () => {
    await writeFile(path.join(dir, '20260101000000_first.sql'), 'create table log (n int);');
    await migrate(database.url, { dir });
    await writeFile(path.join(dir, '20260101000000_first.sql'), 'create table log (n bigint);');

    const attempt = migrate(database.url, { dir });
    await expect(attempt).rejects.toBeInstanceOf(MigrationError);
    await expect(migrate(database.url, { dir })).rejects.toThrow(/20260101000000_first\.sql was edited/);
  });

  it('accepts an applied migration revised without changing what it does, and records the revision', async () => {
    const before = 'create table log (n int);';
    const after = "do $$ begin if to_regclass('log') is null then create table log (n int); end if; end $$;";
    await writeFile(path.join(dir, '20260101000000_first.sql'), before);
    await migrate(database.url, { dir });
    await writeFile(path.join(dir, '20260101000000_first.sql'), after);

    const revised = { '20260101000000_first.sql': [checksumOf(before)] };
    expect(await migrate(database.url, { dir, revised })).toEqual({ applied: [], alreadyApplied: 1 });
    expect(await query('select checksum from schema_migrations')).toEqual([{ checksum: checksumOf(after) }]);
    // A text it does not list is still an edit.
    await writeFile(path.join(dir, '20260101000000_first.sql'), 'create table log (n bigint);');
    await expect(migrate(database.url, { dir, revised })).rejects.toThrow(
      /20260101000000_first\.sql was edited/,
    );
  });

  it('brings a database that applied the first text of 20261124180000_database_privileges up to date', async () => {
    // That text failed on `supabase db push` (it named the embedded runner's own table): the
    // revision only skips that statement where the table is missing (decision 0033).
    await migrate(database.url, { bootstrap: true });
    const name = '20261124180000_database_privileges.sql';
    const [firstText] = REVISED_MIGRATIONS[name] ?? [];
    expect(firstText).toBe('21ea6e5dcd7df67d753901921e4b3a8cda80d0498f2e28db3c98fc292dceca5b');
    await query(`update schema_migrations set checksum = '${firstText}' where name = '${name}'`);

    expect((await migrate(database.url, { bootstrap: true })).applied).toEqual([]);
    const current = (await readMigrations()).find((file) => file.name === name);
    expect(await query(`select checksum from schema_migrations where name = '${name}'`)).toEqual([
      { checksum: current?.checksum },
    ]);
  });

  it('rolls back a failing migration and leaves the database as it was', async () => {
    await writeFile(path.join(dir, '20260101000000_first.sql'), 'create table kept (n int);');
    await migrate(database.url, { dir });
    await writeFile(
      path.join(dir, '20260102000000_broken.sql'),
      'create table half_done (n int);\ninsert into half_done values (1);\nselect * from no_such_table;',
    );

    await expect(migrate(database.url, { dir })).rejects.toThrow(
      /20260102000000_broken\.sql failed and was rolled back: relation "no_such_table" does not exist \(line 3\)/,
    );
    expect(await tables()).toEqual(['kept', 'schema_migrations']);
    expect(await query('select name from schema_migrations')).toEqual([{ name: '20260101000000_first.sql' }]);

    // Once fixed, it applies.
    await writeFile(path.join(dir, '20260102000000_broken.sql'), 'create table half_done (n int);');
    expect((await migrate(database.url, { dir })).applied).toEqual(['20260102000000_broken.sql']);
  });

  it('refuses a new migration that sorts before one already applied', async () => {
    await writeFile(path.join(dir, '20260105000000_later.sql'), 'select 1;');
    await migrate(database.url, { dir });
    await writeFile(path.join(dir, '20260101000000_earlier.sql'), 'select 1;');
    await expect(migrate(database.url, { dir })).rejects.toThrow(/sorts before 20260105000000_later\.sql/);
  });

  it('refuses badly named files', async () => {
    await writeFile(path.join(dir, 'add-things.sql'), 'select 1;');
    await expect(readMigrations(dir)).rejects.toThrow(
      /add-things\.sql must look like YYYYMMDDHHMMSS_description\.sql/,
    );
  });

  it('lets concurrent runners take turns without applying anything twice', async () => {
    await writeFile(
      path.join(dir, '20260101000000_first.sql'),
      'create table log (n int); insert into log values (1);',
    );
    const results = await Promise.all([1, 2, 3].map(() => migrate(database.url, { dir })));
    expect(results.map((result) => result.applied.length).sort()).toEqual([0, 0, 1]);
    expect(await query('select count(*)::int as c from log')).toEqual([{ c: 1 }]);
  });

  it('applies the real migrations on the auth bootstrap, idempotently', async () => {
    const first = await migrate(database.url, { bootstrap: true });
    expect(first.applied.length).toBeGreaterThan(0);
    const second = await migrate(database.url, { bootstrap: true });
    expect(second.applied).toEqual([]);
  });
});
