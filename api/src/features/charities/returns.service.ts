/**
 * 14-day returns on charity orders (brief §4: charities sell as traders).
 *
 * The buyer asks within 14 days of delivery, with a reason. The charity accepts (the buyer is
 * emailed the address to post the book to) or declines with a reason. When the book is back
 * the charity marks it received and the buyer is refunded through the refund command
 * (refunds/refund.ts): the item and its postage, not the buyer-protection fee (a service
 * already given), and the seller's payout goes (decision 0022: a payout still held is
 * cancelled). The order becomes refunded through the orders state machine (an order event
 * records it), and the listing is withdrawn so the charity can put the copy on sale again, all
 * in the refund's transaction. Decision 0012.
 *
 * Refunding when the book is back, not at acceptance, protects a charity from paying for a
 * book that never comes back; the buyer's statutory 14 days to be refunded after returning
 * the goods fit inside it.
 */
import {
  COMMERCIAL_DEFAULTS,
  formatPence,
  type ReturnEligibility,
  type ReturnRequest,
  type ReturnStatus,
} from '@reshelf/contracts';
import { sql, type Transaction } from 'kysely';
import type { DB } from '../../db/database.generated.ts';
import type { Database } from '../../db/index.ts';
import { AppError } from '../../errors.ts';
import type { CheckoutDeps } from '../checkout/checkout.service.ts';
import { charityMail } from '../mail/charity-mail.ts';
import { notify } from '../notifications/notify.ts';
import { type Actor, lockOrderRow, noteOnOrder, recordEvent, transition } from '../orders/order-machine.ts';
import { refund as refundOrder } from '../refunds/refund.ts';
import { type CharityDeps, requireCharity } from './charity-account.service.ts';

const DAY_MS = 86_400_000;
const RETURN_WINDOW_MS = COMMERCIAL_DEFAULTS.charityReturnDays * DAY_MS;

/** Order states in which the book has reached the buyer and may go back. */
const RETURNABLE = ['delivered', 'completed'];

const londonDate = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/London',
  day: 'numeric',
  month: 'long',
  year: 'numeric',
});

interface OrderForReturn {
  id: string;
  reference: string;
  status: string;
  buyer_id: string;
  seller_id: string;
  delivered_at: Date | null;
  total_minor: number;
  buyer_protection_minor: number;
  listing_id: string;
  charity_id: string | null;
  title: string;
}

async function orderForReturn(
  db: Database | Transaction<DB>,
  orderId: string,
  { lock = false } = {},
): Promise<OrderForReturn | undefined> {
  const { rows } = await sql<OrderForReturn>`
    select o.id, o.reference, o.status, o.buyer_id, o.seller_id, o.delivered_at, o.total_minor,
      o.buyer_protection_minor, o.listing_id, l.charity_id, b.title
    from public.orders o
    join public.listings l on l.id = o.listing_id
    join public.books b on b.id = l.book_id
    where o.id = ${orderId}
    ${lock ? sql`for update of o` : sql``}`.execute(db);
  return rows[0];
}

interface ReturnRow {
  id: string;
  order_id: string;
  reference: string;
  title: string;
  charity_name: string;
  status: ReturnStatus;
  reason: string;
  decline_reason: string | null;
  refund_minor: number | null;
  address_line1: string | null;
  address_line2: string | null;
  town: string | null;
  postcode: string | null;
  created_at: Date;
  responded_at: Date | null;
  refunded_at: Date | null;
  buyer_name: string | null;
  buyer_email: string | null;
  buyer_id: string;
  charity_id: string;
}

const RETURN_SELECT = sql`
  select r.id, r.order_id, o.reference, b.title, c.name as charity_name, r.status, r.reason,
    r.decline_reason, r.refund_minor, c.address_line1, c.address_line2, c.town, c.postcode,
    r.created_at, r.responded_at, r.refunded_at, p.display_name as buyer_name, u.email as buyer_email,
    r.buyer_id, r.charity_id
  from public.return_requests r
  join public.orders o on o.id = r.order_id
  join public.listings l on l.id = o.listing_id
  join public.books b on b.id = l.book_id
  join public.charities c on c.id = r.charity_id
  left join public.profiles p on p.id = r.buyer_id
  left join auth.users u on u.id = r.buyer_id`;

