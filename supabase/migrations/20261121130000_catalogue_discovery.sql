-- Catalogue and discovery (issue 6): commercial settings, charities, search support on
-- listings, the signals behind trending (views, wishlists), staff picks, static pages, the
-- contact form's messages and email suppressions (unsubscribe links).
-- Every table has row-level security enabled; the BFF connects as the owner.

-- Settings -----------------------------------------------------------------------------
-- Key/value settings staff can change. The commercial rules of brief section 4 start here;
-- the BFF reads them through one service (getCommercialSettings) and falls back to the
-- contracts' defaults only when a key is missing.

create table public.settings (
  key text primary key check (key ~ '^[a-z0-9]+([._][a-z0-9]+)*$'),
  value jsonb not null,
  description text check (char_length(description) <= 500),
  updated_at timestamptz not null default now(),
  updated_by uuid references auth.users (id) on delete set null
);
create trigger settings_touch before update on public.settings
  for each row execute function public.touch_updated_at();

insert into public.settings (key, value, description) values
  ('buyer_protection', '{"fixedMinor": 70, "percent": 5}',
   'Buyer protection fee per order: a fixed part in pence plus a percentage of the item price (postage excluded), VAT-inclusive.'),
  ('postage_bands', '{"small": 299, "medium": 399, "large": 549}',
   'What the buyer pays for postage, in pence, by the parcel size the seller chose.');

-- Text normalisation for search --------------------------------------------------------
-- Lower case without accents ("Brontë" and "bronte" match). unaccent() is only STABLE (its
-- dictionary could change), so this wrapper pins the dictionary and is declared IMMUTABLE
-- for generated columns and indexes. search_path is fixed so it resolves the extension
-- wherever it lives (public here, extensions on Supabase).

create or replace function public.search_normalise(value text) returns text
language sql immutable parallel safe strict
set search_path = public, extensions, pg_catalog
as $$
  select lower(unaccent('unaccent'::regdictionary, value))
$$;

-- array_to_string() is only STABLE in general; for text[] it is immutable in practice.
create or replace function public.search_normalise(value text[]) returns text
language sql immutable parallel safe strict
set search_path = public, extensions, pg_catalog
as $$
  select public.search_normalise(array_to_string(value, ' '))
$$;

-- Charities ----------------------------------------------------------------------------
-- Registered numbers: England and Wales (6 or 7 digits), Scotland (SC + 6 digits),
-- Northern Ireland (NIC + 6 digits). Only approved charities are public.

