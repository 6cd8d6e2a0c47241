/**
 * Two-sided disputes and returns (decision 0049).
 *
 * The buyer reports a problem (a reason from DISPUTE_PROBLEMS, a description and up to 6 photos
 * from the order's conversation): `orders.service.openDispute` moves the order to disputed and
 * gives the seller 3 working days (`respond_by`, UK bank holidays skipped). The seller answers:
 *   - accept_full    the buyer is refunded (the books the report names, or everything left);
 *   - offer_partial  an amount; the buyer accepts (refunded that much, the order completes with
 *                    the rest of the payout) or refuses (our team decides);
 *   - ask_return     the book comes back first (return postage: PROTECTION_RULES.returnPostageBy);
 *   - contest        their own words and photos; our team decides.
 * No answer by `respond_by`: the job (`disputes.escalate`) hands it to staff. Staff decide at any
 * time: full refund, partial refund (any amount up to what is left to refund), return first, or
 * release. A return: the buyer adds the carrier and tracking; the seller confirms the book came;
 * the refund goes out.
 *
 * Every step is an order transition or an order event through the orders module
 * (order-machine.ts: the conversation shows them as system lines), audited, and both sides are
 * told by email and in the app, all in the step's transaction. Money goes back only through the
 * refund command (refunds/refund.ts).
 */
import {
  booksTitle,
  CARRIERS,
  type Carrier,
  type CarrierNetwork,
  DISPUTE_PROBLEM_LABELS,
  type DisputeCase,
  type DisputeKind,
  type DisputeProblem,
  type DisputeQueueItem,
  disputeKindOf,
  disputeStateText,
  formatPence,
  PROTECTION_RULES,
  returnPostageSchema,
  type SellerRespondInput,
  type StaffDecision,
} from '@reshelf/contracts';
import { sql, type Transaction } from 'kysely';
import { isThreadPhoto, openReviewWindow, startOrderThread, usePhotos } from '../../community/index.ts';
import type { DB, Disputes } from '../../db/database.generated.ts';
import type { Database } from '../../db/index.ts';
import { AppError } from '../../errors.ts';
import { recordAudit } from '../../platform/audit/audit.service.ts';
import { sellerHolidayRegion } from '../../platform/calendar/holiday-region.ts';
import { addWorkingDays } from '../../platform/calendar/working-days.ts';
import type { StoragePort } from '../../platform/storage/port.ts';
import { sum } from '../money/amounts.ts';
import { orderMoneyOf } from '../money/order-money.ts';
import { refund } from '../money/refund.ts';
import {
  type Actor,
  type LockedOrder,
  lockOrderRow,
  MOVED_ON,
  noteOnOrder,
  transition,
} from '../orders/order-machine.ts';
import {
  complete,
  deliver,
  lockOrder,
  type OrderDeps,
  queueFollowUp,
  requireStatus,
} from '../orders/orders.service.ts';
import {
  buyReturnLabel,
  openReturnShipment,
  type ReturnParcelDeps,
  type ReturnParcelScan,
  tellReturnTrouble,
} from '../parcels/returns.ts';
import { tellBoth } from './dispute-mail.ts';

type Trx = Transaction<DB>;
type DisputeRow = import('kysely').Selectable<Disputes>;

/**
 * The titles of the books a report (`d`) on an order (`o`) is about, first to last: those it
 * names, or every book of the order when it names none.
 */
function reportBooks() {
  return sql<string[]>`array(
    select b.title from public.order_items i
    join public.listings l on l.id = i.listing_id join public.books b on b.id = l.book_id
    where i.order_id = o.id
      and (not exists (select 1 from public.dispute_items di where di.dispute_id = d.id)
           or exists (select 1 from public.dispute_items di where di.dispute_id = d.id and di.order_item_id = i.id))
    order by i.position)`;
}

export interface DisputeDeps extends OrderDeps, ReturnParcelDeps {
  storage: StoragePort;
}

const iso = (value: Date | null | undefined) => (value ? value.toISOString() : null);

const londonDay = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/London',
  weekday: 'long',
  day: 'numeric',
  month: 'long',
});

// Reading -----------------------------------------------------------------------------------

/** The thread of the order's conversation, when one was started (the first book's). */
async function threadOf(db: Database | Trx, orderId: string): Promise<string | null> {
  const row = await db
    .selectFrom('orders as o')
    .innerJoin('order_items as i', (join) => join.onRef('i.order_id', '=', 'o.id').on('i.position', '=', 1))
    .innerJoin('message_threads as t', (join) =>
      join.onRef('t.listing_id', '=', 'i.listing_id').onRef('t.buyer_id', '=', 'o.buyer_id'),
    )
    .select('t.id')
    .where('o.id', '=', orderId)
    .executeTakeFirst();
  return row?.id ?? null;
}

/** Whether `userId` sells the order: its seller, or a member of the charity that sold it. */
async function isSellerOf(db: Database | Trx, userId: string, order: { id: string; seller_id: string }) {
  if (order.seller_id === userId) return true;
  const row = await db
    .selectFrom('order_items as i')
    .innerJoin('listings as l', 'l.id', 'i.listing_id')
    .innerJoin('charity_members as m', 'm.charity_id', 'l.charity_id')
    .select('m.user_id')
    .where('i.order_id', '=', order.id)
    .where('i.position', '=', 1)
    .where('m.user_id', '=', userId)
    .executeTakeFirst();
  return Boolean(row);
}

/** What is left to refund on the order's payment (the money definitions). */
async function refundable(db: Database | Trx, orderId: string): Promise<number> {
  return (await orderMoneyOf(db, orderId)).buyer.refundableMinor;
}

/** What a full refund of a report gives back: its books' (or the order's) refundable (dispute_money). */
async function fullRefund(db: Database | Trx, disputeId: string): Promise<number> {
  const row = await db
    .selectFrom('dispute_money')
    .select('refundable_minor')
    .where('dispute_id', '=', disputeId)
    .executeTakeFirst();
  return row?.refundable_minor ?? 0;
}

