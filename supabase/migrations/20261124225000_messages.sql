-- Issue 20: messages between members (decision 0035).
--
-- A thread is a conversation between a buyer and the seller of one listing: questions before
-- buying ("Message the seller") and, once the buyer orders it, about the order (the order pages
-- open the same thread; the thread shows the buyer's latest order on the listing). One thread per
-- listing and buyer. A charity's listing belongs to the charity: its whole team reads and answers
-- (the seller side), `charity_id` is copied from the listing when the thread starts.
--
-- Messages are text (at most 2,000 characters) and up to 4 photos (URLs of files the BFF stored
-- under messages/<thread id>/). `read_at` is the read receipt: set when the other side opens the
-- thread. `off_platform` marks a message that suggests paying outside Reshelf (the thread then
-- shows a warning). Staff hide a reported message (`hidden_at`); its text stays for the record.

create table public.message_threads (
  id uuid primary key default gen_random_uuid(),
  listing_id uuid not null references public.listings (id) on delete cascade,
  buyer_id uuid not null references auth.users (id) on delete cascade,
  seller_id uuid not null references auth.users (id) on delete cascade,
  charity_id uuid references public.charities (id) on delete set null,
  created_at timestamptz not null default now(),
  -- The newest message's time (null until the first one): the inbox's order.
  last_message_at timestamptz,
  check (buyer_id <> seller_id),
  unique (listing_id, buyer_id)
);
create index message_threads_buyer_idx on public.message_threads (buyer_id, last_message_at desc);
create index message_threads_seller_idx on public.message_threads (seller_id, last_message_at desc);
create index message_threads_charity_idx on public.message_threads (charity_id, last_message_at desc)
  where charity_id is not null;

create table public.messages (
  id uuid primary key default gen_random_uuid(),
  thread_id uuid not null references public.message_threads (id) on delete cascade,
  sender_id uuid not null references auth.users (id) on delete cascade,
  body text not null default '' check (char_length(body) <= 2000),
  photos jsonb not null default '[]'::jsonb
    check (jsonb_typeof(photos) = 'array' and jsonb_array_length(photos) <= 4),
  off_platform boolean not null default false,
  created_at timestamptz not null default now(),
  read_at timestamptz,
  hidden_at timestamptz,
  -- Something to say: text or at least one photo.
  check (char_length(btrim(body)) > 0 or jsonb_array_length(photos) > 0)
);
create index messages_thread_idx on public.messages (thread_id, created_at, id);
-- Unread counts: messages not yet read, per thread.
create index messages_unread_idx on public.messages (thread_id, sender_id) where read_at is null;

-- A member blocks another: no new messages either way; their threads stay, read-only.
create table public.member_blocks (
  blocker_id uuid not null references auth.users (id) on delete cascade,
  blocked_id uuid not null references auth.users (id) on delete cascade,
  created_at timestamptz not null default now(),
  primary key (blocker_id, blocked_id),
  check (blocker_id <> blocked_id)
);
create index member_blocks_blocked_idx on public.member_blocks (blocked_id);

-- Reports extend to messages: the same queue staff already work at /admin/reports.
alter table public.reports add column message_id uuid references public.messages (id) on delete cascade;
alter table public.reports drop constraint reports_target_kind_check;
alter table public.reports add constraint reports_target_kind_check
  check (target_kind in ('listing', 'offer_message', 'message'));
alter table public.reports drop constraint reports_check;
alter table public.reports add constraint reports_one_target_check check (
  (target_kind = 'listing' and listing_id is not null and offer_id is null and message_id is null)
  or (target_kind = 'offer_message' and offer_id is not null and listing_id is null and message_id is null)
  or (target_kind = 'message' and message_id is not null and listing_id is null and offer_id is null)
);
create unique index reports_one_open_per_message on public.reports (reporter_id, message_id)
  where status = 'open' and message_id is not null;
create index reports_message_idx on public.reports (message_id) where message_id is not null;

-- Only the BFF reads and writes these (its runtime role has DML by default privileges).
alter table public.message_threads enable row level security;
alter table public.messages enable row level security;
alter table public.member_blocks enable row level security;
