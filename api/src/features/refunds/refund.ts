/**
 * Money going back to a buyer: the ONE refund command (issue 21 §1, decision 0038). Staff
 * refunds (/admin/orders), dispute refunds, seller and dispatch-deadline cancellations and
 * charity returns all call `refund()`; the ledger reads (/admin/refunds) are beside it in
 * refunds.service.ts.
 *
 * A refund goes through the payment port and is recorded in the same transaction: the
 * payment's `refunded_minor` (the payment row is locked and a check constraint refuses a total
 * above what was paid, so concurrent refunds cannot overshoot) and a `refunds` row.
 *
 * Payout policy (decision 0022): a refund comes out of the seller's payout. A full refund takes
 * back all of what is left of it — a held payout is cancelled, a released one reversed (a debt
 * against the seller); a part takes back up to the part, held or released
 * (`payouts.reversed_minor`). Buyer protection is given back only with a full refund.
 *
 * The order's status is not moved here: the caller moves it through the orders state machine
 * (orders/order-machine.ts) in the same transaction.
 */
import { sql, type Transaction } from 'kysely';
import type { DB } from '../../db/database.generated.ts';
import type { Database } from '../../db/index.ts';
import { AppError } from '../../errors.ts';
import type { PaymentProvider } from '../../platform/payments/port.ts';
import type { Actor } from '../orders/order-machine.ts';

type Trx = Transaction<DB>;

export interface RefundInput {
  orderId: string;
  paymentId: string;
  amountMinor: number;
  protectionMinor: number;
  reason: string;
  actor: Actor;
}

