/**
 * The database as a second wall (decision 0026). The BFF is the only writer: the
 * client roles Supabase exposes through PostgREST (`anon`, `authenticated`) may read what a
 * policy lets them and write nothing, and the BFF's runtime connection is a role that is
 * neither superuser nor the owner of anything, so grants and the append-only audit log hold
 * even against the BFF's own connection.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmptyDatabase, createTestDatabase, type TestDatabase } from '../testing/db.ts';
import { migrate } from './migrate.ts';
import { inspectRuntimeRole, RUNTIME_ROLE } from './runtime-role.ts';

const CLIENT_ROLES = ['anon', 'authenticated'] as const;
/** Schemas PostgreSQL and its extensions own: nothing of ours lives there. */
const SYSTEM_SCHEMAS = ['pg_catalog', 'information_schema', 'pg_toast'];

let t: TestDatabase;
let owner: pg.Client;

async function query<T extends pg.QueryResultRow>(
  client: pg.ClientBase,
  text: string,
  values: unknown[] = [],
) {
  return (await client.query<T>(text, values)).rows;
}

beforeAll(async () => {
  t = await createTestDatabase();
  owner = new pg.Client({ connectionString: t.url });
  await owner.connect();
});

afterAll(async () => {
  await owner?.end();
  await t?.drop();
});

/** Every table-like relation outside PostgreSQL's own schemas. */
const RELATIONS = `
  select c.oid, n.nspname as schema, c.relname as name, c.relkind as kind
  from pg_class c join pg_namespace n on n.oid = c.relnamespace
  where c.relkind in ('r', 'p', 'v', 'm', 'f')
    and n.nspname <> all ($1) and n.nspname not like 'pg_temp%' and n.nspname not like 'pg_toast_temp%'`;

