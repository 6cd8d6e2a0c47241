-- Buying: offers, checkout with buyer protection, payments through a provider, webhooks
-- applied once, refunds that never exceed what was paid, an event for every order state
-- change, the sellers' payouts ledger, saved addresses and idempotent checkout calls.

-- Offers ---------------------------------------------------------------------------------
-- A thread starts with the buyer's offer; the seller may counter once and the buyer once
-- more. An accepted offer may be bought at its amount until checkout_deadline.
create table public.offers (
  id uuid primary key default gen_random_uuid(),
  listing_id uuid not null references public.listings (id) on delete cascade,
  buyer_id uuid not null references auth.users (id) on delete cascade,
  seller_id uuid not null references auth.users (id) on delete cascade,
  parent_id uuid references public.offers (id) on delete cascade,
  made_by text not null check (made_by in ('buyer', 'seller')),
  amount_minor integer not null check (amount_minor > 0 and amount_minor <= 1000000),
  status text not null default 'pending'
    check (status in ('pending', 'accepted', 'declined', 'countered', 'expired', 'withdrawn', 'purchased', 'lapsed')),
  message text check (char_length(message) <= 500),
  expires_at timestamptz not null,
  responded_at timestamptz,
  checkout_deadline timestamptz,
  created_at timestamptz not null default now(),
  check (buyer_id <> seller_id),
  check (status <> 'accepted' or checkout_deadline is not null)
);
create index offers_listing_idx on public.offers (listing_id, created_at desc);
create index offers_buyer_idx on public.offers (buyer_id, created_at desc);
create index offers_seller_idx on public.offers (seller_id, created_at desc);
create index offers_due_idx on public.offers (expires_at) where status = 'pending';
create index offers_accepted_idx on public.offers (checkout_deadline) where status = 'accepted';
-- One open negotiation per buyer and listing.
create unique index offers_one_open_per_buyer on public.offers (listing_id, buyer_id)
  where status in ('pending', 'accepted');

-- Orders: what checkout adds --------------------------------------------------------------
alter table public.orders
  add column offer_id uuid references public.offers (id) on delete set null,
  add column discount_code text check (discount_code in ('WELCOME20')),
  add column parcel_size text check (parcel_size in ('small', 'medium', 'large')),
  add column buyer_protection_vat_minor integer not null default 0 check (buyer_protection_vat_minor >= 0),
  add column dispatch_by timestamptz,
  add column complete_after timestamptz,
  add column cancel_reason text check (char_length(cancel_reason) <= 500);

-- WELCOME20 is for a buyer's first order only: at most one live order carries it.
create unique index orders_one_welcome_per_buyer on public.orders (buyer_id)
  where discount_code = 'WELCOME20' and status <> 'cancelled';
create index orders_reserved_until_idx on public.orders (reserved_until) where status = 'pending_payment';
create index orders_dispatch_by_idx on public.orders (dispatch_by) where status = 'paid';
create index orders_complete_after_idx on public.orders (complete_after) where status = 'delivered';

-- Every state change, with who did it and when.
create table public.order_events (
  id bigserial primary key,
  order_id uuid not null references public.orders (id) on delete cascade,
  from_status text,
  to_status text not null,
  actor_id uuid references auth.users (id) on delete set null,
  actor_kind text not null check (actor_kind in ('buyer', 'seller', 'staff', 'system', 'provider')),
  note text check (char_length(note) <= 1000),
  created_at timestamptz not null default now()
);
create index order_events_order_idx on public.order_events (order_id, id);

-- Payments ---------------------------------------------------------------------------------
create table public.payments (
  id uuid primary key default gen_random_uuid(),
  order_id uuid not null references public.orders (id) on delete restrict,
  provider text not null check (provider in ('test', 'stripe')),
  provider_ref text not null,
  amount_minor integer not null check (amount_minor > 0),
  status text not null default 'pending'
    check (status in ('pending', 'succeeded', 'failed', 'abandoned')),
  refunded_minor integer not null default 0 check (refunded_minor >= 0),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (provider, provider_ref),
  -- A refund never exceeds what was paid.
  check (refunded_minor <= amount_minor)
);
create index payments_order_idx on public.payments (order_id);
create trigger payments_touch before update on public.payments
  for each row execute function public.touch_updated_at();

-- Webhook deliveries, by the provider's event id: a second delivery changes nothing.
create table public.payment_events (
  provider text not null,
  event_id text not null,
  type text not null,
  payload jsonb not null,
  received_at timestamptz not null default now(),
  outcome text,
  primary key (provider, event_id)
);

