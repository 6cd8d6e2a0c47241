-- Issue 35, decision 0078: filing a year's platform report is a recorded step, and what was
-- reported is kept as it was (SI 2023/817). When staff file a year, each reportable seller's
-- figures and details are frozen as a snapshot: the record kept, and the seller's own copy reads
-- it (never a recomputation). Records are kept 5 years after the end of the reporting year,
-- whatever happens to the account, and the `reporting.purge` job deletes them after.

-- Who filed which year, when (once per year).
create table public.reporting_filings (
  year integer primary key check (year between 2000 and 2200),
  filed_by uuid references auth.users (id) on delete set null,
  filed_at timestamptz not null default now(),
  sellers integer not null check (sellers >= 0)
);
alter table public.reporting_filings enable row level security;

-- Each reported seller's row as filed: the CSV's cells (REPORTING_CSV_COLUMNS) as HMRC got them.
-- No foreign key to the seller: the record outlives their account (kept 5 years, then purged).
create table public.reporting_snapshots (
  year integer not null references public.reporting_filings (year) on delete cascade,
  seller_id uuid not null,
  cells jsonb not null check (jsonb_typeof(cells) = 'object'),
  -- The same figures in pence (sales, consideration, fees per quarter and for the year), as computed at filing.
  quarters jsonb not null check (jsonb_typeof(quarters) = 'array'),
  totals jsonb not null check (jsonb_typeof(totals) = 'object'),
  created_at timestamptz not null default now(),
  primary key (year, seller_id)
);
create index reporting_snapshots_seller on public.reporting_snapshots (seller_id);
alter table public.reporting_snapshots enable row level security;

-- A filed year's snapshots are the record: never changed after filing.
create function public.reporting_snapshots_frozen() returns trigger
language plpgsql as $$
begin
  raise exception 'A filed reporting snapshot cannot be changed';
end $$;
create trigger reporting_snapshots_frozen before update on public.reporting_snapshots
  for each row execute function public.reporting_snapshots_frozen();

-- The seller's copy is announced with its own notification kind (contracts' NOTIFICATION_KINDS).
alter table public.notifications drop constraint notifications_kind_check;
alter table public.notifications add constraint notifications_kind_check check (kind in (
  'offer_received', 'offer_countered', 'offer_accepted', 'offer_declined', 'offer_expired',
  'offer_cancelled', 'order_sold', 'order_paid', 'order_dispatched', 'order_delivered',
  'order_completed', 'order_cancelled', 'dispute_opened', 'dispute_resolved', 'refund',
  'payout_released', 'message_received', 'wishlist_price_drop', 'wishlist_sold',
  'charity_application_decided', 'team_invitation', 'saved_search_match', 'payout_waiting',
  'payout_paid', 'payout_failed', 'payout_account', 'payout_details_needed', 'review_requested',
  'review_published', 'review_removed', 'return_update', 'report_decided', 'content_removed',
  'appeal_decided', 'reporting_copy'
));