describe('client roles (anon, authenticated) write nothing', () => {
  it('has no INSERT, UPDATE, DELETE or TRUNCATE grant to a client role on any table', async () => {
    const rows = await query<{ grantee: string; table: string; privilege: string }>(
      owner,
      `select g.grantee, g.table_schema || '.' || g.table_name as table, g.privilege_type as privilege
       from information_schema.role_table_grants g
       where g.grantee = any ($1) order by 2, 1, 3`,
      [CLIENT_ROLES],
    );
    console.info(
      `grants to client roles: ${rows.length}\n${rows.map((r) => `  ${r.grantee} ${r.privilege} ${r.table}`).join('\n')}`,
    );
    const writes = rows.filter((r) => ['INSERT', 'UPDATE', 'DELETE', 'TRUNCATE'].includes(r.privilege));
    expect(writes).toEqual([]);

    // The effective privilege too (through PUBLIC, role membership or a column grant).
    const effective = await query<{ role: string; table: string; privilege: string }>(
      owner,
      `select r.role, rel.schema || '.' || rel.name as table, p.privilege
       from (${RELATIONS}) rel
       cross join unnest($2::text[]) as r(role)
       cross join unnest(array['INSERT', 'UPDATE', 'DELETE', 'TRUNCATE']) as p(privilege)
       where has_table_privilege(r.role, rel.oid, p.privilege)
          or (p.privilege in ('INSERT', 'UPDATE') and has_any_column_privilege(r.role, rel.oid, p.privilege))
       order by 2, 1, 3`,
      [SYSTEM_SCHEMAS, CLIENT_ROLES],
    );
    expect(effective).toEqual([]);
  });

  it('lets no client role use a sequence or run a SECURITY DEFINER function', async () => {
    const sequences = await query<{ role: string; sequence: string }>(
      owner,
      `select r.role, n.nspname || '.' || c.relname as sequence
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
       cross join unnest($2::text[]) as r(role)
       where c.relkind = 'S' and n.nspname <> all ($1)
         and (has_sequence_privilege(r.role, c.oid, 'USAGE') or has_sequence_privilege(r.role, c.oid, 'UPDATE'))`,
      [SYSTEM_SCHEMAS, CLIENT_ROLES],
    );
    expect(sequences).toEqual([]);
    const definers = await query<{ role: string; fn: string }>(
      owner,
      `select r.role, p.oid::regprocedure::text as fn
       from pg_proc p join pg_namespace n on n.oid = p.pronamespace
       cross join unnest($2::text[]) as r(role)
       where p.prosecdef and n.nspname <> all ($1) and has_function_privilege(r.role, p.oid, 'EXECUTE')`,
      [SYSTEM_SCHEMAS, CLIENT_ROLES],
    );
    expect(definers).toEqual([]);
  });

  it('has no policy that lets a client role write, and reads only where a policy says so', async () => {
    const writePolicies = await query<{ table: string; policy: string; cmd: string }>(
      owner,
      `select schemaname || '.' || tablename as table, policyname as policy, cmd
       from pg_policies
       where cmd <> 'SELECT' and (roles && $1::name[] or roles && array['public']::name[])`,
      [CLIENT_ROLES],
    );
    expect(writePolicies).toEqual([]);

    const unexplained = await query<{ role: string; table: string }>(
      owner,
      `select r.role, rel.schema || '.' || rel.name as table
       from (${RELATIONS}) rel
       cross join unnest($2::text[]) as r(role)
       where has_table_privilege(r.role, rel.oid, 'SELECT')
         and not exists (
           select 1 from pg_policies p
           where p.schemaname = rel.schema and p.tablename = rel.name and p.cmd in ('SELECT', 'ALL')
             and (r.role = any (p.roles) or 'public' = any (p.roles)))
       order by 2, 1`,
      [SYSTEM_SCHEMAS, CLIENT_ROLES],
    );
    expect(unexplained).toEqual([]);
  });

  it('refuses a seller holding a Supabase session who tries to put their sold listing back on sale at 1p', async () => {
    const [seller] = await query<{ id: string }>(
      owner,
      `insert into auth.users (email) values ('sold-seller@privileges.test') returning id`,
    );
    const [book] = await query<{ id: string }>(
      owner,
      `insert into public.books (isbn13, title, authors) values ('9780140449136', 'Crime and Punishment', '{"Fyodor Dostoevsky"}') returning id`,
    );
    const [listing] = await query<{ id: string }>(
      owner,
      `insert into public.listings (seller_id, book_id, slug, status, condition, price_minor, parcel_size, published_at)
       values ($1, $2, 'crime-and-punishment-sold', 'sold', 'good', 1250, 'small', now()) returning id`,
      [seller!.id, book!.id],
    );
    const claims = JSON.stringify({
      sub: seller!.id,
      role: 'authenticated',
      email: 'sold-seller@privileges.test',
    });

    /** One statement as PostgREST runs it for this session: role and claims for one transaction. */
    const asSeller = async (text: string, values: unknown[] = []) => {
      await owner.query('begin');
      try {
        await owner.query('set local role authenticated');
        await owner.query(`select set_config('request.jwt.claims', $1, true)`, [claims]);
        return await owner.query(text, values);
      } finally {
        await owner.query('rollback');
      }
    };

    // The seller still reads their own listing (a policy says so)…
    const read = await asSeller('select status, price_minor from public.listings where id = $1', [
      listing!.id,
    ]);
    expect(read.rows).toEqual([{ status: 'sold', price_minor: 1250 }]);
    // …but cannot change, add or delete it: the grant is gone, so RLS is not even consulted.
    await expect(
      asSeller(`update public.listings set status = 'active', price_minor = 1 where id = $1`, [listing!.id]),
    ).rejects.toMatchObject({ code: '42501', message: 'permission denied for table listings' });
    await expect(
      asSeller(
        `insert into public.listings (seller_id, book_id, slug, status, condition, price_minor, parcel_size, published_at)
         values ($1, $2, 'another-copy', 'active', 'good', 1, 'small', now())`,
        [seller!.id, book!.id],
      ),
    ).rejects.toMatchObject({ code: '42501' });
    await expect(asSeller('delete from public.listings where id = $1', [listing!.id])).rejects.toMatchObject({
      code: '42501',
    });
    // Nor their profile, wishlist, addresses or notifications (once "manage your own" policies).
    for (const statement of [
      `update public.profiles set display_name = 'x' where id = '${seller!.id}'`,
      `insert into public.wishlist_items (user_id, listing_id) values ('${seller!.id}', '${listing!.id}')`,
      `delete from public.addresses where user_id = '${seller!.id}'`,
      `update public.notifications set read_at = now() where user_id = '${seller!.id}'`,
      `delete from public.profile_genres where user_id = '${seller!.id}'`,
    ]) {
      await expect(asSeller(statement), statement).rejects.toMatchObject({ code: '42501' });
    }

    const [after] = await query<{ status: string; price_minor: number }>(
      owner,
      'select status, price_minor from public.listings where id = $1',
      [listing!.id],
    );
    expect(after).toEqual({ status: 'sold', price_minor: 1250 });
  });

  it('still lets anyone read what is on sale, as before', async () => {
    await owner.query('begin');
    try {
      await owner.query('set local role anon');
      const { rows } = await owner.query(`select count(*)::int as n from public.categories`);
      expect(rows[0].n).toBeGreaterThanOrEqual(0);
      await expect(owner.query('select count(*) from public.email_outbox')).rejects.toMatchObject({
        code: '42501',
      });
    } finally {
      await owner.query('rollback');
    }
  });
});

