-- Two editions of different works whose addresses would be the same, created at once: the second
-- takes the suffixed address instead of failing its writer's transaction (decision 0079).
create or replace function public.work_for(p_title text, p_authors text[]) returns uuid
language plpgsql
set search_path = public, extensions, pg_catalog
as $$
declare
  v_key text := public.work_key(p_title, p_authors);
  v_base text := public.work_slug_base(p_title, p_authors);
  v_slug text;
  v_id uuid;
begin
  select id into v_id from public.works where work_key = v_key;
  if v_id is not null then
    return v_id;
  end if;
  v_slug := case when exists (select 1 from public.works where slug = v_base)
    then left(v_base, 72) || '-' || left(md5(v_key), 6) else v_base end;
  begin
    insert into public.works (slug, title, authors, work_key)
    values (v_slug, p_title, p_authors, v_key)
    on conflict (work_key) do nothing
    returning id into v_id;
  exception when unique_violation then
    -- The address was taken between the check and the insert: the key's own suffix is unique.
    insert into public.works (slug, title, authors, work_key)
    values (left(v_base, 72) || '-' || left(md5(v_key), 6), p_title, p_authors, v_key)
    on conflict (work_key) do nothing
    returning id into v_id;
  end;
  if v_id is null then
    select id into v_id from public.works where work_key = v_key;
  end if;
  return v_id;
end;
$$;

-- A book whose title its own check refuses gets no work: the book's check says what is wrong,
-- not the work's.
create or replace function public.books_assign_work() returns trigger
language plpgsql
set search_path = public, extensions, pg_catalog
as $$
begin
  if new.title is null or char_length(btrim(new.title)) not between 1 and 300 then
    return new;
  end if;
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
