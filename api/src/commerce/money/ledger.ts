/**
 * The one ledger (decision 0046; the money module of decision 0038). Every movement of
 * money is a `ledger_entries` row, written by the tables that hold the money as they change
 * (supabase/migrations/20261128110000_ledger_writes.sql): payments, refunds, the seller's share
 * (payouts) and Reshelf's fee, transfers and their reversals, payouts to the seller's bank.
 *
 * `reconciliation()` is what the staff reconciliation page shows: for every order, paid in =
 * seller net + Reshelf fee + refunds + the labels Reshelf bought with the buyer's postage
 * (money/labels.ts, issue 37) or kept from the buyer's refund (a change-of-mind return label,
 * decision 0087), to the penny, both in the ledger and in the tables it is
 * written from, and the ledger agreeing with those tables; and no seller transferred more than
 * they are owed. Orders with a problem come first.
 */
import { type ReconciliationRow, STATEMENT_ENTRY_KINDS } from '@reshelf/contracts';
import { sql } from 'kysely';
import type { Database } from '../../db/index.ts';

interface Row {
  order_id: string;
  reference: string;
  paid: number;
  refunded: number;
  seller_net: number;
  fee: number;
  labels: number;
  ledger_payment: number;
  ledger_refund: number;
  ledger_seller: number;
  ledger_fee: number;
  ledger_labels: number;
  transferred: number;
  has_transfer: boolean;
}

const pounds = (pence: number) => `${pence < 0 ? '−' : ''}£${(Math.abs(pence) / 100).toFixed(2)}`;

/** paid − (seller net + fee + refunds + labels) in the tables; 0 when it balances. */
function tablesOff(row: Row): number {
  return row.paid - (row.seller_net + row.fee + row.refunded + row.labels);
}
/** The ledger's own identity: payments and refunds = the seller, the fee and the labels. */
function ledgerOff(row: Row): number {
  return row.ledger_payment + row.ledger_refund - (row.ledger_seller + row.ledger_fee + row.ledger_labels);
}

/** One order's problems, in words (none: it balances). */
function problemsOf(row: Row): string[] {
  const problems: string[] = [];
  const identity = tablesOff(row);
  if (identity !== 0) {
    problems.push(
      `Paid in ${pounds(row.paid)} is not seller net ${pounds(row.seller_net)} + fee ${pounds(row.fee)} + refunds ${pounds(row.refunded)}${row.labels ? ` + labels ${pounds(row.labels)}` : ''} (off by ${pounds(identity)})`,
    );
  }
  const ledgerIdentity = ledgerOff(row);
  if (ledgerIdentity !== 0) problems.push(`The ledger does not balance (off by ${pounds(ledgerIdentity)})`);
  if (row.ledger_payment !== row.paid)
    problems.push(`The ledger has ${pounds(row.ledger_payment)} paid in, the payments ${pounds(row.paid)}`);
  if (-row.ledger_refund !== row.refunded)
    problems.push(
      `The ledger has ${pounds(-row.ledger_refund)} refunded, the refunds ${pounds(row.refunded)}`,
    );
  if (row.ledger_seller !== row.seller_net)
    problems.push(
      `The ledger has ${pounds(row.ledger_seller)} for the seller, the payout ${pounds(row.seller_net)}`,
    );
  if (row.ledger_fee !== row.fee)
    problems.push(`The ledger has a fee of ${pounds(row.ledger_fee)}, the order ${pounds(row.fee)}`);
  if (row.ledger_labels !== row.labels)
    problems.push(
      `The ledger has ${pounds(row.ledger_labels)} of labels, the shipments ${pounds(row.labels)}`,
    );
  if (row.has_transfer && row.transferred > row.seller_net)
    problems.push(
      `The seller was sent ${pounds(row.transferred)}, more than their ${pounds(row.seller_net)}`,
    );
  return problems;
}

/**
 * Every order with money on it (a payment, a payout or a ledger entry), imbalances first, then
 * newest first. `problemsOnly`: just the orders that do not balance.
 */
