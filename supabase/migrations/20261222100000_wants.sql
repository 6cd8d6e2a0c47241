-- Wants, series, reading lists (issue 38, decision 0088).
--
-- A want names what a member is looking for, not a copy: a work (any edition), an edition (a
-- `books` row, or an ISBN the catalogue may not have yet), or the rest of a series; with
-- conditions a copy must meet (first edition, signed, dust jacket, a minimum condition, a
-- maximum all-in price, a format, no print-on-demand or book-club copies). The wishlist of
-- listings stays as it is (saved copies), and so do saved searches.
--
-- Matching cannot be lost: a listing that becomes active (or gets cheaper while active) is
-- queued in its own transaction by a trigger (`want_queue`), whatever path published it (the
-- sell wizard, the charity bulk upload, a relist, the seed). The matcher (TypeScript, because
-- the all-in price is the commerce rule's) takes the queue right after the commit and on every
-- job round, and records each want's match once (`want_matches`).

-- Series ---------------------------------------------------------------------------------

create table public.series (
  id uuid primary key default gen_random_uuid(),
  slug text not null unique check (slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$'),
  name text not null check (char_length(btrim(name)) between 1 and 200),
  -- Open Library's series name as it gave it, when the series came from there.
  open_library_name text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create trigger series_touch before update on public.series
  for each row execute function public.touch_updated_at();
alter table public.series enable row level security;
create policy series_read on public.series for select to anon, authenticated using (true);

-- A work's place in its series: volume 1, 2, 2.5 (a novella between two books).
alter table public.works
  add column series_id uuid references public.series (id) on delete set null,
  add column series_position numeric(5, 1) check (series_position > 0),
  add constraint works_series_position_needs_series check (series_position is null or series_id is not null);
create index works_series_idx on public.works (series_id, series_position) where series_id is not null;

-- Wants ----------------------------------------------------------------------------------

create table public.wants (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  kind text not null check (kind in ('work', 'edition', 'series')),
  work_id uuid references public.works (id) on delete cascade,
  -- An edition want names its `books` row, its ISBN, or both (an ISBN not catalogued yet
  -- matches the edition when a seller first lists it).
  book_id uuid references public.books (id) on delete cascade,
  isbn13 text check (isbn13 ~ '^97[89][0-9]{10}$'),
  series_id uuid references public.series (id) on delete cascade,
  -- Conditions a copy must meet.
  first_edition boolean not null default false,
  signed boolean not null default false,
  dust_jacket boolean not null default false,
  min_condition text check (min_condition in ('like_new', 'very_good', 'good', 'well_read')),
  max_all_in_minor integer check (max_all_in_minor > 0 and max_all_in_minor <= 1000000),
  format text check (format in ('paperback', 'hardback')),
  no_print_on_demand boolean not null default false,
  no_book_club boolean not null default false,
  -- Told in the app always; emailed at once, in the daily digest, or not at all.
  alerts text not null default 'instant' check (alerts in ('instant', 'daily', 'off')),
  -- Where it came from: made on Reshelf, or imported from a reading list's shelf.
  source text not null default 'reshelf' check (source in ('reshelf', 'goodreads', 'storygraph')),
  shelf text check (char_length(shelf) <= 100),
  import_id uuid,
  last_digest_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint wants_target check (
    case kind
      when 'work' then work_id is not null and book_id is null and isbn13 is null and series_id is null
      when 'edition' then (book_id is not null or isbn13 is not null) and work_id is null and series_id is null
      when 'series' then series_id is not null and work_id is null and book_id is null and isbn13 is null
    end)
);
-- One want per target and conditions for a member (saving it again changes its alerts).
create unique index wants_one_per_target on public.wants (
  user_id, kind, coalesce(work_id::text, book_id::text, isbn13, series_id::text),
  first_edition, signed, dust_jacket, coalesce(min_condition, ''), coalesce(max_all_in_minor, 0),
  coalesce(format, ''), no_print_on_demand, no_book_club);
create index wants_user_idx on public.wants (user_id, created_at desc);
create index wants_work_idx on public.wants (work_id) where work_id is not null;
create index wants_book_idx on public.wants (book_id) where book_id is not null;
create index wants_isbn_idx on public.wants (isbn13) where isbn13 is not null;
create index wants_series_idx on public.wants (series_id) where series_id is not null;
create trigger wants_touch before update on public.wants
  for each row execute function public.touch_updated_at();
alter table public.wants enable row level security;

-- Each listing a want matched, once; emailed (at once or in the digest) or not yet.
create table public.want_matches (
  want_id uuid not null references public.wants (id) on delete cascade,
  listing_id uuid not null references public.listings (id) on delete cascade,
  matched_at timestamptz not null default now(),
  emailed_at timestamptz,
  primary key (want_id, listing_id)
);
create index want_matches_unemailed_idx on public.want_matches (want_id) where emailed_at is null;
create index want_matches_listing_idx on public.want_matches (listing_id);
alter table public.want_matches enable row level security;

-- Listings to match against the wants, queued in the transaction that published them.
create table public.want_queue (
  listing_id uuid primary key references public.listings (id) on delete cascade,
  queued_at timestamptz not null default now()
);
alter table public.want_queue enable row level security;

create or replace function public.listings_queue_for_wants() returns trigger
language plpgsql
set search_path = public, pg_catalog
as $$
begin
  if new.status = 'active' and (
       tg_op = 'INSERT'
       or old.status is distinct from 'active'
       or new.price_minor < old.price_minor
       or new.book_id is distinct from old.book_id)
  then
    insert into public.want_queue (listing_id) values (new.id)
    on conflict (listing_id) do update set queued_at = excluded.queued_at;
  end if;
  return null;
end;
$$;
create trigger listings_queue_for_wants after insert or update of status, price_minor, book_id
  on public.listings for each row execute function public.listings_queue_for_wants();

-- The books a member has (besides what they bought on Reshelf): from a reading list's shelf
-- they chose ("read", "owned") or marked on a book page. "Complete the set" reads it.
create table public.member_books (
  user_id uuid not null references auth.users (id) on delete cascade,
  work_id uuid not null references public.works (id) on delete cascade,
  source text not null default 'reshelf' check (source in ('reshelf', 'goodreads', 'storygraph')),
  shelf text check (char_length(shelf) <= 100),
  import_id uuid,
  created_at timestamptz not null default now(),
  primary key (user_id, work_id)
);
create index member_books_work_idx on public.member_books (work_id);
alter table public.member_books enable row level security;

-- Reading-list imports: each one's file, the shelves chosen and the report of every row.
create table public.reading_list_imports (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  source text not null check (source in ('goodreads', 'storygraph')),
  file_name text check (char_length(file_name) <= 255),
  rows integer not null check (rows >= 0),
  -- The shelves made wants and the shelves recorded as books the member has.
  want_shelves text[] not null default '{}',
  have_shelves text[] not null default '{}',
  -- Every row: its line, title, author, ISBN, shelf, and what became of it and why.
  report jsonb not null check (jsonb_typeof(report) = 'array'),
  created_at timestamptz not null default now()
);
create index reading_list_imports_user_idx on public.reading_list_imports (user_id, created_at desc);
alter table public.reading_list_imports enable row level security;

alter table public.wants
  add constraint wants_import_fk foreign key (import_id) references public.reading_list_imports (id) on delete set null;
alter table public.member_books
  add constraint member_books_import_fk foreign key (import_id) references public.reading_list_imports (id) on delete set null;
