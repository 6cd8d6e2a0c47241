-- Say which listings and sellers changed, so that each BFF instance drops only the public
-- answers they touch (api/src/http/public-cache.ts) instead of its whole cache. Still one
-- notification per statement on 'reshelf_catalogue':
--   listings:{"slugs":[…],"sellers":[…],"categories":[…]}   the listings' slugs (before and
--       after), their sellers, and the slugs of their categories and those categories' parents
--       (a parent's page lists its children's listings);
--   profiles:{"sellers":[…]}                                 the people whose profile changed;
--   the bare table name, as before, for a statement touching more than 40 rows or a
--   payload over 7,900 bytes (PostgreSQL's limit is 8,000), for TRUNCATE, and for every other table:
--   instances then drop everything, as they did for every change before.
-- Transition tables need one trigger per event, so the one statement trigger each of the two
-- tables had is replaced by one per event.

create or replace function public.notify_listing_change() returns trigger
language plpgsql as $$
declare
  slugs text[];
  sellers uuid[];
  category_ids uuid[];
  touched bigint;
  payload text;
begin
  -- Counted first: a statement over many rows (a seed, a bulk import) is not aggregated at all.
  if tg_op = 'DELETE' then
    select count(*) into touched from changed_old;
  else
    select count(*) into touched from changed_new;
  end if;
  if touched > 40 then
    perform pg_notify('reshelf_catalogue', 'listings');
    return null;
  end if;
  if tg_op = 'INSERT' then
    select array_agg(slug), array_agg(seller_id), array_agg(category_id)
      into slugs, sellers, category_ids from changed_new;
  elsif tg_op = 'UPDATE' then
    select array_agg(slug), array_agg(seller_id), array_agg(category_id)
      into slugs, sellers, category_ids
      from (select slug, seller_id, category_id from changed_old
            union all select slug, seller_id, category_id from changed_new) changed;
  else
    select array_agg(slug), array_agg(seller_id), array_agg(category_id)
      into slugs, sellers, category_ids from changed_old;
  end if;
  payload := 'listings:' || json_build_object(
    'slugs', (select coalesce(json_agg(distinct s), '[]') from unnest(slugs) s where s is not null),
    'sellers', (select coalesce(json_agg(distinct u), '[]') from unnest(sellers) u where u is not null),
    'categories', (select coalesce(json_agg(distinct c.slug), '[]') from public.categories c
                    where c.id = any(category_ids)
                       or c.id in (select k.parent_id from public.categories k where k.id = any(category_ids)))
  )::text;
  perform pg_notify('reshelf_catalogue', case when octet_length(payload) > 7900 then 'listings' else payload end);
  return null;
end;
$$;

create or replace function public.notify_profile_change() returns trigger
language plpgsql as $$
declare
  sellers uuid[];
  touched bigint;
  payload text;
begin
  if tg_op = 'DELETE' then
    select count(*) into touched from changed_old;
  else
    select count(*) into touched from changed_new;
  end if;
  if touched > 40 then
    perform pg_notify('reshelf_catalogue', 'profiles');
    return null;
  end if;
  if tg_op = 'INSERT' then
    select array_agg(id) into sellers from changed_new;
  elsif tg_op = 'UPDATE' then
    select array_agg(id) into sellers
      from (select id from changed_old union all select id from changed_new) changed;
  else
    select array_agg(id) into sellers from changed_old;
  end if;
  payload := 'profiles:' || json_build_object(
    'sellers', (select coalesce(json_agg(distinct u), '[]') from unnest(sellers) u)
  )::text;
  perform pg_notify('reshelf_catalogue', case when octet_length(payload) > 7900 then 'profiles' else payload end);
  return null;
end;
$$;

drop trigger listings_notify_catalogue on public.listings;
create trigger listings_notify_catalogue_insert after insert on public.listings
  referencing new table as changed_new
  for each statement execute function public.notify_listing_change();
create trigger listings_notify_catalogue_update after update on public.listings
  referencing old table as changed_old new table as changed_new
  for each statement execute function public.notify_listing_change();
create trigger listings_notify_catalogue_delete after delete on public.listings
  referencing old table as changed_old
  for each statement execute function public.notify_listing_change();
create trigger listings_notify_catalogue_truncate after truncate on public.listings
  for each statement execute function public.notify_catalogue_change();

drop trigger profiles_notify_catalogue on public.profiles;
create trigger profiles_notify_catalogue_insert after insert on public.profiles
  referencing new table as changed_new
  for each statement execute function public.notify_profile_change();
create trigger profiles_notify_catalogue_update after update on public.profiles
  referencing old table as changed_old new table as changed_new
  for each statement execute function public.notify_profile_change();
create trigger profiles_notify_catalogue_delete after delete on public.profiles
  referencing old table as changed_old
  for each statement execute function public.notify_profile_change();
create trigger profiles_notify_catalogue_truncate after truncate on public.profiles
  for each statement execute function public.notify_catalogue_change();
