-- The book, then the copy (issue 36, decision 0079).
--
-- A work is the book whatever the edition; an edition is a `books` row (an ISBN, or an edition
-- without one); a copy is a listing. Offline, editions are grouped into works by their
-- normalised title and first author's surname (`public.work_key`); Open Library's work, when
-- known, joins editions whose titles differ (`works.open_library_key`).
--
-- Search and browse read one document per edition (`edition_search`): its weighted text and
-- what the filters over its copies need (copy count, lowest price, conditions, formats, flags),
-- kept current by triggers in the listing's own transaction. "Did you mean" reads a small
-- dictionary of the catalogue's words (`search_words`), kept current by triggers on `books`.

-- Works ---------------------------------------------------------------------------------

-- The grouping key: the title without punctuation or a leading article, and the first
-- author's surname ("The Hobbit" by "J. R. R. Tolkien" and "Hobbit" by "J.R.R. Tolkien" agree).
create or replace function public.work_key(p_title text, p_authors text[]) returns text
language sql immutable parallel safe
set search_path = public, extensions, pg_catalog
as $$
  select btrim(regexp_replace(
           regexp_replace(
             regexp_replace(public.search_normalise(coalesce(p_title, '')), '[^a-z0-9]+', ' ', 'g'),
             '^\s*(the|a|an)\s+', ''),
           '\s+', ' ', 'g'))
    || '|' ||
    coalesce(
      (regexp_match(
         btrim(regexp_replace(public.search_normalise(coalesce(p_authors[1], '')), '[^a-z0-9]+', ' ', 'g')),
         '([a-z0-9]+)$'))[1],
      '')
$$;

-- A readable address: the title and the surname, lower case, hyphenated.
create or replace function public.work_slug_base(p_title text, p_authors text[]) returns text
language sql immutable parallel safe
set search_path = public, extensions, pg_catalog
as $$
  select coalesce(nullif(left(btrim(regexp_replace(
      public.search_normalise(coalesce(p_title, '') || ' ' ||
        coalesce((regexp_match(btrim(coalesce(p_authors[1], '')), '(\S+)$'))[1], '')),
      '[^a-z0-9]+', '-', 'g'), '-'), 80), ''), 'book')
$$;

