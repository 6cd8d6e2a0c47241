-- Issue 24: a seeded order's money records go with it when the seed is reset (20261121190000),
-- now with its ledger entries and its transfers (and their reversals and payout lines), which
-- refer to them. A real order's never do: those keep their "on delete restrict".
create or replace function public.seed_order_money_cleanup()
returns trigger language plpgsql as $$
begin
  if exists (select 1 from public.seed_items s where s.kind = 'order' and s.row_id = old.id) then
    delete from public.ledger_entries where order_id = old.id
      or transfer_id in (select id from public.transfers where order_id = old.id);
    delete from public.transfer_reversals where transfer_id in (select id from public.transfers where order_id = old.id);
    delete from public.provider_payout_transfers where transfer_id in (select id from public.transfers where order_id = old.id);
    delete from public.transfers where order_id = old.id;
    delete from public.refunds where order_id = old.id;
    delete from public.payments where order_id = old.id;
    delete from public.payouts where order_id = old.id;
  end if;
  return old;
end;
$$;
