-- Embedded-only bootstrap: the shapes of Supabase's `auth` schema that our migrations and
-- row-level-security policies rely on. Supabase creates the real ones; this file is never
-- applied in hosted mode. It is idempotent and runs before the migrations on every start.

do $$
begin
  if not exists (select 1 from pg_roles where rolname = 'anon') then
    create role anon nologin noinherit;
  end if;
  if not exists (select 1 from pg_roles where rolname = 'authenticated') then
    create role authenticated nologin noinherit;
  end if;
  if not exists (select 1 from pg_roles where rolname = 'service_role') then
    create role service_role nologin noinherit bypassrls;
  end if;
  -- The BFF's runtime role (api/src/db/runtime-role.ts, decision 0026); the migration
  -- 20261124180000_database_privileges.sql grants it the app's tables, the end of this file
  -- the auth tables, and start-up gives it a login.
  if not exists (select 1 from pg_roles where rolname = 'reshelf_app') then
    create role reshelf_app nologin nosuperuser nocreatedb nocreaterole noreplication bypassrls;
  end if;
end
$$;

create schema if not exists auth;
create schema if not exists extensions;

create table if not exists auth.users (
  instance_id uuid,
  id uuid primary key default gen_random_uuid(),
  aud varchar(255) default 'authenticated',
  role varchar(255) default 'authenticated',
  email varchar(255),
  encrypted_password varchar(255),
  email_confirmed_at timestamptz,
  invited_at timestamptz,
  confirmation_token varchar(255),
  confirmation_sent_at timestamptz,
  recovery_token varchar(255),
  recovery_sent_at timestamptz,
  email_change varchar(255),
  last_sign_in_at timestamptz,
  raw_app_meta_data jsonb not null default '{}'::jsonb,
  raw_user_meta_data jsonb not null default '{}'::jsonb,
  is_super_admin boolean,
  banned_until timestamptz,
  is_anonymous boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  deleted_at timestamptz
);
create unique index if not exists users_email_key on auth.users (lower(email)) where email is not null;
-- Supabase Auth's other token columns (defaults as Supabase's own): Auth reads every token
-- column as a string, so rows written by SQL must hold '' there, never NULL (decision 0032).
alter table auth.users add column if not exists email_change_token_new varchar(255);
alter table auth.users add column if not exists email_change_token_current varchar(255) default '';
alter table auth.users add column if not exists phone_change text default '';
alter table auth.users add column if not exists phone_change_token varchar(255) default '';
alter table auth.users add column if not exists reauthentication_token varchar(255) default '';

-- The JWT helpers Supabase provides. They read the claims PostgREST would set.
create or replace function auth.jwt() returns jsonb language sql stable as $$
  select coalesce(
    nullif(current_setting('request.jwt.claims', true), ''),
    '{}'
  )::jsonb
$$;

create or replace function auth.uid() returns uuid language sql stable as $$
  select nullif(
    coalesce(current_setting('request.jwt.claim.sub', true), auth.jwt() ->> 'sub'),
    ''
  )::uuid
$$;

create or replace function auth.role() returns text language sql stable as $$
  select nullif(
    coalesce(current_setting('request.jwt.claim.role', true), auth.jwt() ->> 'role'),
    ''
  )::text
$$;

create or replace function auth.email() returns text language sql stable as $$
  select nullif(
    coalesce(current_setting('request.jwt.claim.email', true), auth.jwt() ->> 'email'),
    ''
  )::text
$$;

grant usage on schema auth to anon, authenticated, service_role;
grant usage on schema public to anon, authenticated, service_role;
grant usage on schema extensions to anon, authenticated, service_role;
-- The client roles (anon, authenticated) get no default grants: the BFF is the only writer,
-- and a migration grants SELECT where it adds a read policy (decision 0026). service_role is
-- Supabase's server-side key, like the BFF.
alter default privileges in schema public grant select, insert, update, delete on tables to service_role;
alter default privileges in schema public grant usage, select on sequences to service_role;

-- Sessions, rotating refresh tokens and single-use email tokens of the local identity
-- provider (Supabase Auth keeps the same kinds of rows in its own tables).
create table if not exists auth.sessions (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  user_agent text,
  ip text,
  created_at timestamptz not null default now(),
  refreshed_at timestamptz,
  not_after timestamptz not null
);
create index if not exists sessions_user_idx on auth.sessions (user_id);

create table if not exists auth.refresh_tokens (
  id bigserial primary key,
  token_hash text not null unique,
  session_id uuid not null references auth.sessions (id) on delete cascade,
  user_id uuid not null references auth.users (id) on delete cascade,
  parent_hash text,
  revoked boolean not null default false,
  created_at timestamptz not null default now(),
  revoked_at timestamptz
);
create index if not exists refresh_tokens_session_idx on auth.refresh_tokens (session_id);

create table if not exists auth.one_time_tokens (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  token_type text not null check (token_type in ('confirmation_token', 'recovery_token')),
  token_hash text not null unique,
  relates_to text not null,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null
);
create index if not exists one_time_tokens_user_idx on auth.one_time_tokens (user_id, token_type);

-- The BFF's runtime role runs the local identity provider: it reads and writes these tables.
grant usage on schema auth to reshelf_app;
grant usage on schema extensions to reshelf_app;
grant select, insert, update, delete on all tables in schema auth to reshelf_app;
grant usage, select on all sequences in schema auth to reshelf_app;
