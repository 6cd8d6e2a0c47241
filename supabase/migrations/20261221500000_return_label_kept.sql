-- Return labels (issue 37, decision 0087): on a change-of-mind return the buyer pays for the
-- prepaid return label (PROTECTION_RULES.changeOfMindReturnPostageBy), so its cost is kept from
-- their refund. The refund records what it kept and for which label; the ledger shows it as a
-- `carrier_label` entry (what Reshelf pays the carrier, positive as for outbound labels), so an
-- order still balances: paid in = seller net + fee + refunds + labels.
alter table public.refunds
  add column label_kept_minor integer not null default 0 check (label_kept_minor >= 0),
  add column label_shipment_id uuid references public.shipments (id) on delete restrict,
  add constraint refunds_label_kept_named check ((label_kept_minor > 0) = (label_shipment_id is not null));

create or replace function public.ledger_on_refund_label()
returns trigger language plpgsql as $$
begin
  if new.label_kept_minor > 0 then
    insert into public.ledger_entries (kind, amount_minor, entry_key, order_id, seller_id, refund_id, shipment_id, memo)
    values ('carrier_label', new.label_kept_minor, 'carrier_label:refund:' || new.id, new.order_id,
      (select seller_id from public.orders where id = new.order_id), new.id, new.label_shipment_id,
      'Return label kept from the refund')
    on conflict (entry_key) do nothing;
  end if;
  return null;
end;
$$;
create trigger refunds_label_ledger after insert on public.refunds
  for each row execute function public.ledger_on_refund_label();
