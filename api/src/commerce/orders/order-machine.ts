/**
 * The orders state machine: the ONE place an order's status changes (decision 0038).
 *
 * `TRANSITIONS` is the table, as data: for each allowed (from → to), who may make it, which
 * columns it sets beside the status, and what follows it (the email and in-app notice the step
 * sends, queued by the caller in the same transaction through order-mail, decision 0028). Every
 * transition records one order event (from, to, the actor's kind, the note).
 *
 * `transition(trx, order, to, actor, note)` checks the table, then writes the status and its
 * columns with one conditional update on the order's current status (a racing job or a second
 * click finds it moved on and changes nothing) and the event row, in the caller's transaction.
 * It answers what follows, for the caller to queue. Checkout, orders, staff refunds, disputes,
 * charity returns and the jobs all move orders through it; nothing else writes `orders.status`.
 */
import {
  CARRIERS,
  type Carrier,
  COMMERCIAL_DEFAULTS,
  ORDER_STATUSES,
  type OrderStatus,
} from '@reshelf/contracts';
import type { Selectable, Transaction, Updateable } from 'kysely';
import type { DB, Orders } from '../../db/database.generated.ts';
import type { Database } from '../../db/index.ts';
import { AppError } from '../../errors.ts';
import { deliveryHolidayRegion, sellerHolidayRegion } from '../../platform/calendar/holiday-region.ts';
import { addWorkingDays } from '../../platform/calendar/working-days.ts';
import type { OrderMailKind } from './order-mail.ts';

export { ORDER_STATUSES, type OrderStatus };

/**
 * Who acts on an order. A charity acts as the seller of its own sales; its events are recorded
 * with the seller's kind (the order_events check allows buyer, seller, staff, system, provider).
 */
export type ActorKind = 'buyer' | 'seller' | 'charity' | 'staff' | 'system' | 'provider';
export type Actor = { id: string | null; kind: ActorKind };
export const ACTOR_KINDS: readonly ActorKind[] = [
  'buyer',
  'seller',
  'charity',
  'staff',
  'system',
  'provider',
];

/** What follows a transition after it commits: an order email (order-mail), or the caller's own. */
export type FollowUp =
  | OrderMailKind
  /** The staff refund emails to both people (queueStaffRefundMail). */
  | 'staff_refund'
  /** The charity's "refunded" email and in-app notice to the buyer (returns.service). */
  | 'charity_return_refunded'
  /** Told by the step that contains this one (e.g. delivered on the way to disputed). */
  | null;

export type LockedOrder = Selectable<Orders>;

/** What a transition may need beyond the order: the dispatch details. */
export interface TransitionDetails {
  carrier?: Carrier;
  trackingRef?: string;
}

type Columns = Omit<Updateable<Orders>, 'status'>;

interface SetContext {
  trx: Transaction<DB>;
  order: LockedOrder;
  now: Date;
  note: string | undefined;
  details: TransitionDetails;
}

export interface TransitionRule {
  from: OrderStatus;
  to: OrderStatus;
  /** Who may make it, and what follows when they do. */
  by: Partial<Record<ActorKind, FollowUp>>;
  /** The columns it sets beside the status (and updated_at, by the table's trigger). */
  sets: readonly (keyof Columns)[];
  /** Whether the event needs a note (it is also the reason the order records, e.g. cancel_reason). */
  noteRequired?: boolean;
  columns?: (context: SetContext) => Columns | Promise<Columns>;
}

const DAY_MS = 24 * 60 * 60 * 1000;

const paid = async ({ trx, order, now }: SetContext): Promise<Columns> => ({
  paid_at: now,
  dispatch_by: addWorkingDays(
    now,
    COMMERCIAL_DEFAULTS.dispatchWorkingDays,
    await sellerHolidayRegion(trx, order),
  ),
  cancelled_at: null,
  cancel_reason: null,
});
const cancelled = ({ now, note }: SetContext): Columns => ({
  cancelled_at: now,
  cancel_reason: note ?? null,
});
const delivered = ({ now }: SetContext): Columns => ({
  delivered_at: now,
  complete_after: new Date(now.getTime() + COMMERCIAL_DEFAULTS.autoCompleteDays * DAY_MS),
});
const completed = ({ now }: SetContext): Columns => ({ completed_at: now });
const refunded = ({ now }: SetContext): Columns => ({ refunded_at: now });
const PAID_SETS = ['paid_at', 'dispatch_by', 'cancelled_at', 'cancel_reason'] as const;
const CANCELLED_SETS = ['cancelled_at', 'cancel_reason'] as const;

