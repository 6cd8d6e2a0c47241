-- A series' volumes in volume order when the words name the series (decision 0092).
--
-- The edition's search document gains its work's series: the series' name is in `head` (and the
-- whole document) at weight C, so "his dark materials" finds Northern Lights in the strong tier
-- though no title carries those words, and whether the words name the series is one test of the
-- head's C part (`ts_filter(head, '{c}') @@ query`, no other table read). `series_id` and
-- `series_position` are copied from the work: search orders a series' volumes by them when the
-- words name the series (book-search.service.ts). The head's weights: title A, authors B,
-- series C.
--
-- Kept by what keeps the document: refresh_editions reads the work and its series; a work joining
-- or leaving a series or moving within it, and a series renamed, refresh its editions.

alter table public.edition_search
  add column series_id uuid,
  add column series_position numeric(5, 1);

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
      setweight(to_tsvector('english'::regconfig, b.search_authors), 'B') ||
      setweight(to_tsvector('english'::regconfig, public.search_normalise(coalesce(s.name, ''))), 'C'),
    document =
      setweight(to_tsvector('english'::regconfig, b.search_title), 'A') ||
      setweight(to_tsvector('english'::regconfig, b.search_authors), 'B') ||
      setweight(to_tsvector('english'::regconfig, public.search_normalise(coalesce(s.name, ''))), 'C') ||
      setweight(to_tsvector('english'::regconfig, public.search_normalise(coalesce(b.publisher, ''))), 'C') ||
      setweight(b.description_document, 'D'),
    search_title = b.search_title,
    isbn13 = b.isbn13,
    title_length = char_length(b.title),
    category_id = b.category_id,
    genre_ids = public.book_genre_ids(b.id),
    published_year = b.published_year,
    series_id = w.series_id,
    series_position = w.series_position,
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
  join public.works w on w.id = b.work_id
  left join public.series s on s.id = w.series_id
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

-- A work joins or leaves a series, or moves within it (a series deleted sets its works' series
-- to null, an update of this column too): its editions' documents follow.
create or replace function public.works_refresh_editions() returns trigger
language plpgsql
set search_path = public, pg_catalog
as $$
begin
  perform public.refresh_editions(array(select b.id from public.books b where b.work_id = new.id order by b.id));
  return null;
end;
$$;
create trigger works_refresh_editions after update of series_id, series_position on public.works
  for each row
  when (old.series_id is distinct from new.series_id or old.series_position is distinct from new.series_position)
  execute function public.works_refresh_editions();

-- A series renamed: the name its volumes are found by changes.
create or replace function public.series_refresh_editions() returns trigger
language plpgsql
set search_path = public, pg_catalog
as $$
begin
  perform public.refresh_editions(array(
    select b.id from public.works w join public.books b on b.work_id = w.id
     where w.series_id = new.id order by b.id));
  return null;
end;
$$;
create trigger series_refresh_editions after update of name on public.series
  for each row when (old.name is distinct from new.name)
  execute function public.series_refresh_editions();

select public.refresh_editions(array(select id from public.books order by id));
