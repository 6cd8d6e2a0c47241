-- Issue 23, decision 0043: a basket; orders with several items; bundle tiers; one payment for
-- several orders; offers on a group of listings.
--
-- 1. order_items: one row per book in an order. Every existing order becomes a one-item order
--    (same ids; references, events, payments and refunds untouched). orders.listing_id stays
--    as the order's FIRST item (transitional, decision 0043). An order inserted without items
--    (a one-book insert written before this migration: seeds, tests) gets its one item at
--    commit from its own columns, so no order is ever without items.
-- 2. A listing is in at most one live order: the guarantee moves to order_items (a `live` flag
--    kept equal to "the order is not cancelled or refunded" by triggers, and a partial unique
--    index on it). orders_one_live_per_listing stays too: it still holds (listing_id is the
--    first item), and goes with orders.listing_id.
-- 3. basket_items: a signed-in member's basket.
-- 4. bundle_tiers: up to three tiers (2..20 books, 1..50 %, strictly increasing in both) for a
--    seller, or for a charity's shop (its listings).
-- 5. checkout_payments: the provider's payment session, owning the N orders it pays (one per
--    seller group). payments keeps one row per order (its share: the order's total), so
--    refunds and the ledger stay per order; (provider, provider_ref) is unique per order now.
-- 6. offer_items: an offer on a group of listings names them (offers.listing_id is the first).

-- 1. Orders gain items --------------------------------------------------------------------------

-- The seller's bundle discount is part of the order's money: item_price_minor is the item
-- subtotal (sum of the items' prices), bundle_discount_minor comes off it, then WELCOME20 or a
-- promotion (discount_minor) comes off what is left.
alter table public.orders
  add column bundle_discount_minor integer not null default 0 check (bundle_discount_minor >= 0),
  drop constraint orders_total_adds_up;
-- The old "discount within the item price" check (named by PostgreSQL) becomes one on both discounts.
do $$
declare
  c record;
begin
  for c in select conname from pg_constraint
            where conrelid = 'public.orders'::regclass and contype = 'c'
              and pg_get_constraintdef(oid) like '%discount_minor <= item_price_minor%'
  loop
    execute format('alter table public.orders drop constraint %I', c.conname);
  end loop;
end
$$;
alter table public.orders
  add constraint orders_total_adds_up check (
    total_minor = item_price_minor - bundle_discount_minor + postage_minor + buyer_protection_minor - discount_minor
  ),
  add constraint orders_discounts_within_items check (
    bundle_discount_minor + discount_minor <= item_price_minor and discount_minor >= 0
  );

create table public.order_items (
  id uuid primary key default gen_random_uuid(),
  order_id uuid not null references public.orders (id) on delete cascade,
  listing_id uuid not null references public.listings (id) on delete restrict,
  -- 1 for the first book (the one orders.listing_id names), then 2, 3, ...
  position smallint not null check (position between 1 and 50),
  -- The book's price at sale (for an accepted offer: the offer's amount, apportioned).
  price_minor integer not null check (price_minor > 0),
  -- Its share of the seller's bundle discount, of WELCOME20/the promotion, and of the buyer
  -- protection fee: apportion() in packages/contracts (largest remainder, ties to the earlier).
  bundle_discount_minor integer not null default 0 check (bundle_discount_minor >= 0),
  discount_minor integer not null default 0 check (discount_minor >= 0),
  protection_minor integer not null default 0 check (protection_minor >= 0),
  -- What has been given back for this book (a dispute or a charity return naming it).
  refunded_minor integer not null default 0 check (refunded_minor >= 0),
  -- Kept by trigger: the order is not cancelled or refunded.
  live boolean not null default true,
  created_at timestamptz not null default now(),
  unique (order_id, position),
  unique (order_id, listing_id),
  constraint order_items_discounts_within_price check (bundle_discount_minor + discount_minor <= price_minor),
  -- A refund never exceeds what was paid for the book.
  constraint order_items_refund_within_paid check (
    refunded_minor <= price_minor - bundle_discount_minor - discount_minor + protection_minor
  )
);
create unique index order_items_one_live_per_listing on public.order_items (listing_id) where live;
create index order_items_listing_idx on public.order_items (listing_id);

create or replace function public.order_items_set_live()
returns trigger language plpgsql as $$
begin
  select o.status not in ('cancelled', 'refunded') into new.live from public.orders o where o.id = new.order_id;
  return new;
end;
$$;
create trigger order_items_live_on_insert before insert on public.order_items
  for each row execute function public.order_items_set_live();

create or replace function public.orders_items_follow_status()
returns trigger language plpgsql as $$
begin
  update public.order_items
     set live = new.status not in ('cancelled', 'refunded')
   where order_id = new.id and live is distinct from (new.status not in ('cancelled', 'refunded'));
  return null;
end;
$$;
create trigger orders_items_live after update of status on public.orders
  for each row when (old.status is distinct from new.status)
  execute function public.orders_items_follow_status();

-- At commit: an order with no items is a one-book order of orders.listing_id.
create or replace function public.orders_fill_single_item()
returns trigger language plpgsql as $$
declare
  o public.orders%rowtype;
begin
  select * into o from public.orders where id = new.id;
  if not found then return null; end if;
  if exists (select 1 from public.order_items where order_id = o.id) then return null; end if;
  insert into public.order_items (order_id, listing_id, position, price_minor, bundle_discount_minor,
                                  discount_minor, protection_minor)
  values (o.id, o.listing_id, 1, o.item_price_minor, o.bundle_discount_minor, o.discount_minor,
          o.buyer_protection_minor);
  return null;
end;
$$;
create constraint trigger orders_have_items after insert on public.orders
  deferrable initially deferred
  for each row execute function public.orders_fill_single_item();

-- At commit: an order's items add up to the order (prices, and each share), and its first
-- item is orders.listing_id.
create or replace function public.order_items_add_up()
returns trigger language plpgsql as $$
declare
  target uuid := coalesce(new.order_id, old.order_id);
  o public.orders%rowtype;
  sums record;
  first_listing uuid;
begin
  select * into o from public.orders where id = target;
  if not found then return null; end if;
  select count(*) as n, coalesce(sum(price_minor), 0) as price, coalesce(sum(bundle_discount_minor), 0) as bundle,
         coalesce(sum(discount_minor), 0) as discount, coalesce(sum(protection_minor), 0) as protection
    into sums from public.order_items where order_id = target;
  if sums.n = 0 then
    raise exception 'order % has no items', o.reference using errcode = '23514';
  end if;
  if sums.price <> o.item_price_minor or sums.bundle <> o.bundle_discount_minor
     or sums.discount <> o.discount_minor or sums.protection <> o.buyer_protection_minor then
    raise exception 'the items of order % do not add up to the order', o.reference using errcode = '23514';
  end if;
  select listing_id into first_listing from public.order_items where order_id = target order by position limit 1;
  if first_listing <> o.listing_id then
    raise exception 'the first item of order % is not orders.listing_id', o.reference using errcode = '23514';
  end if;
  return null;
end;
$$;

alter table public.order_items enable row level security;
create policy order_items_read_parties on public.order_items for select to authenticated
  using (exists (select 1 from public.orders o where o.id = order_id
                   and (o.buyer_id = auth.uid() or o.seller_id = auth.uid())));
grant select on public.order_items to authenticated;

-- Every existing order: one item, its own book and money.
insert into public.order_items (order_id, listing_id, position, price_minor, bundle_discount_minor,
                                discount_minor, protection_minor, refunded_minor, live, created_at)
select o.id, o.listing_id, 1, o.item_price_minor, 0, o.discount_minor, o.buyer_protection_minor,
       least(coalesce((select sum(r.amount_minor) from public.refunds r where r.order_id = o.id), 0),
             o.item_price_minor - o.discount_minor + o.buyer_protection_minor),
       o.status not in ('cancelled', 'refunded'), o.created_at
from public.orders o;

-- The check comes after the backfill (its rows add up by construction), so that no deferred
-- check is pending while this migration still alters tables.
create constraint trigger order_items_check_sums after insert or update or delete on public.order_items
  deferrable initially deferred
  for each row execute function public.order_items_add_up();


-- The seed's demo orders insert their item explicitly (with their money, as before).
create or replace function public.seed_order_money()
returns trigger language plpgsql as $$
declare
  o public.orders%rowtype;
begin
  if new.kind <> 'order' then return new; end if;
  select * into o from public.orders where id = new.row_id;
  if not found then return new; end if;
  insert into public.order_items (order_id, listing_id, position, price_minor, bundle_discount_minor,
                                  discount_minor, protection_minor)
  values (o.id, o.listing_id, 1, o.item_price_minor, o.bundle_discount_minor, o.discount_minor,
          o.buyer_protection_minor)
  on conflict do nothing;
  if o.paid_at is null then return new; end if;
  update public.orders set
    dispatch_by = o.paid_at + interval '7 days',
    delivery_due_at = case when o.dispatched_at is not null then o.dispatched_at + interval '3 days' end,
    complete_after = case when o.delivered_at is not null then o.delivered_at + interval '2 days' end,
    charity_sale = exists (select 1 from public.listings l where l.id = o.listing_id and l.charity_id is not null)
  where id = o.id;
  insert into public.payments (order_id, provider, provider_ref, amount_minor, status, created_at)
  values (o.id, 'test', 'seed_' || replace(o.id::text, '-', ''), o.total_minor, 'succeeded', o.paid_at)
  on conflict (provider, provider_ref, order_id) do nothing;
  insert into public.payouts (seller_id, order_id, amount_minor, status, released_at, created_at)
  values (o.seller_id, o.id, o.item_price_minor - o.bundle_discount_minor + o.postage_minor,
          case when o.status = 'completed' then 'released' else 'held' end,
          o.completed_at, o.paid_at)
  on conflict (order_id) do nothing;
  insert into public.order_events (order_id, from_status, to_status, actor_kind, note, created_at)
  values (o.id, null, 'paid', 'system', 'Demo order from the seed', o.paid_at);
  return new;
end;
$$;

-- 3. Baskets ------------------------------------------------------------------------------------

create table public.basket_items (
  buyer_id uuid not null references auth.users (id) on delete cascade,
  listing_id uuid not null references public.listings (id) on delete cascade,
  added_at timestamptz not null default now(),
  primary key (buyer_id, listing_id)
);
create index basket_items_listing_idx on public.basket_items (listing_id);
alter table public.basket_items enable row level security;
create policy basket_items_read_own on public.basket_items for select to authenticated
  using (buyer_id = auth.uid());
grant select on public.basket_items to authenticated;

-- 4. Bundle tiers -------------------------------------------------------------------------------

create table public.bundle_tiers (
  id uuid primary key default gen_random_uuid(),
  -- A seller's own tiers, or a charity shop's (for the charity's listings): exactly one.
  seller_id uuid references auth.users (id) on delete cascade,
  charity_id uuid references public.charities (id) on delete cascade,
  min_books smallint not null check (min_books between 2 and 20),
  percent smallint not null check (percent between 1 and 50),
  created_at timestamptz not null default now(),
  constraint bundle_tiers_one_owner check ((seller_id is null) <> (charity_id is null)),
  unique (seller_id, min_books),
  unique (charity_id, min_books)
);
create index bundle_tiers_charity_idx on public.bundle_tiers (charity_id) where charity_id is not null;

-- At commit: at most three tiers per owner, the percentage rising strictly with the books.
create or replace function public.bundle_tiers_check()
returns trigger language plpgsql as $$
declare
  owner_seller uuid := coalesce(new.seller_id, old.seller_id);
  owner_charity uuid := coalesce(new.charity_id, old.charity_id);
  tiers integer;
  not_rising integer;
begin
  select count(*) into tiers from public.bundle_tiers
   where seller_id is not distinct from owner_seller and charity_id is not distinct from owner_charity;
  if tiers > 3 then
    raise exception 'at most three bundle tiers' using errcode = '23514';
  end if;
  select count(*) into not_rising from (
    select percent, lag(percent) over (order by min_books) as previous from public.bundle_tiers
     where seller_id is not distinct from owner_seller and charity_id is not distinct from owner_charity
  ) t where t.previous is not null and t.percent <= t.previous;
  if not_rising > 0 then
    raise exception 'bundle tiers must rise in both books and percentage' using errcode = '23514';
  end if;
  return null;
end;
$$;
create constraint trigger bundle_tiers_valid after insert or update or delete on public.bundle_tiers
  deferrable initially deferred
  for each row execute function public.bundle_tiers_check();

alter table public.bundle_tiers enable row level security;
create policy bundle_tiers_read on public.bundle_tiers for select to anon, authenticated using (true);
grant select on public.bundle_tiers to anon, authenticated;

-- 5. One payment for several orders -------------------------------------------------------------

create table public.checkout_payments (
  id uuid primary key default gen_random_uuid(),
  buyer_id uuid not null references auth.users (id) on delete cascade,
  provider text not null check (provider in ('test', 'stripe')),
  -- The provider's session; null for the moment between the orders and the session opening.
  provider_ref text,
  amount_minor integer not null check (amount_minor > 0),
  status text not null default 'pending'
    check (status in ('pending', 'succeeded', 'failed', 'abandoned')),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (provider, provider_ref)
);
create index checkout_payments_buyer_idx on public.checkout_payments (buyer_id, created_at desc);
create trigger checkout_payments_touch before update on public.checkout_payments
  for each row execute function public.touch_updated_at();
alter table public.checkout_payments enable row level security;

alter table public.payments add column checkout_payment_id uuid references public.checkout_payments (id) on delete restrict;
alter table public.orders add column checkout_payment_id uuid references public.checkout_payments (id) on delete set null;
create index payments_checkout_payment_idx on public.payments (checkout_payment_id);
create index orders_checkout_payment_idx on public.orders (checkout_payment_id) where checkout_payment_id is not null;

-- Every existing payment is its own checkout payment (same id).
insert into public.checkout_payments (id, buyer_id, provider, provider_ref, amount_minor, status, created_at, updated_at)
select p.id, o.buyer_id, p.provider, p.provider_ref, p.amount_minor, p.status, p.created_at, p.updated_at
from public.payments p join public.orders o on o.id = p.order_id;
update public.payments set checkout_payment_id = id;
update public.orders o set checkout_payment_id = (
  select p.checkout_payment_id from public.payments p where p.order_id = o.id order by p.created_at desc limit 1
);
-- Always set: written by checkout, else by the trigger below (nullable only so that one-order
-- inserts written before this migration need not name it).
alter table public.payments add constraint payments_has_checkout_payment check (checkout_payment_id is not null) not valid;
alter table public.payments validate constraint payments_has_checkout_payment;

-- The provider's reference is shared by the orders one session pays: unique per order now.
alter table public.payments drop constraint payments_provider_provider_ref_key;
alter table public.payments add constraint payments_provider_ref_order_key unique (provider, provider_ref, order_id);
create index payments_provider_ref_idx on public.payments (provider, provider_ref);

-- A payment row written the one-order way (seeds, tests) gets its checkout payment here.
create or replace function public.payments_own_checkout_payment()
returns trigger language plpgsql as $$
declare
  owner uuid;
begin
  if new.checkout_payment_id is not null then return new; end if;
  select buyer_id into owner from public.orders where id = new.order_id;
  insert into public.checkout_payments (buyer_id, provider, provider_ref, amount_minor, status, created_at)
  values (owner, new.provider, new.provider_ref, new.amount_minor, new.status, new.created_at)
  on conflict (provider, provider_ref) do update set amount_minor = public.checkout_payments.amount_minor
  returning id into new.checkout_payment_id;
  update public.orders set checkout_payment_id = new.checkout_payment_id
   where id = new.order_id and checkout_payment_id is null;
  return new;
end;
$$;
create trigger payments_checkout_payment before insert on public.payments
  for each row execute function public.payments_own_checkout_payment();

-- 6. Offers on a group of listings ------------------------------------------------------------

-- An offer names one listing (offers.listing_id, as before) or, for a bundle offer, several:
-- its offer_items, the first of which is offers.listing_id. amount_minor is for the group.
create table public.offer_items (
  offer_id uuid not null references public.offers (id) on delete cascade,
  listing_id uuid not null references public.listings (id) on delete cascade,
  position smallint not null check (position between 1 and 50),
  primary key (offer_id, listing_id),
  unique (offer_id, position)
);
create index offer_items_listing_idx on public.offer_items (listing_id);
alter table public.offer_items enable row level security;
create policy offer_items_read_parties on public.offer_items for select to authenticated
  using (exists (select 1 from public.offers f where f.id = offer_id
                   and (f.buyer_id = auth.uid() or f.seller_id = auth.uid())));
grant select on public.offer_items to authenticated;