function returnAddress(
  row: Pick<ReturnRow, 'charity_name' | 'address_line1' | 'address_line2' | 'town' | 'postcode'>,
) {
  const parts = [row.charity_name, row.address_line1, row.address_line2, row.town, row.postcode].filter(
    Boolean,
  );
  return parts.length > 1 ? parts.join(', ') : null;
}

function toReturn(row: ReturnRow, forCharity: boolean): ReturnRequest {
  return {
    id: row.id,
    orderId: row.order_id,
    orderReference: row.reference,
    title: row.title,
    charityName: row.charity_name,
    status: row.status,
    reason: row.reason,
    declineReason: row.decline_reason,
    refundMinor: row.refund_minor,
    // The buyer needs the address once the return is accepted; the charity knows its own.
    returnAddress: !forCharity && row.status === 'accepted' ? returnAddress(row) : null,
    createdAt: row.created_at.toISOString(),
    respondedAt: row.responded_at?.toISOString() ?? null,
    refundedAt: row.refunded_at?.toISOString() ?? null,
    buyerName: forCharity ? row.buyer_name : null,
  };
}

async function returnById(db: Database, id: string): Promise<ReturnRow | undefined> {
  const { rows } = await sql<ReturnRow>`${RETURN_SELECT} where r.id = ${id}`.execute(db);
  return rows[0];
}

/** Why an order cannot be returned now, or null when it can. */
function refusal(order: OrderForReturn, now: Date): string | null {
  if (!order.charity_id) {
    return 'Only books bought from charities can be returned. A private seller’s book must match its description: if it doesn’t, report a problem with the order.';
  }
  if (!RETURNABLE.includes(order.status) || !order.delivered_at) {
    return ['refunded', 'cancelled'].includes(order.status)
      ? `This order has been ${order.status}.`
      : order.status === 'disputed'
        ? 'This order has an open problem report: our team will sort it out with you.'
        : 'You can ask to return the book once it has been delivered.';
  }
  const deadline = new Date(order.delivered_at.getTime() + RETURN_WINDOW_MS);
  if (now > deadline) {
    return `The 14 days to return this book ended on ${londonDate.format(deadline)}.`;
  }
  return null;
}

/** What the buyer may do about returning their order, and any request already made. */
export async function returnEligibility(
  db: Database,
  buyerId: string,
  orderId: string,
): Promise<ReturnEligibility> {
  const order = await orderForReturn(db, orderId);
  if (!order || order.buyer_id !== buyerId) throw new AppError('NOT_FOUND', 'We could not find that order.');
  const { rows } = await sql<ReturnRow>`${RETURN_SELECT} where r.order_id = ${orderId}`.execute(db);
  const request = rows[0] ? toReturn(rows[0], false) : null;
  const why = request ? null : refusal(order, new Date());
  return {
    orderId,
    charityOrder: Boolean(order.charity_id),
    eligible: !request && why === null,
    deadline: order.delivered_at
      ? new Date(order.delivered_at.getTime() + RETURN_WINDOW_MS).toISOString()
      : null,
    reason: why,
    request,
  };
}

async function charityRecipients(db: Database, charityId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('charity_members as m')
    .innerJoin('auth.users as u', 'u.id', 'm.user_id')
    .select('u.email')
    .where('m.charity_id', '=', charityId)
    .where('m.role', '=', 'owner')
    .execute();
  const contact = await db
    .selectFrom('charities')
    .select('contact_email')
    .where('id', '=', charityId)
    .executeTakeFirst();
  return [
    ...new Set([...rows.map((r) => r.email), contact?.contact_email].filter((e): e is string => Boolean(e))),
  ];
}