describe("Supabase's default privileges", () => {
  it('leave tables created after the migrations without client grants, and with the runtime role’s', async () => {
    const empty = await createEmptyDatabase();
    try {
      const client = new pg.Client({ connectionString: empty.url });
      await client.connect();
      try {
        // What a Supabase project starts with: everything in public granted to the API roles.
        await client.query(`
          do $$ begin
            if not exists (select 1 from pg_roles where rolname = 'anon') then create role anon nologin; end if;
            if not exists (select 1 from pg_roles where rolname = 'authenticated') then create role authenticated nologin; end if;
            if not exists (select 1 from pg_roles where rolname = 'service_role') then create role service_role nologin bypassrls; end if;
          end $$;
          grant usage on schema public to anon, authenticated, service_role;
          alter default privileges in schema public grant all on tables to anon, authenticated, service_role;
          alter default privileges in schema public grant all on sequences to anon, authenticated, service_role;
          alter default privileges in schema public grant all on functions to anon, authenticated, service_role;
          alter default privileges grant all on tables to anon, authenticated;
        `);
        await migrate(empty.url, { bootstrap: true });
        await client.query(`
          create table public.later_feature (id bigserial primary key, note text);
          alter table public.later_feature enable row level security;
          create function public.later_definer() returns int language sql security definer as 'select 1';`);
        const clientGrants = await query<{ grantee: string; privilege: string }>(
          client,
          `select grantee, privilege_type as privilege from information_schema.role_table_grants
           where table_name = 'later_feature' and grantee = any ($1)`,
          [CLIENT_ROLES],
        );
        expect(clientGrants).toEqual([]);
        const [sequence] = await query<{ usable: boolean }>(
          client,
          `select has_sequence_privilege('authenticated', 'public.later_feature_id_seq', 'USAGE') as usable`,
        );
        expect(sequence!.usable).toBe(false);
        const [definer] = await query<{ runnable: boolean }>(
          client,
          `select has_function_privilege('authenticated', 'public.later_definer()', 'EXECUTE') as runnable`,
        );
        expect(definer!.runnable).toBe(false);
        const [runtime] = await query<{ crud: boolean; sequence: boolean }>(
          client,
          `select has_table_privilege($1, 'public.later_feature', 'SELECT, INSERT, UPDATE, DELETE') as crud,
                  has_sequence_privilege($1, 'public.later_feature_id_seq', 'USAGE') as sequence`,
          [RUNTIME_ROLE],
        );
        expect(runtime).toEqual({ crud: true, sequence: true });
      } finally {
        await client.end();
      }
    } finally {
      await empty.drop();
    }
  });
});

describe("the BFF's runtime role", () => {
  let app: pg.Client;

  beforeAll(async () => {
    app = new pg.Client({ connectionString: t.appUrl });
    await app.connect();
  });

  afterAll(async () => {
    await app?.end();
  });

  it('is who the runtime connection is, and is neither superuser nor the owner of anything', async () => {
    const [me] = await query<{ user: string; superuser: boolean; createrole: boolean; createdb: boolean }>(
      app,
      `select current_user as user, rolsuper as superuser, rolcreaterole as createrole, rolcreatedb as createdb
       from pg_roles where rolname = current_user`,
    );
    expect(me).toEqual({ user: RUNTIME_ROLE, superuser: false, createrole: false, createdb: false });
    const owned = await query<{ what: string }>(
      owner,
      `select 'relation ' || c.oid::regclass::text as what from pg_class c where c.relowner = $1::regrole
       union all select 'function ' || p.oid::regprocedure::text from pg_proc p where p.proowner = $1::regrole
       union all select 'schema ' || n.nspname from pg_namespace n where n.nspowner = $1::regrole
       union all select 'type ' || t.typname from pg_type t where t.typowner = $1::regrole
       union all select 'database ' || d.datname from pg_database d where d.datdba = $1::regrole`,
      [RUNTIME_ROLE],
    );
    expect(owned).toEqual([]);
    const report = await inspectRuntimeRole(app);
    expect(report).toMatchObject({ role: RUNTIME_ROLE, superuser: false, ownsTables: false, missing: [] });
  });

  it('reads and writes the app’s tables, but cannot change the schema or rewrite the audit log', async () => {
    const id = randomUUID();
    await app.query(`insert into auth.users (id, email) values ($1, 'runtime@privileges.test')`, [id]);
    const profile = await app.query('select id from public.profiles where id = $1', [id]);
    expect(profile.rowCount).toBe(1); // the SECURITY DEFINER trigger made it
    await app.query(
      `insert into public.audit_log (actor_email, action, target_type, target_id) values ('runtime@privileges.test', 'test.privileges', 'user', $1)`,
      [id],
    );
    for (const statement of [
      'update public.audit_log set action = $$forged$$',
      'delete from public.audit_log',
      'truncate public.audit_log',
      'alter table public.audit_log disable trigger user',
      'drop table public.listings',
      'create table public.runtime_made (id int)',
      'alter table public.listings disable row level security',
      'update public.schema_migrations set checksum = $$x$$',
      `set session_replication_role = replica`,
      `create role someone_else`,
    ]) {
      // 42501 from the privilege system itself, never the audit trigger's own refusal.
      await expect(app.query(statement), statement).rejects.toMatchObject({
        code: '42501',
        message: expect.not.stringContaining('append-only'),
      });
    }
  });
});
