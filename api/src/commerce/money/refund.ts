/**
 * Money going back to a buyer: the ONE refund command (decision 0038). Staff
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
 *
 * Items (decision 0043): a refund may name some of an order's books (`{ items }`: a
 * dispute or a charity return naming them, or staff). Each named book gets back exactly what was
 * paid for it and not yet given back: its price − its share of the bundle discount − its share
 * of WELCOME20/the promotion + its share of buyer protection (a charity return: without the
 * protection share), the shares apportioned at checkout by `apportion` (largest remainder, ties
 * to the earlier item). Postage is for the parcel: it goes back with the last books of the order
 * (the refund that leaves no book unrefunded takes everything left on the payment, postage
 * included), so refunding every book one by one adds up exactly to what was paid. Every refund
 * records what it gave back per book (`refund_items`, `order_items.refunded_minor`): a refund of
 * everything left or a part by amount is spread over the books by `apportion` on what each has
 * left, capped at it (what is left over is postage).
 */

import { apportion } from '@reshelf/contracts';
import { sql, type Transaction } from 'kysely';
import type { DB } from '../../db/database.generated.ts';
import type { Database } from '../../db/index.ts';
import { AppError } from '../../errors.ts';
import type { PaymentProvider } from '../../platform/payments/port.ts';
import type { Actor } from '../orders/order-machine.ts';
import { itemAmounts, owedBack } from './amounts.ts';
import { reverseForRefund } from './payouts.ts';

type Trx = Transaction<DB>;

export interface RefundInput {
  orderId: string;
  paymentId: string;
  amountMinor: number;
  protectionMinor: number;
  /** The WELCOME20/promotion discount this refund takes back (revenue's "discounts returned"). */
  discountMinor?: number;
  /** A buyer-paid return label's cost kept from this refund (decision 0087). */
  labelKept?: { shipmentId: string; amountMinor: number };
  reason: string;
  actor: Actor;
}

