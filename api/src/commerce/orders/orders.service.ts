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
  booksTitle,
  CARRIERS,
  type Carrier,
  COMMERCIAL_DEFAULTS,
  DISPUTE_PROBLEM_LABELS,
  type DisputeKind,
  type DisputeProblem,
  type DisputeQueueItem,
  formatPence,
  type OrderActions,
  type OrderDetail,
  type OrderItem,
  type OrderRole,
  type OrderSummary,
  type PayoutsView,
  PRESUMED_DELIVERY_WORKING_DAYS,
  PROTECTION_RULES,
} from '@reshelf/contracts';
import { sql, type Transaction } from 'kysely';
import type { DB } from '../../db/database.generated.ts';
import type { Database } from '../../db/index.ts';
import { AppError } from '../../errors.ts';
import { recordAudit } from '../../platform/audit/audit.service.ts';
import { deliveryHolidayRegion, sellerHolidayRegion } from '../../platform/calendar/holiday-region.ts';
import { addWorkingDays } from '../../platform/calendar/working-days.ts';
import type { PaymentProvider } from '../../platform/payments/port.ts';
import { payOut } from '../payouts/payouts.service.ts';
import { refund, refundedOnOrder } from '../refunds/refund.ts';
import { type Actor, type FollowUp, type LockedOrder, MOVED_ON, transition } from './order-machine.ts';
import { type OrderMailDeps, queueOrderMail, queueStaffRefundMail } from './order-mail.ts';

export interface OrderDeps extends OrderMailDeps {
  payments: PaymentProvider;
}

type Trx = Transaction<DB>;

const DAY_MS = 24 * 60 * 60 * 1000;

const iso = (value: Date | null | undefined): string | null => (value ? value.toISOString() : null);

// Reading ----------------------------------------------------------------------------------

function orderQuery(db: Database | Trx) {
  return db
    .selectFrom('orders as o')
    .innerJoin('listings as l', 'l.id', 'o.listing_id')
    .innerJoin('books as b', 'b.id', 'l.book_id')
    .leftJoin('profiles as bp', 'bp.id', 'o.buyer_id')
    .leftJoin('profiles as sp', 'sp.id', 'o.seller_id')
    .select([
      'o.id',
      'o.reference',
      'o.status',
      'o.buyer_id',
      'o.seller_id',
      'o.listing_id',
      'o.offer_id',
      'o.item_price_minor',
      'o.bundle_discount_minor',
      'o.postage_minor',
      'o.buyer_protection_minor',
      'o.buyer_protection_vat_minor',
      'o.discount_minor',
      'o.discount_code',
      'o.total_minor',
      'o.parcel_size',
      'o.charity_sale',
      'o.shipping_address',
      'o.carrier',
      'o.tracking_ref',
      'o.created_at',
      'o.reserved_until',
      'o.paid_at',
      'o.dispatch_by',
      'o.dispatched_at',
      'o.delivery_due_at',
      'o.delivered_at',
      'o.complete_after',
      'o.completed_at',
      'o.cancelled_at',
      'o.cancel_reason',
      'l.slug',
      'b.title',
      'b.cover_url',
      sql<string | null>`l.photos ->> 0`.as('photo_url'),
      'bp.display_name as buyer_name',
      'sp.display_name as seller_name',
    ]);
}

type OrderRow = NonNullable<Awaited<ReturnType<ReturnType<typeof orderQuery>['executeTakeFirst']>>>;

