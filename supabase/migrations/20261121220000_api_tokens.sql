-- Personal API tokens (issue 11): staff, sellers and charities create them in account
-- settings for scripts and integrations. The token itself is shown once and never stored:
-- only its HMAC-SHA256 under a key derived from APP_SECRET (purpose "api-token"), so a
-- copy of this table is worth nothing without the secret. Every request looks the token up,
-- so a revoked or expired token stops working at once.
create table public.api_tokens (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  name text not null check (char_length(btrim(name)) between 1 and 80),
  -- base64url HMAC-SHA256 of the whole token (43 characters).
  token_hash text not null unique check (char_length(token_hash) = 43),
  -- The start of the token ("rsk_AbCd1234"), shown in lists so people can tell tokens apart.
  token_prefix text not null check (token_prefix ~ '^rsk_[A-Za-z0-9_-]{8}$'),
  scope text not null check (scope in ('read', 'read_write')),
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  last_used_at timestamptz,
  revoked_at timestamptz,
  constraint api_tokens_expiry_after_creation check (expires_at > created_at),
  constraint api_tokens_expiry_within_a_year check (expires_at <= created_at + interval '366 days')
);
create index api_tokens_user_idx on public.api_tokens (user_id, created_at desc);

alter table public.api_tokens enable row level security;

-- A person sees their own tokens (hashes included: worthless without the secret). Creating,
-- revoking and using them goes through the BFF, which connects as the owner.
create policy api_tokens_read_own on public.api_tokens for select to authenticated
  using (user_id = auth.uid());