/** The table. Any (from, to) not listed here, and any actor not listed for it, is refused. */
export const TRANSITIONS: readonly TransitionRule[] = [
  // Checkout: the provider's webhook settles or fails the payment; the reservation lapses.
  { from: 'pending_payment', to: 'paid', by: { provider: 'placed' }, sets: PAID_SETS, columns: paid },
  // A payment that lands after the reservation lapsed still buys the book if nobody else has.
  { from: 'cancelled', to: 'paid', by: { provider: 'placed' }, sets: PAID_SETS, columns: paid },
  {
    from: 'pending_payment',
    to: 'cancelled',
    // Declined or abandoned (provider); the 15-minute reservation lapsed (system). Nothing was
    // taken, so nobody is emailed.
    by: { provider: null, system: null },
    sets: CANCELLED_SETS,
    noteRequired: true,
    columns: cancelled,
  },
  // After payment.
  {
    from: 'paid',
    to: 'dispatched',
    // The seller types the carrier and tracking reference; or the carrier's first scan of a
    // label bought through Reshelf (the provider, issue 37).
    by: { seller: 'dispatched', provider: 'dispatched' },
    sets: ['dispatched_at', 'carrier', 'tracking_ref', 'delivery_due_at'],
    columns: ({ order, now, details }) => {
      if (!details.carrier || !details.trackingRef) {
        throw new AppError('BAD_INPUT', 'Choose the carrier and give the tracking reference.');
      }
      return {
        dispatched_at: now,
        carrier: details.carrier,
        tracking_ref: details.trackingRef,
        delivery_due_at: addWorkingDays(
          now,
          CARRIERS[details.carrier].windowWorkingDays,
          deliveryHolidayRegion(order.shipping_address),
        ),
      };
    },
  },
  {
    from: 'paid',
    to: 'cancelled',
    // The seller cannot send it; or the 5-working-day dispatch deadline passed (the job). The
    // buyer is refunded in full (money: refunds/refund.ts) in the same transaction.
    by: { seller: 'cancelled', system: 'cancelled' },
    sets: CANCELLED_SETS,
    noteRequired: true,
    columns: cancelled,
  },
  {
    from: 'dispatched',
    to: 'delivered',
    // The buyer says it arrived; or nothing was reported missing after the carrier's window (job);
    // or the carrier scanned it delivered (the provider, issue 37).
    by: { buyer: 'delivered', system: 'delivered', provider: 'delivered' },
    sets: ['delivered_at', 'complete_after'],
    columns: delivered,
  },
  {
    from: 'delivered',
    to: 'completed',
    // "Everything is OK"; or 2 days after delivery with no report (job). The payout is released.
    by: { buyer: 'completed', system: 'completed' },
    sets: ['completed_at'],
    columns: completed,
  },
  // Disputes.
  { from: 'dispatched', to: 'disputed', by: { buyer: 'dispute_opened' }, sets: [] },
  { from: 'delivered', to: 'disputed', by: { buyer: 'dispute_opened' }, sets: [] },
  {
    from: 'disputed',
    to: 'completed',
    // The buyer withdraws the report (or accepts a part back); or staff resolve it by releasing
    // the payout; or the seller (a charity) refunds the books a report names, or confirms they came
    // back, and the rest of the order completes (the dispute feature tells both sides); or the
    // return label's "delivered" scan says they came back (the system, issue 37).
    by: {
      buyer: 'dispute_withdrawn',
      staff: 'dispute_resolved_release',
      seller: null,
      charity: null,
      system: null,
    },
    sets: ['completed_at'],
    columns: completed,
  },
  {
    from: 'disputed',
    to: 'refunded',
    // Staff resolve it by refunding the buyer (or refund the order in full from /admin/orders);
    // the seller accepts a full refund or confirms the book came back (the dispute
    // feature tells both sides itself), or the return label's "delivered" scan says it did.
    by: { staff: 'dispute_resolved_refund', seller: null, charity: null, system: null },
    sets: ['refunded_at'],
    columns: refunded,
  },
  // Staff refund the whole of what is left (decision 0022), from any paid state. A parcel the
  // carrier returned to its sender: the seller (a charity) confirms it came back and the buyer is
  // refunded in full (issue 37; the service checks the carrier's scan said so).
  ...(['paid', 'dispatched'] as const).map(
    (from): TransitionRule => ({
      from,
      to: 'refunded',
      by:
        from === 'dispatched'
          ? {
              staff: 'staff_refund',
              seller: 'returned_parcel_refunded',
              charity: 'returned_parcel_refunded',
            }
          : { staff: 'staff_refund' },
      sets: ['refunded_at'],
      columns: refunded,
    }),
  ),
  // A charity sale's book came back within 14 days (decision 0012), or staff refunded it.
  ...(['delivered', 'completed'] as const).map(
    (from): TransitionRule => ({
      from,
      to: 'refunded',
      // The charity (its 14 days) or a private seller who accepts returns takes the book back
      //: the return service tells the buyer itself. The system refunds a trader's return the
      // buyer posted back (tracked) and the seller did not confirm in time (decision 0073).
      by: {
        staff: 'staff_refund',
        charity: 'charity_return_refunded',
        seller: 'charity_return_refunded',
        system: 'charity_return_refunded',
      },
      sets: ['refunded_at'],
      columns: refunded,
    }),
  ),
];

