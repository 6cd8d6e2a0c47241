-- The money definitions (decision 0051): the amounts SQL reads, each defined once, here.
-- api/src/commerce/money/ holds their TypeScript side; nothing outside it computes an amount
-- from the stored `_minor` columns (a lint check, api/scripts/check-money.ts, says so), and
-- other modules read these views by name.
--
-- Views are created with security_invoker, so a client role that could ever select from one
-- would meet the row-level security of the tables under it; no client role is granted any
-- (the default privileges of 20261124180000 revoke them), the BFF's runtime role reads them.

-- One row per book bought: a book in an order that was paid and not cancelled or refunded, and
-- that was not itself refunded in full (its goods part is back). Recommendations read it.
create view public.book_purchases with (security_invoker = true) as
select o.buyer_id, o.seller_id, i.listing_id, l.book_id, o.paid_at
  from public.orders o
  join public.order_items i on i.order_id = o.id
  join public.listings l on l.id = i.listing_id
 where o.paid_at is not null and o.status not in ('cancelled', 'refunded')
   and i.refunded_minor < i.price_minor - i.bundle_discount_minor - i.discount_minor;

-- One row per book sold: what the seller is owed for it (net_minor: the payout less anything a
-- refund took back; buyer protection is never the seller's). An order's net is split over its
-- books exactly: each book carries its price less its share of the bundle discount, and the
-- order's first book carries the rest (postage, less refunds), so a seller's books sum to the
-- order's net to the penny. Seller analytics read it.
create view public.book_sales with (security_invoker = true) as
select seller_id, listing_id, charity_id, paid_at,
       item_minor + case when position = first_position then order_net_minor - order_items_minor else 0 end
         as net_minor
  from (
    select o.seller_id, i.listing_id, l.charity_id, o.paid_at, i.position,
           i.price_minor - i.bundle_discount_minor as item_minor,
           min(i.position) over w as first_position,
           sum(i.price_minor - i.bundle_discount_minor) over w as order_items_minor,
           coalesce(p.amount_minor - p.reversed_minor, o.item_price_minor - o.bundle_discount_minor + o.postage_minor)
             as order_net_minor
      from public.orders o
      join public.order_items i on i.order_id = o.id
      join public.listings l on l.id = i.listing_id
      left join public.payouts p on p.order_id = o.id and p.status <> 'cancelled'
     where o.paid_at is not null and o.status not in ('cancelled', 'refunded')
    window w as (partition by o.id)
  ) per_item;