export async function requestReturn(
  deps: CharityDeps,
  buyer: { userId: string },
  input: { orderId: string; reason: string },
): Promise<ReturnEligibility> {
  await deps.db.transaction().execute(async (trx) => {
    const order = await orderForReturn(trx, input.orderId, { lock: true });
    if (!order || order.buyer_id !== buyer.userId)
      throw new AppError('NOT_FOUND', 'We could not find that order.');
    const existing = await trx
      .selectFrom('return_requests')
      .select('id')
      .where('order_id', '=', order.id)
      .executeTakeFirst();
    if (existing) throw new AppError('CONFLICT', 'You have already asked to return this book.');
    const why = refusal(order, new Date());
    if (why) throw new AppError('PRECONDITION_FAILED', why);
    await trx
      .insertInto('return_requests')
      .values({
        order_id: order.id,
        charity_id: order.charity_id!,
        buyer_id: buyer.userId,
        reason: input.reason,
      })
      .execute();
    await recordEvent(
      trx,
      order.id,
      order.status,
      order.status,
      { id: buyer.userId, kind: 'buyer' },
      `Return requested: ${input.reason}`,
    );
    const mail = charityMail.returnRequested({
      title: order.title,
      reference: order.reference,
      reason: input.reason,
      url: `${deps.origin}/charity/dashboard#returns`,
    });
    for (const to of await charityRecipients(trx, order.charity_id!)) {
      await deps.mailer.send({ to, ...mail, template: 'charity-return-requested' }, { trx });
    }
  });
  return returnEligibility(deps.db, buyer.userId, input.orderId);
}

/** A return of the caller's charity, or not found. */
async function charityReturn(db: Database, userId: string, returnId: string): Promise<ReturnRow> {
  const charity = await requireCharity(db, userId);
  const row = await returnById(db, returnId);
  if (!row || row.charity_id !== charity.charityId)
    throw new AppError('NOT_FOUND', 'We couldn’t find that return.');
  return row;
}

/** Moves a return from one status to the next, refusing when someone else already moved it. */
async function respond(
  db: Database,
  returnId: string,
  from: ReturnStatus,
  values: { status: ReturnStatus; decline_reason?: string; responded_by: string },
): Promise<void> {
  const result = await db
    .updateTable('return_requests')
    .set({ ...values, responded_at: new Date() })
    .where('id', '=', returnId)
    .where('status', '=', from)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) {
    throw new AppError(
      'CONFLICT',
      'This return has already been answered. Reload the page to see where it is.',
    );
  }
}

/** The buyer's email about their return, queued on `trx` (the step's transaction). */
async function buyerMail(
  trx: Database,
  deps: CharityDeps,
  row: ReturnRow,
  mail: { subject: string; text: string; html: string },
  template: string,
) {
  if (!row.buyer_email) return;
  await deps.mailer.send({ to: row.buyer_email, ...mail, template, userId: row.buyer_id }, { trx });
}

export async function acceptReturn(
  deps: CharityDeps,
  userId: string,
  returnId: string,
): Promise<ReturnRequest> {
  const row = await charityReturn(deps.db, userId, returnId);
  const accepted = await deps.db.transaction().execute(async (trx) => {
    await respond(trx, row.id, 'requested', { status: 'accepted', responded_by: userId });
    await noteOnOrder(trx, row.order_id, { id: userId, kind: 'charity' }, 'Return accepted');
    const accepted = (await returnById(trx, row.id))!;
    await buyerMail(
      trx,
      deps,
      accepted,
      charityMail.returnAccepted({
        title: row.title,
        reference: row.reference,
        address: returnAddress(accepted) ?? row.charity_name,
        url: `${deps.origin}/account/orders`,
      }),
      'charity-return-accepted',
    );
    return accepted;
  });
  return toReturn(accepted, true);
}

export async function declineReturn(
  deps: CharityDeps,
  userId: string,
  input: { returnId: string; reason: string },
): Promise<ReturnRequest> {
  const row = await charityReturn(deps.db, userId, input.returnId);
  const declined = await deps.db.transaction().execute(async (trx) => {
    await respond(trx, row.id, 'requested', {
      status: 'declined',
      decline_reason: input.reason,
      responded_by: userId,
    });
    await noteOnOrder(trx, row.order_id, { id: userId, kind: 'charity' }, `Return declined: ${input.reason}`);
    const declined = (await returnById(trx, row.id))!;
    await buyerMail(
      trx,
      deps,
      declined,
      charityMail.returnDeclined({
        title: row.title,
        reference: row.reference,
        reason: input.reason,
        url: `${deps.origin}/account/orders`,
      }),
      'charity-return-declined',
    );
    return declined;
  });
  return toReturn(declined, true);
}