export async function reconciliation(
  db: Database,
  options: { problemsOnly?: boolean; limit?: number } = {},
): Promise<{ rows: ReconciliationRow[]; orders: number; imbalances: number }> {
  const { rows } = await sql<Row>`
    with money as (
      select o.id as order_id, o.reference, o.created_at,
        coalesce((select sum(p.amount_minor) from public.payments p
                  where p.order_id = o.id and p.status = 'succeeded'), 0)::int as paid,
        coalesce((select sum(r.amount_minor) from public.refunds r where r.order_id = o.id), 0)::int as refunded,
        coalesce((select case when po.status = 'cancelled' then 0 else po.amount_minor - po.reversed_minor end
                  from public.payouts po where po.order_id = o.id), 0)::int as seller_net,
        case when exists (select 1 from public.payouts po where po.order_id = o.id)
          then o.buyer_protection_minor - o.discount_minor
               - coalesce((select sum(r.buyer_protection_minor - r.discount_minor) from public.refunds r
                           where r.order_id = o.id), 0)
          else 0 end::int as fee,
        coalesce((select sum(l.amount_minor) from public.ledger_entries l
                  where l.order_id = o.id and l.kind = 'carrier_label'), 0)::int as ledger_labels,
        coalesce((select sum(s.cost_minor) from public.shipments s
                  where s.order_id = o.id and s.direction = 'outbound' and s.paid_by = 'buyer'
                    and exists (select 1 from public.ledger_entries l
                                where l.shipment_id = s.id and l.kind = 'seller_debit')), 0)::int
          -- Buyer-paid return labels kept from refunds (decision 0087).
          + coalesce((select sum(r.label_kept_minor) from public.refunds r where r.order_id = o.id), 0)::int
          as labels,
        coalesce((select sum(amount_minor) from public.ledger_entries l
                  where l.order_id = o.id and l.kind = 'payment'), 0)::int as ledger_payment,
        coalesce((select sum(amount_minor) from public.ledger_entries l
                  where l.order_id = o.id and l.kind = 'refund'), 0)::int as ledger_refund,
        coalesce((select sum(amount_minor) from public.ledger_entries l
                  where l.order_id = o.id and l.kind in ('seller_credit', 'seller_debit')), 0)::int as ledger_seller,
        coalesce((select sum(amount_minor) from public.ledger_entries l
                  where l.order_id = o.id and l.kind = 'fee'), 0)::int as ledger_fee,
        coalesce((select sum(amount_minor) from public.ledger_entries l
                  where l.order_id = o.id and l.kind in ('transfer', 'transfer_reversal')), 0)::int as transferred,
        exists (select 1 from public.transfers t where t.order_id = o.id and t.status in ('paid', 'reversed')) as has_transfer
      from public.orders o
      where exists (select 1 from public.payments p where p.order_id = o.id and p.status = 'succeeded')
         or exists (select 1 from public.payouts po where po.order_id = o.id)
         or exists (select 1 from public.ledger_entries l where l.order_id = o.id)
    )
    select * from money order by created_at desc, order_id`.execute(db);
  const all = rows.map((row) => {
    const problems = problemsOf(row);
    const ledgerImbalance = ledgerOff(row);
    const tablesImbalance = tablesOff(row);
    return {
      orderId: row.order_id,
      reference: row.reference,
      paidMinor: row.paid,
      sellerNetMinor: row.seller_net,
      feeMinor: row.fee,
      refundedMinor: row.refunded,
      labelsMinor: row.labels,
      imbalanceMinor: tablesImbalance !== 0 ? tablesImbalance : ledgerImbalance,
      problems,
    };
  });
  const bad = all.filter((row) => row.problems.length > 0);
  const good = all.filter((row) => row.problems.length === 0);
  const ordered = options.problemsOnly ? bad : [...bad, ...good];
  return {
    rows: ordered.slice(0, options.limit ?? 500),
    orders: all.length,
    imbalances: bad.length,
  };
}

/** The ledger kinds a seller's statement shows. */
type StatementKind =
  | 'seller_credit'
  | 'seller_debit'
  | 'transfer'
  | 'transfer_reversal'
  | 'payout'
  | 'payout_failed';

/**
 * A seller's ledger entries as their statement shows them: each signed as the seller sees it (what
 * they earned or received positive, what went back negative), and the month's totals.
 */
export function statementEntries<T extends { kind: StatementKind; amount_minor: number }>(
  rows: readonly T[],
): {
  entries: (T & { signedMinor: number })[];
  totals: {
    earnedMinor: number;
    refundedMinor: number;
    transferredMinor: number;
    reversedMinor: number;
    paidOutMinor: number;
    failedMinor: number;
  };
} {
  const totals = {
    earnedMinor: 0,
    refundedMinor: 0,
    transferredMinor: 0,
    reversedMinor: 0,
    paidOutMinor: 0,
    failedMinor: 0,
  };
  const entries = rows.map((row) => {
    const back =
      row.kind === 'seller_debit' || row.kind === 'transfer_reversal' || row.kind === 'payout_failed';
    const signedMinor = back ? -Math.abs(row.amount_minor) : Math.abs(row.amount_minor);
    const size = Math.abs(row.amount_minor);
    if (row.kind === 'seller_credit') totals.earnedMinor += size;
    if (row.kind === 'seller_debit') totals.refundedMinor += size;
    if (row.kind === 'transfer') totals.transferredMinor += size;
    if (row.kind === 'transfer_reversal') totals.reversedMinor += size;
    if (row.kind === 'payout') totals.paidOutMinor += size;
    if (row.kind === 'payout_failed') totals.failedMinor += size;
    return { ...row, signedMinor };
  });
  return { entries, totals };
}

/**
 * A seller's statement entries summed by month and kind, newest month first (their data export):
 * the same entries their monthly statements list.
 */
export async function statementMonths(
  db: Database,
  sellerId: string,
  limit: number,
): Promise<{ month: string; kind: string; entries: number; amount_minor: number }[]> {
  const { rows } = await sql<{ month: string; kind: string; entries: number; amount_minor: number }>`
    select to_char(l.created_at at time zone 'Europe/London', 'YYYY-MM') as month, l.kind,
           count(*)::int as entries, sum(l.amount_minor)::int as amount_minor
      from public.ledger_entries l
     where l.seller_id = ${sellerId} and l.kind = any(${[...STATEMENT_ENTRY_KINDS]}::text[])
     group by 1, 2
     order by 1 desc, 2
     limit ${limit}`.execute(db);
  return rows;
}
