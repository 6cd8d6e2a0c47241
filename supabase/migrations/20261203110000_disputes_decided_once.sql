-- One way to decide a report (decision 0051): staff decide through `commerce.disputes.staff.decide`,
-- which records what it refunded on the dispute. Reports decided through the old
-- `orders.disputes.resolve` (gone) left `refunded_minor` at 0 although the buyer was refunded, so
-- their pages said "Settled: no refund" beside "Resolved: the buyer was refunded". What those
-- refunds gave back is moved onto them: the refunds made on the order since the report opened.
update public.disputes d
   set refunded_minor = r.total
  from (
    select d2.id, coalesce(sum(rf.amount_minor), 0)::int as total
      from public.disputes d2
      join public.refunds rf on rf.order_id = d2.order_id and rf.created_at >= d2.opened_at
     where d2.status = 'resolved_refund' and d2.refunded_minor = 0
     group by d2.id
  ) r
 where d.id = r.id and r.total > 0;

