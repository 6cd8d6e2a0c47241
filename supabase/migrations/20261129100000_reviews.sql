-- Reviews (issue 25, decision 0048 "reviews published together").
--
-- When an order completes, a review window opens for it (review_windows, one per order, opened by
-- the BFF in the transaction that completes the order): its buyer and its seller are each asked to
-- review the other within 14 days (REVIEW_WINDOW_DAYS in packages/contracts). Each side writes at
-- most one review (stars 1–5, up to 500 characters). Neither review is shown to anyone but its
-- author until the window is published: at once when the second review is in, or by the job
-- `reviews.publish` when the window closes — so neither side writes in reply to the other's.
-- The person reviewed may reply once; a member may report a review (the reports queue), and staff
-- may remove one with a reason (audited, both members told). Only the BFF reads and writes these.

create table public.review_windows (
  order_id uuid primary key references public.orders (id) on delete cascade,
  buyer_id uuid not null references auth.users (id) on delete cascade,
  seller_id uuid not null references auth.users (id) on delete cascade,
  -- A charity's sale: its reviews count towards the charity's rating.
  charity_id uuid references public.charities (id) on delete set null,
  opened_at timestamptz not null default now(),
  closes_at timestamptz not null,
  -- When its reviews were published (both in, or the window closed); null before.
  published_at timestamptz,
  check (closes_at > opened_at),
  check (buyer_id <> seller_id)
);
create index review_windows_due_idx on public.review_windows (closes_at) where published_at is null;
create index review_windows_buyer_idx on public.review_windows (buyer_id, opened_at desc);
create index review_windows_seller_idx on public.review_windows (seller_id, opened_at desc);
create index review_windows_charity_idx on public.review_windows (charity_id) where charity_id is not null;

create table public.reviews (
  id uuid primary key default gen_random_uuid(),
  order_id uuid not null references public.review_windows (order_id) on delete cascade,
  -- 'buyer': the buyer reviewing the seller; 'seller': the seller reviewing the buyer.
  author_role text not null check (author_role in ('buyer', 'seller')),
  author_id uuid not null references auth.users (id) on delete cascade,
  subject_id uuid not null references auth.users (id) on delete cascade,
  stars smallint not null check (stars between 1 and 5),
  body text not null default '' check (char_length(body) <= 500),
  created_at timestamptz not null default now(),
  published_at timestamptz,
  -- The reviewed person's one reply (to a published review).
  reply text check (char_length(reply) between 1 and 500),
  replied_at timestamptz,
  -- Removed by staff: hidden from everyone, kept for the record.
  removed_at timestamptz,
  removed_by uuid references auth.users (id) on delete set null,
  removed_reason text check (char_length(removed_reason) between 1 and 1000),
  -- One per side per order.
  unique (order_id, author_role),
  check (author_id <> subject_id),
  check ((reply is null) = (replied_at is null)),
  check ((removed_at is null) = (removed_reason is null)),
  check (reply is null or published_at is not null)
);
create index reviews_subject_idx on public.reviews (subject_id, published_at desc)
  where published_at is not null and removed_at is null;
create index reviews_author_idx on public.reviews (author_id, created_at desc);

alter table public.review_windows enable row level security;
alter table public.reviews enable row level security;

-- Reports extend to reviews: the same queue staff work at /admin/reports.
alter table public.reports add column review_id uuid references public.reviews (id) on delete cascade;
alter table public.reports drop constraint reports_target_kind_check;
alter table public.reports add constraint reports_target_kind_check
  check (target_kind in ('listing', 'offer_message', 'message', 'review'));
alter table public.reports drop constraint reports_one_target_check;
alter table public.reports add constraint reports_one_target_check check (
  (target_kind = 'listing' and listing_id is not null and offer_id is null and message_id is null and review_id is null)
  or (target_kind = 'offer_message' and offer_id is not null and listing_id is null and message_id is null and review_id is null)
  or (target_kind = 'message' and message_id is not null and listing_id is null and offer_id is null and review_id is null)
  or (target_kind = 'review' and review_id is not null and listing_id is null and offer_id is null and message_id is null)
);
create unique index reports_one_open_per_review on public.reports (reporter_id, review_id)
  where status = 'open' and review_id is not null;
create index reports_review_idx on public.reports (review_id) where review_id is not null;

-- The notifications of reviews. NOTE for whoever changes this check next: keep these three kinds.
alter table public.notifications drop constraint notifications_kind_check;
alter table public.notifications add constraint notifications_kind_check check (kind in (
  'offer_received', 'offer_countered', 'offer_accepted', 'offer_declined', 'offer_expired',
  'offer_cancelled', 'order_sold', 'order_paid', 'order_dispatched', 'order_delivered',
  'order_completed', 'order_cancelled', 'dispute_opened', 'dispute_resolved', 'refund',
  'payout_released', 'message_received', 'wishlist_price_drop', 'wishlist_sold',
  'charity_application_decided', 'team_invitation',
  'review_requested', 'review_published', 'review_removed'
));
