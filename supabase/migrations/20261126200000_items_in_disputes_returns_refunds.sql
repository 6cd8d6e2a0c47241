-- Issue 23 (decision 0043, "Refunds of some of an order's items"): a dispute or a charity return
-- may name some of the order's items, and a refund records which items it gave back and how much
-- of each. The money rules are in api/src/features/refunds/refund.ts.
--
-- 1. dispute_items / return_items: the items a dispute or a return names (none: the whole order,
--    as before this migration). An item named must belong to the dispute's (return's) order.
-- 2. refund_items: one row per item a refund gave back: the amount, and within it the item's
--    share of buyer protection; the discount share (WELCOME20 / promotion) it took back with it.
-- 3. refunds.discount_minor: the WELCOME20/promotion discount a refund took back (an item's
--    share, or, for a refund of everything left, what was not taken back yet), so revenue's
--    "discounts returned" follows item refunds exactly. Existing refunds: the last refund of an
--    order refunded or cancelled after payment carries its whole discount (the old rule).
-- 4. A refund never exceeds what was paid: per payment (payments.refunded_minor <= amount_minor,
--    already), per item (order_items_refund_within_paid, already), and per refund here: its
--    items' amounts never exceed the refund.

-- 1. What a dispute or a return names -----------------------------------------------------------

create table public.dispute_items (
  dispute_id uuid not null references public.disputes (id) on delete cascade,
  order_item_id uuid not null references public.order_items (id) on delete restrict,
  primary key (dispute_id, order_item_id)
);
create index dispute_items_item_idx on public.dispute_items (order_item_id);

create table public.return_items (
  return_id uuid not null references public.return_requests (id) on delete cascade,
  order_item_id uuid not null references public.order_items (id) on delete restrict,
  primary key (return_id, order_item_id)
);
create index return_items_item_idx on public.return_items (order_item_id);

create or replace function public.named_item_of_same_order()
returns trigger language plpgsql as $$
declare
  parent_order uuid;
  item_order uuid;
begin
  if tg_table_name = 'dispute_items' then
    select order_id into parent_order from public.disputes where id = new.dispute_id;
  else
    select order_id into parent_order from public.return_requests where id = new.return_id;
  end if;
  select order_id into item_order from public.order_items where id = new.order_item_id;
  if parent_order is distinct from item_order then
    raise exception 'an item named must belong to the same order' using errcode = '23514';
  end if;
  return new;
end;
$$;
create trigger dispute_items_same_order before insert or update on public.dispute_items
  for each row execute function public.named_item_of_same_order();
create trigger return_items_same_order before insert or update on public.return_items
  for each row execute function public.named_item_of_same_order();

-- 2. What a refund gave back, item by item ------------------------------------------------------

create table public.refund_items (
  refund_id uuid not null references public.refunds (id) on delete cascade,
  order_item_id uuid not null references public.order_items (id) on delete restrict,
  amount_minor integer not null check (amount_minor > 0),
  protection_minor integer not null default 0 check (protection_minor >= 0),
  discount_minor integer not null default 0 check (discount_minor >= 0),
  primary key (refund_id, order_item_id),
  check (protection_minor <= amount_minor)
);
create index refund_items_item_idx on public.refund_items (order_item_id);

-- At commit: a refund's items add up to no more than the refund (the rest is postage).
create or replace function public.refund_items_within_refund()
returns trigger language plpgsql as $$
declare
  target uuid := coalesce(new.refund_id, old.refund_id);
  refund_total integer;
  items_total integer;
begin
  select amount_minor into refund_total from public.refunds where id = target;
  if not found then return null; end if;
  select coalesce(sum(amount_minor), 0) into items_total from public.refund_items where refund_id = target;
  if items_total > refund_total then
    raise exception 'a refund''s items add up to more than the refund' using errcode = '23514';
  end if;
  return null;
end;
$$;
create constraint trigger refund_items_within_refund after insert or update on public.refund_items
  deferrable initially deferred
  for each row execute function public.refund_items_within_refund();

-- 3. The discount a refund took back ------------------------------------------------------------

alter table public.refunds
  add column discount_minor integer not null default 0 check (discount_minor >= 0);

update public.refunds r set discount_minor = o.discount_minor
from public.orders o
where o.id = r.order_id
  and o.status in ('refunded', 'cancelled') and o.paid_at is not null and o.discount_minor > 0
  and r.id = (select r2.id from public.refunds r2 where r2.order_id = o.id
              order by r2.created_at desc, r2.id desc limit 1);

-- Row-level security: the BFF (reshelf_app, BYPASSRLS) reads and writes them; the policies say the
-- parties could read their own (no client role is granted them, as for disputes and refunds).
alter table public.dispute_items enable row level security;
alter table public.return_items enable row level security;
alter table public.refund_items enable row level security;
create policy dispute_items_read_parties on public.dispute_items for select to authenticated
  using (exists (select 1 from public.order_items i join public.orders o on o.id = i.order_id
                 where i.id = order_item_id and (o.buyer_id = auth.uid() or o.seller_id = auth.uid())));
create policy return_items_read_parties on public.return_items for select to authenticated
  using (exists (select 1 from public.order_items i join public.orders o on o.id = i.order_id
                 where i.id = order_item_id and (o.buyer_id = auth.uid() or o.seller_id = auth.uid())));
create policy refund_items_read_parties on public.refund_items for select to authenticated
  using (exists (select 1 from public.order_items i join public.orders o on o.id = i.order_id
                 where i.id = order_item_id and (o.buyer_id = auth.uid() or o.seller_id = auth.uid())));