type Viewer = { id: string; staff?: boolean };

/** The latest report on an order, as its buyer, its seller or staff see it. */
export async function disputeForOrder(
  db: Database,
  viewer: Viewer,
  orderId: string,
): Promise<DisputeCase | null> {
  const row = await db
    .selectFrom('disputes')
    .select('id')
    .where('order_id', '=', orderId)
    .orderBy('opened_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? getDisputeCase(db, viewer, row.id) : null;
}

export async function getDisputeCase(db: Database, viewer: Viewer, disputeId: string): Promise<DisputeCase> {
  const row = await db
    .selectFrom('disputes as d')
    .innerJoin('orders as o', 'o.id', 'd.order_id')
    .leftJoin('profiles as bp', 'bp.id', 'o.buyer_id')
    .leftJoin('profiles as sp', 'sp.id', 'o.seller_id')
    .selectAll('d')
    .select([
      'o.reference',
      'o.buyer_id',
      'o.seller_id',
      'o.status as order_status',
      'bp.display_name as buyer_name',
      'sp.display_name as seller_name',
      reportBooks().as('books'),
    ])
    .where('d.id', '=', disputeId)
    .executeTakeFirst();
  const NOT_FOUND = new AppError('NOT_FOUND', 'We could not find that report.');
  if (!row) throw NOT_FOUND;
  const buyer = row.buyer_id === viewer.id;
  const seller = !buyer && (await isSellerOf(db, viewer.id, { id: row.order_id, seller_id: row.seller_id }));
  const staff = !buyer && !seller && viewer.staff === true;
  if (!buyer && !seller && !staff) throw NOT_FOUND;
  const open = row.status === 'open' && row.order_status === 'disputed';
  return {
    id: row.id,
    orderId: row.order_id,
    reference: row.reference,
    title: booksTitle(row.books),
    problem: row.problem as DisputeProblem,
    status: row.status,
    stage: row.stage as DisputeCase['stage'],
    description: row.reason,
    photos: row.photos,
    openedAt: row.opened_at.toISOString(),
    respondBy: iso(row.respond_by),
    sellerResponse: row.seller_response as DisputeCase['sellerResponse'],
    sellerStatement: row.seller_statement,
    sellerPhotos: row.seller_photos,
    offerMinor: row.offer_minor,
    offerStatus: row.offer_status,
    returnPostageBy: row.return_postage_by as DisputeCase['returnPostageBy'],
    returnCarrier:
      row.return_carrier && row.return_carrier in CARRIERS
        ? CARRIERS[row.return_carrier as Carrier].label
        : row.return_carrier,
    returnTrackingRef: row.return_tracking_ref,
    returnPostageMinor: row.return_postage_minor,
    returnSentAt: iso(row.return_sent_at),
    returnReceivedAt: iso(row.return_received_at),
    refundedMinor: row.refunded_minor,
    refundableMinor: await refundable(db, row.order_id),
    fullRefundMinor: await fullRefund(db, row.id),
    stateText: disputeStateText({
      status: row.status,
      stage: row.stage as DisputeCase['stage'],
      respondBy: iso(row.respond_by),
      offerMinor: row.offer_minor,
      returnSentAt: iso(row.return_sent_at),
      refundedMinor: row.refunded_minor,
    }),
    resolutionNote: row.resolution_note,
    resolvedAt: iso(row.resolved_at),
    buyerName: row.buyer_name ?? 'Buyer',
    sellerName: row.seller_name ?? 'Seller',
    threadId: await threadOf(db, row.order_id),
    can: {
      respond: seller && open && row.stage === 'seller',
      answerOffer: buyer && open && row.stage === 'buyer',
      addReturnTracking: buyer && open && row.stage === 'return' && row.return_sent_at === null,
      confirmReturn: seller && open && row.stage === 'return' && row.return_sent_at !== null,
      decide: staff && open,
    },
  };
}

// Steps ---------------------------------------------------------------------------------------

/**
 * The buyer reports a problem. Photos are the conversation's own (uploaded to the order's thread,
 * as message photos are), so a report cannot point at someone else's files.
 */
export async function reportProblem(
  deps: DisputeDeps,
  buyerId: string,
  input: {
    orderId: string;
    problem: DisputeProblem;
    description: string;
    photos: string[];
    itemIds?: string[] | undefined;
  },
): Promise<{ disputeId: string }> {
  const threadId = await checkPhotos(deps, buyerId, input.orderId, input.photos);
  return openCase(deps, buyerId, {
    orderId: input.orderId,
    kind: disputeKindOf(input.problem),
    problem: input.problem,
    reason: input.description,
    photos: input.photos,
    itemIds: input.itemIds,
    // With the report: the photos' upload records go, so the unsent-photo sweep keeps them.
    ...(threadId ? { usePhotos: (trx: Trx) => usePhotos(trx, deps.storage, threadId, input.photos) } : {}),
  });
}

/**
 * The buyer reports a problem (within 2 days of delivery) or a parcel that never came. A problem
 * with some of the books of an order names them (`itemIds`, order items; none named: the whole
 * order); a missing parcel is always the whole order.
 */
async function openCase(
  deps: OrderDeps,
  buyerId: string,
  input: {
    orderId: string;
    kind: DisputeKind;
    reason: string;
    itemIds?: string[] | undefined;
    /** What went wrong; by default what the kind says. */
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
    const named = await reportedItems(trx, order.id, input);
    // The seller has 3 working days to answer; then the job hands it to staff.
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
async function reportedItems(
  trx: Trx,
  orderId: string,
  input: { kind: DisputeKind; itemIds?: string[] | undefined },
): Promise<{ id: string; title: string }[] | null> {
  if (!input.itemIds) return null;
  const ids = [...new Set(input.itemIds)];
  const items = await trx
    .selectFrom('order_item_money as i')
    .innerJoin('listings as l', 'l.id', 'i.listing_id')
    .innerJoin('books as b', 'b.id', 'l.book_id')
    .select(['i.order_item_id as id', 'b.title', 'i.position', 'i.returned as refunded'])
    .where('i.order_id', '=', orderId)
    .orderBy('i.position')
    .$narrowType<{ id: string; position: number; refunded: boolean }>()
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

/** Checks the photos are the order's conversation's own; answers that thread (none without photos). */
async function checkPhotos(
  deps: DisputeDeps,
  userId: string,
  orderId: string,
  photos: string[],
): Promise<string | null> {
  if (photos.length === 0) return null;
  if (new Set(photos).size !== photos.length) {
    throw new AppError('BAD_INPUT', 'The same photo is there twice.', { field: 'photos' });
  }
  const { threadId } = await startOrderThread(deps.db, userId, orderId);
  for (const url of photos) {
    if (!isThreadPhoto(deps.storage, threadId, url)) {
      throw new AppError('BAD_INPUT', 'Add photos with the photo button on this page.', { field: 'photos' });
    }
  }
  return threadId;
}

/** Locks the dispute and its order for a step; refuses a dispute that has moved on. */
async function lockDispute(
  trx: Trx,
  disputeId: string,
): Promise<{ dispute: DisputeRow; order: LockedOrder }> {
  const dispute = await trx
    .selectFrom('disputes')
    .selectAll()
    .where('id', '=', disputeId)
    .forUpdate()
    .executeTakeFirst();
  if (!dispute) throw new AppError('NOT_FOUND', 'We could not find that report.');
  const order = await lockOrderRow(trx, dispute.order_id);
  if (!order) throw new AppError('NOT_FOUND', 'We could not find that report.');
  if (dispute.status !== 'open' || order.status !== 'disputed') {
    throw new AppError('PRECONDITION_FAILED', 'This report has been settled. Refresh the page to see how.');
  }
  return { dispute, order };
}

function requireStage(dispute: DisputeRow, stage: string, message = MOVED_ON) {
  if (dispute.stage !== stage) throw new AppError('PRECONDITION_FAILED', message);
}

async function namedItems(trx: Trx, disputeId: string): Promise<string[]> {
  const rows = await trx
    .selectFrom('dispute_items')
    .select('order_item_id')
    .where('dispute_id', '=', disputeId)
    .execute();
  return rows.map((row) => row.order_item_id);
}

/**
 * Gives the buyer everything the report is about back (the books it names, or all that is left)
 * and closes the order: refunded, or completed with the other books when only some came back.
 * `returnPostageMinor`: a seller-paid return's postage the buyer entered; it goes back too, as a
 * refund of its own through the refund command (so from the seller's payout), capped at
 * PROTECTION_RULES.returnPostageCapMinor and at what is left of the payment (a card refund cannot
 * exceed the charge). Answers what went back in all and how much of it was postage.
 */
async function refundInFull(
  trx: Trx,
  deps: DisputeDeps,
  dispute: DisputeRow,
  order: LockedOrder,
  actor: Actor,
  reason: string,
  returnPostageMinor = 0,
): Promise<{ refunded: number; postage: number }> {
  const named = await namedItems(trx, dispute.id);
  const outcome = await refund(
    trx,
    deps.payments,
    order,
    named.length > 0 ? { items: named } : 'everything',
    reason,
    actor,
  );
  let full = outcome.full;
  let postage = 0;
  if (returnPostageMinor > 0) {
    postage = Math.min(
      returnPostageMinor,
      PROTECTION_RULES.returnPostageCapMinor,
      await refundable(trx, order.id),
    );
    if (postage > 0) {
      const back = await refund(
        trx,
        deps.payments,
        order,
        postage,
        `Return postage for order ${order.reference}, paid by the seller`,
        actor,
      );
      full = full || back.full;
    }
  }
  // money-ok: the two refunds money's refund() just made, added for the note and the answer
  const refunded = sum([outcome.amountMinor, postage]);
  if (full) await transition(trx, order, 'refunded', actor, reason);
  else
    await completeAndAskReviews(
      trx,
      deps,
      order,
      actor,
      `${reason} (${formatPence(refunded)} back for the books reported${postage > 0 ? ', return postage included' : ''})`,
    );
  return { refunded, postage };
}

/**
 * Completes the order (the payout released with what is left of it) and, as every completion
 * does, asks both sides to review it (decision 0048).
 */
async function completeAndAskReviews(
  trx: Trx,
  deps: DisputeDeps,
  order: LockedOrder,
  actor: Actor,
  note: string,
): Promise<void> {
  await complete(trx, order, actor, note);
  await openReviewWindow(trx, deps, order.id);
}

/** Gives `amount` back and completes the order with the rest of the payout (refunded if it was all). */
async function refundPart(
  trx: Trx,
  deps: DisputeDeps,
  order: LockedOrder,
  amount: number,
  actor: Actor,
  reason: string,
): Promise<number> {
  const outcome = await refund(trx, deps.payments, order, amount, reason, actor);
  if (outcome.full) await transition(trx, order, 'refunded', actor, reason);
  else await completeAndAskReviews(trx, deps, order, actor, reason);
  return outcome.amountMinor;
}

async function settle(
  trx: Trx,
  disputeId: string,
  values: {
    status: 'resolved_refund' | 'resolved_release';
    refunded: number;
    note: string;
    by: string | null;
  },
) {
  await trx
    .updateTable('disputes')
    .set((eb) => ({
      status: values.status,
      stage: 'closed',
      refunded_minor: eb('refunded_minor', '+', values.refunded),
      resolution_note: values.note.slice(0, 2000),
      resolved_by: values.by,
      resolved_at: new Date(),
      updated_at: new Date(),
    }))
    .where('id', '=', disputeId)
    .execute();
}

function audit(
  trx: Trx,
  actorId: string,
  action: string,
  dispute: DisputeRow,
  order: LockedOrder,
  details: object,
) {
  return recordAudit(trx, {
    actorId,
    action,
    targetType: 'dispute',
    targetId: dispute.id,
    details: { orderId: order.id, reference: order.reference, ...details },
  });
}

/** The seller answers the report. */
export async function respondAsSeller(
  deps: DisputeDeps,
  sellerId: string,
  input: SellerRespondInput,
): Promise<DisputeCase> {
  const statementPhotos = input.response === 'contest' ? (input.photos ?? []) : [];
  const orderId = (
    await deps.db
      .selectFrom('disputes')
      .select('order_id')
      .where('id', '=', input.disputeId)
      .executeTakeFirst()
  )?.order_id;
  if (!orderId) throw new AppError('NOT_FOUND', 'We could not find that report.');
  const photoThread = await checkPhotos(deps, sellerId, orderId, statementPhotos);
  let returnShipmentId: string | null = null;
  await deps.db.transaction().execute(async (trx) => {
    const { dispute, order } = await lockDispute(trx, input.disputeId);
    if (!(await isSellerOf(trx, sellerId, order)))
      throw new AppError('NOT_FOUND', 'We could not find that report.');
    requireStage(
      dispute,
      'seller',
      dispute.stage === 'staff'
        ? 'Our team is deciding this report now: write to the buyer in the conversation if you want to add anything.'
        : MOVED_ON,
    );
    const actor: Actor = { id: sellerId, kind: 'seller' };
    const now = new Date();
    const answered = { seller_response: input.response, seller_responded_at: now, updated_at: now };
    const ref = order.reference;
    switch (input.response) {
      case 'accept_full': {
        const reason = 'The seller accepted a full refund';
        const { refunded } = await refundInFull(trx, deps, dispute, order, actor, reason);
        await trx.updateTable('disputes').set(answered).where('id', '=', dispute.id).execute();
        await settle(trx, dispute.id, { status: 'resolved_refund', refunded, note: reason, by: sellerId });
        await tellBoth(trx, deps, order.id, {
          template: 'order.dispute_refunded',
          notice: 'dispute_resolved',
          buyer: {
            subject: `Refund of ${formatPence(refunded)} on its way`,
            lines: [
              `The seller accepted your report on order ${ref} and you have been refunded ${formatPence(refunded)}.`,
              'It goes back to the card you paid with, usually within 5 to 10 working days.',
            ],
          },
          seller: {
            subject: `You refunded the buyer ${formatPence(refunded)}`,
            lines: [
              `You accepted the report on order ${ref}: the buyer has been refunded ${formatPence(refunded)}, taken from your payout for this sale.`,
            ],
          },
        });
        break;
      }
      case 'offer_partial': {
        const left = await refundable(trx, order.id);
        if (input.amountMinor >= left) {
          throw new AppError(
            'BAD_INPUT',
            `An offer must be less than the ${formatPence(left)} the buyer paid; to give it all back, accept a full refund.`,
            { field: 'amountMinor' },
          );
        }
        await trx
          .updateTable('disputes')
          .set({ ...answered, stage: 'buyer', offer_minor: input.amountMinor, offer_status: 'pending' })
          .where('id', '=', dispute.id)
          .execute();
        await noteOnOrder(trx, order.id, actor, `The seller offered ${formatPence(input.amountMinor)} back`);
        await tellBoth(trx, deps, order.id, {
          template: 'order.dispute_offer',
          notice: 'dispute_opened',
          buyer: {
            subject: `The seller offers ${formatPence(input.amountMinor)} back`,
            lines: [
              `The seller of order ${ref} offers you ${formatPence(input.amountMinor)} back and you keep the book. Accept it or refuse it from your order; if you refuse, our team decides.`,
            ],
          },
          seller: {
            subject: `You offered ${formatPence(input.amountMinor)} back`,
            lines: [
              `We have told the buyer of order ${ref} about your offer of ${formatPence(input.amountMinor)}. We'll tell you when they answer.`,
            ],
          },
        });
        break;
      }
      case 'ask_return': {
        const payer = PROTECTION_RULES.returnPostageBy[dispute.problem as DisputeProblem];
        await trx
          .updateTable('disputes')
          .set({ ...answered, stage: 'return', return_asked_by: 'seller', return_postage_by: payer })
          .where('id', '=', dispute.id)
          .execute();
        await noteOnOrder(
          trx,
          order.id,
          actor,
          `The seller asked for the book back (return postage paid by the ${payer})`,
        );
        returnShipmentId = await openReturnShipment(trx, deps, order.id, { disputeId: dispute.id }, payer);
        await tellReturn(trx, deps, order, payer, 'The seller', returnShipmentId !== null);
        break;
      }
      case 'contest': {
        if (photoThread) await usePhotos(trx, deps.storage, photoThread, statementPhotos);
        await trx
          .updateTable('disputes')
          .set({
            ...answered,
            stage: 'staff',
            seller_statement: input.statement,
            seller_photos: statementPhotos,
            escalated_at: now,
          })
          .where('id', '=', dispute.id)
          .execute();
        await noteOnOrder(trx, order.id, actor, 'The seller contested the report: our team decides');
        await tellBoth(trx, deps, order.id, {
          template: 'order.dispute_contested',
          notice: 'dispute_opened',
          buyer: {
            subject: `The seller disagrees: our team will decide`,
            lines: [
              `The seller of order ${ref} disagrees with your report and has given their side. Our team looks at both and decides, usually within 2 working days.`,
            ],
          },
          seller: {
            subject: `We have your side: our team will decide`,
            lines: [
              `Thanks for your answer on order ${ref}. Our team looks at both sides and decides, usually within 2 working days.`,
            ],
          },
        });
        break;
      }
    }
    await audit(trx, sellerId, `dispute.seller_${input.response}`, dispute, order, {
      ...(input.response === 'offer_partial' ? { offerMinor: input.amountMinor } : {}),
    });
  });
  // The prepaid return label is bought after the commit; an outage leaves "Try again" for the buyer.
  await buyReturnLabel(deps, returnShipmentId);
  return getDisputeCase(deps.db, { id: sellerId }, input.disputeId);
}

async function tellReturn(
  trx: Trx,
  deps: DisputeDeps,
  order: LockedOrder,
  payer: 'seller' | 'buyer',
  who: string,
  labelled = false,
) {
  const cap = formatPence(PROTECTION_RULES.returnPostageCapMinor);
  const postage = labelled
    ? payer === 'seller'
      ? 'Your prepaid return label is on your order: print it (A4 or 4×6) or show its QR code at a Post Office. The seller pays for it.'
      : 'Your return label is on your order: print it (A4 or 4×6) or show its QR code at a Post Office. Its cost comes off your refund.'
    : payer === 'seller'
      ? `The seller pays the return postage: keep the receipt and enter what it cost with the tracking; your refund includes it (up to ${cap}).`
      : 'You pay the return postage.';
  await tellBoth(trx, deps, order.id, {
    template: 'order.dispute_return',
    notice: 'dispute_opened',
    buyer: {
      subject: 'Please send the book back',
      lines: [
        labelled
          ? `${who} asked for the book from order ${order.reference} back before the refund. The carrier's scans tell us it is on its way and when it arrives; the refund goes out then, with nothing for you to tap.`
          : `${who} asked for the book from order ${order.reference} back before the refund. Post it with tracking and add the tracking reference on your order; the refund goes out when the seller has it.`,
        postage,
      ],
    },
    seller: {
      subject: 'The book is coming back to you',
      lines: [
        labelled
          ? `${who === 'The seller' ? 'You' : who} asked for the book from order ${order.reference} back, with a prepaid return label. When the carrier delivers it to you, the buyer is refunded.`
          : `${who === 'The seller' ? 'You' : who} asked for the book from order ${order.reference} back. When it arrives, confirm it on the sale page and the buyer is refunded.`,
        labelled
          ? payer === 'seller'
            ? 'You pay for the return label.'
            : 'The buyer pays for the return label: its cost comes off their refund.'
          : payer === 'seller'
            ? `You pay the return postage: the buyer's refund includes what they paid to post it back (up to ${cap}), from your payout for this sale.`
            : 'The buyer pays the return postage.',
      ],
    },
  });
}

/** The buyer accepts or refuses the seller's partial offer. */
export async function answerOffer(
  deps: DisputeDeps,
  buyerId: string,
  input: { disputeId: string; accept: boolean },
): Promise<DisputeCase> {
  await deps.db.transaction().execute(async (trx) => {
    const { dispute, order } = await lockDispute(trx, input.disputeId);
    if (order.buyer_id !== buyerId) throw new AppError('NOT_FOUND', 'We could not find that report.');
    requireStage(dispute, 'buyer');
    const offer = dispute.offer_minor ?? 0;
    const actor: Actor = { id: buyerId, kind: 'buyer' };
    if (input.accept) {
      const reason = `The buyer accepted the seller's offer of ${formatPence(offer)} back`;
      const refunded = await refundPart(trx, deps, order, offer, actor, reason);
      await trx
        .updateTable('disputes')
        .set({ offer_status: 'accepted' })
        .where('id', '=', dispute.id)
        .execute();
      await settle(trx, dispute.id, { status: 'resolved_refund', refunded, note: reason, by: buyerId });
      await tellBoth(trx, deps, order.id, {
        template: 'order.dispute_offer_accepted',
        notice: 'refund',
        buyer: {
          subject: `Refund of ${formatPence(refunded)} on its way`,
          lines: [
            `You accepted the seller's offer on order ${order.reference}: ${formatPence(refunded)} is on its way back to the card you paid with, usually within 5 to 10 working days.`,
          ],
        },
        seller: {
          subject: `The buyer accepted your offer of ${formatPence(refunded)}`,
          lines: [
            `The buyer of order ${order.reference} accepted your offer: ${formatPence(refunded)} was refunded from your payout, and the rest of it is released.`,
          ],
        },
      });
    } else {
      await trx
        .updateTable('disputes')
        .set({ offer_status: 'refused', stage: 'staff', escalated_at: new Date(), updated_at: new Date() })
        .where('id', '=', dispute.id)
        .execute();
      await noteOnOrder(
        trx,
        order.id,
        actor,
        `The buyer refused the offer of ${formatPence(offer)}: our team decides`,
      );
      await tellBoth(trx, deps, order.id, {
        template: 'order.dispute_offer_refused',
        notice: 'dispute_opened',
        buyer: {
          subject: 'You refused the offer: our team will decide',
          lines: [
            `Our team looks at both sides of order ${order.reference} and decides, usually within 2 working days.`,
          ],
        },
        seller: {
          subject: 'The buyer refused your offer: our team will decide',
          lines: [
            `The buyer of order ${order.reference} refused your offer of ${formatPence(offer)}. Our team looks at both sides and decides, usually within 2 working days.`,
          ],
        },
      });
    }
    await audit(
      trx,
      buyerId,
      input.accept ? 'dispute.offer_accepted' : 'dispute.offer_refused',
      dispute,
      order,
      { offerMinor: offer },
    );
  });
  return getDisputeCase(deps.db, { id: buyerId }, input.disputeId);
}

/** The buyer has posted the book back: the carrier and tracking reference. */
export async function addReturnTracking(
  deps: DisputeDeps,
  buyerId: string,
  input: { disputeId: string; carrier: Carrier; trackingRef: string; postageMinor?: number | undefined },
): Promise<DisputeCase> {
  const parsedPostage = returnPostageSchema.optional().safeParse(input.postageMinor);
  if (!parsedPostage.success) {
    throw new AppError('BAD_INPUT', parsedPostage.error.issues[0]?.message ?? 'Check the postage.', {
      field: 'postageMinor',
    });
  }
  await deps.db.transaction().execute(async (trx) => {
    const { dispute, order } = await lockDispute(trx, input.disputeId);
    if (order.buyer_id !== buyerId) throw new AppError('NOT_FOUND', 'We could not find that report.');
    requireStage(dispute, 'return');
    if (dispute.return_sent_at) throw new AppError('CONFLICT', 'You have already added the return tracking.');
    const trackingRef = input.trackingRef.toUpperCase();
    // Only a seller-paid return refunds the postage; the buyer's own postage is not recorded.
    const postageMinor = dispute.return_postage_by === 'seller' ? (parsedPostage.data ?? null) : null;
    await bookSentBack(
      trx,
      deps,
      dispute,
      order,
      { id: buyerId, kind: 'buyer' },
      {
        carrier: input.carrier,
        trackingRef,
        postageMinor,
        sentAt: new Date(),
      },
    );
    await audit(trx, buyerId, 'dispute.return_sent', dispute, order, {
      carrier: input.carrier,
      trackingRef,
      postageMinor,
    });
  });
  return getDisputeCase(deps.db, { id: buyerId }, input.disputeId);
}

/**
 * The book is on its way back: the buyer typed the carrier and tracking, or the return label's
 * first scan said so. The one path (note on the order, both told).
 */
async function bookSentBack(
  trx: Trx,
  deps: DisputeDeps,
  dispute: DisputeRow,
  order: LockedOrder,
  actor: Actor,
  sent: {
    carrier: Carrier;
    trackingRef: string;
    postageMinor: number | null;
    sentAt: Date;
    scanned?: boolean;
  },
): Promise<void> {
  await trx
    .updateTable('disputes')
    .set({
      return_carrier: sent.carrier,
      return_tracking_ref: sent.trackingRef,
      return_postage_minor: sent.postageMinor,
      return_sent_at: sent.sentAt,
      updated_at: new Date(),
    })
    .where('id', '=', dispute.id)
    .execute();
  const label = CARRIERS[sent.carrier].label;
  await noteOnOrder(
    trx,
    order.id,
    actor,
    `The buyer sent the book back: ${label} ${sent.trackingRef}${sent.postageMinor ? ` (postage ${formatPence(sent.postageMinor)})` : ''}`,
  );
  await tellBoth(trx, deps, order.id, {
    template: 'order.dispute_return_sent',
    notice: 'dispute_opened',
    buyer: {
      subject: 'Return on its way',
      lines: [
        `Thanks: the book from order ${order.reference} is on its way back with ${label} (${sent.trackingRef}). ${sent.scanned ? 'You are refunded when the carrier delivers it to the seller.' : 'You are refunded when the seller confirms it arrived.'}`,
      ],
    },
    seller: {
      subject: 'The book is on its way back',
      lines: [
        `The buyer sent the book from order ${order.reference} back with ${label}, tracking ${sent.trackingRef}. ${sent.scanned ? 'When the carrier delivers it to you, the buyer is refunded.' : 'When it arrives, confirm it on the sale page: the buyer is then refunded.'}`,
        ...(sent.postageMinor
          ? [
              `They paid ${formatPence(sent.postageMinor)} to post it; their refund includes ${formatPence(Math.min(sent.postageMinor, PROTECTION_RULES.returnPostageCapMinor))} of it, from your payout for this sale.`,
            ]
          : []),
      ],
    },
  });
}

/** The seller has the book back: the buyer is refunded in full. */
export async function confirmReturn(
  deps: DisputeDeps,
  sellerId: string,
  input: { disputeId: string },
): Promise<DisputeCase> {
  await deps.db.transaction().execute(async (trx) => {
    const { dispute, order } = await lockDispute(trx, input.disputeId);
    if (!(await isSellerOf(trx, sellerId, order)))
      throw new AppError('NOT_FOUND', 'We could not find that report.');
    requireStage(dispute, 'return');
    if (!dispute.return_sent_at) {
      throw new AppError('PRECONDITION_FAILED', 'The buyer has not added the return tracking yet.');
    }
    await bookCameBack(trx, deps, dispute, order, { id: sellerId, kind: 'seller' });
  });
  return getDisputeCase(deps.db, { id: sellerId }, input.disputeId);
}

/**
 * The book is back with the seller (they confirmed it, or the return label's "delivered" scan
 * said so): the buyer is refunded in full, the report settled and both told. The one path.
 */
async function bookCameBack(
  trx: Trx,
  deps: DisputeDeps,
  dispute: DisputeRow,
  order: LockedOrder,
  actor: Actor,
): Promise<void> {
  const by = actor.id;
  const reason = 'The book came back to the seller';
  const entered = dispute.return_postage_by === 'seller' ? (dispute.return_postage_minor ?? 0) : 0;
  const { refunded, postage } = await refundInFull(trx, deps, dispute, order, actor, reason, entered);
  await trx
    .updateTable('disputes')
    .set({ return_received_at: new Date(), return_postage_refunded_minor: postage })
    .where('id', '=', dispute.id)
    .execute();
  const postageLine = (whose: string) =>
    postage > 0
      ? ` That includes ${formatPence(postage)} for ${whose} return postage${postage < entered ? ` (of the ${formatPence(entered)} paid: ${postage === PROTECTION_RULES.returnPostageCapMinor ? `return postage is refunded up to ${formatPence(PROTECTION_RULES.returnPostageCapMinor)}` : 'a refund cannot be more than the order’s payment'})` : ''}.`
      : entered > 0
        ? ` The ${formatPence(entered)} return postage could not be added: a refund cannot be more than the order’s payment, which has all gone back.`
        : '';
  await settle(trx, dispute.id, { status: 'resolved_refund', refunded, note: reason, by });
  await tellBoth(trx, deps, order.id, {
    template: 'order.dispute_return_received',
    notice: 'refund',
    buyer: {
      subject: `Refund of ${formatPence(refunded)} on its way`,
      lines: [
        `The seller has the book from order ${order.reference} back. ${formatPence(refunded)} is on its way to the card you paid with, usually within 5 to 10 working days.${postageLine('your')}`,
      ],
    },
    seller: {
      subject: `Return received: the buyer is refunded ${formatPence(refunded)}`,
      lines: [
        `The book from order ${order.reference} came back to you; the buyer has been refunded ${formatPence(refunded)} from your payout for this sale.${postageLine('the')}`,
      ],
    },
  });
  // A receipt the carrier scanned has no member to audit: the order's event says the system did it.
  if (by) {
    await audit(trx, by, 'dispute.return_received', dispute, order, {
      refundedMinor: refunded,
      returnPostageMinor: postage,
    });
  }
}

/** The carriers the return label's networks are listed as on a dispute (its `return_carrier`). */
const NETWORK_CARRIER: Record<CarrierNetwork, Carrier> = {
  royal_mail: 'royal_mail_tracked_48',
  inpost: 'inpost',
  evri: 'evri',
};

/**
 * A scan of a dispute's return label (parcels/returns-scans.ts, in the scan's transaction): the
 * first scan sends the book back as the buyer's typed tracking does; "delivered" is the seller's
 * "it came back" (the refund, once); a failed delivery or a parcel sent back to the buyer tells
 * both sides. A report settled meanwhile is left alone.
 */
export async function disputeReturnScanned(
  trx: Trx,
  deps: DisputeDeps,
  parcel: ReturnParcelScan,
): Promise<void> {
  if (!parcel.disputeId) return;
  const dispute = await trx
    .selectFrom('disputes')
    .selectAll()
    .where('id', '=', parcel.disputeId)
    .forUpdate()
    .executeTakeFirst();
  const order = dispute ? await lockOrderRow(trx, dispute.order_id) : undefined;
  if (!dispute || !order) return;
  if (dispute.status !== 'open' || dispute.stage !== 'return' || order.status !== 'disputed') return;
  const system: Actor = { id: null, kind: 'system' };
  let current = dispute;
  if (!dispute.return_sent_at) {
    await bookSentBack(trx, deps, dispute, order, system, {
      carrier: NETWORK_CARRIER[parcel.network],
      trackingRef: parcel.trackingRef,
      postageMinor: null,
      sentAt: parcel.occurredAt,
      scanned: true,
    });
    current = {
      ...dispute,
      return_carrier: NETWORK_CARRIER[parcel.network],
      return_sent_at: parcel.occurredAt,
    };
  }
  if (parcel.after === 'delivered' && parcel.before !== 'delivered') {
    await bookCameBack(trx, deps, current, order, system);
  } else if (
    (parcel.after === 'delivery_failed' || parcel.after === 'returned_to_sender') &&
    parcel.before !== parcel.after
  ) {
    await tellReturnTrouble(trx, deps, order.id, order.reference, parcel.after);
  }
}

/** Staff decide: full refund, partial refund, return first, or release. */
export async function decideAsStaff(
  deps: DisputeDeps,
  staffId: string,
  input: { disputeId: string; decision: StaffDecision; amountMinor?: number | undefined; note: string },
): Promise<DisputeCase> {
  let returnShipmentId: string | null = null;
  await deps.db.transaction().execute(async (trx) => {
    const { dispute, order } = await lockDispute(trx, input.disputeId);
    const actor: Actor = { id: staffId, kind: 'staff' };
    const reason = `Our team decided: ${input.note}`;
    let refunded = 0;
    const ref = order.reference;
    switch (input.decision) {
      case 'full_refund': {
        ({ refunded } = await refundInFull(trx, deps, dispute, order, actor, reason));
        await settle(trx, dispute.id, { status: 'resolved_refund', refunded, note: input.note, by: staffId });
        await tellBoth(trx, deps, order.id, {
          template: 'order.dispute_decided',
          notice: 'dispute_resolved',
          buyer: {
            subject: `Refund of ${formatPence(refunded)} on its way`,
            lines: [
              `Our team has decided your report on order ${ref}: you are refunded ${formatPence(refunded)}.`,
              `Why: ${input.note}`,
            ],
          },
          seller: {
            subject: `Report decided: the buyer is refunded`,
            lines: [
              `Our team has decided the report on order ${ref}: the buyer is refunded ${formatPence(refunded)} from your payout for this sale.`,
              `Why: ${input.note}`,
            ],
          },
        });
        break;
      }
      case 'partial_refund': {
        const amount = input.amountMinor;
        if (amount === undefined)
          throw new AppError('BAD_INPUT', 'Say how much to refund.', { field: 'amountMinor' });
        const left = await refundable(trx, order.id);
        if (amount > left) {
          throw new AppError(
            'BAD_INPUT',
            `At most ${formatPence(left)} can still be refunded on this order.`,
            { field: 'amountMinor' },
          );
        }
        refunded = await refundPart(trx, deps, order, amount, actor, reason);
        await settle(trx, dispute.id, { status: 'resolved_refund', refunded, note: input.note, by: staffId });
        await tellBoth(trx, deps, order.id, {
          template: 'order.dispute_decided',
          notice: 'dispute_resolved',
          buyer: {
            subject: `Refund of ${formatPence(refunded)} on its way`,
            lines: [
              `Our team has decided your report on order ${ref}: you are refunded ${formatPence(refunded)} and keep the book.`,
              `Why: ${input.note}`,
            ],
          },
          seller: {
            subject: `Report decided: ${formatPence(refunded)} refunded`,
            lines: [
              `Our team has decided the report on order ${ref}: the buyer is refunded ${formatPence(refunded)} from your payout, and the rest of it is released.`,
              `Why: ${input.note}`,
            ],
          },
        });
        break;
      }
      case 'return_first': {
        if (dispute.stage === 'return') {
          throw new AppError('PRECONDITION_FAILED', 'The book is already on its way back.');
        }
        const payer = PROTECTION_RULES.returnPostageBy[dispute.problem as DisputeProblem];
        await trx
          .updateTable('disputes')
          .set({
            stage: 'return',
            return_asked_by: 'staff',
            return_postage_by: payer,
            resolution_note: input.note,
            updated_at: new Date(),
          })
          .where('id', '=', dispute.id)
          .execute();
        await noteOnOrder(
          trx,
          order.id,
          actor,
          `Our team asked for the book back before the refund (return postage paid by the ${payer})`,
        );
        returnShipmentId = await openReturnShipment(trx, deps, order.id, { disputeId: dispute.id }, payer);
        await tellReturn(trx, deps, order, payer, 'Our team', returnShipmentId !== null);
        break;
      }
      case 'release': {
        await completeAndAskReviews(trx, deps, order, actor, reason);
        await settle(trx, dispute.id, {
          status: 'resolved_release',
          refunded: 0,
          note: input.note,
          by: staffId,
        });
        await tellBoth(trx, deps, order.id, {
          template: 'order.dispute_decided',
          notice: 'dispute_resolved',
          buyer: {
            subject: 'Report decided: no refund',
            lines: [
              `Our team has decided your report on order ${ref}: the payment goes to the seller.`,
              `Why: ${input.note}`,
            ],
          },
          seller: {
            subject: 'Report decided: your payout is released',
            lines: [
              `Our team has decided the report on order ${ref} in your favour: your payout is released.`,
              `Why: ${input.note}`,
            ],
          },
        });
        break;
      }
    }
    await audit(trx, staffId, `dispute.decide_${input.decision}`, dispute, order, {
      refundedMinor: refunded,
      note: input.note,
    });
  });
  await buyReturnLabel(deps, returnShipmentId);
  return getDisputeCase(deps.db, { id: staffId, staff: true }, input.disputeId);
}

// The job -------------------------------------------------------------------------------------

/** Reports the seller did not answer within their working days go to our team. */
export async function escalateUnanswered(deps: OrderDeps, now = new Date()): Promise<number> {
  const due = await deps.db
    .selectFrom('disputes')
    .select('id')
    .where('stage', '=', 'seller')
    .where('status', '=', 'open')
    .where('respond_by', '<=', now)
    .orderBy('respond_by')
    .limit(200)
    .execute();
  let moved = 0;
  for (const { id } of due) {
    const done = await deps.db.transaction().execute(async (trx) => {
      const dispute = await trx
        .selectFrom('disputes')
        .selectAll()
        .where('id', '=', id)
        .forUpdate()
        .executeTakeFirst();
      if (
        dispute?.stage !== 'seller' ||
        dispute.status !== 'open' ||
        !dispute.respond_by ||
        dispute.respond_by > now
      ) {
        return false;
      }
      await trx
        .updateTable('disputes')
        .set({ stage: 'staff', escalated_at: now, updated_at: now })
        .where('id', '=', id)
        .execute();
      const order = (await lockOrderRow(trx, dispute.order_id))!;
      await noteOnOrder(
        trx,
        order.id,
        { id: null, kind: 'system' },
        'The seller did not answer in time: our team decides',
      );
      await tellBoth(trx, deps, order.id, {
        template: 'order.dispute_escalated',
        notice: 'dispute_opened',
        buyer: {
          subject: 'Our team will decide your report',
          lines: [
            `The seller of order ${order.reference} did not answer your report by ${londonDay.format(dispute.respond_by)}, so our team now decides, usually within 2 working days.`,
          ],
        },
        seller: {
          subject: 'You did not answer the report: our team will decide',
          lines: [
            `You did not answer the report on order ${order.reference} by ${londonDay.format(dispute.respond_by)}, so our team now decides. Your payout stays on hold.`,
          ],
        },
      });
      return true;
    });
    if (done) moved += 1;
  }
  return moved;
}

// A private seller's returns ----------------------------------------------------------------------

/** Whether the member accepts returns for any reason on their own (non-charity) listings. */
export async function returnsSetting(db: Database, userId: string): Promise<{ acceptsReturns: boolean }> {
  const row = await db
    .selectFrom('profiles')
    .select('accepts_returns')
    .where('id', '=', userId)
    .executeTakeFirst();
  return { acceptsReturns: row?.accepts_returns ?? false };
}

/** Turns it on or off; the listings show it at once (a profile change drops their cached pages). */
export async function setReturnsSetting(
  db: Database,
  userId: string,
  acceptsReturns: boolean,
): Promise<{ acceptsReturns: boolean }> {
  const updated = await db
    .updateTable('profiles')
    .set({ accepts_returns: acceptsReturns, updated_at: new Date() })
    .where('id', '=', userId)
    .returning('accepts_returns')
    .executeTakeFirst();
  if (!updated) throw new AppError('NOT_FOUND', 'Finish setting up your profile first.');
  return { acceptsReturns: updated.accepts_returns };
}

// The staff queue -----------------------------------------------------------------------------

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
      reportBooks().as('books'),
      // What a refund would give back (the money definitions' dispute_money).
      sql<number>`(select dm.refundable_minor from public.dispute_money dm where dm.dispute_id = d.id)`.as(
        'refundable_minor',
      ),
      'd.refunded_minor',
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
    refundedMinor: row.refunded_minor,
  }));
}
