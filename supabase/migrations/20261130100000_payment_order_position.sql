-- The orders of one checkout payment are written in one transaction, so they share a created_at,
-- and their ids are random: reading them back "in order" gave a random order on every page that
-- lists them (the payment page, the success page, the payment's description at the provider).
-- payment_position is the order's place in its payment (1, 2, ...: the basket's seller groups
-- in the order the buyer saw them); null for an order paid on its own.
alter table public.orders add column payment_position smallint
  check (payment_position is null or payment_position >= 1);

-- Orders already made from a basket keep the order they were read back in before.
update public.orders o
   set payment_position = ranked.position
  from (
    select id, row_number() over (partition by checkout_payment_id order by created_at, id) as position
      from public.orders
     where checkout_payment_id is not null
  ) ranked
 where ranked.id = o.id
   and exists (select 1 from public.checkout_payments p where p.id = o.checkout_payment_id);

create unique index orders_payment_position_key on public.orders (checkout_payment_id, payment_position)
  where payment_position is not null;