create table public.refunds (
  id uuid primary key default gen_random_uuid(),
  order_id uuid not null references public.orders (id) on delete restrict,
  payment_id uuid not null references public.payments (id) on delete restrict,
  amount_minor integer not null check (amount_minor > 0),
  buyer_protection_minor integer not null default 0 check (buyer_protection_minor >= 0),
  reason text not null check (char_length(btrim(reason)) between 1 and 500),
  provider_ref text,
  created_by uuid references auth.users (id) on delete set null,
  created_at timestamptz not null default now()
);
create index refunds_order_idx on public.refunds (order_id);
create index refunds_created_idx on public.refunds (created_at);

-- Sellers' payouts: held when the order is paid, released when it completes.
create table public.payouts (
  id uuid primary key default gen_random_uuid(),
  seller_id uuid not null references auth.users (id) on delete restrict,
  order_id uuid not null unique references public.orders (id) on delete restrict,
  amount_minor integer not null check (amount_minor >= 0),
  status text not null default 'held' check (status in ('held', 'released', 'cancelled')),
  released_at timestamptz,
  created_at timestamptz not null default now()
);
create index payouts_seller_idx on public.payouts (seller_id, created_at desc);

-- Addresses and idempotency ----------------------------------------------------------------
create table public.addresses (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  full_name text not null check (char_length(btrim(full_name)) between 1 and 100),
  line1 text not null check (char_length(btrim(line1)) between 1 and 100),
  line2 text check (char_length(line2) <= 100),
  town text not null check (char_length(btrim(town)) between 1 and 60),
  postcode text not null check (postcode ~ '^[A-Z]{1,2}[0-9][A-Z0-9]? [0-9][A-Z]{2}$'),
  is_default boolean not null default false,
  created_at timestamptz not null default now()
);
create index addresses_user_idx on public.addresses (user_id, created_at desc);
create unique index addresses_one_default on public.addresses (user_id) where is_default;

-- A retried checkout call (same key, same caller) gets the first answer back.
create table public.idempotency_keys (
  user_id uuid not null references auth.users (id) on delete cascade,
  scope text not null,
  key text not null check (char_length(key) between 8 and 100),
  request_hash text not null,
  response jsonb,
  created_at timestamptz not null default now(),
  primary key (user_id, scope, key)
);

-- Time-based work (reservation lapse, offer expiry, dispatch deadline, auto-completion):
-- each run of each job is recorded, whichever instance ran it.
create table public.job_runs (
  id bigserial primary key,
  job text not null,
  started_at timestamptz not null default now(),
  finished_at timestamptz,
  affected integer not null default 0,
  error text
);
create index job_runs_job_idx on public.job_runs (job, started_at desc);

alter table public.offers enable row level security;
alter table public.order_events enable row level security;
alter table public.payments enable row level security;
alter table public.payment_events enable row level security;
alter table public.refunds enable row level security;
alter table public.payouts enable row level security;
alter table public.addresses enable row level security;
alter table public.idempotency_keys enable row level security;
alter table public.job_runs enable row level security;

create policy offers_parties on public.offers for select to authenticated
  using (buyer_id = auth.uid() or seller_id = auth.uid());
create policy order_events_parties on public.order_events for select to authenticated
  using (exists (select 1 from public.orders o where o.id = order_events.order_id
                 and (o.buyer_id = auth.uid() or o.seller_id = auth.uid())));
create policy payouts_own on public.payouts for select to authenticated using (seller_id = auth.uid());
create policy addresses_own on public.addresses for all to authenticated
  using (user_id = auth.uid()) with check (user_id = auth.uid());

-- Buyer protection revenue now nets out the fee actually refunded, by refund date.
create or replace function public.admin_metrics(p_period text, p_now timestamptz default now())
returns table (disputes_open integer, active_listings integer, buyer_protection_minor integer)
language sql stable as $$
  with bounds as (select * from public.admin_period_bounds(p_period, p_now))
  select
    (select count(*)::int from public.disputes where status = 'open'),
    (select count(*)::int from public.listings where status = 'active'),
    (
      coalesce((select sum(o.buyer_protection_minor) from public.orders o, bounds b
                where o.paid_at >= b.starts_at and o.paid_at < b.ends_at), 0)
      - coalesce((select sum(r.buyer_protection_minor) from public.refunds r, bounds b
                  where r.created_at >= b.starts_at and r.created_at < b.ends_at), 0)
    )::int
$$;
