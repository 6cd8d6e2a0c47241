-- Admin operations (issue 9), part 3: feature flags admins switch on and off at
-- /admin/settings. The web client reads them through a public, cached call (flags.public),
-- so a change drops the public cache like any catalogue change.

create table public.feature_flags (
  key text primary key check (key ~ '^[a-z][a-z0-9_]*$' and char_length(key) <= 60),
  description text not null check (char_length(btrim(description)) between 1 and 500),
  enabled boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  updated_by uuid references auth.users (id) on delete set null
);
create trigger feature_flags_touch before update on public.feature_flags
  for each row execute function public.touch_updated_at();
create trigger feature_flags_notify_catalogue after insert or update or delete or truncate
  on public.feature_flags for each statement execute function public.notify_catalogue_change();

insert into public.feature_flags (key, description, enabled) values
  ('welcome_gift', 'Show first-time visitors the welcome gift popup (20% off their first order with WELCOME20) after 90 seconds.', true);

-- Flags are public: the web client decides what to show with them.
alter table public.feature_flags enable row level security;
create policy feature_flags_read on public.feature_flags for select to anon, authenticated using (true);
