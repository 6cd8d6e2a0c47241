/**
 * Label costs in the ledger (issue 37, decision 0083): when Reshelf buys an outbound label the
 * buyer paid for at checkout, the buyer's postage pays the carrier, so the seller is not credited
 * it. The one place that says so: the seller's held earnings (`payouts.amount_minor`) drop by the
 * label's cost, recorded as a `seller_debit` ("Postage label"), and the cost is a `carrier_label`
 * entry for the shipment. Reconciliation: paid in = seller net + fee + refunds + labels.
 * Written once per shipment (the entry keys), in the transaction that records the label.
 */
import { STATEMENT_LABEL_ENTRY } from '@reshelf/contracts';
import type { Transaction } from 'kysely';
import type { DB } from '../../db/database.generated.ts';

export async function chargeLabel(
  trx: Transaction<DB>,
  shipment: {
    id: string;
    order_id: string;
    direction: string;
    paid_by: string;
    cost_minor: number;
    tracking_ref: string | null;
  },
): Promise<void> {
  if (shipment.direction !== 'outbound' || shipment.paid_by !== 'buyer') return;
  const payout = await trx
    .selectFrom('payouts')
    .select(['id', 'seller_id', 'amount_minor', 'reversed_minor', 'status'])
    .where('order_id', '=', shipment.order_id)
    .forUpdate()
    .executeTakeFirst();
  if (payout?.status !== 'held') return;
  // What the label takes from the seller's earnings: its cost, never more than is left of them.
  const charge = Math.min(shipment.cost_minor, payout.amount_minor - payout.reversed_minor);
  const label = await trx
    .insertInto('ledger_entries')
    .values({
      kind: 'carrier_label',
      amount_minor: charge,
      entry_key: `carrier_label:${shipment.id}`,
      order_id: shipment.order_id,
      seller_id: payout.seller_id,
      payout_id: payout.id,
      shipment_id: shipment.id,
      memo: shipment.tracking_ref,
    })
    .onConflict((conflict) => conflict.column('entry_key').doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!label) return;
  await trx
    .updateTable('payouts')
    .set((eb) => ({ amount_minor: eb('amount_minor', '-', charge) }))
    .where('id', '=', payout.id)
    .execute();
  await trx
    .insertInto('ledger_entries')
    .values({
      kind: 'seller_debit',
      amount_minor: -charge,
      entry_key: `seller_debit:label:${shipment.id}`,
      order_id: shipment.order_id,
      seller_id: payout.seller_id,
      payout_id: payout.id,
      shipment_id: shipment.id,
      memo: shipment.tracking_ref
        ? `${STATEMENT_LABEL_ENTRY}: ${shipment.tracking_ref}`
        : STATEMENT_LABEL_ENTRY,
    })
    .execute();
}