/** Records a refund of one payment through the provider, inside the caller's transaction. */
export async function refundWithin(
  trx: Trx,
  payments: PaymentProvider,
  input: RefundInput,
): Promise<{ refundId: string }> {
  if (!Number.isInteger(input.amountMinor) || input.amountMinor <= 0) {
    throw new AppError('BAD_INPUT', 'A refund must be a whole number of pence above zero.');
  }
  const payment = await trx
    .selectFrom('payments')
    .selectAll()
    .where('id', '=', input.paymentId)
    .forUpdate()
    .executeTakeFirstOrThrow();
  if (payment.status !== 'succeeded')
    throw new AppError('PRECONDITION_FAILED', 'Only a completed payment can be refunded.');
  const left = payment.amount_minor - payment.refunded_minor;
  if (input.amountMinor > left) {
    throw new AppError('BAD_INPUT', `At most ${left} pence of this payment can still be refunded.`);
  }
  const { refundRef } = await payments.refund({
    providerRef: payment.provider_ref,
    amountMinor: input.amountMinor,
    reason: input.reason,
  });
  await trx
    .updateTable('payments')
    .set({ refunded_minor: payment.refunded_minor + input.amountMinor })
    .where('id', '=', payment.id)
    .execute();
  const refund = await trx
    .insertInto('refunds')
    .values({
      order_id: input.orderId,
      payment_id: payment.id,
      amount_minor: input.amountMinor,
      buyer_protection_minor: input.protectionMinor,
      reason: input.reason,
      provider_ref: refundRef,
      created_by: input.actor.id,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { refundId: refund.id };
}

/** The same in its own transaction (a late payment for a book sold to someone else). */
export async function refundPayment(
  deps: { db: Database; payments: PaymentProvider },
  input: RefundInput,
): Promise<{ refundId: string }> {
  return deps.db.transaction().execute((trx) => refundWithin(trx, deps.payments, input));
}

/**
 * Takes the seller's part of a refund back from their payout (decision 0022), in the refund's
 * transaction; answers how much was taken.
 */
async function takeFromPayout(trx: Trx, orderId: string, amount: number, full: boolean): Promise<number> {
  const payout = await trx
    .selectFrom('payouts')
    .select(['id', 'status', 'amount_minor', 'reversed_minor'])
    .where('order_id', '=', orderId)
    .forUpdate()
    .executeTakeFirst();
  if (!payout || payout.status === 'cancelled') return 0;
  const remaining = payout.amount_minor - payout.reversed_minor;
  const part = full ? remaining : Math.min(amount, remaining);
  if (part <= 0) {
    // Nothing left to take, but a full refund still ends a held payout.
    if (full && payout.status === 'held') {
      await trx.updateTable('payouts').set({ status: 'cancelled' }).where('id', '=', payout.id).execute();
    }
    return 0;
  }
  if (full && payout.status === 'held') {
    await trx.updateTable('payouts').set({ status: 'cancelled' }).where('id', '=', payout.id).execute();
  } else {
    await trx
      .updateTable('payouts')
      .set({ reversed_minor: payout.reversed_minor + part, reversed_at: new Date() })
      .where('id', '=', payout.id)
      .execute();
  }
  return part;
}

/**
 * How much to refund:
 * - a number of pence: that much (a full refund when it is all that is left);
 * - 'full': all that is left on the payment (refused when nothing is);
 * - 'everything': all that is left on the payment, buyer protection included (a cancellation
 *   or a dispute refund; nothing left is not an error, the payout is still ended);
 * - 'goods': the book and its postage, not the buyer-protection fee (a service already given),
 *   capped at what is left (a charity return, decision 0012). The seller's payout goes in full.
 */
export type RefundAmount = number | 'full' | 'everything' | 'goods';

export interface RefundOrder {
  id: string;
  total_minor: number;
  buyer_protection_minor: number;
}

export interface RefundOutcome {
  refundId: string | null;
  amountMinor: number;
  /** Whether the whole of what was left went back (the seller's whole payout goes). */
  full: boolean;
  /** How much came back from the seller's payout. */
  sellerDeductedMinor: number;
}

/** Messages that differ by where the refund is asked for (each door keeps its words). */
export interface RefundMessages {
  noPayment?: string;
}

const pounds = (pence: number) => `£${(pence / 100).toFixed(2)}`;

/**
 * THE refund command: gives `amount` back to the buyer of `order` through the payment port,
 * records it in the ledger and takes it from the seller's payout (decision 0022), all in `trx`.
 */
export async function refund(
  trx: Trx,
  payments: PaymentProvider,
  order: RefundOrder,
  amount: RefundAmount,
  reason: string,
  actor: Actor,
  messages: RefundMessages = {},
): Promise<RefundOutcome> {
  const payment = await trx
    .selectFrom('payments')
    .select(['id', 'amount_minor', 'refunded_minor'])
    .where('order_id', '=', order.id)
    .where('status', '=', 'succeeded')
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
  if (!payment) {
    throw new AppError(
      'PRECONDITION_FAILED',
      messages.noPayment ?? 'This order has no completed payment, so there is nothing to refund.',
    );
  }
  const left = payment.amount_minor - payment.refunded_minor;
  let amountMinor: number;
  let full: boolean;
  if (amount === 'everything') {
    amountMinor = Math.max(0, left);
    full = true;
  } else if (amount === 'goods') {
    amountMinor = Math.min(order.total_minor - order.buyer_protection_minor, left);
    if (amountMinor <= 0) {
      throw new AppError('PRECONDITION_FAILED', 'This order has already been refunded in full.');
    }
    full = true;
  } else {
    const asked = amount === 'full' ? left : amount;
    if (asked <= 0 || left <= 0) throw new AppError('CONFLICT', 'Nothing is left to refund on this order.');
    if (asked > left) {
      throw new AppError('BAD_INPUT', `At most ${pounds(left)} can still be refunded on this order.`);
    }
    amountMinor = asked;
    full = asked === left;
  }
  let protectionMinor = 0;
  if (full && amount !== 'goods') {
    const protectionRefunded = await trx
      .selectFrom('refunds')
      .select(sql<number>`coalesce(sum(buyer_protection_minor), 0)::int`.as('total'))
      .where('order_id', '=', order.id)
      .executeTakeFirstOrThrow();
    protectionMinor = Math.max(0, order.buyer_protection_minor - protectionRefunded.total);
  }
  let refundId: string | null = null;
  if (amountMinor > 0) {
    ({ refundId } = await refundWithin(trx, payments, {
      orderId: order.id,
      paymentId: payment.id,
      amountMinor,
      protectionMinor,
      reason,
      actor,
    }));
  }
  const sellerDeductedMinor = await takeFromPayout(trx, order.id, amountMinor, full);
  return { refundId, amountMinor, full, sellerDeductedMinor };
}

/** What has been refunded on an order so far, in pence. */
export async function refundedOnOrder(db: Database | Trx, orderId: string): Promise<number> {
  const total = await db
    .selectFrom('refunds')
    .select(sql<number>`coalesce(sum(amount_minor), 0)::int`.as('total'))
    .where('order_id', '=', orderId)
    .executeTakeFirstOrThrow();
  return total.total;
}
