/**
 * Purchases and sales as issue 26's readers see them, in ONE place: recommendations (what a
 * member bought; who else bought it) and seller analytics (sales, revenue net of fees) read them
 * only through these fragments. Orders hold
 * one or more books (order_items, decision 0043).
 */
import { sql } from 'kysely';

/**
 * One row per book bought: buyer_id, seller_id, listing_id, book_id, paid_at. A purchase is a book
 * in an order that was paid and not cancelled or refunded, and that was not itself refunded in
 * full (an order may hold several books: order_items, decision 0043).
 */
export const PURCHASES = sql`(
  select o.buyer_id, o.seller_id, i.listing_id, l.book_id, o.paid_at
    from public.orders o
    join public.order_items i on i.order_id = o.id
    join public.listings l on l.id = i.listing_id
   where o.paid_at is not null and o.status not in ('cancelled', 'refunded')
     and i.refunded_minor < i.price_minor - i.bundle_discount_minor
)`;

/**
 * One row per book sold: seller_id, listing_id, charity_id, paid_at, net_minor (what the seller
 * is owed for it: the payout less anything a refund took back; the platform's buyer protection
 * is the buyer's and never the seller's). An order's net is split over its books exactly: each
 * book carries its price less its share of the bundle discount, and the order's first book carries
 * the rest (postage, less refunds), so a seller's books sum to the order's net to the penny.
 */
export const SALES = sql`(
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
    ) per_item
)`;
