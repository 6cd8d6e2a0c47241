-- Reshelf core schema: people, access, the catalogue, listings, orders and disputes.
-- Runs unchanged on Supabase (where `auth` is Supabase Auth's) and on the embedded
-- backend (where `auth` is created by api/src/db/bootstrap-auth.sql).
-- Money is integer pence. Every table has row-level security enabled; the BFF connects
-- as the owner, so policies here are defence in depth for any other client.

create extension if not exists pgcrypto;
create extension if not exists citext;
create extension if not exists pg_trgm;
create extension if not exists unaccent;

-- Keeps updated_at honest on every table that has one.
create or replace function public.touch_updated_at() returns trigger
language plpgsql as $$
begin
  new.updated_at := now();
  return new;
end;
$$;

-- People -------------------------------------------------------------------------------

create table public.profiles (
  id uuid primary key references auth.users (id) on delete cascade,
  display_name text not null check (char_length(btrim(display_name)) between 1 and 60),
  bio text check (char_length(bio) <= 1000),
  town text check (char_length(town) <= 80),
  avatar_url text check (char_length(avatar_url) <= 2048),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create trigger profiles_touch before update on public.profiles
  for each row execute function public.touch_updated_at();

-- Roles are compared lower-cased (spec section 6), so one role per user whatever its case.
create table public.user_roles (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  role text not null check (char_length(btrim(role)) between 1 and 40),
  created_at timestamptz not null default now()
);
create unique index user_roles_user_role_key on public.user_roles (user_id, lower(role));

create table public.admin_users (
  user_id uuid primary key references auth.users (id) on delete cascade,
  admin_role text not null
    check (admin_role in ('super_admin', 'ops_admin', 'support_agent', 'read_only')),
  is_active boolean not null default true,
  created_by uuid references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index admin_users_active_idx on public.admin_users (user_id) where is_active;
create trigger admin_users_touch before update on public.admin_users
  for each row execute function public.touch_updated_at();

-- Catalogue ----------------------------------------------------------------------------

create table public.categories (
  id uuid primary key default gen_random_uuid(),
  slug text not null unique check (slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$'),
  name text not null check (char_length(btrim(name)) between 1 and 80),
  description text check (char_length(description) <= 500),
  parent_id uuid references public.categories (id) on delete restrict,
  position integer not null default 0,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check (parent_id is null or parent_id <> id)
);
create index categories_parent_idx on public.categories (parent_id, position);
create trigger categories_touch before update on public.categories
  for each row execute function public.touch_updated_at();

create table public.genres (
  id uuid primary key default gen_random_uuid(),
  slug text not null unique check (slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$'),
  name text not null check (char_length(btrim(name)) between 1 and 80),
  description text check (char_length(description) <= 500),
  position integer not null default 0,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create trigger genres_touch before update on public.genres
  for each row execute function public.touch_updated_at();

create table public.books (
  id uuid primary key default gen_random_uuid(),
  isbn13 text unique check (isbn13 ~ '^97[89][0-9]{10}$'),
  isbn10 text check (isbn10 ~ '^[0-9]{9}[0-9X]$'),
  title text not null check (char_length(btrim(title)) between 1 and 300),
  subtitle text check (char_length(subtitle) <= 300),
  authors text[] not null default '{}' check (cardinality(authors) <= 20),
  publisher text check (char_length(publisher) <= 200),
  published_year integer check (published_year between 1450 and 2100),
  language text not null default 'en' check (language ~ '^[a-z]{2,3}$'),
  page_count integer check (page_count between 1 and 20000),
  description text check (char_length(description) <= 10000),
  cover_url text check (char_length(cover_url) <= 2048),
  category_id uuid references public.categories (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index books_category_idx on public.books (category_id);
create index books_isbn10_idx on public.books (isbn10) where isbn10 is not null;
create trigger books_touch before update on public.books
  for each row execute function public.touch_updated_at();

create table public.book_genres (
  book_id uuid not null references public.books (id) on delete cascade,
  genre_id uuid not null references public.genres (id) on delete cascade,
  primary key (book_id, genre_id)
);
create index book_genres_genre_idx on public.book_genres (genre_id, book_id);

-- Listings -----------------------------------------------------------------------------
-- A draft may be incomplete; anything beyond a draft carries a book, condition, price,
-- parcel size and slug. Prices run from 1p to £10,000.

create table public.listings (
  id uuid primary key default gen_random_uuid(),
  seller_id uuid not null references auth.users (id) on delete restrict,
  book_id uuid references public.books (id) on delete restrict,
  slug text unique check (slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$'),
  status text not null default 'draft'
    check (status in ('draft', 'active', 'reserved', 'sold', 'withdrawn', 'removed')),
  condition text check (condition in ('like_new', 'very_good', 'good', 'well_read')),
  ex_library boolean not null default false,
  condition_notes text check (char_length(condition_notes) <= 2000),
  description text check (char_length(description) <= 5000),
  price_minor integer check (price_minor > 0 and price_minor <= 1000000),
  parcel_size text check (parcel_size in ('small', 'medium', 'large')),
  photos jsonb not null default '[]'::jsonb check (jsonb_typeof(photos) = 'array'),
  removed_reason text check (char_length(removed_reason) <= 1000),
  published_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint listings_complete_unless_draft check (
    status = 'draft'
    or (book_id is not null and condition is not null and price_minor is not null
        and parcel_size is not null and slug is not null)
  )
);
create index listings_status_published_idx on public.listings (status, published_at desc, id);
create index listings_status_price_idx on public.listings (status, price_minor, id);
create index listings_seller_idx on public.listings (seller_id, status, created_at desc);
create index listings_book_idx on public.listings (book_id);
create trigger listings_touch before update on public.listings
  for each row execute function public.touch_updated_at();

-- Orders -------------------------------------------------------------------------------
-- Lifecycle (brief section 5): pending_payment -> paid -> dispatched -> delivered ->
-- completed, with cancelled, disputed and refunded as side exits.

create table public.orders (
  id uuid primary key default gen_random_uuid(),
  reference text not null unique default ('RS-' || upper(substr(replace(gen_random_uuid()::text, '-', ''), 1, 10))),
  buyer_id uuid not null references auth.users (id) on delete restrict,
  seller_id uuid not null references auth.users (id) on delete restrict,
  listing_id uuid not null references public.listings (id) on delete restrict,
  status text not null default 'pending_payment'
    check (status in ('pending_payment', 'paid', 'dispatched', 'delivered', 'completed',
                      'cancelled', 'disputed', 'refunded')),
  item_price_minor integer not null check (item_price_minor > 0),
  postage_minor integer not null default 0 check (postage_minor >= 0),
  buyer_protection_minor integer not null default 0 check (buyer_protection_minor >= 0),
  discount_minor integer not null default 0 check (discount_minor >= 0 and discount_minor <= item_price_minor),
  total_minor integer not null check (total_minor > 0),
  currency text not null default 'GBP' check (currency = 'GBP'),
  reserved_until timestamptz,
  paid_at timestamptz,
  dispatched_at timestamptz,
  delivered_at timestamptz,
  completed_at timestamptz,
  cancelled_at timestamptz,
  carrier text check (char_length(carrier) <= 80),
  tracking_ref text check (char_length(tracking_ref) <= 80),
  shipping_address jsonb,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint orders_total_adds_up check (
    total_minor = item_price_minor + postage_minor + buyer_protection_minor - discount_minor
  ),
  constraint orders_buyer_is_not_seller check (buyer_id <> seller_id)
);
-- A listing is sold at most once: one live order per listing.
create unique index orders_one_live_per_listing on public.orders (listing_id)
  where status not in ('cancelled', 'refunded');
create index orders_buyer_idx on public.orders (buyer_id, created_at desc);
create index orders_seller_idx on public.orders (seller_id, created_at desc);
create index orders_paid_at_idx on public.orders (paid_at) where paid_at is not null;
create index orders_status_idx on public.orders (status, created_at desc);
create trigger orders_touch before update on public.orders
  for each row execute function public.touch_updated_at();

-- Disputes -----------------------------------------------------------------------------

create table public.disputes (
  id uuid primary key default gen_random_uuid(),
  order_id uuid not null references public.orders (id) on delete restrict,
  opened_by uuid not null references auth.users (id) on delete restrict,
  kind text not null check (kind in ('item_not_as_described', 'not_received')),
  status text not null default 'open'
    check (status in ('open', 'resolved_refund', 'resolved_release', 'withdrawn')),
  reason text not null check (char_length(btrim(reason)) between 1 and 2000),
  resolution_note text check (char_length(resolution_note) <= 2000),
  resolved_by uuid references auth.users (id) on delete set null,
  opened_at timestamptz not null default now(),
  resolved_at timestamptz,
  updated_at timestamptz not null default now(),
  constraint disputes_resolution_complete check (
    (status in ('open', 'withdrawn')) or (resolved_at is not null)
  )
);
create unique index disputes_one_open_per_order on public.disputes (order_id) where status = 'open';
create index disputes_status_idx on public.disputes (status, opened_at desc);
create trigger disputes_touch before update on public.disputes
  for each row execute function public.touch_updated_at();

-- Seeds --------------------------------------------------------------------------------
-- Which one-off seeds have run here, so a seed runs on the first start only.

create table public.seed_runs (
  name text primary key,
  ran_at timestamptz not null default now(),
  details jsonb not null default '{}'::jsonb
);

-- Row-level security -------------------------------------------------------------------

alter table public.profiles enable row level security;
alter table public.user_roles enable row level security;
alter table public.admin_users enable row level security;
alter table public.categories enable row level security;
alter table public.genres enable row level security;
alter table public.books enable row level security;
alter table public.book_genres enable row level security;
alter table public.listings enable row level security;
alter table public.orders enable row level security;
alter table public.disputes enable row level security;
alter table public.seed_runs enable row level security;

-- Public reference data is readable by anyone.
create policy categories_read on public.categories for select to anon, authenticated using (true);
create policy genres_read on public.genres for select to anon, authenticated using (true);
create policy books_read on public.books for select to anon, authenticated using (true);
create policy book_genres_read on public.book_genres for select to anon, authenticated using (true);
create policy profiles_read on public.profiles for select to anon, authenticated using (true);

-- People manage their own profile.
create policy profiles_update_own on public.profiles for update to authenticated
  using (id = auth.uid()) with check (id = auth.uid());

-- Roles and admin records: a person may read their own.
create policy user_roles_read_own on public.user_roles for select to authenticated
  using (user_id = auth.uid());
create policy admin_users_read_own on public.admin_users for select to authenticated
  using (user_id = auth.uid());

-- Listings: anyone sees what is on sale (or was); sellers see and edit their own.
create policy listings_read_public on public.listings for select to anon, authenticated
  using (status in ('active', 'reserved', 'sold'));
create policy listings_read_own on public.listings for select to authenticated
  using (seller_id = auth.uid());
create policy listings_write_own on public.listings for all to authenticated
  using (seller_id = auth.uid()) with check (seller_id = auth.uid());

-- Orders and disputes: visible to the two parties.
create policy orders_read_parties on public.orders for select to authenticated
  using (buyer_id = auth.uid() or seller_id = auth.uid());
create policy disputes_read_parties on public.disputes for select to authenticated
  using (exists (
    select 1 from public.orders o
    where o.id = disputes.order_id and (o.buyer_id = auth.uid() or o.seller_id = auth.uid())
  ));
