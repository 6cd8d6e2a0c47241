-- Issue 24, decision 0047: UK digital platform reporting. Reshelf reports each seller's income to
-- HMRC once a year unless they are an excluded seller (fewer than 30 sales AND no more than
-- €2,000 of consideration in the calendar year). Before a seller passes that, Reshelf asks for
-- the details the rules require; once a seller is reportable without them, their further payouts
-- are held (a payout_holds row of kind 'reporting', released when the details are given).
--
-- A sale counts in the calendar year (UK time) it was paid; its consideration is what the seller
-- is paid for it: the payout less anything refunds took back. Cancelled payouts do not count.

-- The details a seller gives (never bank details: those stay with the payment provider).
create table public.reporting_details (
  user_id uuid primary key references auth.users (id) on delete cascade,
  kind text not null check (kind in ('individual', 'charity')),
  first_name text check (char_length(first_name) between 1 and 100),
  last_name text check (char_length(last_name) between 1 and 100),
  legal_name text check (char_length(legal_name) between 1 and 200),
  date_of_birth date,
  address_line1 text not null check (char_length(address_line1) between 1 and 100),
  address_line2 text check (char_length(address_line2) <= 100),
  town text not null check (char_length(town) between 1 and 80),
  postcode text not null check (char_length(postcode) between 5 and 8),
  country text not null default 'GB' check (country ~ '^[A-Z]{2}$'),
  -- National Insurance number (individuals) and Unique Taxpayer Reference.
  nino text check (nino ~ '^[A-Z]{2}[0-9]{6}[A-D]$'),
  utr text check (utr ~ '^[0-9]{10}$'),
  -- A charity's registered number.
  registered_number text check (char_length(registered_number) between 1 and 20),
  provided_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint reporting_details_individual check (
    kind <> 'individual'
    or (first_name is not null and last_name is not null and date_of_birth is not null
        and (nino is not null or utr is not null))
  ),
  constraint reporting_details_charity check (
    kind <> 'charity' or (legal_name is not null and registered_number is not null)
  )
);
create trigger reporting_details_touch before update on public.reporting_details
  for each row execute function public.touch_updated_at();
alter table public.reporting_details enable row level security;

-- The seller was asked (once a year) for their details, or told their payouts are held.
create table public.reporting_notices (
  seller_id uuid not null references auth.users (id) on delete cascade,
  year integer not null check (year between 2000 and 2200),
  kind text not null check (kind in ('asked', 'held')),
  notified_at timestamptz not null default now(),
  primary key (seller_id, year, kind)
);
alter table public.reporting_notices enable row level security;

-- The thresholds (the same numbers as packages/contracts/src/reporting.ts; a test keeps them equal).
create function public.reporting_thresholds(out sales integer, out consideration_minor integer)
language sql immutable as $$ select 30, 2000 * 86 $$;

-- A seller's sales and consideration in a calendar year (UK time).
create function public.reporting_year_totals(seller uuid, year integer,
  out sales integer, out consideration_minor integer)
language sql stable as $$
  select count(*)::integer, coalesce(sum(p.amount_minor - p.reversed_minor), 0)::integer
  from public.payouts p
  join public.orders o on o.id = p.order_id
  where p.seller_id = seller
    and p.status <> 'cancelled'
    and extract(year from (coalesce(o.paid_at, o.created_at) at time zone 'Europe/London')) = year
$$;

-- When a sale makes its seller reportable and Reshelf does not have their details, hold their
-- further payouts (at most one open reporting hold per seller: payout_holds_one_open).
create function public.reporting_hold_check() returns trigger
language plpgsql set search_path = public as $$
declare
  paid timestamptz;
  totals record;
  limits record;
begin
  if new.status = 'cancelled' then
    return null;
  end if;
  if exists (select 1 from public.reporting_details d where d.user_id = new.seller_id) then
    return null;
  end if;
  select coalesce(o.paid_at, o.created_at) into paid from public.orders o where o.id = new.order_id;
  select * into totals from public.reporting_year_totals(
    new.seller_id, extract(year from (paid at time zone 'Europe/London'))::integer);
  select * into limits from public.reporting_thresholds();
  if totals.sales >= limits.sales or totals.consideration_minor > limits.consideration_minor then
    insert into public.payout_holds (seller_id, kind, reason)
    values (new.seller_id, 'reporting',
      'HMRC platform reporting: we need your details (name, date of birth, address and National Insurance number or UTR; a charity''s registered details) before we can pay you more this year')
    on conflict (seller_id, kind) where released_at is null do nothing;
  end if;
  return null;
end $$;

create trigger payouts_reporting_hold after insert or update of status, amount_minor on public.payouts
  for each row execute function public.reporting_hold_check();
