/**
 * The BFF's runtime role (decision 0026). Migrations run as the schema's owner; the pool that
 * serves requests connects as `reshelf_app`: LOGIN, not superuser, owner of nothing, with
 * SELECT/INSERT/UPDATE/DELETE on the app's tables (only SELECT and INSERT on the append-only
 * audit log, only SELECT on schema_migrations), USAGE on their sequences and EXECUTE on their
 * functions, and BYPASSRLS: the BFF enforces who may see what itself, for every caller, so
 * row-level-security policies are written for the client roles (anon, authenticated) only.
 * What the role cannot do is the point: change the schema, drop a trigger, rewrite the audit
 * log, read files or run programs on the server, or become another role.
 *
 * The role and its grants come from the migration 20261124180000_database_privileges.sql (and,
 * embedded, the auth bootstrap for the auth tables). Embedded, the BFF gives it a login with a
 * password kept in DATA_DIR; elsewhere the operator does (docker/README.md,
 * docs/hosted-supabase.md), and start-up reports what the runtime connection really is.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';

export const RUNTIME_ROLE = 'reshelf_app';
export const RUNTIME_PASSWORD_FILE = 'reshelf_app.password';

/** The runtime role's password for an embedded cluster: kept in DATA_DIR (mode 600), made once. */
export async function runtimeRolePassword(dataDir: string): Promise<string> {
  const file = path.join(dataDir, RUNTIME_PASSWORD_FILE);
  try {
    const kept = (await readFile(file, 'utf8')).trim();
    if (kept) return kept;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  await mkdir(dataDir, { recursive: true });
  await writeFile(file, randomBytes(24).toString('base64url'), { mode: 0o600, flag: 'wx' }).catch(
    (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw error; // another process made it first: use theirs
    },
  );
  return (await readFile(file, 'utf8')).trim();
}

/**
 * Lets the runtime role log in with this password (embedded clusters, where we are the
 * superuser): its attributes are set every time, so a role someone altered by hand is put back.
 */
export async function provisionRuntimeRole(ownerUrl: string, password: string): Promise<void> {
  const client = new pg.Client({ connectionString: ownerUrl, application_name: 'reshelf-migrate' });
  await client.connect();
  try {
    await client.query(
      `alter role ${RUNTIME_ROLE} with login nosuperuser nocreatedb nocreaterole noreplication inherit bypassrls ` +
        `password ${client.escapeLiteral(password)}`,
    );
  } finally {
    await client.end();
  }
}

/** The same connection string with another user and password. */
export function withCredentials(url: string, user: string, password: string): string {
  const parsed = new URL(url);
  parsed.username = encodeURIComponent(user);
  parsed.password = encodeURIComponent(password);
  return parsed.toString();
}

export interface RuntimeRoleReport {
  role: string;
  superuser: boolean;
  bypassRls: boolean;
  /** Owns a table of the app (the owner may ALTER, DROP, disable triggers and policies). */
  ownsTables: boolean;
  /** What the BFF needs and this role lacks, e.g. "INSERT on public.orders". */
  missing: string[];
}

/** Tables the runtime role may only read and append to, or only read. */
const NARROWER: Record<string, string> = {
  'public.audit_log': 'SELECT, INSERT',
  'public.schema_migrations': 'SELECT',
  // Hosted, Supabase Auth writes its users; the BFF reads them (emails, names).
  'auth.users': 'SELECT',
};

/** What the connection's role is and whether it can do the BFF's work. */
export async function inspectRuntimeRole(client: pg.ClientBase | pg.Pool): Promise<RuntimeRoleReport> {
  const { rows } = await client.query<{ role: string; superuser: boolean; bypass_rls: boolean }>(
    `select current_user as role, r.rolsuper as superuser, r.rolbypassrls as bypass_rls
     from pg_roles r where r.rolname = current_user`,
  );
  const me = rows[0]!;
  const tables = await client.query<{ name: string; owned: boolean; privileges: string[] }>(
    `select format('%I.%I', n.nspname, c.relname) as name,
            pg_has_role(c.relowner, 'USAGE') as owned,
            array_remove(array[
              case when has_table_privilege(c.oid, 'SELECT') then null else 'SELECT' end,
              case when has_table_privilege(c.oid, 'INSERT') then null else 'INSERT' end,
              case when has_table_privilege(c.oid, 'UPDATE') then null else 'UPDATE' end,
              case when has_table_privilege(c.oid, 'DELETE') then null else 'DELETE' end
            ], null) as privileges
     from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where c.relkind in ('r', 'p') and (n.nspname = 'public' or (n.nspname, c.relname) = ('auth', 'users'))
     order by 1`,
  );
  const missing: string[] = [];
  for (const table of tables.rows) {
    const needed = (NARROWER[table.name] ?? 'SELECT, INSERT, UPDATE, DELETE').split(', ');
    const lacking = table.privileges.filter((privilege) => needed.includes(privilege));
    if (lacking.length) missing.push(`${lacking.join(', ')} on ${table.name}`);
  }
  return {
    role: me.role,
    superuser: me.superuser,
    bypassRls: me.bypass_rls,
    ownsTables: tables.rows.some((table) => table.owned),
    missing,
  };
}
