-- Parcels (issue 37, decision 0083): the buyer's delivery choice on the order, shipments with
-- prepaid labels (to the buyer, and back on a return), the carriers' scans, every carrier webhook
-- received, and label costs in the ledger.

-- 1. The order remembers how the buyer chose to receive it and what parcel it makes. ---------------
alter table public.orders
  add column delivery_method text check (delivery_method in ('home', 'drop_off')),
  -- The locker or parcel shop as the buyer saw it at checkout (dropOffPointSchema).
  add column drop_off_point jsonb,
  add column postage_band text check (postage_band in ('large_letter', 'small_parcel', 'medium_parcel')),
  add column parcel_weight_g integer check (parcel_weight_g > 0),
  add column parcel_thickness_mm integer check (parcel_thickness_mm > 0),
  add column expected_delivery_on date,
  add constraint orders_drop_off_point_named check (
    (delivery_method = 'drop_off') = (drop_off_point is not null)
  );

-- 2. Shipments: one parcel with a label bought through Reshelf. -----------------------------------
create table public.shipments (
  id uuid primary key default gen_random_uuid(),
  order_id uuid not null references public.orders (id) on delete restrict,
  direction text not null check (direction in ('outbound', 'return')),
  -- A return's shipment names what it returns: a dispute's book back, or a change-of-mind return.
  dispute_id uuid references public.disputes (id) on delete restrict,
  return_request_id uuid references public.return_requests (id) on delete restrict,
  -- The adapter that bought it ('test', 'easypost') and the network that carries it.
  provider text not null check (provider ~ '^[a-z][a-z0-9_]{1,30}$'),
  network text not null check (network in ('royal_mail', 'inpost', 'evri')),
  method text not null check (method in ('home', 'drop_off')),
  drop_off_point jsonb,
  band text not null check (band in ('large_letter', 'small_parcel', 'medium_parcel')),
  weight_g integer not null check (weight_g > 0),
  thickness_mm integer not null check (thickness_mm > 0),
  cost_minor integer not null check (cost_minor >= 0),
  paid_by text not null check (paid_by in ('buyer', 'seller', 'reshelf')),
  status text not null default 'buying' check (status in (
    'buying', 'label_failed', 'label_ready',
    'accepted', 'in_transit', 'out_for_delivery', 'delivered', 'delivery_failed', 'returned_to_sender'
  )),
  -- The carrier's own id for the shipment, its tracking number and public tracking page.
  provider_ref text check (char_length(provider_ref) <= 100),
  tracking_ref text check (char_length(tracking_ref) <= 60),
  tracking_url text check (char_length(tracking_url) <= 500),
  -- What the printer-free QR code carries (the carrier's drop-off code).
  qr_code text check (char_length(qr_code) <= 500),
  purchase_attempts integer not null default 0,
  last_error text check (char_length(last_error) <= 500),
  bought_at timestamptz,
  first_scan_at timestamptz,
  delivered_at timestamptz,
  last_scan_at timestamptz,
  expected_delivery_on date,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check ((direction = 'outbound') = (dispute_id is null and return_request_id is null)),
  check (direction = 'outbound' or (dispute_id is null) <> (return_request_id is null)),
  check ((method = 'drop_off') = (drop_off_point is not null)),
  check (status in ('buying', 'label_failed') or (tracking_ref is not null and bought_at is not null))
);
create trigger shipments_touch before update on public.shipments
  for each row execute function public.touch_updated_at();
-- A label is bought once: one outbound parcel per order, one return parcel per return.
create unique index shipments_one_outbound on public.shipments (order_id) where direction = 'outbound';
create unique index shipments_one_per_dispute on public.shipments (dispute_id) where dispute_id is not null;
create unique index shipments_one_per_return_request on public.shipments (return_request_id)
  where return_request_id is not null;
create unique index shipments_tracking on public.shipments (provider, tracking_ref)
  where tracking_ref is not null;
create unique index shipments_provider_ref on public.shipments (provider, provider_ref)
  where provider_ref is not null;
-- The jobs look for labels whose purchase is to be retried and parcels still moving.
create index shipments_open_idx on public.shipments (status, updated_at)
  where status not in ('delivered', 'returned_to_sender');
alter table public.shipments enable row level security;

-- The label documents the carrier gave (or the test carrier drew), kept so a download never
-- calls the carrier again.
create table public.shipment_labels (
  shipment_id uuid not null references public.shipments (id) on delete cascade,
  format text not null check (format in ('a4', 'thermal_4x6')),
  pdf bytea not null check (octet_length(pdf) between 100 and 5000000),
  created_at timestamptz not null default now(),
  primary key (shipment_id, format)
);
alter table public.shipment_labels enable row level security;

-- 3. The carriers' scans of a shipment. -----------------------------------------------------------
create table public.shipment_scans (
  id uuid primary key default gen_random_uuid(),
  shipment_id uuid not null references public.shipments (id) on delete cascade,
  provider text not null,
  -- The carrier's id for this scan: a scan sent twice is recorded once.
  event_id text not null check (char_length(event_id) between 1 and 200),
  status text not null check (status in (
    'accepted', 'in_transit', 'out_for_delivery', 'delivered', 'delivery_failed', 'returned_to_sender'
  )),
  occurred_at timestamptz not null,
  location text check (char_length(location) <= 200),
  description text not null check (char_length(description) <= 500),
  received_at timestamptz not null default now(),
  unique (provider, event_id)
);
create index shipment_scans_shipment_idx on public.shipment_scans (shipment_id, occurred_at);
alter table public.shipment_scans enable row level security;

-- 4. Every carrier webhook that passed its signature check, whatever became of it: a scan for a
-- parcel we do not know yet is kept and applied when its label is recorded.
create table public.carrier_webhook_events (
  provider text not null,
  event_id text not null check (char_length(event_id) between 1 and 200),
  tracking_ref text check (char_length(tracking_ref) <= 60),
  payload jsonb not null,
  outcome text not null check (outcome in ('applied', 'duplicate', 'unknown_parcel', 'ignored')),
  received_at timestamptz not null default now(),
  applied_at timestamptz,
  primary key (provider, event_id)
);
create index carrier_webhook_events_unknown_idx on public.carrier_webhook_events (provider, tracking_ref)
  where outcome = 'unknown_parcel';
alter table public.carrier_webhook_events enable row level security;

-- 5. Label costs in the ledger: what Reshelf pays the carrier for a label it bought. ----------------
alter table public.ledger_entries drop constraint ledger_entries_kind_check;
alter table public.ledger_entries add constraint ledger_entries_kind_check check (kind in (
  'payment', 'refund', 'seller_credit', 'seller_debit', 'fee',
  'transfer', 'transfer_reversal', 'payout', 'payout_failed', 'carrier_label'
));
alter table public.ledger_entries add column shipment_id uuid references public.shipments (id) on delete restrict;
