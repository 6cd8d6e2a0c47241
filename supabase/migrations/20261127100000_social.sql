-- Issue 26 (decision 0044): the reader's side. Members follow sellers, charities, authors and
-- genres; the /social feed reads what they follow (new listings, price drops), staff picks and
-- book signings. Saved searches alert their member (in the app, and by email at once or in a
-- daily digest) when a NEW listing matches. Listings gain the details advanced search asks for:
-- format, first edition, signed. Only the BFF reads and writes these tables.

-- Follows --------------------------------------------------------------------------------
-- One row per member and thing followed. A seller, charity or genre is followed by its id (and
-- the row goes with it); an author by name, matched against books' authors lower-cased and
-- without accents (public.search_normalise), as they are written on books.

create table public.follows (
  id uuid primary key default gen_random_uuid(),
  follower_id uuid not null references auth.users (id) on delete cascade,
  kind text not null check (kind in ('seller', 'charity', 'author', 'genre')),
  seller_id uuid references auth.users (id) on delete cascade,
  charity_id uuid references public.charities (id) on delete cascade,
  genre_id uuid references public.genres (id) on delete cascade,
  author_name text check (char_length(btrim(author_name)) between 1 and 200),
  author_key text generated always as (public.search_normalise(btrim(author_name))) stored,
  created_at timestamptz not null default now(),
  constraint follows_one_target check (
    (kind = 'seller' and seller_id is not null and charity_id is null and genre_id is null and author_name is null)
    or (kind = 'charity' and charity_id is not null and seller_id is null and genre_id is null and author_name is null)
    or (kind = 'genre' and genre_id is not null and seller_id is null and charity_id is null and author_name is null)
    or (kind = 'author' and author_name is not null and seller_id is null and charity_id is null and genre_id is null)
  ),
  constraint follows_not_self check (seller_id is distinct from follower_id)
);
create unique index follows_seller_key on public.follows (follower_id, seller_id) where kind = 'seller';
create unique index follows_charity_key on public.follows (follower_id, charity_id) where kind = 'charity';
create unique index follows_genre_key on public.follows (follower_id, genre_id) where kind = 'genre';
create unique index follows_author_key on public.follows (follower_id, author_key) where kind = 'author';
create index follows_follower_idx on public.follows (follower_id, created_at desc, id desc);
-- Follower counts, and who follows a seller.
create index follows_seller_idx on public.follows (seller_id) where kind = 'seller';
create index follows_charity_idx on public.follows (charity_id) where kind = 'charity';
alter table public.follows enable row level security;

-- Price drops --------------------------------------------------------------------------
-- Every drop in the price of a listing on sale, for the feed ("now £4.00, was £6.00").

create table public.listing_price_drops (
  id uuid primary key default gen_random_uuid(),
  listing_id uuid not null references public.listings (id) on delete cascade,
  seller_id uuid not null references auth.users (id) on delete cascade,
  old_price_minor integer not null check (old_price_minor > 0),
  new_price_minor integer not null check (new_price_minor > 0),
  dropped_at timestamptz not null default now(),
  check (new_price_minor < old_price_minor)
);
create index listing_price_drops_seller_idx on public.listing_price_drops (seller_id, dropped_at desc, id desc);
create index listing_price_drops_listing_idx on public.listing_price_drops (listing_id);
alter table public.listing_price_drops enable row level security;

create or replace function public.record_price_drop() returns trigger
language plpgsql
set search_path = public, pg_catalog
as $$
begin
  if new.status = 'active' and old.status = 'active' and new.price_minor < old.price_minor then
    insert into public.listing_price_drops (listing_id, seller_id, old_price_minor, new_price_minor)
    values (new.id, new.seller_id, old.price_minor, new.price_minor);
  end if;
  return null;
end;
$$;
create trigger listings_record_price_drop after update of price_minor on public.listings
  for each row execute function public.record_price_drop();

-- The feed's new listings: by seller and by charity, newest first (published ones only).
create index listings_charity_published_idx on public.listings (charity_id, published_at desc, id)
  where charity_id is not null and status <> 'draft';
create index listings_seller_published_idx on public.listings (seller_id, published_at desc, id)
  where status <> 'draft';

-- What advanced search asks of a copy --------------------------------------------------
alter table public.listings
  add column format text check (format in ('paperback', 'hardback')),
  add column first_edition boolean not null default false,
  add column signed boolean not null default false;

-- Saved searches -----------------------------------------------------------------------
-- A /search address (its query string, canonical) and its parsed filters. `checked_until`:
-- listings published up to then have been matched, so only listings published later are
-- new to it. `alerts`: instant (in the app and emailed by the next job run), daily (in the app
-- at once, emailed in one digest a day) or off (kept to run again; no alerts).

create table public.saved_searches (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  name text not null check (char_length(btrim(name)) between 1 and 80),
  query text not null check (char_length(query) <= 2000),
  params jsonb not null check (jsonb_typeof(params) = 'object'),
  alerts text not null default 'instant' check (alerts in ('instant', 'daily', 'off')),
  checked_until timestamptz not null default now(),
  last_digest_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create unique index saved_searches_user_query_key on public.saved_searches (user_id, query);
create index saved_searches_user_idx on public.saved_searches (user_id, created_at desc);
create index saved_searches_due_idx on public.saved_searches (checked_until) where alerts <> 'off';
create trigger saved_searches_touch before update on public.saved_searches
  for each row execute function public.touch_updated_at();
alter table public.saved_searches enable row level security;

-- Each new listing a saved search matched, once; emailed (at once or in the digest) or not yet.
create table public.saved_search_matches (
  saved_search_id uuid not null references public.saved_searches (id) on delete cascade,
  listing_id uuid not null references public.listings (id) on delete cascade,
  matched_at timestamptz not null default now(),
  emailed_at timestamptz,
  primary key (saved_search_id, listing_id)
);
create index saved_search_matches_unemailed_idx on public.saved_search_matches (saved_search_id)
  where emailed_at is null;
create index saved_search_matches_listing_idx on public.saved_search_matches (listing_id);
alter table public.saved_search_matches enable row level security;

-- Notifications and email lists --------------------------------------------------------
alter table public.notifications drop constraint notifications_kind_check;
alter table public.notifications add constraint notifications_kind_check check (kind in (
  'offer_received', 'offer_countered', 'offer_accepted', 'offer_declined', 'offer_expired',
  'offer_cancelled', 'order_sold', 'order_paid', 'order_dispatched', 'order_delivered',
  'order_completed', 'order_cancelled', 'dispute_opened', 'dispute_resolved', 'refund',
  'payout_released', 'message_received', 'wishlist_price_drop', 'wishlist_sold',
  'charity_application_decided', 'team_invitation', 'saved_search_match'
));

alter table public.email_suppressions drop constraint email_suppressions_list_check;
alter table public.email_suppressions add constraint email_suppressions_list_check
  check (list in ('all', 'newsletter', 'recommendations', 'wishlist_alerts', 'messages', 'saved_searches'));
alter table public.email_outbox drop constraint email_outbox_list_check;
alter table public.email_outbox add constraint email_outbox_list_check
  check (list in ('newsletter', 'recommendations', 'wishlist_alerts', 'messages', 'saved_searches'));
