-- Open Library's works join editions (issue 36, decision 0082).
--
-- A book created from a lookup that names Open Library's work joins the work with that
-- `open_library_key`; failing one, the work its title and author give (`public.work_for`, the
-- one grouping rule), which takes the key if it has none. When that work already belongs to
-- another Open Library work (two books of one title by authors of one surname), the edition
-- gets a work of its own, keyed apart so offline grouping never lands on it by accident.

create or replace function public.work_for_open_library(p_key text, p_title text, p_authors text[])
returns uuid
language plpgsql
set search_path = public, extensions, pg_catalog
as $$
declare
  v_id uuid;
  v_key text;
begin
  if p_key is null or p_key !~ '^OL[0-9]+W$' then
    return public.work_for(p_title, p_authors);
  end if;
  select id into v_id from public.works where open_library_key = p_key;
  if v_id is not null then
    return v_id;
  end if;
  v_id := public.work_for(p_title, p_authors);
  update public.works set open_library_key = p_key
   where id = v_id and open_library_key is null;
  if found then
    return v_id;
  end if;
  -- Taken meanwhile by this very key, or the title's work is another Open Library work.
  select id into v_id from public.works where open_library_key = p_key;
  if v_id is not null then
    return v_id;
  end if;
  v_key := public.work_key(p_title, p_authors) || '|' || lower(p_key);
  insert into public.works (slug, title, authors, work_key, open_library_key)
  values (left(public.work_slug_base(p_title, p_authors), 64) || '-' || lower(p_key),
    p_title, p_authors, v_key, p_key)
  on conflict do nothing
  returning id into v_id;
  if v_id is null then
    select id into v_id from public.works where open_library_key = p_key;
  end if;
  if v_id is null then
    raise exception 'no work for Open Library work %', p_key;
  end if;
  return v_id;
end;
$$;

-- An emptied work goes whenever an edition leaves it. The trigger of 20261220100000 fired on
-- `update of work_id`, which PostgreSQL reads as "work_id named in the UPDATE's SET list": a
-- corrected title or author, moved by `books_assign_work` (a BEFORE trigger), left its old
-- work behind, empty. Now any update that changes the work, and any delete, tidies up.
drop trigger books_drop_empty_work on public.books;
create trigger books_drop_empty_work_update after update on public.books
  for each row when (old.work_id is distinct from new.work_id)
  execute function public.works_drop_empty();
create trigger books_drop_empty_work_delete after delete on public.books
  for each row execute function public.works_drop_empty();
delete from public.works w where not exists (select 1 from public.books b where b.work_id = w.id);