/** The provider's idempotency key for a refund: the payment, what it had given back before, and how much. */
export function refundIdempotencyKey(paymentId: string, refundedBefore: number, amountMinor: number): string {
  return `refund:${paymentId}:${refundedBefore}:${amountMinor}`;
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
  // The same refund asked again (the transaction failed after the provider answered, and the
  // request is retried) has the same key: the provider answers the first refund, never a second.
  // The payment row is locked, so what was refunded before identifies this refund.
  const { refundRef } = await payments.refund({
    providerRef: payment.provider_ref,
    amountMinor: input.amountMinor,
    reason: input.reason,
    idempotencyKey: refundIdempotencyKey(payment.id, payment.refunded_minor, input.amountMinor),
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
      discount_minor: input.discountMinor ?? 0,
      label_kept_minor: input.labelKept?.amountMinor ?? 0,
      label_shipment_id: input.labelKept?.shipmentId ?? null,
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
 * transaction; answers how much was taken. From a released payout whose transfer to the seller's
 * account is made, the part is reversed at the provider, so Reshelf is never out of
 * pocket.
 */
async function takeFromPayout(
  trx: Trx,
  payments: PaymentProvider,
  orderId: string,
  refundId: string | null,
  amount: number,
  full: boolean,
): Promise<number> {
  const part = await takeFromPayoutRow(trx, orderId, amount, full);
  if (part > 0) await reverseForRefund(trx, payments, orderId, refundId);
  return part;
}

async function takeFromPayoutRow(trx: Trx, orderId: string, amount: number, full: boolean): Promise<number> {
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
export type RefundAmount = number | 'full' | 'everything' | 'goods' | RefundOfItems;

/**
 * Some of the order's books (order_items ids): what was paid for each and is not back yet; with
 * `goods`, without their buyer-protection share (a charity return). When no book of the order is
 * left unrefunded afterwards, the refund takes everything left (postage too; for goods, up to
 * the goods and postage).
 */
export interface RefundOfItems {
  items: readonly string[];
  goods?: boolean;
  /**
   * A buyer-paid return label (decision 0087): its cost is kept from this refund (from the
   * postage part first, then the books' parts), recorded on the refund and in the ledger.
   */
  keepForLabel?: { shipmentId: string; costMinor: number };
}

export interface RefundOrder {
  id: string;
  total_minor: number;
  buyer_protection_minor: number;
  discount_minor: number;
}

/** One book of the order, locked for the refund. */
interface ItemForRefund {
  id: string;
  position: number;
  price_minor: number;
  bundle_discount_minor: number;
  discount_minor: number;
  protection_minor: number;
  refunded_minor: number;
  /** What earlier refunds gave back of its protection share, and whether one took its discount. */
  protection_back: number;
  discount_back: number;
}

/** A book counts as refunded once its goods part (price less both discounts) is back. */
function isBack(item: ItemForRefund): boolean {
  return itemAmounts(item).returned;
}

async function lockItems(trx: Trx, orderId: string): Promise<ItemForRefund[]> {
  const { rows } = await sql<ItemForRefund>`
    select i.id, i.position, i.price_minor, i.bundle_discount_minor, i.discount_minor,
           i.protection_minor, i.refunded_minor,
           coalesce((select sum(ri.protection_minor) from public.refund_items ri where ri.order_item_id = i.id), 0)::int
             as protection_back,
           coalesce((select sum(ri.discount_minor) from public.refund_items ri where ri.order_item_id = i.id), 0)::int
             as discount_back
    from public.order_items i
    where i.order_id = ${orderId}
    order by i.position
    for update of i`.execute(trx);
  return rows;
}

/** What a refund gives back for one book. */
interface ItemPart {
  item: ItemForRefund;
  amountMinor: number;
  protectionMinor: number;
  discountMinor: number;
}

/**
 * Spreads `amount` over the books by what each has left (apportion: largest remainder, ties to
 * the earlier book), each capped at what it has left; `withShares`: the books' protection
 * (unless goods) and discount shares count as given back (a refund of everything left).
 */
function spread(
  items: readonly ItemForRefund[],
  amount: number,
  goods: boolean,
  withShares: boolean,
): ItemPart[] {
  const owed = items.map((item) => owedBack(item, goods));
  const total = owed.reduce((a, b) => a + b, 0);
  if (total === 0) return [];
  const shares = apportion(Math.min(amount, total), owed);
  return items.flatMap((item, index) => {
    const amountMinor = shares[index] ?? 0;
    if (amountMinor <= 0) return [];
    return [
      {
        item,
        amountMinor,
        protectionMinor:
          withShares && !goods
            ? Math.min(amountMinor, Math.max(0, item.protection_minor - item.protection_back))
            : 0,
        discountMinor: withShares ? Math.max(0, item.discount_minor - item.discount_back) : 0,
      },
    ];
  });
}

/** Records what a refund gave back per book (order_items.refunded_minor and refund_items). */
async function recordItemParts(trx: Trx, refundId: string, parts: readonly ItemPart[]): Promise<void> {
  for (const part of parts) {
    await trx
      .updateTable('order_items')
      .set({ refunded_minor: part.item.refunded_minor + part.amountMinor })
      .where('id', '=', part.item.id)
      .execute();
  }
  if (parts.length === 0) return;
  await trx
    .insertInto('refund_items')
    .values(
      parts.map((part) => ({
        refund_id: refundId,
        order_item_id: part.item.id,
        amount_minor: part.amountMinor,
        protection_minor: part.protectionMinor,
        discount_minor: part.discountMinor,
      })),
    )
    .execute();
}

export interface RefundOutcome {
  refundId: string | null;
  amountMinor: number;
  /** Whether the whole of what was left went back (the seller's whole payout goes). */
  full: boolean;
  /** How much came back from the seller's payout. */
  sellerDeductedMinor: number;
  /** A buyer-paid return label's cost kept from it (decision 0087), or 0. */
  labelKeptMinor: number;
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
  const items = await lockItems(trx, order.id);
  const left = payment.amount_minor - payment.refunded_minor;
  const prior = await trx
    .selectFrom('refunds')
    .select([
      sql<number>`coalesce(sum(buyer_protection_minor), 0)::int`.as('protection'),
      sql<number>`coalesce(sum(discount_minor), 0)::int`.as('discount'),
    ])
    .where('order_id', '=', order.id)
    .executeTakeFirstOrThrow();
  let amountMinor: number;
  let full: boolean;
  let parts: ItemPart[];
  /** What the seller gave for the books that come back, when not the whole payout. */
  let sellerPart: number | null = null;
  let labelKept: RefundInput['labelKept'];
  if (typeof amount === 'object') {
    ({ amountMinor, full, parts, sellerPart } = refundOfItems(items, amount, left));
    if (amount.keepForLabel && amount.keepForLabel.costMinor > 0) {
      ({ amountMinor, parts, labelKept } = keepForLabel(amountMinor, parts, amount.keepForLabel));
    }
  } else if (amount === 'everything') {
    amountMinor = Math.max(0, left);
    full = true;
    parts = spread(items, amountMinor, false, true);
  } else if (amount === 'goods') {
    amountMinor = Math.min(order.total_minor - order.buyer_protection_minor, left);
    if (amountMinor <= 0) {
      throw new AppError('PRECONDITION_FAILED', 'This order has already been refunded in full.');
    }
    full = true;
    parts = spread(items, amountMinor, true, true);
  } else {
    const asked = amount === 'full' ? left : amount;
    if (asked <= 0 || left <= 0) throw new AppError('CONFLICT', 'Nothing is left to refund on this order.');
    if (asked > left) {
      throw new AppError('BAD_INPUT', `At most ${pounds(left)} can still be refunded on this order.`);
    }
    amountMinor = asked;
    full = asked === left;
    parts = spread(items, amountMinor, false, full);
  }
  const goods = amount === 'goods' || (typeof amount === 'object' && amount.goods === true);
  let protectionMinor = 0;
  let discountMinor = 0;
  if (full) {
    // Everything left goes back: what is left of the protection fee (unless goods) and of the discount.
    if (!goods) protectionMinor = Math.max(0, order.buyer_protection_minor - prior.protection);
    discountMinor = Math.max(0, order.discount_minor - prior.discount);
  } else {
    protectionMinor = parts.reduce((sum, part) => sum + part.protectionMinor, 0);
    discountMinor = parts.reduce((sum, part) => sum + part.discountMinor, 0);
  }
  let refundId: string | null = null;
  if (amountMinor > 0) {
    ({ refundId } = await refundWithin(trx, payments, {
      orderId: order.id,
      paymentId: payment.id,
      amountMinor,
      protectionMinor,
      discountMinor,
      ...(labelKept ? { labelKept } : {}),
      reason,
      actor,
    }));
    await recordItemParts(trx, refundId, parts);
  }
  const sellerDeductedMinor = await takeFromPayout(
    trx,
    payments,
    order.id,
    refundId,
    sellerPart ?? amountMinor,
    full,
  );
  return { refundId, amountMinor, full, sellerDeductedMinor, labelKeptMinor: labelKept?.amountMinor ?? 0 };
}

/**
 * A refund of some books: each gets back what is left of what was paid for it; the refund that
 * leaves no book of the order unrefunded takes everything left (postage too).
 */
function refundOfItems(
  items: readonly ItemForRefund[],
  asked: RefundOfItems,
  left: number,
): { amountMinor: number; full: boolean; parts: ItemPart[]; sellerPart: number | null } {
  const goods = asked.goods === true;
  const ids = [...new Set(asked.items)];
  if (ids.length === 0) throw new AppError('BAD_INPUT', 'Choose at least one book to refund.');
  const named = ids.map((id) => items.find((item) => item.id === id));
  if (named.some((item) => !item)) {
    throw new AppError('BAD_INPUT', 'One of those books is not in this order. Refresh the page.');
  }
  const chosen = (named as ItemForRefund[]).sort((a, b) => a.position - b.position);
  const parts: ItemPart[] = chosen.map((item) => {
    const amountMinor = owedBack(item, goods);
    return {
      item,
      amountMinor,
      protectionMinor: goods
        ? 0
        : Math.min(amountMinor, Math.max(0, item.protection_minor - item.protection_back)),
      discountMinor: Math.max(0, item.discount_minor - item.discount_back),
    };
  });
  if (parts.some((part) => part.amountMinor <= 0)) {
    throw new AppError('CONFLICT', 'One of those books has already been refunded. Refresh the page.');
  }
  const itemsMinor = parts.reduce((sum, part) => sum + part.amountMinor, 0);
  const lastBooks = items.every((item) => chosen.includes(item) || isBack(item));
  if (lastBooks) {
    // The last books of the order: everything left on the payment goes back, postage included
    // (for goods: up to the books and postage; the protection fee stays).
    const rest = goods ? Math.min(left, itemsMinor + postageLeft(items, left)) : left;
    if (rest < itemsMinor) {
      throw new AppError(
        'BAD_INPUT',
        `At most ${pounds(Math.max(0, left))} can still be refunded on this order: refund the rest by amount.`,
      );
    }
    return { amountMinor: rest, full: true, parts, sellerPart: null };
  }
  if (itemsMinor > left) {
    throw new AppError(
      'BAD_INPUT',
      `At most ${pounds(Math.max(0, left))} can still be refunded on this order: refund by amount instead.`,
    );
  }
  // The seller gives back what they were paid for these books (price less the bundle discount);
  // the platform gives the protection share back and takes its discount share back.
  const sellerPart = parts.reduce(
    (sum, part) => sum + part.amountMinor - part.protectionMinor + part.discountMinor,
    0,
  );
  return { amountMinor: itemsMinor, full: false, parts, sellerPart };
}

/**
 * Keeps a buyer-paid return label's cost from a refund of books (decision 0087): from the
 * postage part first (what the refund gives beyond the books), then from the books' parts
 * (apportioned by what each gives back). A refund is at least a penny, so at most all but one
 * penny of it is kept. The seller's part is unchanged: they give back what they were paid.
 */
function keepForLabel(
  amountMinor: number,
  parts: ItemPart[],
  label: { shipmentId: string; costMinor: number },
): { amountMinor: number; parts: ItemPart[]; labelKept: { shipmentId: string; amountMinor: number } } {
  const kept = Math.max(0, Math.min(label.costMinor, amountMinor - 1));
  const rest = amountMinor - kept;
  const partsTotal = parts.reduce((sum, part) => sum + part.amountMinor, 0);
  let reduced = parts;
  if (partsTotal > rest) {
    const shares = apportion(
      rest,
      parts.map((part) => part.amountMinor),
    );
    reduced = parts
      .map((part, index) => ({ ...part, amountMinor: shares[index] ?? 0 }))
      .filter((part) => part.amountMinor > 0);
  }
  return {
    amountMinor: rest,
    parts: reduced,
    labelKept: { shipmentId: label.shipmentId, amountMinor: kept },
  };
}

/**
 * For a goods refund of the last books: the postage not yet given back, which is what is left on
 * the payment beyond every book's owed part and the protection fee still held.
 */
function postageLeft(items: readonly ItemForRefund[], left: number): number {
  const owedAll = items.reduce((sum, item) => sum + owedBack(item, false), 0);
  return Math.max(0, left - owedAll);
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
