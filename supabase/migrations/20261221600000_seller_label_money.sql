-- The seller's label in the money definitions (issue 37, decisions 0083 and 0086): when Reshelf
-- bought the outbound label, the buyer's postage paid the carrier and the seller's held earnings
-- dropped by the label's cost. `order_money` gains `seller_label_minor` (appended, so the view is
-- replaced in place), so the seller's "Your money" reads item + postage − label = what they receive
-- from one definition.
create or replace view public.order_money with (security_invoker = true) as
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
                  - (o.discount_minor - coalesce(ref.discount_minor, 0)) end)::int as platform_net_minor,
       -- What the order's outbound label took from the seller's earnings (the buyer's postage
       -- paid the carrier, labels.ts): the seller's page shows it beside the postage.
       coalesce((select -sum(l.amount_minor) from public.ledger_entries l
                  where l.order_id = o.id and l.kind = 'seller_debit' and l.shipment_id is not null), 0)::int
         as seller_label_minor
  from public.orders o
  left join lateral (
    select sum(p.amount_minor) as amount_minor, sum(p.refunded_minor) as refunded_minor
      from public.payments p where p.order_id = o.id and p.status = 'succeeded'
  ) pay on true
  left join public.payouts po on po.order_id = o.id
  left join lateral (
    select sum(r.buyer_protection_minor) as protection_minor, sum(r.discount_minor) as discount_minor
      from public.refunds r where r.order_id = o.id
  ) ref on true;;
