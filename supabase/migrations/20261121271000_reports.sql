-- Reports (issue 9): members report a listing, or a message sent to them with an offer, to the
-- team; staff (moderators too) work the queue at /admin/reports and either dismiss a report
-- with a note or act on it: remove the listing (through the staff listing removal, which
-- closes every open report on it) or hide the message.

create table public.reports (
  id uuid primary key default gen_random_uuid(),
  target_kind text not null check (target_kind in ('listing', 'offer_message')),
  listing_id uuid references public.listings (id) on delete cascade,
  offer_id uuid references public.offers (id) on delete cascade,
  reporter_id uuid not null references auth.users (id) on delete cascade,
  reason text not null check (
    reason in ('not_as_described', 'prohibited', 'offensive', 'spam_or_scam', 'wrong_details', 'other')
  ),
  details text check (char_length(details) <= 1000),
  status text not null default 'open' check (status in ('open', 'actioned', 'dismissed')),
  resolved_by uuid references auth.users (id) on delete set null,
  resolved_at timestamptz,
  resolution_note text check (char_length(resolution_note) <= 1000),
  created_at timestamptz not null default now(),
  -- Exactly one target, the one its kind names.
  check (
    (target_kind = 'listing' and listing_id is not null and offer_id is null)
    or (target_kind = 'offer_message' and offer_id is not null and listing_id is null)
  ),
  -- A closed report says when it was closed.
  check ((status = 'open') = (resolved_at is null))
);
-- One open report per reporter and target: reporting again while it is open changes nothing.
create unique index reports_one_open_per_listing on public.reports (reporter_id, listing_id)
  where status = 'open' and listing_id is not null;
create unique index reports_one_open_per_offer on public.reports (reporter_id, offer_id)
  where status = 'open' and offer_id is not null;
create index reports_queue_idx on public.reports (status, created_at desc);
create index reports_listing_idx on public.reports (listing_id) where listing_id is not null;
create index reports_offer_idx on public.reports (offer_id) where offer_id is not null;

-- Staff only, through the BFF (which connects as the owner): no policies for anon or users.
alter table public.reports enable row level security;

-- A message staff hid after a report: the thread shows "Message removed by Reshelf" instead.
-- The text stays (the audit trail and the report point at it) but is never sent to members.
alter table public.offers add column message_hidden_at timestamptz;
