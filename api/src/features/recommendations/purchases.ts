/**
 * Purchases and sales as issue 26's readers see them, in ONE place: recommendations (what a
 * member bought; who else bought it) and seller analytics (sales, revenue net of fees) read them
 * only through these fragments. Today an order is one listing; when orders hold several books
 * (order_items, issue 23) only these two fragments change.
 */
import { sql } from 'kysely';

/**
 * One row per book bought: buyer_id, seller_id, listing_id, book_id, paid_at. A purchase is an
 * order that was paid and not cancelled or refunded.
 */
export const PURCHASES = sql`(
  select o.buyer_id, o.seller_id, o.listing_id, l.book_id, o.paid_at
    from public.orders o
    join public.listings l on l.id = o.listing_id
   where o.paid_at is not null and o.status not in ('cancelled', 'refunded')
)`;

/**
 * One row per book sold: seller_id, listing_id, charity_id, paid_at, net_minor (what the seller
 * is owed for it: the payout less anything a refund took back; the platform's buyer protection
 * is the buyer's and never the seller's).
 */
export const SALES = sql`(
  select o.seller_id, o.listing_id, l.charity_id, o.paid_at,
         coalesce(p.amount_minor - p.reversed_minor, o.item_price_minor + o.postage_minor) as net_minor
    from public.orders o
    join public.listings l on l.id = o.listing_id
    left join public.payouts p on p.order_id = o.id and p.status <> 'cancelled'
   where o.paid_at is not null and o.status not in ('cancelled', 'refunded')
)`;
