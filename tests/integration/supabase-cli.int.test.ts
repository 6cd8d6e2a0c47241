/**
 * The Supabase CLI (the `supabase` package, pinned in package.json) applies our migrations the
 * way it will to a hosted project: `supabase db push` against an empty PostgreSQL 17 database
 * (the major hosted Supabase runs; this file is in the `integration-pg17` project only) that has
 * only what Supabase provides before any migration (our auth bootstrap stands in for Supabase's
 * `auth` schema and roles). What it makes must be the schema our own runner makes, and the CLI's
 * advisors (Supabase's database linter, the checks the dashboard shows) must find nothing at
 * ERROR level. Everything here runs offline: `--remote=<database URL>` needs no login.
 * `supabase db lint` is not here: it needs the plpgsql_check extension, which plain PostgreSQL
 * lacks (decision 0033 lists what ran and what did not).
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { readMigrations } from '../../api/src/db/migrate.ts';
import { BOOTSTRAP_AUTH_SQL } from '../../api/src/paths.ts';
import { createEmptyDatabase, createTestDatabase, type TestDatabase } from '../../api/src/testing/db.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SUPABASE = path.join(ROOT, 'node_modules/.bin/supabase');

let home: string;
let pushed: Awaited<ReturnType<typeof createEmptyDatabase>>;
let ours: TestDatabase;
let versions: string[];

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the CLI from the repository root (it reads supabase/), never asking, never phoning home. */
async function supabase(...args: string[]): Promise<Run> {
  try {
    const { stdout, stderr } = await promisify(execFile)(SUPABASE, args, {
      cwd: ROOT,
      timeout: 120_000,
      maxBuffer: 32 * 1024 * 1024,
      env: {
        PATH: process.env.PATH,
        HOME: home,
        SUPABASE_TELEMETRY_DISABLED: '1',
        DO_NOT_TRACK: '1',
        // The embedded server has no TLS: say so, rather than have the CLI try it first.
        PGSSLMODE: 'disable',
      },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? 1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

/** The JSON document the CLI printed with --output-format json. */
function json<T>(run: Run): T {
  expect(run, run.stderr).toMatchObject({ code: 0 });
  return JSON.parse(run.stdout) as T;
}

async function query<T extends pg.QueryResultRow>(url: string, text: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text)).rows;
  } finally {
    await client.end();
  }
}

/**
 * What a migration can make, read from the catalogue, in a stable order: every schema but
 * PostgreSQL's own and each runner's migration history (ours keeps public.schema_migrations,
 * the CLI supabase_migrations.schema_migrations).
 */
const CATALOGUE: Record<string, string> = {
  schemas: `
    select nspname as name, pg_get_userbyid(nspowner) as owner, nspacl::text as acl
    from pg_namespace where {schema:nspname} order by 1`,
  relations: `
    select n.nspname || '.' || c.relname as name, c.relkind, c.relrowsecurity, c.relforcerowsecurity,
           pg_get_userbyid(c.relowner) as owner, c.relacl::text as acl, obj_description(c.oid, 'pg_class') as comment,
           case when c.relkind in ('v', 'm') then pg_get_viewdef(c.oid) end as definition
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where {schema:n.nspname} and {table} and c.relkind not in ('i', 'I', 't', 'c') order by 1`,
  columns: `
    select n.nspname || '.' || c.relname || '.' || a.attname as name, format_type(a.atttypid, a.atttypmod) as type,
           a.attnotnull, pg_get_expr(d.adbin, d.adrelid) as default, a.attidentity, a.attgenerated,
           a.attcollation::regcollation::text as collation, a.attacl::text as acl,
           col_description(c.oid, a.attnum) as comment
    from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
    left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
    where {schema:n.nspname} and {table} and a.attnum > 0 and not a.attisdropped
      and c.relkind in ('r', 'p', 'v', 'm', 'f')
    order by n.nspname, c.relname, a.attnum`,
  constraints: `
    select n.nspname || '.' || c.relname || '.' || k.conname as name, pg_get_constraintdef(k.oid) as definition
    from pg_constraint k join pg_class c on c.oid = k.conrelid join pg_namespace n on n.oid = c.relnamespace
    where {schema:n.nspname} and {table} order by 1`,
  indexes: `
    select schemaname || '.' || indexname as name, indexdef from pg_indexes
    where {schema:schemaname} and tablename <> 'schema_migrations' order by 1`,
  triggers: `
    select n.nspname || '.' || c.relname || '.' || t.tgname as name, pg_get_triggerdef(t.oid) as definition,
           t.tgenabled
    from pg_trigger t join pg_class c on c.oid = t.tgrelid join pg_namespace n on n.oid = c.relnamespace
    where {schema:n.nspname} and not t.tgisinternal order by 1`,
  functions: `
    select p.oid::regprocedure::text as name, pg_get_functiondef(p.oid) as definition, p.prosecdef,
           p.proconfig::text as config, p.proacl::text as acl, pg_get_userbyid(p.proowner) as owner,
           obj_description(p.oid, 'pg_proc') as comment
    from pg_proc p join pg_namespace n on n.oid = p.pronamespace
    where {schema:n.nspname} and p.prokind in ('f', 'p', 'w') order by 1`,
  policies: `
    select schemaname || '.' || tablename || '.' || policyname as name, permissive, roles::text, cmd, qual, with_check
    from pg_policies where {schema:schemaname} order by 1`,
  types: `
    select t.oid::regtype::text as name, t.typtype,
           (select array_agg(e.enumlabel order by e.enumsortorder) from pg_enum e where e.enumtypid = t.oid)::text as labels,
           case when t.typtype = 'd' then format_type(t.typbasetype, t.typtypmod) end as base
    from pg_type t join pg_namespace n on n.oid = t.typnamespace
    where {schema:n.nspname} and t.typtype in ('e', 'd') order by 1`,
  extensions: `
    select e.extname as name, n.nspname as schema, e.extversion as version
    from pg_extension e join pg_namespace n on n.oid = e.extnamespace order by 1`,
  defaultPrivileges: `
    select pg_get_userbyid(d.defaclrole) as role, coalesce(n.nspname, '(all)') as schema, d.defaclobjtype,
           d.defaclacl::text as acl
    from pg_default_acl d left join pg_namespace n on n.oid = d.defaclnamespace order by 1, 2, 3`,
  // Roles are the cluster's, not a database's: the runtime role's grants of other roles, and
  // what it may do in this database.
  runtimeRole: `
    select r.rolname as name, r.rolsuper, r.rolbypassrls, r.rolcanlogin,
           has_database_privilege(r.oid, current_database(), 'CONNECT') as can_connect,
           (select array_agg(g.rolname order by g.rolname) from pg_auth_members m join pg_roles g on g.oid = m.roleid
            where m.member = r.oid)::text as member_of
    from pg_roles r where r.rolname in ('reshelf_app', 'anon', 'authenticated', 'service_role') order by 1`,
};

const OWN_SCHEMAS = `not in ('pg_catalog', 'information_schema', 'pg_toast', 'supabase_migrations')
  and {column} not like 'pg_temp%' and {column} not like 'pg_toast_temp%'`;

async function catalogue(url: string): Promise<Record<string, unknown[]>> {
  const snapshot: Record<string, unknown[]> = {};
  for (const [part, text] of Object.entries(CATALOGUE)) {
    const sql = text
      .replace(
        /\{schema:([\w.]+)\}/g,
        (_whole, column: string) => `${column} ${OWN_SCHEMAS.replaceAll('{column}', column)}`,
      )
      .replace(/\{table\}/g, "(n.nspname, c.relname) <> ('public', 'schema_migrations')");
    snapshot[part] = await query(url, sql);
  }
  return snapshot;
}

beforeAll(async () => {
  home = await mkdtemp(path.join(tmpdir(), 'reshelf-supabase-cli-'));
  versions = (await readMigrations()).map((file) => file.name.slice(0, 14));
  // What a new hosted project has before our first migration: Supabase's auth schema and roles.
  pushed = await createEmptyDatabase();
  await query(pushed.url, await readFile(BOOTSTRAP_AUTH_SQL, 'utf8'));
  // The same migrations, applied by our own runner (the run's template, cloned).
  ours = await createTestDatabase();
});

afterAll(async () => {
  await ours?.drop();
  await pushed?.drop();
  if (home) await rm(home, { recursive: true, force: true });
});

describe('the Supabase CLI against PostgreSQL 17', () => {
  it('runs on the major hosted Supabase runs (supabase/config.toml)', async () => {
    const config = await readFile(path.join(ROOT, 'supabase/config.toml'), 'utf8');
    const major = Number(/^\s*major_version\s*=\s*(\d+)/m.exec(config)?.[1]);
    expect(inject('pgMajor')).toBe(major);
    const rows = await query<{ server: number }>(
      pushed.url,
      "select current_setting('server_version_num')::int / 10000 as server",
    );
    expect(rows).toEqual([{ server: major }]);
  });

  it('`supabase migration list` and `db push --dry-run` see every migration as not yet applied', async () => {
    const list = json<{ migrations: { local: string; remote: string }[] }>(
      await supabase('migration', 'list', `--remote=${pushed.url}`, '--output-format', 'json'),
    );
    expect(list.migrations.map((row) => row.local)).toEqual(versions);
    expect(list.migrations.filter((row) => row.remote)).toEqual([]);

    const dryRun = json<{ dryRun: boolean; migrations: string[] }>(
      await supabase('db', 'push', `--remote=${pushed.url}`, '--dry-run', '--output-format', 'json'),
    );
    expect(dryRun.dryRun).toBe(true);
    expect(dryRun.migrations.map((file) => file.slice(0, 14))).toEqual(versions);
    // A dry run changes nothing.
    expect(
      await query(pushed.url, "select 1 from pg_namespace where nspname = 'supabase_migrations'"),
    ).toEqual([]);
  });

  it('`supabase db push` applies every migration, and then has nothing left to push', async () => {
    const push = await supabase('db', 'push', `--remote=${pushed.url}`, '--yes');
    expect(push, `${push.stdout}\n${push.stderr}`).toMatchObject({ code: 0 });
    const said = `${push.stderr}${push.stdout}`;
    expect(said).toContain('Finished supabase db push.');
    // Nor does it warn about supabase/config.toml (a deprecated key, say).
    expect(said).not.toMatch(/WARN/);

    const list = json<{ migrations: { local: string; remote: string }[] }>(
      await supabase('migration', 'list', `--remote=${pushed.url}`, '--output-format', 'json'),
    );
    expect(list.migrations).toEqual(
      versions.map((version) => expect.objectContaining({ local: version, remote: version })),
    );

    const again = json<{ upToDate: boolean }>(
      await supabase('db', 'push', `--remote=${pushed.url}`, '--dry-run', '--output-format', 'json'),
    );
    expect(again.upToDate).toBe(true);
  });

  it('makes the schema our own runner makes: tables, columns, constraints, indexes, functions, policies, grants', async () => {
    const theirs = await catalogue(pushed.url);
    const mine = await catalogue(ours.url);
    for (const part of Object.keys(CATALOGUE)) {
      expect(theirs[part], part).toEqual(mine[part]);
    }
    // Not an empty comparison.
    expect((mine.relations ?? []).length).toBeGreaterThan(40);
    expect((mine.policies ?? []).length).toBeGreaterThan(10);
    expect((mine.functions ?? []).length).toBeGreaterThan(20);
  });

  it('`supabase db advisors` finds nothing at ERROR level, and would name a table left open', async () => {
    const clean = await supabase(
      'db',
      'advisors',
      `--remote=${pushed.url}`,
      '--type',
      'all',
      '--level',
      'error',
      '--fail-on',
      'error',
      '--output-format',
      'json',
    );
    expect(clean, clean.stdout).toMatchObject({ code: 0 });
    expect(JSON.parse(clean.stdout).results).toEqual([]);

    // A table in public without row-level security, readable by browsers: an ERROR.
    await query(
      pushed.url,
      'create table public.left_open (id int); grant select on public.left_open to anon',
    );
    try {
      const open = await supabase(
        'db',
        'advisors',
        `--remote=${pushed.url}`,
        '--level',
        'error',
        '--fail-on',
        'error',
        '--output-format',
        'json',
      );
      expect(open.code).not.toBe(0);
      expect(open.stdout).toContain('rls_disabled_in_public');
      expect(open.stdout).toContain('left_open');
    } finally {
      await query(pushed.url, 'drop table public.left_open');
    }
  });
});
