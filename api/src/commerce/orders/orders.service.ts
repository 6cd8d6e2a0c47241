/**
 * The order lifecycle after payment (brief §5):
 *   paid → dispatched (carrier + tracking, within 5 working days) → delivered → completed
 *   (the buyer's "Everything is OK", or 2 days after delivery) → the payout is released.
 * Side exits: cancelled with a refund (the seller cannot send it, or missed the dispatch
 * deadline), disputed (a problem within 2 days of delivery, or nothing arrived after the
 * carrier's window) → staff refund the buyer (refunded) or release to the seller (completed).
 *
 * Every move goes through the orders state machine (order-machine.ts: one conditional update on
 * the order's current status, with its order event), inside a transaction with its payout and
 * refund (refunds/refund.ts); a second click or a racing job finds the order moved on and
 * changes nothing. Emails are queued in the same transaction and go after the commit.
 */
import {
  CARRIERS,
  type Carrier,
  COMMERCIAL_DEFAULTS,
  type OrderRole,
  PRESUMED_DELIVERY_WORKING_DAYS,
} from '@reshelf/contracts';
import type { Transaction } from 'kysely';
import type { DB } from '../../db/database.generated.ts';
import { AppError } from '../../errors.ts';
import { deliveryHolidayRegion } from '../../platform/calendar/holiday-region.ts';
import { addWorkingDays } from '../../platform/calendar/working-days.ts';
import type { PaymentProvider } from '../../platform/payments/port.ts';
import { payOut, releaseEarnings, releaseHeldEarnings } from '../money/payouts.ts';
import { refund } from '../money/refund.ts';
import { type Actor, type FollowUp, type LockedOrder, MOVED_ON, transition } from './order-machine.ts';
import { type OrderMailDeps, queueOrderMail } from './order-mail.ts';
import { returnWindowEnds } from './story.ts';

export interface OrderDeps extends OrderMailDeps {
  payments: PaymentProvider;
}

type Trx = Transaction<DB>;

// Moving ------------------------------------------------------------------------------------

/** Locks the order and checks who may act on it; answers the locked row. */
export async function lockOrder(
  trx: Trx,
  orderId: string,
  party: { id: string; as: OrderRole } | 'any',
): Promise<LockedOrder> {
  const row = await trx
    .selectFrom('orders')
    .selectAll()
    .where('id', '=', orderId)
    .forUpdate()
    .executeTakeFirst();
  const mine = row && (party === 'any' || (party.as === 'buyer' ? row.buyer_id : row.seller_id) === party.id);
  if (!row || !mine) {
    throw new AppError('NOT_FOUND', 'We could not find that order. Check the link, or look in your orders.');
  }
  return row;
}

export function requireStatus(order: LockedOrder, allowed: string[], message = MOVED_ON): void {
  if (!allowed.includes(order.status)) throw new AppError('PRECONDITION_FAILED', message);
}

/** Queues the email (and in-app notice) the state machine says follows a step. */
export async function queueFollowUp(
  trx: Trx,
  deps: OrderMailDeps,
  orderId: string,
  followUp: FollowUp,
  detail?: string | null,
): Promise<void> {
  if (!followUp || followUp === 'staff_refund' || followUp === 'charity_return_refunded') return;
  await queueOrderMail(trx, deps, orderId, followUp, detail ?? null);
}

export async function complete(trx: Trx, order: LockedOrder, actor: Actor, note?: string): Promise<FollowUp> {
  const { followUp } = await transition(trx, order, 'completed', actor, note);
  // A trader's sale (a charity's, a business seller's: decision 0073) keeps its payout held
  // through the cancellation window, so a cancelled sale's refund comes out of it.
  const traderSale =
    order.charity_sale ||
    Boolean(
      await trx
        .selectFrom('seller_trade_declarations')
        .select('user_id')
        .where('user_id', '=', order.seller_id)
        .where('trades', '=', true)
        .executeTakeFirst(),
    );
  const holdUntil = returnWindowEnds({ charitySale: traderSale, deliveredAt: order.delivered_at });
  await releaseEarnings(trx, order.id, holdUntil);
  return followUp;
}

/**
 * Refunds everything still refundable on the order (the refund command, which also ends the
 * seller's payout) and moves the order to `to` (cancelled or refunded).
 */
export async function refundAll(
  trx: Trx,
  payments: PaymentProvider,
  order: LockedOrder,
  to: 'cancelled' | 'refunded',
  reason: string,
  actor: Actor,
): Promise<{ amountMinor: number; followUp: FollowUp }> {
  const { amountMinor } = await refund(trx, payments, order, 'everything', reason, actor, {
    noPayment: 'This order has no completed payment on record, so there is nothing to refund.',
  });
  const { followUp } = await transition(trx, order, to, actor, reason);
  return { amountMinor, followUp };
}

