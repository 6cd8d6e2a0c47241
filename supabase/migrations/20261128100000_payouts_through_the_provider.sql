-- Issue 24, decision 0046: sellers and charities are really paid, through the payment provider
-- (Stripe Connect Express in production; the local test provider simulates all of it).
--
-- 1. connected_accounts: a member's payout account at the provider (no row: not started).
--    Reshelf never stores bank details; it keeps the account's state and what is due.
-- 2. payout_holds: a seller's payouts are held (by staff, for HMRC reporting details, ...)
--    while any hold is open (released_at is null).
-- 3. transfers: money moved from the platform balance to the seller's connected account, one
--    per released sale (payouts row), for exactly the seller's net, from the buyer's charge.
-- 4. transfer_reversals: a refund after release takes (part of) a transfer back.
-- 5. provider_payouts: the connected account's payouts to the seller's bank, and which
--    transfers each carried (provider_payout_transfers).
-- 6. ledger_entries: every movement of money, in one ledger.
-- 7. payout_wait_notices: the seller was told once why their released earnings wait.
-- 8. Webhook events from connected accounts, and the new notification kinds.

-- 1. Connected accounts --------------------------------------------------------------------------

create table public.connected_accounts (
  user_id uuid primary key references auth.users (id) on delete restrict,
  provider text not null check (provider in ('test', 'stripe')),
  -- The provider's account id (acct_...).
  provider_account_id text not null,
  -- pending: created, onboarding not finished; needs_information: the provider wants more
  -- (requirements_due says what); active: transfers and payouts allowed; restricted: the
  -- provider has disabled payouts (disabled_reason); rejected: the provider refused the account.
  state text not null default 'pending'
    check (state in ('pending', 'needs_information', 'active', 'restricted', 'rejected')),
  details_submitted boolean not null default false,
  payouts_enabled boolean not null default false,
  -- What the provider says is due (its requirement names, e.g. 'individual.dob.day').
  requirements_due text[] not null default '{}',
  disabled_reason text check (char_length(disabled_reason) <= 200),
  -- The provider's time of the last event applied: an older event delivered late changes nothing.
  state_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (provider, provider_account_id)
);
create trigger connected_accounts_touch before update on public.connected_accounts
  for each row execute function public.touch_updated_at();
alter table public.connected_accounts enable row level security;
create policy connected_accounts_own on public.connected_accounts for select using (user_id = auth.uid());

-- 2. Payout holds --------------------------------------------------------------------------------

create table public.payout_holds (
  id uuid primary key default gen_random_uuid(),
  seller_id uuid not null references auth.users (id) on delete cascade,
  -- staff: a person on the staff held them; reporting: the HMRC details are needed first (i24-ops).
  kind text not null check (kind in ('staff', 'reporting')),
  reason text not null check (char_length(btrim(reason)) between 1 and 500),
  created_by uuid references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  released_at timestamptz,
  released_by uuid references auth.users (id) on delete set null,
  release_reason text check (char_length(release_reason) <= 500)
);
-- At most one open hold of each kind per seller.
create unique index payout_holds_one_open on public.payout_holds (seller_id, kind) where released_at is null;
create index payout_holds_seller_idx on public.payout_holds (seller_id, created_at desc);
alter table public.payout_holds enable row level security;

-- 3. Transfers -----------------------------------------------------------------------------------

