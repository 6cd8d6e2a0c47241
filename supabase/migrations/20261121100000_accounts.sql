-- Accounts: profile completion and onboarding, favourite genres, a profile for every
-- new auth user, rate-limit counters shared by every BFF instance, and the email outbox.

alter table public.profiles
  add column signup_completed_at timestamptz,
  add column onboarded_at timestamptz;

-- Every new account gets a profile, named from the sign-up form's display name.
create or replace function public.handle_new_user() returns trigger
language plpgsql security definer set search_path = public as $$
begin
  insert into public.profiles (id, display_name)
  values (
    new.id,
    coalesce(
      nullif(btrim(left(new.raw_user_meta_data ->> 'display_name', 60)), ''),
      nullif(split_part(coalesce(new.email, ''), '@', 1), ''),
      'Reader'
    )
  )
  on conflict (id) do nothing;
  return new;
end;
$$;

create trigger on_auth_user_created after insert on auth.users
  for each row execute function public.handle_new_user();

create table public.profile_genres (
  user_id uuid not null references public.profiles (id) on delete cascade,
  genre_id uuid not null references public.genres (id) on delete cascade,
  created_at timestamptz not null default now(),
  primary key (user_id, genre_id)
);

-- Fixed-window counters: (bucket, key, window) -> hits. Old windows are pruned as we go.
create table public.rate_limits (
  bucket text not null,
  key text not null,
  window_start timestamptz not null,
  hits integer not null default 0 check (hits >= 0),
  primary key (bucket, key, window_start)
);
create index rate_limits_window_idx on public.rate_limits (window_start);

-- Every email the product sends. The embedded backend delivers to the dev mailbox (this
-- table, readable at /dev/mailbox outside production); the hosted backend sends by SMTP.
create table public.email_outbox (
  id uuid primary key default gen_random_uuid(),
  to_address text not null check (char_length(to_address) between 3 and 320),
  subject text not null check (char_length(subject) between 1 and 300),
  text_body text not null,
  html_body text,
  template text not null,
  user_id uuid references auth.users (id) on delete set null,
  status text not null default 'queued' check (status in ('queued', 'sent', 'failed')),
  error text,
  created_at timestamptz not null default now(),
  sent_at timestamptz
);
create index email_outbox_created_idx on public.email_outbox (created_at desc);
create index email_outbox_to_idx on public.email_outbox (lower(to_address), created_at desc);

alter table public.profile_genres enable row level security;
alter table public.rate_limits enable row level security;
alter table public.email_outbox enable row level security;

create policy profile_genres_own on public.profile_genres for all to authenticated
  using (user_id = auth.uid()) with check (user_id = auth.uid());
