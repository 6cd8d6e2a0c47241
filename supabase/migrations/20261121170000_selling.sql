-- Selling (issue 7): drafts that remember the ISBN they were started from, books typed in by
-- sellers, and in-app notifications for the people who wished for a listing when its price
-- drops or it sells. Every table has row-level security enabled; the BFF connects as the owner.

-- Drafts ---------------------------------------------------------------------------------
-- A listing is created as a draft at the wizard's first step and filled in step by step. Until
-- its book is known (typed details for an ISBN the catalogue lacks) the draft keeps the ISBN.

alter table public.listings
  add column draft_isbn13 text check (draft_isbn13 ~ '^97[89][0-9]{10}$');

-- My listings, newest change first, per seller and status.
create index listings_seller_updated_idx on public.listings (seller_id, updated_at desc, id desc);

-- A book typed in by a seller records who typed it: they may correct it while no one else's
-- listing uses it. Catalogue books (created_by null) are never edited by sellers.
alter table public.books
  add column created_by uuid references auth.users (id) on delete set null;
create index books_created_by_idx on public.books (created_by) where created_by is not null;

-- Notifications ----------------------------------------------------------------------------
-- In-app now, email later. Written by the trigger below in the same transaction as the price
-- change or the sale, whoever makes it (the seller's edit, the checkout, staff).

create table public.notifications (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  kind text not null check (kind in ('wishlist_price_drop', 'wishlist_sold')),
  listing_id uuid references public.listings (id) on delete cascade,
  data jsonb not null default '{}'::jsonb check (jsonb_typeof(data) = 'object'),
  read_at timestamptz,
  created_at timestamptz not null default now()
);
create index notifications_user_idx on public.notifications (user_id, created_at desc, id desc);
create index notifications_unread_idx on public.notifications (user_id) where read_at is null;
-- Several price drops before the person looks make one notification, from the first price to
-- the latest.
create unique index notifications_one_unread_price_drop on public.notifications (user_id, listing_id)
  where kind = 'wishlist_price_drop' and read_at is null;

create or replace function public.notify_wishlisters() returns trigger
language plpgsql
set search_path = public, pg_catalog
as $$
begin
  if new.status = 'active' and old.status = 'active' and new.price_minor < old.price_minor then
    insert into public.notifications (user_id, kind, listing_id, data)
    select w.user_id, 'wishlist_price_drop', new.id,
           jsonb_build_object('oldPriceMinor', old.price_minor, 'newPriceMinor', new.price_minor)
    from public.wishlist_items w
    where w.listing_id = new.id and w.user_id <> new.seller_id
    on conflict (user_id, listing_id) where kind = 'wishlist_price_drop' and read_at is null
    do update set data = jsonb_set(notifications.data, '{newPriceMinor}', excluded.data -> 'newPriceMinor'),
                  created_at = now();
  end if;
  if new.status = 'sold' and old.status is distinct from 'sold' then
    insert into public.notifications (user_id, kind, listing_id, data)
    select w.user_id, 'wishlist_sold', new.id, jsonb_build_object('priceMinor', new.price_minor)
    from public.wishlist_items w
    where w.listing_id = new.id and w.user_id <> new.seller_id;
  end if;
  return null;
end;
$$;

create trigger listings_notify_wishlisters after update of price_minor, status on public.listings
  for each row execute function public.notify_wishlisters();

alter table public.notifications enable row level security;

-- A person reads their own notifications and marks them read.
create policy notifications_read_own on public.notifications for select to authenticated
  using (user_id = auth.uid());
create policy notifications_update_own on public.notifications for update to authenticated
  using (user_id = auth.uid()) with check (user_id = auth.uid());