/** The seller posts the book: carrier and tracking reference, within the dispatch deadline. */
export async function dispatchOrder(
  deps: OrderDeps,
  sellerId: string,
  input: { orderId: string; carrier: Carrier; trackingRef: string },
): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    const order = await lockOrder(trx, input.orderId, { id: sellerId, as: 'seller' });
    requireStatus(
      order,
      ['paid'],
      order.status === 'cancelled' ? 'This order was cancelled, so it must not be sent.' : MOVED_ON,
    );
    const { followUp } = await transition(
      trx,
      order,
      'dispatched',
      { id: sellerId, kind: 'seller' },
      `${CARRIERS[input.carrier].label} ${input.trackingRef}`,
      { carrier: input.carrier, trackingRef: input.trackingRef },
    );
    await queueFollowUp(
      trx,
      deps,
      input.orderId,
      followUp,
      `It is with ${CARRIERS[input.carrier].label}, tracking reference ${input.trackingRef}.`,
    );
  });
}

export async function deliver(
  trx: Trx,
  order: LockedOrder,
  actor: Actor,
  note?: string,
): Promise<{ order: LockedOrder; followUp: FollowUp }> {
  return transition(trx, order, 'delivered', actor, note);
}

/** The buyer says it has arrived: the 2-day window to check it starts now. */
export async function markArrived(deps: OrderDeps, buyerId: string, orderId: string): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    const order = await lockOrder(trx, orderId, { id: buyerId, as: 'buyer' });
    requireStatus(order, ['dispatched']);
    const { followUp } = await deliver(
      trx,
      order,
      { id: buyerId, kind: 'buyer' },
      'The buyer confirmed it arrived',
    );
    await queueFollowUp(trx, deps, orderId, followUp);
  });
}

/** "Everything is OK": the order completes and the seller's payout is released. */
export async function confirmOrder(deps: OrderDeps, buyerId: string, orderId: string): Promise<void> {
  const sellerId = await deps.db.transaction().execute(async (trx) => {
    let order = await lockOrder(trx, orderId, { id: buyerId, as: 'buyer' });
    requireStatus(order, ['dispatched', 'delivered']);
    const actor: Actor = { id: buyerId, kind: 'buyer' };
    if (order.status === 'dispatched')
      ({ order } = await deliver(trx, order, actor, 'The buyer confirmed it arrived'));
    await queueFollowUp(trx, deps, orderId, await complete(trx, order, actor, 'Everything is OK'));
    return order.seller_id;
  });
  // The released sale goes to the seller now, not at the next run of payouts.send;
  // a provider that does not answer leaves it to that job, and the buyer's confirmation stands.
  await payOutAfterRelease(deps, sellerId);
}

/** Pays a seller's released sales out at once; a failure is logged, and the job tries again. */
async function payOutAfterRelease(deps: OrderDeps, sellerId: string): Promise<void> {
  try {
    await payOut(deps, { sellerId });
  } catch (error) {
    deps.log?.('paying out after a release failed', error);
  }
}

/** The buyer withdraws their report (it turned up, or it was fine): the order completes. */
export async function withdrawDispute(deps: OrderDeps, buyerId: string, orderId: string): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    const order = await lockOrder(trx, orderId, { id: buyerId, as: 'buyer' });
    requireStatus(order, ['disputed']);
    const withdrawn = await trx
      .updateTable('disputes')
      .set({ status: 'withdrawn' })
      .where('order_id', '=', orderId)
      .where('status', '=', 'open')
      .where('opened_by', '=', buyerId)
      .returning('id')
      .executeTakeFirst();
    if (!withdrawn) throw new AppError('PRECONDITION_FAILED', MOVED_ON);
    const actor: Actor = { id: buyerId, kind: 'buyer' };
    const followUp = await complete(trx, order, actor, 'The buyer withdrew their report');
    await queueFollowUp(trx, deps, orderId, followUp);
  });
}

/** The seller cannot send it: the order is cancelled and the buyer refunded in full. */
export async function cancelBySeller(
  deps: OrderDeps,
  sellerId: string,
  input: { orderId: string; reason: string },
): Promise<void> {
  const reason = `Cancelled by the seller: ${input.reason}`;
  await deps.db.transaction().execute(async (trx) => {
    const order = await lockOrder(trx, input.orderId, { id: sellerId, as: 'seller' });
    requireStatus(order, ['paid'], 'Only an order that has not been dispatched can be cancelled.');
    const { followUp } = await refundAll(trx, deps.payments, order, 'cancelled', reason, {
      id: sellerId,
      kind: 'seller',
    });
    // The seller could not send it, so it is not on sale until they relist it.
    await trx
      .updateTable('listings')
      // Every book of the order (one parcel).
      .set({ status: 'withdrawn' })
      .where('id', 'in', (eb) =>
        eb.selectFrom('order_items').select('listing_id').where('order_id', '=', order.id),
      )
      .execute();
    await queueFollowUp(trx, deps, input.orderId, followUp, reason);
  });
}