create table public.works (
  id uuid primary key default gen_random_uuid(),
  slug text not null unique check (slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$'),
  title text not null check (char_length(btrim(title)) between 1 and 300),
  authors text[] not null default '{}',
  work_key text not null unique,
  -- Open Library's work ("OL27448W"), when the catalogue has learnt it.
  open_library_key text unique check (open_library_key ~ '^OL[0-9]+W$'),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create trigger works_touch before update on public.works
  for each row execute function public.touch_updated_at();
alter table public.works enable row level security;
create policy works_read on public.works for select to anon, authenticated using (true);

-- The work for a title and authors: the one with that key, or a new one.
create or replace function public.work_for(p_title text, p_authors text[]) returns uuid
language plpgsql
set search_path = public, extensions, pg_catalog
as $$
declare
  v_key text := public.work_key(p_title, p_authors);
  v_base text := public.work_slug_base(p_title, p_authors);
  v_id uuid;
begin
  select id into v_id from public.works where work_key = v_key;
  if v_id is not null then
    return v_id;
  end if;
  insert into public.works (slug, title, authors, work_key)
  values (
    case when exists (select 1 from public.works where slug = v_base)
      then left(v_base, 72) || '-' || left(md5(v_key), 6) else v_base end,
    p_title, p_authors, v_key)
  on conflict (work_key) do nothing
  returning id into v_id;
  if v_id is null then
    select id into v_id from public.works where work_key = v_key;
  end if;
  return v_id;
end;
$$;

alter table public.books add column work_id uuid references public.works (id) on delete restrict;

-- Existing books, grouped: one work per key, titled after its first edition by age.
do $$
declare
  r record;
begin
  for r in
    select distinct on (public.work_key(title, authors)) title, authors
    from public.books
    order by public.work_key(title, authors), created_at, id
  loop
    perform public.work_for(r.title, r.authors);
  end loop;
end;
$$;
update public.books b set work_id = w.id
  from public.works w where w.work_key = public.work_key(b.title, b.authors);
-- Every edition has its work. A check rather than NOT NULL: the trigger below fills it on insert,
-- so writers (and the generated types) need not name it.
alter table public.books add constraint books_work_required check (work_id is not null);
create index books_work_idx on public.books (work_id);

-- A new book joins its work; a corrected title or author moves it to the work that now fits,
-- unless staff or Open Library placed it (a work with an Open Library key keeps its editions).
create or replace function public.books_assign_work() returns trigger
language plpgsql
set search_path = public, extensions, pg_catalog
as $$
begin
  if tg_op = 'INSERT' then
    if new.work_id is null then
      new.work_id := public.work_for(new.title, new.authors);
    end if;
  elsif new.work_id is not distinct from old.work_id
    and public.work_key(new.title, new.authors) is distinct from public.work_key(old.title, old.authors)
    and not exists (select 1 from public.works w where w.id = old.work_id and w.open_library_key is not null)
  then
    new.work_id := public.work_for(new.title, new.authors);
  end if;
  return new;
end;
$$;
create trigger books_assign_work before insert or update of title, authors, work_id
  on public.books for each row execute function public.books_assign_work();

-- A work left without editions goes.
create or replace function public.works_drop_empty() returns trigger
language plpgsql
set search_path = public, pg_catalog
as $$
begin
  delete from public.works w
   where w.id = old.work_id
     and not exists (select 1 from public.books b where b.work_id = w.id);
  return null;
end;
$$;
create trigger books_drop_empty_work after update of work_id or delete
  on public.books for each row execute function public.works_drop_empty();

-- Collectors' attributes of a copy ------------------------------------------------------
-- First edition and signed exist (20261127100000_social.sql); ex-library too. The dust jacket
-- is graded on the AB Bookman scale on its own (null: not stated; 'none': no jacket); a
-- collectable copy may carry its own Bookman grade beside the everyday condition.
alter table public.listings
  add column first_printing boolean not null default false,
  add column inscribed boolean not null default false,
  add column book_club boolean not null default false,
  add column print_on_demand boolean not null default false,
  add column dust_jacket text
    check (dust_jacket in ('none', 'fine', 'near_fine', 'very_good', 'good', 'fair', 'poor')),
  add column bookman_grade text
    check (bookman_grade in ('fine', 'near_fine', 'very_good', 'good', 'fair', 'poor'));

-- The search document per edition ------------------------------------------------------

create table public.edition_search (
  book_id uuid primary key references public.books (id) on delete cascade,
  work_id uuid not null references public.works (id) on delete cascade,
  -- Title and subtitle A, authors B, publisher C, the description's first 4,000 characters D.
  document tsvector not null,
  search_title text not null,
  isbn13 text,
  title_length integer not null,
  category_id uuid,
  genre_ids uuid[] not null default '{}',
  published_year integer,
  -- Over the edition's active copies.
  copies integer not null default 0,
  lowest_price_minor integer,
  conditions text[] not null default '{}',
  formats text[] not null default '{}',
  first_edition boolean not null default false,
  signed boolean not null default false,
  charity boolean not null default false,
  newest_published_at timestamptz,
  updated_at timestamptz not null default now()
);
alter table public.edition_search enable row level security;
create index edition_search_document_idx on public.edition_search using gin (document)
  where copies > 0;
create index edition_search_title_idx on public.edition_search (search_title) where copies > 0;
create index edition_search_isbn_idx on public.edition_search (isbn13) where copies > 0;
create index edition_search_newest_idx on public.edition_search (newest_published_at desc, book_id desc)
  where copies > 0;
create index edition_search_price_idx on public.edition_search (lowest_price_minor, book_id)
  where copies > 0;
create index edition_search_category_idx on public.edition_search (category_id, newest_published_at desc)
  where copies > 0;
create index edition_search_genres_idx on public.edition_search using gin (genre_ids) where copies > 0;
create index edition_search_work_idx on public.edition_search (work_id);

-- Recomputes editions' documents from their books and active copies. Each edition's row is
-- locked first, then its copies read (a fresh snapshot after the lock), so two transactions
-- changing copies of one edition at once cannot leave it stale.
create or replace function public.refresh_editions(p_book_ids uuid[]) returns void
language plpgsql
set search_path = public, extensions, pg_catalog
as $$
begin
  if p_book_ids is null or cardinality(p_book_ids) = 0 then
    return;
  end if;
  insert into public.edition_search (book_id, work_id, document, search_title, title_length)
  select b.id, b.work_id, ''::tsvector, '', 0
  from public.books b where b.id = any(p_book_ids)
  order by b.id
  on conflict (book_id) do nothing;
  perform 1 from public.edition_search es
   where es.book_id = any(p_book_ids) order by es.book_id for update;
  update public.edition_search es set
    work_id = b.work_id,
    document =
      setweight(to_tsvector('english'::regconfig, b.search_title), 'A') ||
      setweight(to_tsvector('english'::regconfig, b.search_authors), 'B') ||
      setweight(to_tsvector('english'::regconfig, public.search_normalise(coalesce(b.publisher, ''))), 'C') ||
      setweight(b.description_document, 'D'),
    search_title = b.search_title,
    isbn13 = b.isbn13,
    title_length = char_length(b.title),
    category_id = b.category_id,
    genre_ids = public.book_genre_ids(b.id),
    published_year = b.published_year,
    copies = c.copies,
    lowest_price_minor = c.lowest_price_minor,
    conditions = c.conditions,
    formats = c.formats,
    first_edition = c.first_edition,
    signed = c.signed,
    charity = c.charity,
    newest_published_at = c.newest_published_at,
    updated_at = now()
  from public.books b
  cross join lateral (
    select count(*)::int as copies,
      min(l.price_minor) as lowest_price_minor,
      coalesce(array_agg(distinct l.condition) filter (where l.condition is not null), '{}') as conditions,
      coalesce(array_agg(distinct l.format) filter (where l.format is not null), '{}') as formats,
      coalesce(bool_or(l.first_edition), false) as first_edition,
      coalesce(bool_or(l.signed), false) as signed,
      coalesce(bool_or(l.charity_id is not null), false) as charity,
      max(l.published_at) as newest_published_at
    from public.listings l
    where l.book_id = b.id and l.status = 'active'
  ) c
  where es.book_id = b.id and b.id = any(p_book_ids);
end;
$$;

-- Listings: once per statement, for the editions whose copies changed in a way search reads.
create or replace function public.listings_refresh_editions() returns trigger
language plpgsql
set search_path = public, pg_catalog
as $$
declare
  v_ids uuid[];
begin
  if tg_op = 'INSERT' then
    select array_agg(distinct n.book_id) into v_ids from new_rows n where n.book_id is not null;
  elsif tg_op = 'DELETE' then
    select array_agg(distinct o.book_id) into v_ids from old_rows o where o.book_id is not null;
  else
    select array_agg(distinct x.book_id) into v_ids
    from (
      select o.book_id from old_rows o join new_rows n on n.id = o.id
       where (o.book_id, o.status, o.price_minor, o.condition, o.format, o.first_edition, o.signed,
              o.charity_id, o.published_at)
             is distinct from
             (n.book_id, n.status, n.price_minor, n.condition, n.format, n.first_edition, n.signed,
              n.charity_id, n.published_at)
      union all
      select n.book_id from old_rows o join new_rows n on n.id = o.id
       where o.book_id is distinct from n.book_id
    ) x where x.book_id is not null;
  end if;
  perform public.refresh_editions(v_ids);
  return null;
end;
$$;
create trigger listings_refresh_editions_insert after insert on public.listings
  referencing new table as new_rows
  for each statement execute function public.listings_refresh_editions();
create trigger listings_refresh_editions_update after update on public.listings
  referencing old table as old_rows new table as new_rows
  for each statement execute function public.listings_refresh_editions();
create trigger listings_refresh_editions_delete after delete on public.listings
  referencing old table as old_rows
  for each statement execute function public.listings_refresh_editions();

-- Books: a new edition gets its document; a change to what search reads refreshes it.
create or replace function public.books_refresh_edition() returns trigger
language plpgsql
set search_path = public, pg_catalog
as $$
begin
  perform public.refresh_editions(array[new.id]);
  return null;
end;
$$;
create trigger books_refresh_edition after insert or update of title, subtitle, authors, publisher,
  description, isbn13, category_id, published_year, work_id
  on public.books for each row execute function public.books_refresh_edition();

-- Genres change through book_genres (their listings follow already; the document too).
create or replace function public.book_genres_refresh_edition() returns trigger
language plpgsql
set search_path = public, pg_catalog
as $$
begin
  perform public.refresh_editions(array_remove(array[new.book_id, old.book_id], null));
  return null;
end;
$$;
create trigger book_genres_refresh_edition after insert or update or delete
  on public.book_genres for each row execute function public.book_genres_refresh_edition();

select public.refresh_editions(array(select id from public.books order by id));

-- The dictionary of the catalogue's words ("did you mean") --------------------------------
-- Each word of a title, subtitle or author's name (three letters or more, normalised), with
-- how many editions carry it. A misspelt word is matched by trigram similarity here, a table
-- of tens of thousands of short rows, never against `books`.

create table public.search_words (
  word text primary key check (char_length(word) between 3 and 60),
  editions integer not null default 0 check (editions >= 0)
);
alter table public.search_words enable row level security;
create index search_words_trgm_idx on public.search_words using gin (word gin_trgm_ops);

create or replace function public.search_words_of(p_title text, p_subtitle text, p_authors text[])
returns text[]
language sql immutable parallel safe
set search_path = public, extensions, pg_catalog
as $$
  select coalesce(array_agg(distinct w), '{}')
  from regexp_split_to_table(
         public.search_normalise(coalesce(p_title, '') || ' ' || coalesce(p_subtitle, '') || ' ' ||
           array_to_string(coalesce(p_authors, '{}'), ' ')),
         '[^a-z0-9]+') as w
  where char_length(w) between 3 and 60
$$;

create or replace function public.books_count_words() returns trigger
language plpgsql
set search_path = public, pg_catalog
as $$
declare
  v_old text[] := '{}';
  v_new text[] := '{}';
begin
  if tg_op in ('UPDATE', 'DELETE') then
    v_old := public.search_words_of(old.title, old.subtitle, old.authors);
  end if;
  if tg_op in ('INSERT', 'UPDATE') then
    v_new := public.search_words_of(new.title, new.subtitle, new.authors);
  end if;
  insert into public.search_words as sw (word, editions)
  select w, 1 from unnest(v_new) w where not (w = any(v_old)) order by w
  on conflict (word) do update set editions = sw.editions + 1;
  update public.search_words sw set editions = greatest(sw.editions - 1, 0)
   where sw.word = any(v_old) and not (sw.word = any(v_new));
  return null;
end;
$$;
create trigger books_count_words after insert or update of title, subtitle, authors or delete
  on public.books for each row execute function public.books_count_words();

insert into public.search_words (word, editions)
select w, count(*)::int
from public.books b, unnest(public.search_words_of(b.title, b.subtitle, b.authors)) w
group by w;