export const MOVED_ON =
  'This order has moved on since you opened it. Refresh the page to see where it is now.';

/** The rule for (from → to), or undefined when the table does not allow it. */
export function ruleFor(from: string, to: string): TransitionRule | undefined {
  return TRANSITIONS.find((rule) => rule.from === from && rule.to === to);
}

/** Whether `actor` may move an order from `from` to `to`. */
export function mayTransition(from: string, to: string, actor: ActorKind): boolean {
  const rule = ruleFor(from, to);
  return !!rule && actor in rule.by;
}

const EVENT_KIND: Record<ActorKind, 'buyer' | 'seller' | 'staff' | 'system' | 'provider'> = {
  buyer: 'buyer',
  seller: 'seller',
  charity: 'seller',
  staff: 'staff',
  system: 'system',
  provider: 'provider',
};

/** Writes one order event (a transition, or a note with from = to). */
export async function recordEvent(
  db: Database | Transaction<DB>,
  orderId: string,
  from: string | null,
  to: string,
  actor: Actor,
  note?: string,
): Promise<void> {
  await db
    .insertInto('order_events')
    .values({
      order_id: orderId,
      from_status: from,
      to_status: to,
      actor_id: actor.id,
      actor_kind: EVENT_KIND[actor.kind],
      note: note ?? null,
    })
    .execute();
}

/** Notes a step on the order's history without moving it (a partial refund, a return's steps). */
export async function noteOnOrder(
  db: Database | Transaction<DB>,
  orderId: string,
  actor: Actor,
  note: string,
): Promise<void> {
  const order = await db
    .selectFrom('orders')
    .select('status')
    .where('id', '=', orderId)
    .executeTakeFirstOrThrow();
  await recordEvent(db, orderId, order.status, order.status, actor, note);
}

export interface Transitioned {
  /** The order as it is now. */
  order: LockedOrder;
  /** What follows, for the caller to queue in the same transaction. */
  followUp: FollowUp;
}

/** Locks the order row for a transition; undefined when there is no such order. */
export async function lockOrderRow(trx: Transaction<DB>, orderId: string): Promise<LockedOrder | undefined> {
  return trx.selectFrom('orders').selectAll().where('id', '=', orderId).forUpdate().executeTakeFirst();
}

/**
 * Moves `order` (as the caller read it, ideally locked) to `to` for `actor`: refused unless the
 * table allows it (PRECONDITION_FAILED, the order has moved on) and the actor may make it
 * (FORBIDDEN). Writes the status, the rule's columns and the event in `trx`.
 */
export async function transition(
  trx: Transaction<DB>,
  order: LockedOrder,
  to: OrderStatus,
  actor: Actor,
  note?: string,
  details: TransitionDetails = {},
): Promise<Transitioned> {
  const rule = ruleFor(order.status, to);
  if (!rule) throw new AppError('PRECONDITION_FAILED', MOVED_ON);
  if (!(actor.kind in rule.by)) {
    throw new AppError(
      'FORBIDDEN',
      `An order cannot be moved from ${order.status} to ${to} by the ${actor.kind}.`,
    );
  }
  if (rule.noteRequired && !note) {
    throw new AppError('BAD_INPUT', `Moving an order from ${order.status} to ${to} needs a reason.`);
  }
  const now = new Date();
  const columns = rule.columns ? await rule.columns({ trx, order, now, note, details }) : {};
  const moved = await trx
    .updateTable('orders')
    .set({ ...columns, status: to })
    .where('id', '=', order.id)
    .where('status', '=', order.status)
    .returningAll()
    .executeTakeFirst();
  if (!moved) throw new AppError('PRECONDITION_FAILED', MOVED_ON);
  await recordEvent(trx, order.id, order.status, to, actor, note);
  return { order: moved, followUp: rule.by[actor.kind] ?? null };
}
