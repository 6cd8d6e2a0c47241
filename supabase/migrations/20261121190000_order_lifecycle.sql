-- The order lifecycle after payment (brief §5): dispatch with a carrier's delivery window,
-- delivery, completion, disputes, and offer threads that count their rounds.

-- Offers: each round knows its thread and its number (1 the buyer's offer, 2 the seller's
-- counter, 3 the buyer's counter), so "once each way" is a check, not a loop.
alter table public.offers
  add column thread_id uuid,
  add column round smallint not null default 1 check (round between 1 and 3);
update public.offers set thread_id = id where thread_id is null;
alter table public.offers alter column thread_id set not null;
alter table public.offers
  add constraint offers_round_maker check (
    (round in (1, 3) and made_by = 'buyer') or (round = 2 and made_by = 'seller'));
create index offers_thread_idx on public.offers (thread_id, round);

-- Orders: when the carrier should have delivered, and who the seller sent it with.
alter table public.orders
  add column delivery_due_at timestamptz,
  add column charity_sale boolean not null default false;
create index orders_delivery_due_idx on public.orders (delivery_due_at) where status = 'dispatched';
create index orders_open_disputes_idx on public.disputes (order_id) where status = 'open';

-- Demo orders from the seed have their money on record too: a payment through the test
-- provider and the seller's payout, so staff can refund or release a seeded dispute the way
-- they would a real one. Only rows the seed recorded in seed_items are touched.
create or replace function public.seed_order_money()
returns trigger language plpgsql as $$
declare
  o public.orders%rowtype;
begin
  if new.kind <> 'order' then return new; end if;
  select * into o from public.orders where id = new.row_id;
  if not found or o.paid_at is null then return new; end if;
  update public.orders set
    dispatch_by = o.paid_at + interval '7 days',
    delivery_due_at = case when o.dispatched_at is not null then o.dispatched_at + interval '3 days' end,
    complete_after = case when o.delivered_at is not null then o.delivered_at + interval '2 days' end,
    charity_sale = exists (select 1 from public.listings l where l.id = o.listing_id and l.charity_id is not null)
  where id = o.id;
  insert into public.payments (order_id, provider, provider_ref, amount_minor, status, created_at)
  values (o.id, 'test', 'seed_' || replace(o.id::text, '-', ''), o.total_minor, 'succeeded', o.paid_at)
  on conflict (provider, provider_ref) do nothing;
  insert into public.payouts (seller_id, order_id, amount_minor, status, released_at, created_at)
  values (o.seller_id, o.id, o.item_price_minor + o.postage_minor,
          case when o.status = 'completed' then 'released' else 'held' end,
          o.completed_at, o.paid_at)
  on conflict (order_id) do nothing;
  insert into public.order_events (order_id, from_status, to_status, actor_kind, note, created_at)
  values (o.id, null, 'paid', 'system', 'Demo order from the seed', o.paid_at);
  return new;
end;
$$;
create trigger seed_items_order_money after insert on public.seed_items
  for each row execute function public.seed_order_money();

-- A seeded order's money records go with it when the seed is reset; a real order's never do
-- (payments and refunds keep their "on delete restrict").
create or replace function public.seed_order_money_cleanup()
returns trigger language plpgsql as $$
begin
  if exists (select 1 from public.seed_items s where s.kind = 'order' and s.row_id = old.id) then
    delete from public.refunds where order_id = old.id;
    delete from public.payments where order_id = old.id;
    delete from public.payouts where order_id = old.id;
  end if;
  return old;
end;
$$;
create trigger orders_seed_money_cleanup before delete on public.orders
  for each row execute function public.seed_order_money_cleanup();

-- Seeded orders already in place get theirs now.
do $$
declare
  s record;
begin
  for s in select kind, row_id, slot from public.seed_items where kind = 'order' loop
    delete from public.seed_items where kind = s.kind and row_id = s.row_id;
    insert into public.seed_items (kind, row_id, slot) values (s.kind, s.row_id, s.slot);
  end loop;
end;
$$;