function nextStep(row: OrderRow, role: OrderRole): string {
  const date = (value: Date | null) =>
    value
      ? value.toLocaleDateString('en-GB', {
          weekday: 'short',
          day: 'numeric',
          month: 'short',
          timeZone: 'Europe/London',
        })
      : '';
  switch (row.status) {
    case 'pending_payment':
      if (role !== 'buyer') return 'Waiting for the buyer’s payment';
      return heldFor(row)
        ? `Reserved for you until ${(row.reserved_until as Date).toLocaleTimeString('en-GB', {
            hour: '2-digit',
            minute: '2-digit',
            timeZone: 'Europe/London',
          })}: finish paying`
        : 'The reservation has run out: nothing was taken';
    case 'paid':
      return role === 'seller'
        ? `Send it and add tracking by ${date(row.dispatch_by)}`
        : `The seller sends it by ${date(row.dispatch_by)}`;
    case 'dispatched':
      return role === 'buyer'
        ? `On its way — due by ${date(row.delivery_due_at)}`
        : `On its way with ${carrierLabel(row.carrier) ?? 'the carrier'}`;
    case 'delivered':
      return role === 'buyer'
        ? `Check it and confirm by ${date(row.complete_after)}`
        : returnWindowEnds(row)
          ? `Payout released on ${date(returnWindowEnds(row))}, when the 14-day return window closes`
          : `Payout released by ${date(row.complete_after)}`;
    case 'completed': {
      // The status badge beside it already says "Completed" (ORDER_STATUS_LABELS): say what is next.
      const windowEnds = returnWindowEnds(row);
      const open = windowEnds && windowEnds > new Date();
      if (role !== 'seller')
        return open ? `You can return it until ${date(windowEnds)}` : 'Nothing more to do';
      return open
        ? `Payout released on ${date(windowEnds)}, when the return window closes`
        : 'Payout released';
    }
    case 'disputed':
      return 'Issue reported — being sorted out between you, or by our team';
    case 'refunded':
      return 'Refunded to the buyer';
    case 'cancelled':
      return row.cancel_reason ?? 'Cancelled';
    default:
      return '';
  }
}

/** An order waiting for its buyer's payment while the book is still held for them. */
function heldFor(row: OrderRow, now = new Date()): boolean {
  return row.status === 'pending_payment' && row.reserved_until !== null && row.reserved_until > now;
}

function carrierLabel(carrier: string | null): string | null {
  if (!carrier) return null;
  return carrier in CARRIERS ? CARRIERS[carrier as Carrier].label : carrier;
}

/** The books of these orders, first to last (decision 0043: an order's books are its items). */
export async function itemsOfOrders(
  db: Database | Trx,
  orderIds: string[],
): Promise<Map<string, OrderItem[]>> {
  const items = new Map<string, OrderItem[]>();
  if (orderIds.length === 0) return items;
  const rows = await db
    .selectFrom('order_items as i')
    .innerJoin('listings as l', 'l.id', 'i.listing_id')
    .innerJoin('books as b', 'b.id', 'l.book_id')
    .select([
      'i.id',
      'i.order_id',
      'i.listing_id',
      'i.position',
      'i.price_minor',
      'i.bundle_discount_minor',
      'i.discount_minor',
      'i.protection_minor',
      'i.refunded_minor',
      'l.slug',
      'b.title',
      'b.authors',
      'b.cover_url',
      sql<string | null>`l.photos ->> 0`.as('photo_url'),
    ])
    .where('i.order_id', 'in', orderIds)
    .orderBy('i.order_id')
    .orderBy('i.position')
    .execute();
  for (const row of rows) {
    const list = items.get(row.order_id) ?? [];
    list.push({
      id: row.id,
      listingId: row.listing_id,
      position: row.position,
      title: row.title,
      authors: row.authors,
      listingSlug: row.slug,
      imageUrl: row.photo_url ?? row.cover_url,
      priceMinor: row.price_minor,
      bundleDiscountMinor: row.bundle_discount_minor,
      discountMinor: row.discount_minor,
      protectionMinor: row.protection_minor,
      paidMinor: row.price_minor - row.bundle_discount_minor - row.discount_minor + row.protection_minor,
      refundedMinor: row.refunded_minor,
    });
    items.set(row.order_id, list);
  }
  return items;
}

