-- Search reads the edition's document alone (issue 36, decision 0080).
--
-- The document gains what answering the filters over copies exactly needs without reading
-- `listings`: a compact summary of each active copy (price, parcel size, condition, format,
-- first edition, signed, charity), cheapest first, and the parcel size of the cheapest copy
-- (for the all-in price), and the dearest copy's price. A filtered search unnests the summary of the editions its other
-- conditions leave; an unfiltered one reads the edition's own figures. `head` is the title
-- (A) and authors (B) alone, the strong tier's text: small, so ranking it is cheap, where the
-- whole document carries the description's first 4,000 characters.

create type public.edition_copy as (
  price_minor integer,
  parcel_size text,
  condition text,
  format text,
  first_edition boolean,
  signed boolean,
  charity_id uuid,
  published_at timestamptz
);

alter table public.edition_search
  add column head tsvector not null default ''::tsvector,
  add column copy_list public.edition_copy[] not null default '{}',
  add column lowest_parcel_size text,
  add column highest_price_minor integer;

create index edition_search_head_idx on public.edition_search using gin (head) where copies > 0;
-- The dearest copy bounds the lowest price of the copies that meet any filter from above, as
-- the cheapest bounds it from below: a price-sorted filtered browse walks one of these two.
create index edition_search_highest_idx on public.edition_search (highest_price_minor, book_id)
  where copies > 0;

-- Planned for its ids every time (plan_cache_mode): a session that inserts many books one by
-- one (a seed, an import) would otherwise keep the generic plan made while the tables were
-- empty, a sequential read of `books` and `edition_search` per row, quadratic in the books.
create or replace function public.refresh_editions(p_book_ids uuid[]) returns void
language plpgsql
set search_path = public, extensions, pg_catalog
set plan_cache_mode = force_custom_plan
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
  -- Lock each edition's row first, in one order; the copies are read after (a fresh snapshot
  -- under READ COMMITTED), so two writers of one edition's copies serialise on this row.
  perform 1 from public.edition_search es
   where es.book_id = any(p_book_ids) order by es.book_id for update;
  update public.edition_search es set
    work_id = b.work_id,
    head =
      setweight(to_tsvector('english'::regconfig, b.search_title), 'A') ||
      setweight(to_tsvector('english'::regconfig, b.search_authors), 'B'),
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
    lowest_parcel_size = c.lowest_parcel_size,
    highest_price_minor = c.highest_price_minor,
    copy_list = c.copy_list,
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
      (array_agg(l.parcel_size order by l.price_minor, l.id))[1] as lowest_parcel_size,
      max(l.price_minor) as highest_price_minor,
      coalesce(array_agg(row(l.price_minor, l.parcel_size, l.condition, l.format, l.first_edition,
                             l.signed, l.charity_id, l.published_at)::public.edition_copy
                         order by l.price_minor, l.id), '{}') as copy_list,
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

-- The parcel size is read now (the cheapest copy's postage): a change to it refreshes too.
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
       where (o.book_id, o.status, o.price_minor, o.parcel_size, o.condition, o.format, o.first_edition,
              o.signed, o.charity_id, o.published_at)
             is distinct from
             (n.book_id, n.status, n.price_minor, n.parcel_size, n.condition, n.format, n.first_edition,
              n.signed, n.charity_id, n.published_at)
      union all
      select n.book_id from old_rows o join new_rows n on n.id = o.id
       where o.book_id is distinct from n.book_id
    ) x where x.book_id is not null;
  end if;
  perform public.refresh_editions(v_ids);
  return null;
end;
$$;

select public.refresh_editions(array(select id from public.books order by id));
