-- Tell every BFF instance when public catalogue data changes, so its short-lived cache of
-- public catalogue answers is dropped at once (api/src/http/public-cache.ts). One
-- notification per statement, however many rows it touches. Views and wishlist rows are
-- left out on purpose: trending may lag by the cache's lifetime instead of every page view
-- emptying the cache.

create or replace function public.notify_catalogue_change() returns trigger
language plpgsql as $$
begin
  perform pg_notify('reshelf_catalogue', tg_table_name);
  return null;
end;
$$;

do $$
declare
  t text;
begin
  foreach t in array array['listings', 'books', 'book_genres', 'categories', 'genres', 'charities',
                           'staff_picks', 'pages', 'settings', 'profiles']
  loop
    execute format(
      'create trigger %I after insert or update or delete or truncate on public.%I
         for each statement execute function public.notify_catalogue_change()',
      t || '_notify_catalogue', t);
  end loop;
end;
$$;