create table public.charities (
  id uuid primary key default gen_random_uuid(),
  slug text not null unique check (slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$'),
  name text not null check (char_length(btrim(name)) between 2 and 120),
  registered_number text not null
    check (registered_number ~ '^([0-9]{6,7}|SC[0-9]{6}|NIC[0-9]{6})$'),
  status text not null default 'pending' check (status in ('pending', 'approved', 'rejected')),
  town text check (char_length(town) <= 80),
  description text check (char_length(description) <= 2000),
  logo_url text check (char_length(logo_url) <= 2048),
  website text check (char_length(website) <= 2048 and website ~ '^https?://'),
  owner_id uuid references auth.users (id) on delete set null,
  approved_at timestamptz,
  search_name text generated always as (public.search_normalise(name)) stored,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
-- One live application per registered number (a rejected one may apply again).
create unique index charities_registered_number_key on public.charities (registered_number)
  where status <> 'rejected';
create index charities_status_name_idx on public.charities (status, name);
create index charities_owner_idx on public.charities (owner_id);
create index charities_search_name_trgm_idx on public.charities using gin (search_name gin_trgm_ops);
create trigger charities_touch before update on public.charities
  for each row execute function public.touch_updated_at();

alter table public.listings
  add column charity_id uuid references public.charities (id) on delete set null;
create index listings_charity_idx on public.listings (charity_id, published_at desc, id desc)
  include (price_minor, condition)
  where status = 'active' and charity_id is not null;

-- Search support -----------------------------------------------------------------------
-- Search works on books: normalised title and author text (trigram matching for typos,
-- equality for exact titles) and two tsvectors, one for the title and authors (strong
-- matches) and one for the description (weaker ones), all generated from the row. Listings
-- carry a denormalised copy of what browsing filters need (the book's category and genres),
-- kept up to date by the triggers below, so every catalogue query is answered from indexes
-- on one table at a time. The plans are in docs/catalogue-queries.md.

alter table public.books
  add column search_title text generated always as (
    public.search_normalise(title || coalesce(' ' || subtitle, ''))
  ) stored,
  add column search_authors text generated always as (public.search_normalise(authors)) stored,
  add column title_document tsvector generated always as (
    setweight(to_tsvector('english'::regconfig, public.search_normalise(title || coalesce(' ' || subtitle, ''))), 'A') ||
    setweight(to_tsvector('english'::regconfig, public.search_normalise(authors)), 'B')
  ) stored,
  add column description_document tsvector generated always as (
    to_tsvector('english'::regconfig, public.search_normalise(left(coalesce(description, ''), 4000)))
  ) stored;
create index books_search_title_idx on public.books (search_title);
create index books_search_title_trgm_idx on public.books using gin (search_title gin_trgm_ops);
create index books_search_authors_trgm_idx on public.books using gin (search_authors gin_trgm_ops);
create index books_title_document_idx on public.books using gin (title_document);
create index books_description_document_idx on public.books using gin (description_document);

alter table public.listings
  add column category_id uuid references public.categories (id) on delete set null,
  add column genre_ids uuid[] not null default '{}';

create or replace function public.book_genre_ids(p_book_id uuid) returns uuid[]
language sql stable parallel safe
set search_path = public, pg_catalog
as $$
  select coalesce(array_agg(genre_id order by genre_id), '{}')
  from public.book_genres where book_id = p_book_id
$$;

create or replace function public.listings_denormalise() returns trigger
language plpgsql
set search_path = public, pg_catalog
as $$
begin
  if new.book_id is null then
    new.category_id := null;
    new.genre_ids := '{}';
  else
    select b.category_id into new.category_id from public.books b where b.id = new.book_id;
    new.genre_ids := public.book_genre_ids(new.book_id);
  end if;
  return new;
end;
$$;
create trigger listings_denormalise before insert or update of book_id
  on public.listings for each row execute function public.listings_denormalise();

create or replace function public.books_refresh_listings() returns trigger
language plpgsql
set search_path = public, pg_catalog
as $$
begin
  update public.listings set category_id = new.category_id where book_id = new.id;
  return null;
end;
$$;
create trigger books_refresh_listings after update of category_id
  on public.books for each row execute function public.books_refresh_listings();

create or replace function public.book_genres_refresh_listings() returns trigger
language plpgsql
set search_path = public, pg_catalog
as $$
declare
  affected uuid := coalesce(new.book_id, old.book_id);
begin
  update public.listings set genre_ids = public.book_genre_ids(affected) where book_id = affected;
  if tg_op = 'UPDATE' and old.book_id <> new.book_id then
    update public.listings set genre_ids = public.book_genre_ids(old.book_id) where book_id = old.book_id;
  end if;
  return null;
end;
$$;
create trigger book_genres_refresh_listings after insert or update or delete
  on public.book_genres for each row execute function public.book_genres_refresh_listings();

-- Indexes for what the catalogue asks of active listings. Each ordering index carries the
-- filter columns, so counting the matches of a filtered page is an index-only scan.
create index listings_genre_ids_idx on public.listings using gin (genre_ids)
  where status = 'active';
create index listings_active_published_idx on public.listings (published_at desc, id desc)
  include (price_minor, condition, category_id, charity_id, seller_id)
  where status = 'active';
create index listings_active_price_idx on public.listings (price_minor, id)
  include (published_at, condition, category_id, charity_id, seller_id)
  where status = 'active';
create index listings_active_category_published_idx on public.listings (category_id, published_at desc, id desc)
  include (price_minor, condition, charity_id)
  where status = 'active';
create index listings_active_category_price_idx on public.listings (category_id, price_minor, id)
  include (published_at, condition, charity_id)
  where status = 'active';
create index listings_active_book_idx on public.listings (book_id)
  include (published_at, price_minor, condition, category_id, charity_id)
  where status = 'active';

-- Signals for trending -----------------------------------------------------------------
-- A view is counted once per listing, viewer and day; the viewer key is a salted hash made
-- by the BFF (no address or user id is stored).

create table public.listing_views (
  listing_id uuid not null references public.listings (id) on delete cascade,
  viewed_on date not null default current_date,
  viewer_key text not null check (char_length(viewer_key) between 8 and 64),
  viewed_at timestamptz not null default now(),
  primary key (listing_id, viewed_on, viewer_key)
);
create index listing_views_recent_idx on public.listing_views (viewed_on, listing_id);

create table public.wishlist_items (
  user_id uuid not null references auth.users (id) on delete cascade,
  listing_id uuid not null references public.listings (id) on delete cascade,
  created_at timestamptz not null default now(),
  primary key (user_id, listing_id)
);
create index wishlist_items_listing_idx on public.wishlist_items (listing_id, created_at desc);
create index wishlist_items_recent_idx on public.wishlist_items (created_at);

-- Staff picks --------------------------------------------------------------------------

create table public.staff_picks (
  id uuid primary key default gen_random_uuid(),
  listing_id uuid not null unique references public.listings (id) on delete cascade,
  position integer not null default 0,
  note text check (char_length(note) <= 280),
  picked_by uuid references auth.users (id) on delete set null,
  created_at timestamptz not null default now()
);
create index staff_picks_position_idx on public.staff_picks (position, created_at);

-- Static pages -------------------------------------------------------------------------
-- About us, policies, the help centre and any page staff add: Markdown served at /pages/{slug}.

create table public.pages (
  slug text primary key check (slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$'),
  title text not null check (char_length(btrim(title)) between 1 and 120),
  description text not null check (char_length(btrim(description)) between 1 and 300),
  body_markdown text not null check (char_length(body_markdown) <= 100000),
  published boolean not null default true,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  updated_by uuid references auth.users (id) on delete set null
);
create trigger pages_touch before update on public.pages
  for each row execute function public.touch_updated_at();

-- Contact messages ---------------------------------------------------------------------
-- Written by the public contact form; read by staff. sender_key is a salted hash of the
-- sender's address, used only to slow down floods.

create table public.contact_messages (
  id uuid primary key default gen_random_uuid(),
  name text not null check (char_length(btrim(name)) between 1 and 100),
  email citext not null check (char_length(email) <= 254 and email ~ '^[^@\s]+@[^@\s]+\.[^@\s]+$'),
  topic text not null check (topic in ('order', 'selling', 'charity', 'account', 'press', 'other')),
  message text not null check (char_length(btrim(message)) between 10 and 5000),
  user_id uuid references auth.users (id) on delete set null,
  sender_key text check (char_length(sender_key) <= 64),
  created_at timestamptz not null default now(),
  handled_at timestamptz,
  handled_by uuid references auth.users (id) on delete set null
);
create index contact_messages_created_idx on public.contact_messages (created_at desc, id desc);
create index contact_messages_sender_idx on public.contact_messages (sender_key, created_at);

-- Email suppressions -------------------------------------------------------------------
-- Who asked not to get which list, from a signed unsubscribe link or their settings.

create table public.email_suppressions (
  id uuid primary key default gen_random_uuid(),
  user_id uuid references auth.users (id) on delete cascade,
  email citext check (char_length(email) <= 254),
  list text not null check (list in ('all', 'newsletter', 'recommendations', 'wishlist_alerts')),
  source text not null default 'link' check (source in ('link', 'settings', 'staff')),
  created_at timestamptz not null default now(),
  check (user_id is not null or email is not null)
);
create unique index email_suppressions_user_list_key on public.email_suppressions (user_id, list)
  where user_id is not null;
create unique index email_suppressions_email_list_key on public.email_suppressions (email, list)
  where user_id is null;

-- Row-level security -------------------------------------------------------------------

alter table public.settings enable row level security;
alter table public.charities enable row level security;
alter table public.listing_views enable row level security;
alter table public.wishlist_items enable row level security;
alter table public.staff_picks enable row level security;
alter table public.pages enable row level security;
alter table public.contact_messages enable row level security;
alter table public.email_suppressions enable row level security;

-- Fees and postage are shown to everyone.
create policy settings_read on public.settings for select to anon, authenticated using (true);

-- Approved charities are public; an owner sees their own application whatever its status.
create policy charities_read_approved on public.charities for select to anon, authenticated
  using (status = 'approved');
create policy charities_read_own on public.charities for select to authenticated
  using (owner_id = auth.uid());

-- Views are written and read by the BFF only: no policy for anon or authenticated.

-- A person manages their own wishlist.
create policy wishlist_items_own on public.wishlist_items for all to authenticated
  using (user_id = auth.uid()) with check (user_id = auth.uid());

create policy staff_picks_read on public.staff_picks for select to anon, authenticated using (true);
create policy pages_read_published on public.pages for select to anon, authenticated using (published);

-- Contact messages: only staff read them (through the BFF in practice).
create policy contact_messages_read_staff on public.contact_messages for select to authenticated
  using (exists (
    select 1 from public.user_roles r
    where r.user_id = auth.uid() and lower(r.role) in ('admin', 'moderator')
  ));

-- A person may see their own suppressions.
create policy email_suppressions_read_own on public.email_suppressions for select to authenticated
  using (user_id = auth.uid());
