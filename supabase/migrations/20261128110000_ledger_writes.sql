-- Issue 24, decision 0046: every movement of money writes one ledger entry, whoever makes it
-- (checkout, the refund command, the payout release, the payouts feature, seeds and tests that
-- write the tables directly). The writes are triggers on the tables that hold the money, keyed by
-- entry_key, so a retried or repeated write adds nothing. Signs: see ledger_entries in
-- 20261128100000_payouts_through_the_provider.sql.
--
--   payments      becomes succeeded          payment        +amount
--   payouts       inserted (the sale)        seller_credit  +amount (the seller's net)
--                                            fee            +(buyer protection − Reshelf's discount)
--   payouts       reversed_minor grows       seller_debit   −the growth
--                 cancelled                  seller_debit   −what was left of it
--   refunds       inserted                   refund         −amount
--                                            fee            −(protection given back − discount taken back)
--   transfers     becomes paid               transfer       +amount
--   transfer_reversals inserted              transfer_reversal −amount
--   provider_payouts inserted                payout         +amount
--                 becomes failed / canceled  payout_failed  −amount

create or replace function public.ledger_write(
  p_kind text, p_amount integer, p_key text,
  p_order uuid, p_seller uuid, p_payment uuid default null, p_refund uuid default null,
  p_payout uuid default null, p_transfer uuid default null, p_reversal uuid default null,
  p_provider_payout uuid default null, p_memo text default null
) returns void language sql as $$
  insert into public.ledger_entries (kind, amount_minor, entry_key, order_id, seller_id, payment_id,
    refund_id, payout_id, transfer_id, transfer_reversal_id, provider_payout_id, memo)
  values (p_kind, p_amount, p_key, p_order, p_seller, p_payment, p_refund, p_payout, p_transfer,
    p_reversal, p_provider_payout, p_memo)
  on conflict (entry_key) do nothing;
$$;

create or replace function public.ledger_on_payment()
returns trigger language plpgsql as $$
begin
  if new.status = 'succeeded' and (tg_op = 'INSERT' or old.status is distinct from 'succeeded') then
    perform public.ledger_write('payment', new.amount_minor, 'payment:' || new.id, new.order_id,
      (select seller_id from public.orders where id = new.order_id), p_payment => new.id);
  end if;
  return null;
end;
$$;
create trigger payments_ledger after insert or update of status on public.payments
  for each row execute function public.ledger_on_payment();

create or replace function public.ledger_on_payout()
returns trigger language plpgsql as $$
declare
  o record;
begin
  if tg_op = 'INSERT' then
    select buyer_protection_minor, discount_minor into o from public.orders where id = new.order_id;
    perform public.ledger_write('seller_credit', new.amount_minor, 'seller_credit:' || new.id,
      new.order_id, new.seller_id, p_payout => new.id);
    perform public.ledger_write('fee', o.buyer_protection_minor - o.discount_minor, 'fee:' || new.id,
      new.order_id, new.seller_id, p_payout => new.id);
    -- A payout written already cancelled or reversed (seeds) is taken back at once.
    if new.status = 'cancelled' then
      perform public.ledger_write('seller_debit', -(new.amount_minor - new.reversed_minor),
        'seller_debit:' || new.id || ':cancelled', new.order_id, new.seller_id, p_payout => new.id);
    end if;
    if new.reversed_minor > 0 then
      perform public.ledger_write('seller_debit', -new.reversed_minor,
        'seller_debit:' || new.id || ':' || new.reversed_minor, new.order_id, new.seller_id, p_payout => new.id);
    end if;
    return null;
  end if;
  if new.reversed_minor > old.reversed_minor and old.status <> 'cancelled' then
    perform public.ledger_write('seller_debit', -(new.reversed_minor - old.reversed_minor),
      'seller_debit:' || new.id || ':' || new.reversed_minor, new.order_id, new.seller_id, p_payout => new.id);
  end if;
  if new.status = 'cancelled' and old.status <> 'cancelled' then
    perform public.ledger_write('seller_debit', -(new.amount_minor - new.reversed_minor),
      'seller_debit:' || new.id || ':cancelled', new.order_id, new.seller_id, p_payout => new.id);
  end if;
  return null;
end;
$$;
create trigger payouts_ledger after insert or update of status, reversed_minor on public.payouts
  for each row execute function public.ledger_on_payout();

create or replace function public.ledger_on_refund()
returns trigger language plpgsql as $$
declare
  seller uuid := (select seller_id from public.orders where id = new.order_id);
begin
  perform public.ledger_write('refund', -new.amount_minor, 'refund:' || new.id, new.order_id, seller,
    p_payment => new.payment_id, p_refund => new.id);
  -- Only a sale (a payout) has a fee to give back; a late payment refunded whole never had one.
  if exists (select 1 from public.payouts where order_id = new.order_id) then
    perform public.ledger_write('fee', -(new.buyer_protection_minor - new.discount_minor),
      'fee:refund:' || new.id, new.order_id, seller, p_refund => new.id);
  end if;
  return null;
end;
$$;
create trigger refunds_ledger after insert on public.refunds
  for each row execute function public.ledger_on_refund();

create or replace function public.ledger_on_transfer()
returns trigger language plpgsql as $$
begin
  if new.status in ('paid', 'reversed') and (tg_op = 'INSERT' or old.status not in ('paid', 'reversed')) then
    perform public.ledger_write('transfer', new.amount_minor, 'transfer:' || new.id, new.order_id,
      new.seller_id, p_payout => new.payout_id, p_transfer => new.id);
  end if;
  return null;
end;
$$;
create trigger transfers_ledger after insert or update of status on public.transfers
  for each row execute function public.ledger_on_transfer();

create or replace function public.ledger_on_transfer_reversal()
returns trigger language plpgsql as $$
declare
  t record;
begin
  select order_id, seller_id, payout_id into t from public.transfers where id = new.transfer_id;
  perform public.ledger_write('transfer_reversal', -new.amount_minor, 'transfer_reversal:' || new.id,
    t.order_id, t.seller_id, p_refund => new.refund_id, p_payout => t.payout_id,
    p_transfer => new.transfer_id, p_reversal => new.id);
  return null;
end;
$$;
create trigger transfer_reversals_ledger after insert on public.transfer_reversals
  for each row execute function public.ledger_on_transfer_reversal();

create or replace function public.ledger_on_provider_payout()
returns trigger language plpgsql as $$
begin
  if tg_op = 'INSERT' then
    perform public.ledger_write('payout', new.amount_minor, 'payout:' || new.id, null, new.seller_id,
      p_provider_payout => new.id);
  elsif new.status in ('failed', 'canceled') and old.status not in ('failed', 'canceled') then
    perform public.ledger_write('payout_failed', -new.amount_minor, 'payout_failed:' || new.id, null,
      new.seller_id, p_provider_payout => new.id, p_memo => new.failure_message);
  end if;
  return null;
end;
$$;
create trigger provider_payouts_ledger after insert or update of status on public.provider_payouts
  for each row execute function public.ledger_on_provider_payout();

-- What is already there: the same entries, as if written when it happened.
insert into public.ledger_entries (kind, amount_minor, entry_key, order_id, seller_id, payment_id, created_at)
select 'payment', p.amount_minor, 'payment:' || p.id, p.order_id, o.seller_id, p.id, p.created_at
from public.payments p join public.orders o on o.id = p.order_id
where p.status = 'succeeded'
on conflict (entry_key) do nothing;

insert into public.ledger_entries (kind, amount_minor, entry_key, order_id, seller_id, payout_id, created_at)
select 'seller_credit', p.amount_minor, 'seller_credit:' || p.id, p.order_id, p.seller_id, p.id, p.created_at
from public.payouts p
union all
select 'fee', o.buyer_protection_minor - o.discount_minor, 'fee:' || p.id, p.order_id, p.seller_id, p.id, p.created_at
from public.payouts p join public.orders o on o.id = p.order_id
union all
select 'seller_debit', -(p.amount_minor - p.reversed_minor), 'seller_debit:' || p.id || ':cancelled',
  p.order_id, p.seller_id, p.id, coalesce(p.reversed_at, p.created_at)
from public.payouts p where p.status = 'cancelled' and p.amount_minor > p.reversed_minor
union all
select 'seller_debit', -p.reversed_minor, 'seller_debit:' || p.id || ':' || p.reversed_minor,
  p.order_id, p.seller_id, p.id, coalesce(p.reversed_at, p.created_at)
from public.payouts p where p.reversed_minor > 0
on conflict (entry_key) do nothing;

insert into public.ledger_entries (kind, amount_minor, entry_key, order_id, seller_id, payment_id, refund_id, created_at)
select 'refund', -r.amount_minor, 'refund:' || r.id, r.order_id, o.seller_id, r.payment_id, r.id, r.created_at
from public.refunds r join public.orders o on o.id = r.order_id
union all
select 'fee', -(r.buyer_protection_minor - r.discount_minor), 'fee:refund:' || r.id, r.order_id, o.seller_id,
  null, r.id, r.created_at
from public.refunds r join public.orders o on o.id = r.order_id
where exists (select 1 from public.payouts p where p.order_id = r.order_id)
on conflict (entry_key) do nothing;