create table public.transfers (
  id uuid primary key default gen_random_uuid(),
  -- The released sale it pays (one transfer per sale).
  payout_id uuid not null unique references public.payouts (id) on delete restrict,
  order_id uuid not null references public.orders (id) on delete restrict,
  seller_id uuid not null references auth.users (id) on delete restrict,
  -- The buyer's payment it is made from (source_transaction: the charge behind it).
  payment_id uuid not null references public.payments (id) on delete restrict,
  provider text not null check (provider in ('test', 'stripe')),
  destination_account_id text not null,
  amount_minor integer not null check (amount_minor > 0),
  reversed_minor integer not null default 0,
  -- Sent to the provider with the request: a retry cannot make a second transfer.
  idempotency_key text not null unique,
  -- The provider's id (tr_...), once made.
  provider_ref text,
  -- pending: being made (or to retry); paid: made (the money is in the seller's balance);
  -- failed: the provider refused it (failure_reason); reversed: taken back in full.
  status text not null default 'pending' check (status in ('pending', 'paid', 'failed', 'reversed')),
  failure_reason text check (char_length(failure_reason) <= 500),
  attempts integer not null default 0,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (provider, provider_ref),
  constraint transfers_reversed_within check (reversed_minor between 0 and amount_minor)
);
create index transfers_seller_idx on public.transfers (seller_id, created_at desc);
create index transfers_status_idx on public.transfers (status, created_at);
create index transfers_order_idx on public.transfers (order_id);
create trigger transfers_touch before update on public.transfers
  for each row execute function public.touch_updated_at();
alter table public.transfers enable row level security;

-- 4. Transfer reversals --------------------------------------------------------------------------

create table public.transfer_reversals (
  id uuid primary key default gen_random_uuid(),
  transfer_id uuid not null references public.transfers (id) on delete restrict,
  -- The refund that made it (null: staff took it back by hand).
  refund_id uuid references public.refunds (id) on delete restrict,
  amount_minor integer not null check (amount_minor > 0),
  idempotency_key text not null unique,
  provider_ref text,
  created_at timestamptz not null default now()
);
create index transfer_reversals_transfer_idx on public.transfer_reversals (transfer_id);
alter table public.transfer_reversals enable row level security;

-- A part of a refund the seller still owes because it could not be taken back from a transfer
-- (the transfer was not made yet, or was already reversed in full) is a debt on the payout
-- (payouts.reversed_minor, decision 0022) and comes off the seller's next transfer.
alter table public.payouts add column debt_minor integer not null default 0 check (debt_minor >= 0);

-- 5. Provider payouts ----------------------------------------------------------------------------

create table public.provider_payouts (
  id uuid primary key default gen_random_uuid(),
  seller_id uuid not null references auth.users (id) on delete restrict,
  provider text not null check (provider in ('test', 'stripe')),
  account_id text not null,
  amount_minor integer not null check (amount_minor > 0),
  idempotency_key text not null unique,
  -- The provider's id (po_...), once made.
  provider_ref text,
  -- pending: asked for; in_transit: on its way to the bank; paid: arrived; failed: the bank
  -- refused it (failure_code, failure_message): the money is back in the seller's balance;
  -- canceled: cancelled before it left.
  status text not null default 'pending'
    check (status in ('pending', 'in_transit', 'paid', 'failed', 'canceled')),
  failure_code text check (char_length(failure_code) <= 100),
  failure_message text check (char_length(failure_message) <= 500),
  arrival_date date,
  -- The provider's time of the last event applied (out-of-order deliveries change nothing).
  state_at timestamptz,
  paid_at timestamptz,
  failed_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (provider, provider_ref)
);
create index provider_payouts_seller_idx on public.provider_payouts (seller_id, created_at desc);
create index provider_payouts_status_idx on public.provider_payouts (status, created_at);
create trigger provider_payouts_touch before update on public.provider_payouts
  for each row execute function public.touch_updated_at();
alter table public.provider_payouts enable row level security;

-- Which transfers (sales) a payout carried. A failed payout's transfers go into the next one.
create table public.provider_payout_transfers (
  provider_payout_id uuid not null references public.provider_payouts (id) on delete cascade,
  transfer_id uuid not null references public.transfers (id) on delete restrict,
  -- What of the transfer this payout carried (its amount less reversals at the time).
  amount_minor integer not null,
  primary key (provider_payout_id, transfer_id)
);
create index provider_payout_transfers_transfer_idx on public.provider_payout_transfers (transfer_id);
alter table public.provider_payout_transfers enable row level security;

-- 6. The ledger ----------------------------------------------------------------------------------

-- Every movement of money is one row, in pence, signed from Reshelf's books for the order:
--   payment +paid in; refund -given back to the buyer;
--   seller_credit +the seller's net owed for the sale; seller_debit -taken back from it by a refund;
--   fee +Reshelf's fee (buyer protection less any discount Reshelf funded), -what a refund gives back of it.
-- For every order: payment + refund = seller_credit + seller_debit + fee, to the penny
-- ("paid in = seller net + Reshelf fee + refunds"), checked by the reconciliation.
-- The seller's money out follows: transfer +to the connected account, transfer_reversal -taken back,
-- payout +to the seller's bank, payout_failed -back in the seller's balance.
create table public.ledger_entries (
  id bigint generated always as identity primary key,
  kind text not null check (kind in (
    'payment', 'refund', 'seller_credit', 'seller_debit', 'fee',
    'transfer', 'transfer_reversal', 'payout', 'payout_failed'
  )),
  amount_minor integer not null,
  order_id uuid references public.orders (id) on delete restrict,
  seller_id uuid references auth.users (id) on delete restrict,
  payment_id uuid references public.payments (id) on delete restrict,
  refund_id uuid references public.refunds (id) on delete restrict,
  payout_id uuid references public.payouts (id) on delete restrict,
  transfer_id uuid references public.transfers (id) on delete restrict,
  transfer_reversal_id uuid references public.transfer_reversals (id) on delete restrict,
  provider_payout_id uuid references public.provider_payouts (id) on delete restrict,
  -- One entry per movement: a retried write changes nothing.
  entry_key text not null unique check (char_length(entry_key) between 1 and 200),
  memo text check (char_length(memo) <= 500),
  created_at timestamptz not null default now()
);
create index ledger_entries_order_idx on public.ledger_entries (order_id, id);
create index ledger_entries_seller_idx on public.ledger_entries (seller_id, created_at);
create index ledger_entries_kind_idx on public.ledger_entries (kind, created_at);
alter table public.ledger_entries enable row level security;

-- 7. Why released earnings wait --------------------------------------------------------------------

create table public.payout_wait_notices (
  seller_id uuid not null references auth.users (id) on delete cascade,
  -- no_account, account_not_active, held
  reason text not null check (reason in ('no_account', 'account_not_active', 'held')),
  notified_at timestamptz not null default now(),
  primary key (seller_id, reason)
);
alter table public.payout_wait_notices enable row level security;

-- 8. Webhooks from connected accounts; notification kinds ------------------------------------------

alter table public.payment_events add column account_id text;

alter table public.notifications drop constraint notifications_kind_check;
alter table public.notifications add constraint notifications_kind_check check (kind in (
  'offer_received', 'offer_countered', 'offer_accepted', 'offer_declined', 'offer_expired',
  'offer_cancelled', 'order_sold', 'order_paid', 'order_dispatched', 'order_delivered',
  'order_completed', 'order_cancelled', 'dispute_opened', 'dispute_resolved', 'refund',
  'payout_released', 'message_received', 'wishlist_price_drop', 'wishlist_sold',
  'charity_application_decided', 'team_invitation',
  -- Issue 24: why earnings wait, a payout sent / failed, the account's state changed, and the
  -- HMRC reporting details needed (i24-ops).
  'payout_waiting', 'payout_paid', 'payout_failed', 'payout_account', 'payout_details_needed'
));