// Jobs ------------------------------------------------------------------------------------------

const SYSTEM: Actor = { id: null, kind: 'system' };

/**
 * Moves each due order in its own transaction: `step` locks it, checks it is still due and
 * moves it through the state machine (answering false when another instance or a person got
 * there first, else what follows); the email is queued in the same transaction. Answers how
 * many moved.
 */
async function moveEach(
  deps: OrderDeps,
  ids: string[],
  step: (trx: Trx, order: LockedOrder) => Promise<FollowUp | false>,
  detail?: string,
): Promise<number> {
  let moved = 0;
  for (const id of ids) {
    const done = await deps.db.transaction().execute(async (trx) => {
      const followUp = await step(trx, await lockOrder(trx, id, 'any'));
      if (followUp === false) return false;
      await queueFollowUp(trx, deps, id, followUp, detail);
      return true;
    });
    if (done) moved += 1;
  }
  return moved;
}

/** Paid orders not dispatched within 5 working days: cancelled, the buyer refunded. */
export async function cancelUndispatched(deps: OrderDeps, now = new Date()): Promise<number> {
  const due = await deps.db
    .selectFrom('orders')
    .select('id')
    .where('status', '=', 'paid')
    .where('dispatch_by', '<', now)
    .orderBy('dispatch_by')
    .limit(200)
    .execute();
  const reason = 'The seller did not dispatch it within 5 working days';
  return moveEach(
    deps,
    due.map((row) => row.id),
    async (trx, order) => {
      if (order.status !== 'paid' || !order.dispatch_by || order.dispatch_by >= now) return false;
      const { followUp } = await refundAll(trx, deps.payments, order, 'cancelled', reason, SYSTEM);
      await trx
        .updateTable('listings')
        .set({ status: 'withdrawn' })
        .where('id', 'in', (eb) =>
          eb.selectFrom('order_items').select('listing_id').where('order_id', '=', order.id),
        )
        .execute();
      return followUp;
    },
    `${reason}, so we have cancelled it.`,
  );
}

/**
 * Dispatched orders nobody reported missing, some working days after the carrier's window:
 * taken as delivered, which starts the buyer's 2 days to check the book.
 */
export async function presumeDelivered(deps: OrderDeps, now = new Date()): Promise<number> {
  const candidates = await deps.db
    .selectFrom('orders')
    .select(['id', 'delivery_due_at', 'shipping_address'])
    .where('status', '=', 'dispatched')
    .where('delivery_due_at', '<', now)
    .orderBy('delivery_due_at')
    .limit(500)
    .execute();
  const due = candidates.filter(
    (row) =>
      row.delivery_due_at &&
      addWorkingDays(
        row.delivery_due_at,
        PRESUMED_DELIVERY_WORKING_DAYS,
        deliveryHolidayRegion(row.shipping_address),
      ) <= now,
  );
  return moveEach(
    deps,
    due.map((row) => row.id),
    async (trx, order) => {
      if (order.status !== 'dispatched') return false;
      const { followUp } = await deliver(
        trx,
        order,
        SYSTEM,
        'Taken as delivered: nothing was reported missing after the carrier’s window',
      );
      return followUp;
    },
  );
}

/**
 * Charity payouts held through the 14-day return window are released once it has closed, for
 * completed orders with no return still open (requested or accepted: the book may be on its
 * way back; money's `releaseHeldEarnings`); the sellers are told (in the app and by email) in the
 * same transaction.
 */
export async function releaseHeldPayouts(deps: OrderMailDeps, now = new Date()): Promise<number> {
  return deps.db.transaction().execute(async (trx) => {
    const released = await releaseHeldEarnings(trx, now);
    for (const orderId of released) await queueOrderMail(trx, deps, orderId, 'payout_released');
    return released.length;
  });
}

/** Delivered orders with no report after 2 days complete and release the seller's payout. */
export async function autoComplete(deps: OrderDeps, now = new Date()): Promise<number> {
  const due = await deps.db
    .selectFrom('orders')
    .select('id')
    .where('status', '=', 'delivered')
    .where('complete_after', '<=', now)
    .orderBy('complete_after')
    .limit(500)
    .execute();
  return moveEach(
    deps,
    due.map((row) => row.id),
    async (trx, order) => {
      if (order.status !== 'delivered' || !order.complete_after || order.complete_after > now) return false;
      return complete(
        trx,
        order,
        SYSTEM,
        `Completed automatically ${COMMERCIAL_DEFAULTS.autoCompleteDays} days after delivery`,
      );
    },
  );
}