async function itemCounts(db: Database | Trx, orderIds: string[]): Promise<Map<string, number>> {
  if (orderIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('order_items')
    .select((eb) => ['order_id', eb.fn.countAll<number>().as('n')])
    .where('order_id', 'in', orderIds)
    .groupBy('order_id')
    .execute();
  return new Map(rows.map((row) => [row.order_id, Number(row.n)]));
}

function toSummary(row: OrderRow, role: OrderRole, itemCount = 1): OrderSummary {
  return {
    id: row.id,
    reference: row.reference,
    status: row.status,
    role,
    title: row.title,
    listingSlug: row.slug,
    imageUrl: row.photo_url ?? row.cover_url,
    itemCount,
    counterpartName: (role === 'buyer' ? row.seller_name : row.buyer_name) ?? 'A Reshelf member',
    totalMinor: row.total_minor,
    itemMinor: row.item_price_minor,
    createdAt: row.created_at.toISOString(),
    paidAt: iso(row.paid_at),
    dispatchBy: iso(row.dispatch_by),
    nextStep: nextStep(row, role),
    reservedUntil: heldFor(row) ? iso(row.reserved_until) : null,
    canFinishPaying: role === 'buyer' && heldFor(row),
  };
}

/**
 * The buyer's purchases or the seller's sales, newest first. Unpaid attempts are left out, but
 * for the buyer the one whose book is still held for them while they pay, so they can finish.
 */
export async function listOrders(
  db: Database,
  userId: string,
  role: OrderRole,
  options: { status?: 'open' | 'done'; limit?: number } = {},
): Promise<OrderSummary[]> {
  const now = new Date();
  let query = orderQuery(db)
    .where(role === 'buyer' ? 'o.buyer_id' : 'o.seller_id', '=', userId)
    .where((eb) =>
      role === 'buyer'
        ? eb.or([
            eb('o.paid_at', 'is not', null),
            eb.and([eb('o.status', '=', 'pending_payment'), eb('o.reserved_until', '>', now)]),
          ])
        : eb('o.paid_at', 'is not', null),
    );
  if (options.status === 'open') {
    query = query.where('o.status', 'in', ['pending_payment', 'paid', 'dispatched', 'delivered', 'disputed']);
  } else if (options.status === 'done') {
    query = query.where('o.status', 'in', ['completed', 'cancelled', 'refunded']);
  }
  const rows = await query
    .orderBy('o.created_at', 'desc')
    .limit(options.limit ?? 100)
    .execute();
  const counts = await itemCounts(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => toSummary(row, role, counts.get(row.id) ?? 1));
}

function actionsFor(
  row: OrderRow,
  role: OrderRole | 'staff',
  dispute: { status: string; opened_by: string } | undefined,
  now: Date,
): OrderActions {
  const buyer = role === 'buyer';
  const seller = role === 'seller';
  return {
    canDispatch: seller && row.status === 'paid',
    canCancel: seller && row.status === 'paid',
    canMarkArrived: buyer && row.status === 'dispatched',
    canConfirm: buyer && (row.status === 'dispatched' || row.status === 'delivered'),
    canReportProblem:
      buyer &&
      (row.status === 'dispatched' ||
        (row.status === 'delivered' && !!row.complete_after && row.complete_after > now)),
    canReportNotReceived:
      buyer && row.status === 'dispatched' && !!row.delivery_due_at && row.delivery_due_at <= now,
    canWithdrawDispute:
      buyer && row.status === 'disputed' && dispute?.status === 'open' && dispute.opened_by === row.buyer_id,
  };
}

/** One order as its buyer, its seller or staff see it. */
export async function getOrder(
  db: Database,
  viewer: { id: string; staff?: boolean },
  orderId: string,
): Promise<OrderDetail> {
  const row = await orderQuery(db).where('o.id', '=', orderId).executeTakeFirst();
  const role: OrderRole | 'staff' | null = !row
    ? null
    : row.buyer_id === viewer.id
      ? 'buyer'
      : row.seller_id === viewer.id
        ? 'seller'
        : viewer.staff
          ? 'staff'
          : null;
  if (!row || !role || (role !== 'staff' && !row.paid_at && row.status !== 'pending_payment')) {
    throw new AppError('NOT_FOUND', 'We could not find that order. Check the link, or look in your orders.');
  }
  const [events, dispute, payout, refunded] = await Promise.all([
    db
      .selectFrom('order_events')
      .select(['from_status', 'to_status', 'actor_kind', 'note', 'created_at'])
      .where('order_id', '=', orderId)
      .orderBy('id')
      .execute(),
    db
      .selectFrom('disputes as d')
      .selectAll('d')
      .select(
        sql<
          string[]
        >`coalesce((select array_agg(di.order_item_id order by i.position) from public.dispute_items di join public.order_items i on i.id = di.order_item_id where di.dispute_id = d.id), '{}')`.as(
          'item_ids',
        ),
      )
      .where('d.order_id', '=', orderId)
      .orderBy('d.opened_at', 'desc')
      .limit(1)
      .executeTakeFirst(),
    db
      .selectFrom('payouts')
      .select(['amount_minor', 'reversed_minor', 'status', 'released_at', 'release_after'])
      .where('order_id', '=', orderId)
      .executeTakeFirst(),
    refundedOnOrder(db, orderId),
  ]);
  const items = (await itemsOfOrders(db, [orderId])).get(orderId) ?? [];
  const summaryRole: OrderRole = role === 'seller' ? 'seller' : 'buyer';
  const address = row.shipping_address as OrderDetail['address'];
  return {
    ...toSummary(row, summaryRole, items.length),
    items,
    bundleDiscountMinor: row.bundle_discount_minor,
    postageMinor: row.postage_minor,
    protectionMinor: row.buyer_protection_minor,
    protectionVatMinor: row.buyer_protection_vat_minor,
    discountMinor: row.discount_minor,
    discountCode: row.discount_code,
    parcelSize: row.parcel_size,
    offerId: row.offer_id,
    charitySale: row.charity_sale,
    address: address ?? null,
    carrier: row.carrier,
    carrierLabel: carrierLabel(row.carrier),
    trackingRef: row.tracking_ref,
    dispatchedAt: iso(row.dispatched_at),
    deliveryDueAt: iso(row.delivery_due_at),
    deliveredAt: iso(row.delivered_at),
    disputeUntil: row.status === 'delivered' ? iso(row.complete_after) : null,
    completedAt: iso(row.completed_at),
    cancelledAt: iso(row.cancelled_at),
    cancelReason: row.cancel_reason,
    refundedMinor: refunded,
    // The buyer does not see what the seller is paid.
    payout:
      role !== 'buyer' && payout
        ? {
            amountMinor: payout.amount_minor,
            reversedMinor: payout.reversed_minor,
            status: payout.status,
            releasedAt: iso(payout.released_at),
            releaseAfter: iso(payout.release_after),
          }
        : null,
    dispute: dispute
      ? {
          id: dispute.id,
          kind: dispute.kind as DisputeKind,
          problem: dispute.problem as DisputeProblem,
          status: dispute.status,
          reason: dispute.reason,
          resolutionNote: dispute.resolution_note,
          openedAt: dispute.opened_at.toISOString(),
          resolvedAt: iso(dispute.resolved_at),
          itemIds: dispute.item_ids,
        }
      : null,
    events: events.map((event) => ({
      fromStatus: event.from_status,
      toStatus: event.to_status,
      actorKind: event.actor_kind,
      note: event.note,
      createdAt: event.created_at.toISOString(),
    })),
    actions: actionsFor(row, role, dispute, new Date()),
  };
}

// Moving ------------------------------------------------------------------------------------

/** Locks the order and checks who may act on it; answers the locked row. */
async function lockOrder(
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

function requireStatus(order: LockedOrder, allowed: string[], message = MOVED_ON): void {
  if (!allowed.includes(order.status)) throw new AppError('PRECONDITION_FAILED', message);
}

/** Queues the email (and in-app notice) the state machine says follows a step. */
async function queueFollowUp(
  trx: Trx,
  deps: OrderMailDeps,
  orderId: string,
  followUp: FollowUp,
  detail?: string | null,
): Promise<void> {
  if (!followUp || followUp === 'staff_refund' || followUp === 'charity_return_refunded') return;
  await queueOrderMail(trx, deps, orderId, followUp, detail ?? null);
}

/** When a charity sale's 14-day return window closes (null for other sales, or before delivery). */
export function returnWindowEnds(order: { charity_sale: boolean; delivered_at: Date | null }): Date | null {
  return order.charity_sale && order.delivered_at
    ? new Date(order.delivered_at.getTime() + COMMERCIAL_DEFAULTS.charityReturnDays * DAY_MS)
    : null;
}

/**
 * Releases the seller's held payout, or for a charity sale still within its return window
 * keeps it held until the window closes (`payouts.release_held` releases it then).
 */
async function releasePayout(trx: Trx, order: LockedOrder, now = new Date()): Promise<void> {
  const holdUntil = returnWindowEnds(order);
  const update = trx.updateTable('payouts').where('order_id', '=', order.id).where('status', '=', 'held');
  if (holdUntil && holdUntil > now) {
    await update.set({ release_after: holdUntil }).execute();
    return;
  }
  await update.set({ status: 'released', released_at: now }).execute();
}

export async function complete(trx: Trx, order: LockedOrder, actor: Actor, note?: string): Promise<FollowUp> {
  const { followUp } = await transition(trx, order, 'completed', actor, note);
  await releasePayout(trx, order);
  return followUp;
}

/**
 * Refunds everything still refundable on the order (the refund command, which also ends the
 * seller's payout) and moves the order to `to` (cancelled or refunded).
 */
async function refundAll(
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

async function deliver(
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
  // The released sale goes to the seller now (issue 24), not at the next run of payouts.send;
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

/**
 * The buyer reports a problem (within 2 days of delivery) or a parcel that never came. A problem
 * with some of the books of an order names them (`itemIds`, order items; none named: the whole
 * order); a missing parcel is always the whole order.
 */
export async function openDispute(
  deps: OrderDeps,
  buyerId: string,
  input: {
    orderId: string;
    kind: DisputeKind;
    reason: string;
    itemIds?: string[] | undefined;
    /** What went wrong (issue 25); by default what the kind says. */
    problem?: DisputeProblem;
    /** The report's photos, checked by the caller (commerce/disputes). */
    photos?: string[];
    /** In the report's transaction: marks the photos used (community/messages/photo-uploads.ts). */
    usePhotos?: (trx: Trx) => Promise<void>;
  },
): Promise<{ disputeId: string }> {
  const now = new Date();
  const result = await deps.db.transaction().execute(async (trx) => {
    let order = await lockOrder(trx, input.orderId, { id: buyerId, as: 'buyer' });
    const actor: Actor = { id: buyerId, kind: 'buyer' };
    if (input.kind === 'not_received') {
      requireStatus(
        order,
        ['dispatched'],
        order.status === 'paid'
          ? 'The seller has not sent it yet. If it is not dispatched by the deadline, the order is cancelled and refunded automatically.'
          : 'A missing parcel can only be reported while the order is on its way.',
      );
      if (!order.delivery_due_at || order.delivery_due_at > now) {
        const due = order.delivery_due_at?.toLocaleDateString('en-GB', {
          day: 'numeric',
          month: 'long',
          timeZone: 'Europe/London',
        });
        throw new AppError(
          'PRECONDITION_FAILED',
          `The carrier’s delivery window has not ended yet. If it has not arrived by ${due ?? 'then'}, you can report it then.`,
        );
      }
    } else {
      requireStatus(
        order,
        ['dispatched', 'delivered'],
        'A problem can be reported only once the book has arrived and within 2 days of delivery.',
      );
      if (order.status === 'dispatched') {
        ({ order } = await deliver(trx, order, actor, 'The buyer said it arrived'));
      } else if (!order.complete_after || order.complete_after <= now) {
        throw new AppError(
          'PRECONDITION_FAILED',
          'The 2 days to report a problem after delivery have passed, so this order is complete.',
        );
      }
    }
    const named = await namedItems(trx, order.id, input);
    // The seller has 3 working days to answer (issue 25); then the job hands it to staff.
    const respondBy = addWorkingDays(
      now,
      PROTECTION_RULES.sellerResponseWorkingDays,
      await sellerHolidayRegion(trx, order),
    );
    const dispute = await trx
      .insertInto('disputes')
      .values({
        order_id: order.id,
        opened_by: buyerId,
        kind: input.kind,
        reason: input.reason,
        problem: input.problem ?? (input.kind === 'not_received' ? 'not_received' : 'not_as_described'),
        photos: input.photos ?? [],
        stage: 'seller',
        respond_by: respondBy,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await input.usePhotos?.(trx);
    if (named) {
      await trx
        .insertInto('dispute_items')
        .values(named.map((item) => ({ dispute_id: dispute.id, order_item_id: item.id })))
        .execute();
    }
    const about = named ? ` (${named.map((item) => `“${item.title}”`).join(', ')})` : '';
    const { followUp } = await transition(
      trx,
      order,
      'disputed',
      actor,
      `${input.problem ? DISPUTE_PROBLEM_LABELS[input.problem] : input.kind === 'not_received' ? 'Not received' : 'Not as described'}${about}`,
    );
    await queueFollowUp(trx, deps, input.orderId, followUp, named ? `${input.reason}${about}` : input.reason);
    return { disputeId: dispute.id };
  });
  return result;
}

/**
 * The books a report names, when it names some but not all of the order's books still open
 * (null: the whole order). Every id must be one of the order's books, not refunded yet.
 */
async function namedItems(
  trx: Trx,
  orderId: string,
  input: { kind: DisputeKind; itemIds?: string[] | undefined },
): Promise<{ id: string; title: string }[] | null> {
  if (!input.itemIds) return null;
  const ids = [...new Set(input.itemIds)];
  const items = await trx
    .selectFrom('order_items as i')
    .innerJoin('listings as l', 'l.id', 'i.listing_id')
    .innerJoin('books as b', 'b.id', 'l.book_id')
    .select(['i.id', 'b.title', 'i.position'])
    .select(
      sql<boolean>`i.refunded_minor >= i.price_minor - i.bundle_discount_minor - i.discount_minor`.as(
        'refunded',
      ),
    )
    .where('i.order_id', '=', orderId)
    .orderBy('i.position')
    .execute();
  const named = ids.map((id) => items.find((item) => item.id === id));
  if (ids.length === 0 || named.some((item) => !item)) {
    throw new AppError(
      'BAD_INPUT',
      'Choose the books the problem is with: one of those is not in this order.',
    );
  }
  if (named.some((item) => item?.refunded)) {
    throw new AppError('CONFLICT', 'One of those books has already been refunded.');
  }
  const open = items.filter((item) => !item.refunded);
  if (named.length >= open.length) return null;
  if (input.kind === 'not_received') {
    throw new AppError(
      'BAD_INPUT',
      'A parcel that never came is the whole order: report it without choosing books, or report a problem with the books that came.',
    );
  }
  return (named as typeof items)
    .sort((a, b) => a.position - b.position)
    .map(({ id, title }) => ({ id, title }));
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

// Staff ---------------------------------------------------------------------------------------

export async function disputeQueue(
  db: Database,
  filter: { kind?: DisputeKind; status: 'open' | 'resolved' | 'all'; limit?: number },
): Promise<DisputeQueueItem[]> {
  let query = db
    .selectFrom('disputes as d')
    .innerJoin('orders as o', 'o.id', 'd.order_id')
    .leftJoin('profiles as bp', 'bp.id', 'o.buyer_id')
    .leftJoin('profiles as sp', 'sp.id', 'o.seller_id')
    .select([
      'd.id',
      'd.order_id',
      'o.reference',
      'd.kind',
      'd.status',
      'd.reason',
      'd.resolution_note',
      'bp.display_name as buyer_name',
      'sp.display_name as seller_name',
      'o.total_minor',
      'd.opened_at',
      'd.resolved_at',
      // The order's books, and those the report is about (every book when it named none), with
      // what is left to refund of them (a whole-order refund: all that is left on the payment).
      sql<number>`(select count(*)::int from public.order_items i where i.order_id = o.id)`.as('book_count'),
      sql<string[]>`array(
        select b.title from public.order_items i
        join public.listings l on l.id = i.listing_id join public.books b on b.id = l.book_id
        where i.order_id = o.id
          and (not exists (select 1 from public.dispute_items di where di.dispute_id = d.id)
               or exists (select 1 from public.dispute_items di where di.dispute_id = d.id and di.order_item_id = i.id))
        order by i.position)`.as('books'),
      sql<number>`case when exists (select 1 from public.dispute_items di where di.dispute_id = d.id)
        then (select coalesce(sum(greatest(0, i.price_minor - i.bundle_discount_minor - i.discount_minor
                                          + i.protection_minor - i.refunded_minor)), 0)::int
              from public.dispute_items di join public.order_items i on i.id = di.order_item_id
              where di.dispute_id = d.id)
        else (select coalesce(sum(p.amount_minor - p.refunded_minor), 0)::int from public.payments p
              where p.order_id = o.id and p.status = 'succeeded')
        end`.as('refundable_minor'),
    ]);
  if (filter.kind) query = query.where('d.kind', '=', filter.kind);
  if (filter.status === 'open') query = query.where('d.status', '=', 'open');
  if (filter.status === 'resolved') query = query.where('d.status', '<>', 'open');
  const rows = await query
    .orderBy('d.opened_at', filter.status === 'open' ? 'asc' : 'desc')
    .limit(filter.limit ?? 200)
    .execute();
  return rows.map((row) => ({
    id: row.id,
    orderId: row.order_id,
    reference: row.reference,
    title: booksTitle(row.books),
    kind: row.kind as DisputeKind,
    status: row.status,
    reason: row.reason,
    resolutionNote: row.resolution_note,
    buyerName: row.buyer_name ?? 'Buyer',
    sellerName: row.seller_name ?? 'Seller',
    totalMinor: row.total_minor,
    openedAt: row.opened_at.toISOString(),
    resolvedAt: iso(row.resolved_at),
    bookCount: row.book_count,
    books: row.books,
    refundableMinor: row.refundable_minor,
  }));
}

/**
 * Staff settle a dispute: refund the buyer through the payment port, or release. A report on
 * some of the books refunds exactly those books' share (refunds/refund.ts) and the order
 * completes with the rest (the seller is paid for them); a report on the whole order, or on the
 * last books not refunded, refunds everything left and the order is refunded.
 */
export async function resolveDispute(
  deps: OrderDeps,
  staffId: string,
  input: { disputeId: string; outcome: 'refund' | 'release'; note: string },
): Promise<{ orderId: string; refundedMinor: number }> {
  const actor: Actor = { id: staffId, kind: 'staff' };
  const result = await deps.db.transaction().execute(async (trx) => {
    const dispute = await trx
      .selectFrom('disputes')
      .select(['id', 'order_id', 'status'])
      .where('id', '=', input.disputeId)
      .forUpdate()
      .executeTakeFirst();
    if (!dispute) throw new AppError('NOT_FOUND', 'We could not find that dispute.');
    if (dispute.status !== 'open') {
      throw new AppError('PRECONDITION_FAILED', 'This dispute has already been resolved. Refresh the queue.');
    }
    const order = await lockOrder(trx, dispute.order_id, 'any');
    requireStatus(order, ['disputed']);
    let refunded = 0;
    let followUp: FollowUp;
    const named = (
      await trx
        .selectFrom('dispute_items')
        .select('order_item_id')
        .where('dispute_id', '=', dispute.id)
        .execute()
    ).map((row) => row.order_item_id);
    if (input.outcome === 'refund' && named.length > 0) {
      const reason = `Dispute resolved: ${input.note}`;
      const outcome = await refund(trx, deps.payments, order, { items: named }, reason, actor, {
        noPayment: 'This order has no completed payment on record, so there is nothing to refund.',
      });
      refunded = outcome.amountMinor;
      if (outcome.full) {
        ({ followUp } = await transition(trx, order, 'refunded', actor, reason));
      } else {
        // Those books refunded; the rest of the order completes and its payout is released.
        await complete(
          trx,
          order,
          actor,
          `${reason} (refunded ${formatPence(refunded)} for the books reported)`,
        );
        await queueStaffRefundMail(trx, deps, order.id, {
          amountMinor: refunded,
          full: false,
          reason: input.note,
          sellerDeductedMinor: outcome.sellerDeductedMinor,
        });
        followUp = null;
      }
    } else if (input.outcome === 'refund') {
      ({ amountMinor: refunded, followUp } = await refundAll(
        trx,
        deps.payments,
        order,
        'refunded',
        `Dispute resolved: ${input.note}`,
        actor,
      ));
    } else {
      followUp = await complete(trx, order, actor, `Dispute resolved: ${input.note}`);
    }
    await trx
      .updateTable('disputes')
      .set({
        status: input.outcome === 'refund' ? 'resolved_refund' : 'resolved_release',
        resolution_note: input.note,
        resolved_by: staffId,
        resolved_at: new Date(),
      })
      .where('id', '=', dispute.id)
      .execute();
    // Audit log (issue 9): the staff action, in the same transaction.
    await recordAudit(trx, {
      actorId: staffId,
      action: 'dispute.resolve',
      targetType: 'dispute',
      targetId: dispute.id,
      details: {
        orderId: order.id,
        reference: order.reference,
        outcome: input.outcome,
        refundedMinor: refunded,
        note: input.note,
      },
    });
    await queueFollowUp(trx, deps, order.id, followUp, input.note);
    return { orderId: order.id, refundedMinor: refunded };
  });
  return result;
}

// Payouts -------------------------------------------------------------------------------------

export async function listPayouts(db: Database, sellerId: string): Promise<PayoutsView> {
  const rows = await db
    .selectFrom('payouts as p')
    .innerJoin('orders as o', 'o.id', 'p.order_id')
    .innerJoin('listings as l', 'l.id', 'o.listing_id')
    .innerJoin('books as b', 'b.id', 'l.book_id')
    .select([
      'p.id',
      'p.order_id',
      'o.reference',
      'b.title',
      'p.amount_minor',
      'p.status',
      'p.created_at',
      'p.released_at',
      'p.release_after',
      'p.reversed_minor',
    ])
    .where('p.seller_id', '=', sellerId)
    .orderBy('p.created_at', 'desc')
    .limit(500)
    .execute();
  // What the seller is owed for each sale: the payout less any refund taken back from it.
  const sum = (status: string) =>
    rows
      .filter((row) => row.status === status)
      .reduce((total, row) => total + row.amount_minor - row.reversed_minor, 0);
  return {
    heldMinor: sum('held'),
    releasedMinor: sum('released'),
    items: rows.map((row) => ({
      id: row.id,
      orderId: row.order_id,
      reference: row.reference,
      title: row.title,
      amountMinor: row.amount_minor,
      status: row.status as 'held' | 'released' | 'cancelled',
      createdAt: row.created_at.toISOString(),
      releasedAt: iso(row.released_at),
      releaseAfter: iso(row.release_after),
      reversedMinor: row.reversed_minor,
    })),
  };
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
 * way back). One statement, so a return being refunded at the same moment either cancels the
 * payout first or finds it released; the sellers are told (in the app and by email) in the
 * same transaction.
 */
export async function releaseHeldPayouts(deps: OrderMailDeps, now = new Date()): Promise<number> {
  return deps.db.transaction().execute(async (trx) => {
    const released = await trx
      .updateTable('payouts as p')
      .set({ status: 'released', released_at: now })
      .where('p.status', '=', 'held')
      .where('p.release_after', '<=', now)
      .where(({ exists, not, selectFrom }) =>
        exists(
          selectFrom('orders as o')
            .select('o.id')
            .whereRef('o.id', '=', 'p.order_id')
            .where('o.status', '=', 'completed'),
        ).and(
          not(
            exists(
              selectFrom('return_requests as r')
                .select('r.id')
                .whereRef('r.order_id', '=', 'p.order_id')
                .where('r.status', 'in', ['requested', 'accepted']),
            ),
          ),
        ),
      )
      .returning('p.order_id')
      .execute();
    for (const payout of released) await queueOrderMail(trx, deps, payout.order_id, 'payout_released');
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
