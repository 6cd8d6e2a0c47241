-- Issue 17, decision 0026: the database as a second wall behind the BFF.
--
-- 1. The client roles Supabase exposes through PostgREST (anon, authenticated) write nothing:
--    every INSERT/UPDATE/DELETE/TRUNCATE grant (and sequence use) is revoked in public, the
--    policies that let a signed-in person change rows (listings_write_own let a seller put a
--    sold listing back on sale at 1p) go, and reads are granted only where a policy for that
--    role says so. Supabase's default privileges (everything new in public granted to anon and
--    authenticated) are revoked too, so a table added later starts with no client grants.
-- 2. The BFF's runtime role, reshelf_app: not superuser, owner of nothing, BYPASSRLS (the BFF
--    enforces access itself for every caller; the policies are for the client roles), with
--    DML on the app's tables (the audit log only SELECT and INSERT, schema_migrations only
--    SELECT), their sequences and functions, now and for tables added later. Created here
--    without a login; the embedded backend gives it one with a password kept in DATA_DIR, and
--    operators do on Docker or Supabase (docker/README.md, docs/hosted-supabase.md).

-- 1a. Write policies for client roles: dropped, or narrowed to reading one's own rows.
drop policy if exists listings_write_own on public.listings;
drop policy if exists profiles_update_own on public.profiles;
drop policy if exists notifications_update_own on public.notifications;

drop policy if exists profile_genres_own on public.profile_genres;
create policy profile_genres_read_own on public.profile_genres for select to authenticated
  using (user_id = auth.uid());
drop policy if exists wishlist_items_own on public.wishlist_items;
create policy wishlist_items_read_own on public.wishlist_items for select to authenticated
  using (user_id = auth.uid());
drop policy if exists addresses_own on public.addresses;
create policy addresses_read_own on public.addresses for select to authenticated
  using (user_id = auth.uid());

-- 1b. Grants: nothing for client roles, then SELECT where a policy for the role reads.
revoke all on all tables in schema public from anon, authenticated;
revoke all on all sequences in schema public from anon, authenticated;
revoke create on schema public from public, anon, authenticated;

do $$
declare
  target record;
begin
  for target in
    select distinct p.schemaname, p.tablename, r.rolname
    from pg_policies p
    cross join lateral unnest(p.roles) as granted(name)
    join pg_roles r on r.rolname = granted.name
                    or (granted.name = 'public' and r.rolname in ('anon', 'authenticated'))
    where p.schemaname = 'public' and p.cmd in ('SELECT', 'ALL') and r.rolname in ('anon', 'authenticated')
  loop
    execute format('grant select on %I.%I to %I', target.schemaname, target.tablename, target.rolname);
  end loop;
end
$$;

-- SECURITY DEFINER functions run with their owner's rights: no client role may call them
-- (PostgREST would publish them as RPCs). Trigger functions need no EXECUTE to fire.
do $$
declare
  fn record;
begin
  for fn in
    select p.oid::regprocedure as signature
    from pg_proc p join pg_namespace n on n.oid = p.pronamespace
    where n.nspname = 'public' and p.prosecdef
  loop
    execute format('revoke execute on function %s from public, anon, authenticated', fn.signature);
  end loop;
end
$$;

-- 1c. Default privileges of the role running the migrations (the owner): Supabase grants
-- everything in public to the API roles, per schema and (in places) globally.
alter default privileges in schema public revoke all on tables from anon, authenticated;
alter default privileges in schema public revoke all on sequences from anon, authenticated;
alter default privileges in schema public revoke all on functions from anon, authenticated;
alter default privileges revoke all on tables from anon, authenticated;
alter default privileges revoke all on sequences from anon, authenticated;
alter default privileges revoke all on functions from anon, authenticated;
-- PostgreSQL lets everyone (PUBLIC) run a new function: a SECURITY DEFINER one added later
-- would be callable by the client roles. New functions are run by who is granted them (the
-- runtime role, below); a read policy that calls one grants it to the client role.
alter default privileges revoke execute on functions from public;

-- 2. The runtime role.
do $$
begin
  if not exists (select 1 from pg_roles where rolname = 'reshelf_app') then
    create role reshelf_app nologin nosuperuser nocreatedb nocreaterole noreplication bypassrls;
  end if;
end
$$;

grant usage on schema public to reshelf_app;
grant select, insert, update, delete on all tables in schema public to reshelf_app;
revoke update, delete on public.audit_log from reshelf_app;
-- public.schema_migrations is the embedded runner's history (api/src/db/migrate.ts); `supabase db
-- push` keeps its own in supabase_migrations, so hosted there is none to narrow.
do $$
begin
  if to_regclass('public.schema_migrations') is not null then
    revoke insert, update, delete on public.schema_migrations from reshelf_app;
  end if;
end
$$;
grant usage, select on all sequences in schema public to reshelf_app;
grant execute on all functions in schema public to reshelf_app;

alter default privileges in schema public grant select, insert, update, delete on tables to reshelf_app;
alter default privileges in schema public grant usage, select on sequences to reshelf_app;
alter default privileges in schema public grant execute on functions to reshelf_app;

do $$
begin
  if exists (select 1 from pg_namespace where nspname = 'extensions') then
    grant usage on schema extensions to reshelf_app;
  end if;
end
$$;
