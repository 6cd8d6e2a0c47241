-- The money definitions (decision 0051): every amount SQL reads, each defined once, here.
-- api/src/commerce/money/amounts.ts is their TypeScript side (a test holds the two to each
-- other over generated orders). Nothing outside the money module computes an amount from the
-- stored `_minor` columns (`pnpm lint` runs api/scripts/check-money.ts): other modules read
-- these views, or call the money module.
--
-- The views are created with security_invoker, so a client role that could ever select from one
-- would meet the row-level security of the tables under it; no client role is granted any (the
-- default privileges of 20261124180000 revoke them); the BFF's runtime role reads them.

-- One row per book of an order: its stored shares (decision 0043) and what follows from them.
--   seller_share    what the seller earns for the book: its price less its share of the bundle
--                   discount (WELCOME20 and promotions are Reshelf's, decision 0027);
--   goods           what the buyer paid for the book itself: the seller share less its share of
--                   the discount;
--   paid            goods and its share of buyer protection (postage is the parcel's);
--   refundable      what is still to come back for it;
--   returned        its goods part is back (the book counts as refunded);
--   seller_taken_back  what refunds took back from the seller for this book: each part less its
--                   protection share, plus its discount share (refund_items).
create view public.order_item_money with (security_invoker = true) as
select i.id as order_item_id,
       i.order_id,
       i.listing_id,
       i.position,
       i.price_minor,
       i.bundle_discount_minor,
       i.discount_minor,
       i.protection_minor,
       i.refunded_minor,
       i.price_minor - i.bundle_discount_minor as seller_share_minor,
       i.price_minor - i.bundle_discount_minor - i.discount_minor as goods_minor,
       i.price_minor - i.bundle_discount_minor - i.discount_minor + i.protection_minor as paid_minor,
       greatest(0, i.price_minor - i.bundle_discount_minor - i.discount_minor + i.protection_minor - i.refunded_minor)
         as refundable_minor,
       i.refunded_minor >= i.price_minor - i.bundle_discount_minor - i.discount_minor as returned,
       least(i.price_minor - i.bundle_discount_minor,
             coalesce((select sum(ri.amount_minor - ri.protection_minor + ri.discount_minor)
                         from public.refund_items ri where ri.order_item_id = i.id), 0))::int
         as seller_taken_back_minor
  from public.order_items i;

-- One row per order: what the buyer paid and got back, what the seller earns and was paid or had
-- taken back, and what Reshelf keeps. Figures of money that moved count only once the order is
-- paid (an unpaid order earns nobody anything).
--   seller_earnings   the books' seller shares and the postage: the payout at payment;
--   seller_taken_back refunds out of the seller's earnings: all of them when the payout was
--                     cancelled (or the order refunded or cancelled before any was made), else
--                     what was reversed (decision 0022);
--   platform_net      buyer protection less what refunds gave back of it, less the discount
--                     Reshelf funds (the discount less what refunds took back of it).
create view public.order_money with (security_invoker = true) as
select o.id as order_id,
       o.buyer_id,
       o.seller_id,
       o.status,
       o.charity_sale,
       o.paid_at,
       (select count(*)::int from public.order_items i where i.order_id = o.id) as books,
       o.item_price_minor as items_minor,
       o.bundle_discount_minor,
       o.discount_minor,
       o.postage_minor,
       o.buyer_protection_minor as protection_minor,
       o.buyer_protection_vat_minor as protection_vat_minor,
       o.total_minor,
       coalesce(pay.refunded_minor, 0)::int as refunded_minor,
       coalesce(pay.amount_minor - pay.refunded_minor, 0)::int as refundable_minor,
       case when o.paid_at is null then 0 else o.total_minor - coalesce(pay.refunded_minor, 0) end::int
         as buyer_net_minor,
       o.item_price_minor - o.bundle_discount_minor + o.postage_minor as seller_earnings_minor,
       (case
          when o.paid_at is null then 0
          when po.id is null then
            case when o.status in ('cancelled', 'refunded')
                 then o.item_price_minor - o.bundle_discount_minor + o.postage_minor else 0 end
          when po.status = 'cancelled' then po.amount_minor
          else po.reversed_minor
        end)::int as seller_taken_back_minor,
       (case
          when o.paid_at is null then 0
          when po.id is null then
            case when o.status in ('cancelled', 'refunded')
                 then 0 else o.item_price_minor - o.bundle_discount_minor + o.postage_minor end
          when po.status = 'cancelled' then 0
          else po.amount_minor - po.reversed_minor
        end)::int as seller_net_minor,
       po.status as payout_status,
       coalesce(ref.protection_minor, 0)::int as protection_refunded_minor,
       coalesce(ref.discount_minor, 0)::int as discount_returned_minor,
       (case when o.paid_at is null then 0
             else o.buyer_protection_minor - coalesce(ref.protection_minor, 0)
                  - (o.discount_minor - coalesce(ref.discount_minor, 0)) end)::int as platform_net_minor
  from public.orders o
  left join lateral (
    select sum(p.amount_minor) as amount_minor, sum(p.refunded_minor) as refunded_minor
      from public.payments p where p.order_id = o.id and p.status = 'succeeded'
  ) pay on true
  left join public.payouts po on po.order_id = o.id
  left join lateral (
    select sum(r.buyer_protection_minor) as protection_minor, sum(r.discount_minor) as discount_minor
      from public.refunds r where r.order_id = o.id
  ) ref on true;

-- One row per book bought: a book of an order that was paid and not cancelled or refunded, whose
-- goods part has not come back. Recommendations read it.
create view public.book_purchases with (security_invoker = true) as
select o.buyer_id, o.seller_id, m.listing_id, l.book_id, o.paid_at
  from public.order_item_money m
  join public.orders o on o.id = m.order_id
  join public.listings l on l.id = m.listing_id
 where o.paid_at is not null and o.status not in ('cancelled', 'refunded') and not m.returned;

-- One row per book sold, on the same rule, with two figures for the seller:
--   proceeds   the book's own: its seller share less what refunds took back for it (a charity's
--              Gift Aid is on this: the proceeds of the donated goods, never postage);
--   earnings   its part of what the order pays the seller (the order's seller net, postage and
--              take-backs included), split exactly: each book carries its proceeds and the
--              order's first book sold carries the rest, so a seller's books sum to their orders'
--              net to the penny (seller analytics, the charity dashboard).
create view public.sold_books with (security_invoker = true) as
select order_id, order_item_id, listing_id, book_id, seller_id, charity_id, donor_reference, paid_at,
       reference, proceeds_minor,
       (proceeds_minor + case when position = first_position then order_net_minor - order_proceeds_minor else 0 end)::int
         as earnings_minor
  from (
    select m.order_id, m.order_item_id, m.listing_id, l.book_id, o.seller_id, l.charity_id,
           l.donor_reference, o.paid_at, o.reference, m.position,
           (m.seller_share_minor - m.seller_taken_back_minor) as proceeds_minor,
           min(m.position) over w as first_position,
           sum(m.seller_share_minor - m.seller_taken_back_minor) over w as order_proceeds_minor,
           om.seller_net_minor as order_net_minor
      from public.order_item_money m
      join public.orders o on o.id = m.order_id
      join public.order_money om on om.order_id = m.order_id
      join public.listings l on l.id = m.listing_id
     where o.paid_at is not null and o.status not in ('cancelled', 'refunded') and not m.returned
    window w as (partition by m.order_id)
  ) per_book;

-- An order's title wherever SQL names it (exports, statements): its first book, and how many
-- more ("Brave New World and 2 more books"). The same words as booksTitle in
-- packages/contracts/src/orders.ts; a test holds the two together.
create function public.books_title(titles text[]) returns text
  language sql immutable parallel safe
  set search_path = ''
as $$
  select case
    when coalesce(array_length(titles, 1), 0) = 0 then ''
    when array_length(titles, 1) = 1 then titles[1]
    else titles[1] || ' and ' || (array_length(titles, 1) - 1)::text || ' more book'
         || case when array_length(titles, 1) > 2 then 's' else '' end
  end
$$;

-- The titles of an order's books, first to last, and its title.
create view public.order_titles with (security_invoker = true) as
select i.order_id,
       array_agg(b.title order by i.position) as titles,
       public.books_title(array_agg(b.title order by i.position)) as title
  from public.order_items i
  join public.listings l on l.id = i.listing_id
  join public.books b on b.id = l.book_id
 group by i.order_id;

-- What a report's refund would give back: the books it names (what each has left), or, naming
-- none, everything left on the order's payment. Staff read it in the queue.
create view public.dispute_money with (security_invoker = true) as
select d.id as dispute_id,
       d.order_id,
       (case when exists (select 1 from public.dispute_items di where di.dispute_id = d.id)
             then (select coalesce(sum(m.refundable_minor), 0)
                     from public.dispute_items di
                     join public.order_item_money m on m.order_item_id = di.order_item_id
                    where di.dispute_id = d.id)
             else (select om.refundable_minor from public.order_money om where om.order_id = d.order_id)
        end)::int as refundable_minor
  from public.disputes d;

-- Each promotion's uses and what it took off: the orders that used it and are not cancelled or
-- refunded (a code given back frees its use). Staff read it on /admin/promotions.
create view public.promotion_money with (security_invoker = true) as
select o.promotion_id,
       count(*)::int as redemptions,
       coalesce(sum(o.discount_minor), 0)::int as discounted_minor
  from public.orders o
 where o.promotion_id is not null and o.status not in ('cancelled', 'refunded')
 group by o.promotion_id;