/**
 * The book is back: refund the buyer and close the order. The return is claimed first (one
 * conditional update), so two clicks or two members refund once; a refund the provider
 * refuses leaves the return accepted to try again.
 */
export async function receiveReturn(
  deps: CharityDeps & Pick<CheckoutDeps, 'payments'>,
  userId: string,
  returnId: string,
): Promise<ReturnRequest> {
  const row = await charityReturn(deps.db, userId, returnId);
  const claimed = await deps.db
    .updateTable('return_requests')
    .set({ refunded_by: userId })
    .where('id', '=', row.id)
    .where('status', '=', 'accepted')
    .where('refunded_by', 'is', null)
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) === 0) {
    throw new AppError(
      'CONFLICT',
      row.status === 'requested'
        ? 'Accept the return first: the buyer then posts the book back to you.'
        : 'This return has already been refunded or closed.',
    );
  }
  const actor: Actor = { id: userId, kind: 'charity' };
  let refunded: ReturnRow;
  try {
    refunded = await deps.db.transaction().execute(async (trx) => {
      const order = (await orderForReturn(trx, row.order_id, { lock: true }))!;
      // The refund command: the book and its postage, and the seller's payout goes (0012, 0022).
      const refund = await refundOrder(
        trx,
        deps.payments,
        order,
        'goods',
        `Charity return of ${order.reference}: ${row.reason}`.slice(0, 500),
        actor,
        { noPayment: 'We couldn’t find this order’s payment to refund.' },
      );
      await trx
        .updateTable('return_requests')
        .set({
          status: 'refunded',
          refund_id: refund.refundId!,
          refund_minor: refund.amountMinor,
          refunded_at: new Date(),
        })
        .where('id', '=', row.id)
        .execute();
      const current = (await lockOrderRow(trx, row.order_id))!;
      if (RETURNABLE.includes(current.status)) {
        await transition(
          trx,
          current,
          'refunded',
          actor,
          `Returned to the charity: refunded ${refund.amountMinor}p`,
        );
        await trx
          .updateTable('listings')
          .set({ status: 'withdrawn', updated_at: new Date() })
          .where('id', '=', current.listing_id)
          .where('status', '=', 'sold')
          .execute();
      }
      const done = (await returnById(trx, row.id))!;
      await buyerMail(
        trx,
        deps,
        done,
        charityMail.returnRefunded({
          title: row.title,
          reference: row.reference,
          amountMinor: refund.amountMinor,
          url: `${deps.origin}/account/orders`,
        }),
        'charity-return-refunded',
      );
      // The buyer sees the refund in the app too, in the same transaction.
      await notify(trx, {
        userId: row.buyer_id,
        kind: 'refund',
        title: `Refund of ${formatPence(refund.amountMinor)} for ${row.title}`,
        body: `The charity has your returned copy of “${row.title}” (order ${row.reference}). We have refunded ${formatPence(refund.amountMinor)} to your original payment method; it can take up to 5 working days to show.`,
        link: `/account/orders/${row.order_id}`,
        orderId: row.order_id,
      });
      return done;
    });
  } catch (error) {
    await deps.db
      .updateTable('return_requests')
      .set({ refunded_by: null })
      .where('id', '=', row.id)
      .execute();
    throw error;
  }
  return toReturn(refunded, true);
}

export async function charityReturns(db: Database, userId: string): Promise<ReturnRequest[]> {
  const charity = await requireCharity(db, userId);
  const { rows } = await sql<ReturnRow>`${RETURN_SELECT}
    where r.charity_id = ${charity.charityId}
    order by (r.status in ('requested', 'accepted')) desc, r.created_at desc
    limit 100`.execute(db);
  return rows.map((row) => toReturn(row, true));
}
