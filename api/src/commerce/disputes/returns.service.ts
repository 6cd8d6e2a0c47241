/**
 * Change-of-mind returns: 14-day returns on charity orders (brief §4: charities sell as
 * traders), on the same return flow as a dispute's return (decision 0049): ask →
 * the seller accepts and the buyer is given the address → the buyer enters the carrier and
 * tracking (`sendReturnBack`, the dispute return's own tracking rule) → the seller confirms
 * receipt → the refund. Every step is an order event, emailed and notified in the app to both
 * sides (`return_update`), in the step's transaction.
 *
 * The buyer asks within 14 days of delivery, with a reason. The charity accepts (the buyer is
 * emailed the address to post the book to) or declines with a reason. The buyer adds the
 * tracking once posted. When the book is back the charity marks it received (with or without
 * the buyer's tracking: the book in hand is what counts) and the buyer is refunded through the refund command
 * (refunds/refund.ts): the item and its postage, not the buyer-protection fee (a service
 * already given), and the seller's payout goes (decision 0022: a payout still held is
 * cancelled). The order becomes refunded through the orders state machine (an order event
 * records it), and the listing is withdrawn so the charity can put the copy on sale again, all
 * in the refund's transaction. Decision 0012.
 *
 * Refunding when the book is back, not at acceptance, protects a charity from paying for a
 * book that never comes back; the buyer's statutory 14 days to be refunded after returning
 * the goods fit inside it.
 *
 * An order of several books: the request may name some of them (`return_items`;
 * none named is every book not yet refunded). When they are back, exactly those books are
 * refunded (each its price less its shares of the bundle discount and of WELCOME20/the
 * promotion, not its protection share: refund.ts, `{ items, goods }`); the order keeps going
 * with the rest (it completes as usual, the payout less what the returned books took back), and
 * only the returned books' listings are withdrawn. When the request covers every book left, it
 * is the whole order's return as before: postage back too, the order refunded.
 */
import {
  booksTitle,
  CANCELLATION_RULES,
  CARRIERS,
  type Carrier,
  formatPence,
  PROTECTION_RULES,
  type ReturnEligibility,
  type ReturnRequest,
  type ReturnStatus,
} from '@reshelf/contracts';
import { sql, type Transaction } from 'kysely';
import { traderOfListing } from '../../catalogue/index.ts';
import type { DB } from '../../db/database.generated.ts';
import type { Database } from '../../db/index.ts';
import { AppError } from '../../errors.ts';
import { requireCharity } from '../../platform/identity/memberships.ts';
import { charityMail } from '../../platform/mail/charity-mail.ts';
import type { Mailer } from '../../platform/mail/mailer.ts';
import { notify } from '../../platform/notifications/notify.ts';
import type { CheckoutDeps } from '../checkout/checkout.service.ts';
import { refund as refundOrder } from '../money/refund.ts';
import { type Actor, lockOrderRow, noteOnOrder, recordEvent, transition } from '../orders/order-machine.ts';
import {
  buyReturnLabel,
  openReturnShipment,
  type ReturnParcelDeps,
  type ReturnParcelScan,
  returnShipmentOf,
  tellReturnTrouble,
} from '../parcels/returns.ts';
import { tellBoth } from './dispute-mail.ts';

/** What a return's steps need: the database, the outbox, the site's origin for links and the carrier (its label). */
export interface ReturnDeps extends ReturnParcelDeps {
  db: Database;
  mailer: Mailer;
  origin: string;
}

const DAY_MS = 86_400_000;

/** The order's seller is a trader: a charity, or a business seller (decision 0073). */
function traderOrder(order: { charity_id: string | null; trades: boolean }): boolean {
  return Boolean(order.charity_id) || order.trades;
}

/** The days a change-of-mind return may be asked for: a trader's cancellation days, or a private seller's. */
function windowDays(order: { charity_id: string | null; trades: boolean }): number {
  return traderOrder(order) ? CANCELLATION_RULES.cancelDays : PROTECTION_RULES.privateReturnDays;
}

function deadlineOf(order: OrderForReturn): Date | null {
  return order.delivered_at ? new Date(order.delivered_at.getTime() + windowDays(order) * DAY_MS) : null;
}

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
  discount_minor: number;
  charity_id: string | null;
  /** The private seller takes books back for a change of mind (their setting). */
  accepts_returns: boolean;
  /** The seller declared they sell as a trade (a business seller): a trader, as a charity is. */
  trades: boolean;
}

/** The order, with the charity its books came from (every item of an order is one shop's). */
async function orderForReturn(
  db: Database | Transaction<DB>,
  orderId: string,
  { lock = false } = {},
): Promise<OrderForReturn | undefined> {
  const { rows } = await sql<OrderForReturn>`
    select o.id, o.reference, o.status, o.buyer_id, o.seller_id, o.delivered_at, o.total_minor,
      o.buyer_protection_minor, o.discount_minor, l.charity_id,
      coalesce(sp.accepts_returns, false) as accepts_returns,
      exists (select 1 from public.seller_trade_declarations d
              where d.user_id = o.seller_id and d.trades) as trades
    from public.orders o
    join public.order_items i on i.order_id = o.id and i.position = 1
    join public.listings l on l.id = i.listing_id
    left join public.profiles sp on sp.id = o.seller_id
    where o.id = ${orderId}
    ${lock ? sql`for update of o` : sql``}`.execute(db);
  return rows[0];
}

interface OrderBook {
  order_item_id: string;
  listing_id: string;
  title: string;
  /** Its goods part (price less both discounts) is back already. */
  refunded: boolean;
}

/** The order's books, first first. */
async function orderBooks(db: Database | Transaction<DB>, orderId: string): Promise<OrderBook[]> {
  const { rows } = await sql<OrderBook>`
    select i.order_item_id, i.listing_id, b.title, i.returned as refunded
    from public.order_item_money i
    join public.listings l on l.id = i.listing_id
    join public.books b on b.id = l.book_id
    where i.order_id = ${orderId}
    order by i.position`.execute(db);
  return rows;
}

function namesOf(books: readonly { title: string }[]): string {
  return booksTitle(books.map((book) => book.title)) || 'your order';
}

/** The books each return names (every book of its order when it named none). */
async function returnBooks(
  db: Database | Transaction<DB>,
  returns: readonly { id: string; order_id: string }[],
): Promise<Map<string, { orderItemId: string; listingId: string; title: string }[]>> {
  const result = new Map<string, { orderItemId: string; listingId: string; title: string }[]>();
  if (returns.length === 0) return result;
  const { rows } = await sql<{
    return_id: string;
    order_item_id: string;
    listing_id: string;
    title: string;
    named: boolean;
  }>`
    select r.id as return_id, i.id as order_item_id, i.listing_id, b.title,
      exists (select 1 from public.return_items ri where ri.return_id = r.id) as named
    from public.return_requests r
    join public.order_items i on i.order_id = r.order_id
    join public.listings l on l.id = i.listing_id
    join public.books b on b.id = l.book_id
    where r.id = any (${returns.map((r) => r.id)}::uuid[])
      and (not exists (select 1 from public.return_items ri where ri.return_id = r.id)
           or exists (select 1 from public.return_items ri where ri.return_id = r.id and ri.order_item_id = i.id))
    order by i.position`.execute(db);
  for (const row of rows) {
    const list = result.get(row.return_id) ?? [];
    list.push({ orderItemId: row.order_item_id, listingId: row.listing_id, title: row.title });
    result.set(row.return_id, list);
  }
  return result;
}

interface ReturnRowBase {
  id: string;
  order_id: string;
  reference: string;
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
  charity_id: string | null;
  seller_id: string;
  return_address: string | null;
  return_carrier: string | null;
  return_tracking_ref: string | null;
  return_sent_at: Date | null;
}

interface ReturnRow extends ReturnRowBase {
  /** The books going back, and their title ("Title and 2 more books"). */
  books: { orderItemId: string; listingId: string; title: string }[];
  title: string;
}

/** Reads returns with the books each names. */
async function withBooks(db: Database | Transaction<DB>, rows: ReturnRowBase[]): Promise<ReturnRow[]> {
  const books = await returnBooks(db, rows);
  return rows.map((row) => {
    const list = books.get(row.id) ?? [];
    return { ...row, books: list, title: namesOf(list) };
  });
}

const RETURN_SELECT = sql`
  select r.id, r.order_id, o.reference, coalesce(c.name, sp.display_name, 'The seller') as charity_name,
    r.status, r.reason,
    r.decline_reason, r.refund_minor, c.address_line1, c.address_line2, c.town, c.postcode,
    r.created_at, r.responded_at, r.refunded_at, p.display_name as buyer_name, u.email as buyer_email,
    r.buyer_id, r.charity_id, r.seller_id, r.return_address, r.return_carrier, r.return_tracking_ref,
    r.return_sent_at
  from public.return_requests r
  join public.orders o on o.id = r.order_id
  left join public.charities c on c.id = r.charity_id
  left join public.profiles sp on sp.id = r.seller_id
  left join public.profiles p on p.id = r.buyer_id
  left join auth.users u on u.id = r.buyer_id`;

function returnAddress(
  row: Pick<
    ReturnRow,
    'charity_id' | 'charity_name' | 'address_line1' | 'address_line2' | 'town' | 'postcode' | 'return_address'
  >,
) {
  // A private seller gives the address when accepting; a charity's is its own.
  if (!row.charity_id) return row.return_address;
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
    books: row.books.map((book) => ({ orderItemId: book.orderItemId, title: book.title })),
    charityName: row.charity_name,
    status: row.status,
    reason: row.reason,
    declineReason: row.decline_reason,
    refundMinor: row.refund_minor,
    // The buyer needs the address once the return is accepted; a private seller sees the one they
    // gave (a charity knows its own).
    returnAddress: row.status === 'accepted' && (!forCharity || !row.charity_id) ? returnAddress(row) : null,
    createdAt: row.created_at.toISOString(),
    respondedAt: row.responded_at?.toISOString() ?? null,
    refundedAt: row.refunded_at?.toISOString() ?? null,
    buyerName: forCharity ? row.buyer_name : null,
    returnCarrier:
      row.return_carrier && row.return_carrier in CARRIERS
        ? CARRIERS[row.return_carrier as Carrier].label
        : row.return_carrier,
    returnTrackingRef: row.return_tracking_ref,
    returnSentAt: row.return_sent_at?.toISOString() ?? null,
  };
}

async function returnById(db: Database, id: string): Promise<ReturnRow | undefined> {
  const { rows } = await sql<ReturnRowBase>`${RETURN_SELECT} where r.id = ${id}`.execute(db);
  return (await withBooks(db, rows))[0];
}

/** Whether the order's books may go back for a change of mind at all (a trader's, or a private seller's who accepts returns). */
function returnsOffered(order: OrderForReturn): boolean {
  return traderOrder(order) || order.accepts_returns;
}

/** Why an order cannot be returned now, or null when it can. */
function refusal(order: OrderForReturn, now: Date): string | null {
  if (!returnsOffered(order)) {
    return 'Only books bought from charities and business sellers can be returned for a change of mind. A private seller’s book must match its description: if it doesn’t, report a problem with the order.';
  }
  if (!RETURNABLE.includes(order.status) || !order.delivered_at) {
    return ['refunded', 'cancelled'].includes(order.status)
      ? `This order has been ${order.status}.`
      : order.status === 'disputed'
        ? 'This order has an open problem report: our team will sort it out with you.'
        : 'You can ask to return the book once it has been delivered.';
  }
  const deadline = deadlineOf(order)!;
  if (now > deadline) {
    return `The ${windowDays(order)} days to return this book ended on ${londonDate.format(deadline)}.`;
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
  const { rows } = await sql<ReturnRowBase>`${RETURN_SELECT} where r.order_id = ${orderId}`.execute(db);
  const [existing] = await withBooks(db, rows);
  const request = existing ? toReturn(existing, false) : null;
  const why = request ? null : refusal(order, new Date());
  const books = await orderBooks(db, orderId);
  return {
    books: books.map((book) => ({
      orderItemId: book.order_item_id,
      title: book.title,
      returnable: !book.refunded,
    })),
    orderId,
    charityOrder: Boolean(order.charity_id),
    returnsOffered: returnsOffered(order),
    windowDays: windowDays(order),
    eligible: !request && why === null,
    deadline: deadlineOf(order)?.toISOString() ?? null,
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
  deps: ReturnDeps,
  buyer: { userId: string },
  input: { orderId: string; reason: string; itemIds?: string[] | undefined },
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
    // Which books go back: those named, or every book not refunded yet.
    const books = await orderBooks(trx, order.id);
    const open = books.filter((book) => !book.refunded);
    const asked = input.itemIds ? [...new Set(input.itemIds)] : open.map((book) => book.order_item_id);
    const named = asked.map((id) => books.find((book) => book.order_item_id === id));
    if (named.some((book) => !book)) {
      throw new AppError('BAD_INPUT', 'One of those books is not in this order. Refresh the page.');
    }
    if (named.some((book) => book?.refunded)) {
      throw new AppError('CONFLICT', 'One of those books has already been refunded.');
    }
    if (named.length === 0) throw new AppError('BAD_INPUT', 'Choose at least one book to return.');
    const request = await trx
      .insertInto('return_requests')
      .values({
        order_id: order.id,
        charity_id: order.charity_id,
        seller_id: order.seller_id,
        buyer_id: buyer.userId,
        reason: input.reason,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    // Some of the books: named (none named is every book still open).
    if (named.length < open.length) {
      await trx
        .insertInto('return_items')
        .values(named.map((book) => ({ return_id: request.id, order_item_id: book!.order_item_id })))
        .execute();
    }
    const title = namesOf(named as OrderBook[]);
    await recordEvent(
      trx,
      order.id,
      order.status,
      order.status,
      { id: buyer.userId, kind: 'buyer' },
      named.length < books.length
        ? `Return requested for ${named.map((book) => `“${book!.title}”`).join(', ')}: ${input.reason}`
        : `Return requested: ${input.reason}`,
    );
    if (!order.charity_id) {
      // A private seller's return: both told, in the app and by email.
      await tellBoth(trx, deps, order.id, {
        template: 'order.return_requested',
        notice: 'return_update',
        buyer: {
          subject: 'Return requested',
          lines: [
            `You asked to return ${title} (order ${order.reference}). The seller answers soon; if they accept, they tell you where to post it.`,
          ],
        },
        seller: {
          subject: 'The buyer asks to return a book',
          lines: [
            `The buyer of ${title} (order ${order.reference}) asks to return it: “${input.reason}”.`,
            'You accept returns: accept it and give the address to post it to, or decline with a reason, from the sale page.',
          ],
        },
      });
      return;
    }
    const mail = charityMail.returnRequested({
      title,
      reference: order.reference,
      reason: input.reason,
      url: `${deps.origin}/charity/dashboard#returns`,
    });
    for (const to of await charityRecipients(trx, order.charity_id)) {
      await deps.mailer.send({ to, ...mail, template: 'charity-return-requested' }, { trx });
    }
  });
  return returnEligibility(deps.db, buyer.userId, input.orderId);
}

/** A return of the caller's charity, or of their own private sale; or not found. */
async function charityReturn(db: Database, userId: string, returnId: string): Promise<ReturnRow> {
  const row = await returnById(db, returnId);
  if (row && !row.charity_id) {
    if (row.seller_id === userId) return row;
    throw new AppError('NOT_FOUND', 'We couldn’t find that return.');
  }
  const charity = await requireCharity(db, userId);
  if (!row || row.charity_id !== charity.charityId)
    throw new AppError('NOT_FOUND', 'We couldn’t find that return.');
  return row;
}

/** Who acts for the seller on a return: the charity, or the private seller. */
const sellerActor = (row: ReturnRow, userId: string): Actor => ({
  id: userId,
  kind: row.charity_id ? 'charity' : 'seller',
});

/** The return on one of the caller's private sales (their sale page), or null. */
export async function returnForSale(
  db: Database,
  sellerId: string,
  orderId: string,
): Promise<ReturnRequest | null> {
  const { rows } = await sql<ReturnRowBase>`${RETURN_SELECT}
    where r.order_id = ${orderId} and r.seller_id = ${sellerId} and r.charity_id is null`.execute(db);
  const [row] = await withBooks(db, rows);
  return row ? toReturn(row, true) : null;
}

/** Moves a return from one status to the next, refusing when someone else already moved it. */
async function respond(
  db: Database,
  returnId: string,
  from: ReturnStatus,
  values: { status: ReturnStatus; decline_reason?: string; return_address?: string; responded_by: string },
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

/**
 * Tells a charity's buyer where their return is: the email (from the charity mail catalogue) and
 * the in-app notice linking to the order, both queued on `trx`, the step's own transaction.
 * (A private seller's return tells both sides through `tellBoth`, the orders' messages.)
 */
async function tellCharityBuyer(
  trx: Database,
  deps: ReturnDeps,
  row: ReturnRow,
  message: {
    mail: { subject: string; text: string; html: string };
    template: string;
    notice: { kind: 'return_update' | 'refund'; title: string; body: string };
  },
) {
  if (row.buyer_email) {
    await deps.mailer.send(
      { to: row.buyer_email, ...message.mail, template: message.template, userId: row.buyer_id },
      { trx },
    );
  }
  await notify(trx, {
    userId: row.buyer_id,
    ...message.notice,
    link: `/account/orders/${row.order_id}`,
    orderId: row.order_id,
  });
}

export async function acceptReturn(
  deps: ReturnDeps,
  userId: string,
  returnId: string,
  address?: string,
): Promise<ReturnRequest> {
  const row = await charityReturn(deps.db, userId, returnId);
  const typed = address?.trim().replace(/\s+/g, ' ') ?? '';
  // A business seller's books go back to the address they trade from unless they give another.
  const trader =
    !row.charity_id && !typed && row.books[0] ? await traderOfListing(deps.db, row.books[0].listingId) : null;
  const given = trader ? `${trader.name}, ${trader.address}` : typed;
  if (!row.charity_id && (given.length < 5 || given.length > 300)) {
    throw new AppError(
      'BAD_INPUT',
      'Give the address the buyer should post the book to (5 to 300 characters).',
      {
        field: 'address',
      },
    );
  }
  let returnShipmentId: string | null = null;
  const accepted = await deps.db.transaction().execute(async (trx) => {
    await respond(trx, row.id, 'requested', {
      status: 'accepted',
      responded_by: userId,
      ...(row.charity_id ? {} : { return_address: given }),
    });
    await noteOnOrder(trx, row.order_id, sellerActor(row, userId), 'Return accepted');
    const accepted = (await returnById(trx, row.id))!;
    // The return label: the buyer pays for a change of mind (the rule), bought after the commit.
    returnShipmentId = await openReturnShipment(
      trx,
      deps,
      row.order_id,
      { returnRequestId: row.id },
      PROTECTION_RULES.changeOfMindReturnPostageBy,
    );
    const labelled = returnShipmentId !== null;
    const labelLine =
      'Your return label is on your order: print it (A4 or 4×6) or show its QR code at a Post Office. Its cost comes off your refund, and the carrier’s scans move the return on.';
    if (!row.charity_id) {
      await tellBoth(trx, deps, row.order_id, {
        template: 'order.return_accepted',
        notice: 'return_update',
        buyer: {
          subject: 'Your return was accepted',
          lines: [
            `The seller accepted your return of ${row.title} (order ${row.reference}).`,
            labelled
              ? labelLine
              : `Post it to: ${given}. Use tracking and add it on your order; you pay the postage. You are refunded the book and its postage when the seller has it back.`,
          ],
        },
        seller: {
          subject: 'You accepted a return',
          lines: [
            `The buyer of ${row.title} (order ${row.reference}) posts it to ${given}. When it arrives, confirm it on the sale page: the buyer is then refunded from your payout for this sale.`,
          ],
        },
      });
      return accepted;
    }
    await tellCharityBuyer(trx, deps, accepted, {
      mail: charityMail.returnAccepted({
        title: row.title,
        reference: row.reference,
        address: returnAddress(accepted) ?? row.charity_name,
        url: `${deps.origin}/account/orders`,
      }),
      template: 'charity-return-accepted',
      notice: {
        kind: 'return_update',
        title: `Your return was accepted: ${row.title}`,
        body: labelled
          ? `${labelLine} You are refunded when the charity has it back.`
          : `Post it to ${returnAddress(accepted) ?? row.charity_name} with tracking, then add the tracking on your order. You are refunded when the charity has it back.`,
      },
    });
    return accepted;
  });
  await buyReturnLabel(deps, returnShipmentId);
  return toReturn(accepted, true);
}

export async function declineReturn(
  deps: ReturnDeps,
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
    await noteOnOrder(trx, row.order_id, sellerActor(row, userId), `Return declined: ${input.reason}`);
    const declined = (await returnById(trx, row.id))!;
    if (!row.charity_id) {
      await tellBoth(trx, deps, row.order_id, {
        template: 'order.return_declined',
        notice: 'return_update',
        buyer: {
          subject: 'Your return was declined',
          lines: [
            `The seller declined your return of ${row.title} (order ${row.reference}).`,
            `Their reason: ${input.reason}`,
            'If the book is not what the listing described, report a problem from your order instead.',
          ],
        },
        seller: {
          subject: 'You declined a return',
          lines: [`We told the buyer of order ${row.reference} your reason: ${input.reason}`],
        },
      });
      return declined;
    }
    await tellCharityBuyer(trx, deps, declined, {
      mail: charityMail.returnDeclined({
        title: row.title,
        reference: row.reference,
        reason: input.reason,
        url: `${deps.origin}/account/orders`,
      }),
      template: 'charity-return-declined',
      notice: {
        kind: 'return_update',
        title: `Your return was declined: ${row.title}`,
        body: `The charity’s reason: ${input.reason}`,
      },
    });
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
  deps: ReturnDeps & Pick<CheckoutDeps, 'payments'>,
  userId: string,
  returnId: string,
): Promise<ReturnRequest> {
  const row = await charityReturn(deps.db, userId, returnId);
  return toReturn(await refundReturn(deps, row, userId, sellerActor(row, userId)), true);
}

/**
 * A trader's return the buyer posted back (their tracking is the proof of posting) that the
 * seller has not confirmed within CANCELLATION_RULES.refundDays: the buyer is refunded now, as
 * the regulations require (reg. 34(6): within 14 days of the goods coming back or of the
 * buyer's proof of sending them, whichever is first), by the same refund as a confirmed
 * receipt. The job `returns.refund_posted`; answers the returns refunded.
 */
export async function refundPostedReturns(
  deps: ReturnDeps & Pick<CheckoutDeps, 'payments'>,
  now = new Date(),
): Promise<number> {
  const due = new Date(now.getTime() - CANCELLATION_RULES.refundDays * DAY_MS);
  const { rows } = await sql<{ id: string }>`
    select r.id
    from public.return_requests r
    where r.status = 'accepted' and r.refunded_by is null
      and r.return_sent_at is not null and r.return_sent_at <= ${due}
      and (r.charity_id is not null
           or exists (select 1 from public.seller_trade_declarations d
                      where d.user_id = r.seller_id and d.trades))
    order by r.return_sent_at
    limit 100`.execute(deps.db);
  let refunded = 0;
  for (const { id } of rows) {
    const row = await returnById(deps.db, id);
    if (!row) continue;
    try {
      // Claimed for the seller, on whose behalf the refund goes out; the order's events say the system did it.
      await refundReturn(deps, row, row.seller_id, { id: null, kind: 'system' });
      refunded += 1;
    } catch (error) {
      // Claimed meanwhile (the seller confirmed it), or refunded already: nothing to do.
      if (!(error instanceof AppError)) throw error;
    }
  }
  return refunded;
}

/** What a refund says about a buyer-paid return label kept from it (decision 0087). */
function labelKeptLine(keptMinor: number): string {
  return keptMinor > 0 ? `, less ${formatPence(keptMinor)} for your return label` : '';
}

/** Refunds a return's books (claimed by `claimant` so it happens once) and tells both sides. */
async function refundReturn(
  deps: ReturnDeps & Pick<CheckoutDeps, 'payments'>,
  row: ReturnRow,
  claimant: string,
  actor: Actor,
): Promise<ReturnRow> {
  return deps.db.transaction().execute((trx) => refundReturnWithin(trx, deps, row, claimant, actor));
}

/**
 * The refund of a return in `trx` (the seller's "it came back", the posted-return job, or the
 * return label's "delivered" scan: one path). The claim is one conditional update, so two
 * clicks, two members or a click and a scan refund once; a refund the provider refuses rolls
 * the claim back with the rest, leaving the return accepted to try again.
 */
async function refundReturnWithin(
  trx: Transaction<DB>,
  deps: ReturnDeps & Pick<CheckoutDeps, 'payments'>,
  row: ReturnRow,
  claimant: string,
  actor: Actor,
): Promise<ReturnRow> {
  const claimed = await trx
    .updateTable('return_requests')
    .set({ refunded_by: claimant })
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
  // Books of the return refunded meanwhile (e.g. by staff) are not refunded twice.
  const refundedAlready = new Set(
    (await orderBooks(trx, row.order_id)).filter((b) => b.refunded).map((b) => b.order_item_id),
  );
  const order = (await orderForReturn(trx, row.order_id, { lock: true }))!;
  // The refund command: the books (the last ones with the postage), and the seller's payout
  // gives back what they took for them (0012, 0022); the books' protection share stays.
  const returned = row.books.filter((book) => !refundedAlready.has(book.orderItemId));
  if (returned.length === 0)
    throw new AppError('PRECONDITION_FAILED', 'This order has already been refunded in full.');
  // A return label the buyer pays for (a change of mind) comes off the refund once the carrier
  // has scanned it (decision 0087); a buyer who posted it their own way pays nothing for it.
  const label = await returnShipmentOf(trx, { returnRequestId: row.id });
  const keepForLabel =
    label && label.paid_by === 'buyer' && label.first_scan_at !== null
      ? { shipmentId: label.id, costMinor: label.cost_minor }
      : undefined;
  const refund = await refundOrder(
    trx,
    deps.payments,
    order,
    {
      items: returned.map((book) => book.orderItemId),
      goods: true,
      ...(keepForLabel ? { keepForLabel } : {}),
    },
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
  if (refund.full && RETURNABLE.includes(current.status)) {
    await transition(
      trx,
      current,
      'refunded',
      actor,
      `Returned to the ${row.charity_id ? 'charity' : 'seller'}: refunded ${refund.amountMinor}p`,
    );
  } else if (!refund.full) {
    // Some books back; the order goes on with the rest.
    await noteOnOrder(
      trx,
      current.id,
      actor,
      `Returned to the ${row.charity_id ? 'charity' : 'seller'}: ${returned.map((book) => `“${book.title}”`).join(', ')}, refunded ${refund.amountMinor}p`,
    );
  }
  if (refund.full ? RETURNABLE.includes(current.status) : true) {
    // The copies that came back are the charity's to put on sale again.
    await trx
      .updateTable('listings')
      .set({ status: 'withdrawn', updated_at: new Date() })
      .where(
        'id',
        'in',
        returned.map((book) => book.listingId),
      )
      .where('status', '=', 'sold')
      .execute();
  }
  const done = (await returnById(trx, row.id))!;
  if (!row.charity_id) {
    await tellBoth(trx, deps, row.order_id, {
      template: 'order.return_refunded',
      notice: 'refund',
      buyer: {
        subject: `Refund of ${formatPence(refund.amountMinor)} on its way`,
        lines: [
          `The seller has ${row.title} (order ${row.reference}) back. We have refunded ${formatPence(refund.amountMinor)} to your original payment method: the book and its postage${labelKeptLine(refund.labelKeptMinor)}. It can take up to 5 working days to show.`,
        ],
      },
      seller: {
        subject: `Return received: the buyer is refunded ${formatPence(refund.amountMinor)}`,
        lines: [
          `You confirmed ${row.title} (order ${row.reference}) came back; the buyer has been refunded ${formatPence(refund.amountMinor)} from your payout for this sale.`,
        ],
      },
    });
    return done;
  }
  // The buyer sees the refund in the app too, in the same transaction.
  await tellCharityBuyer(trx, deps, done, {
    mail: charityMail.returnRefunded({
      title: row.title,
      reference: row.reference,
      amountMinor: refund.amountMinor,
      url: `${deps.origin}/account/orders`,
    }),
    template: 'charity-return-refunded',
    notice: {
      kind: 'refund',
      title: `Refund of ${formatPence(refund.amountMinor)} for ${row.title}`,
      body: `The charity has your returned copy of “${row.title}” (order ${row.reference}). We have refunded ${formatPence(refund.amountMinor)} to your original payment method${labelKeptLine(refund.labelKeptMinor)}; it can take up to 5 working days to show.`,
    },
  });
  return done;
}

/**
 * The buyer has posted the book back: the carrier and tracking reference (the same step, and the
 * same rule for the reference, as a dispute's return). Once, and only after the return was
 * accepted (the buyer needs the address first).
 */
export async function sendReturnBack(
  deps: ReturnDeps,
  buyerId: string,
  input: { returnId: string; carrier: Carrier; trackingRef: string },
): Promise<ReturnEligibility> {
  const row = await returnById(deps.db, input.returnId);
  if (!row || row.buyer_id !== buyerId) throw new AppError('NOT_FOUND', 'We couldn’t find that return.');
  const trackingRef = input.trackingRef.trim().toUpperCase();
  await deps.db.transaction().execute(async (trx) => {
    const current = await trx
      .selectFrom('return_requests')
      .select(['status', 'return_sent_at'])
      .where('id', '=', row.id)
      .forUpdate()
      .executeTakeFirstOrThrow();
    if (current.return_sent_at) throw new AppError('CONFLICT', 'You have already added the return tracking.');
    if (current.status === 'requested') {
      throw new AppError(
        'PRECONDITION_FAILED',
        'Wait for the return to be accepted: we then tell you where to post it.',
      );
    }
    if (current.status !== 'accepted') {
      throw new AppError('PRECONDITION_FAILED', 'This return has been closed. Reload the page to see how.');
    }
    await bookSentBack(
      trx,
      deps,
      row,
      { id: buyerId, kind: 'buyer' },
      {
        carrier: input.carrier,
        trackingRef,
        sentAt: new Date(),
      },
    );
  });
  return returnEligibility(deps.db, buyerId, row.order_id);
}

/**
 * The book is on its way back: the buyer typed the carrier and tracking, or the return label's
 * first scan said so. The one path (the return's tracking, a note on the order, both told).
 */
async function bookSentBack(
  trx: Transaction<DB>,
  deps: ReturnDeps,
  row: ReturnRow,
  actor: Actor,
  sent: { carrier: Carrier; trackingRef: string; sentAt: Date; scanned?: boolean },
): Promise<void> {
  await trx
    .updateTable('return_requests')
    .set({ return_carrier: sent.carrier, return_tracking_ref: sent.trackingRef, return_sent_at: sent.sentAt })
    .where('id', '=', row.id)
    .execute();
  const label = CARRIERS[sent.carrier].label;
  await noteOnOrder(trx, row.order_id, actor, `The buyer sent the book back: ${label} ${sent.trackingRef}`);
  await tellBoth(trx, deps, row.order_id, {
    template: 'order.return_sent',
    notice: 'return_update',
    buyer: {
      subject: 'Return on its way',
      lines: [
        `Thanks: ${row.title} (order ${row.reference}) is on its way back to ${row.charity_name} with ${label} (${sent.trackingRef}). ${sent.scanned ? 'You are refunded when the carrier delivers it to them.' : 'You are refunded when they confirm it arrived.'}`,
      ],
    },
    seller: {
      subject: 'The book is on its way back',
      lines: [
        `The buyer sent ${row.title} (order ${row.reference}) back with ${label}, tracking ${sent.trackingRef}. ${sent.scanned ? 'When the carrier delivers it to you, the buyer is refunded.' : 'When it arrives, mark it received on your charity dashboard: the buyer is then refunded.'}`,
      ],
    },
  });
}

/** The carriers the return label's networks are listed as on a return (its `return_carrier`). */
const NETWORK_CARRIER: Record<ReturnParcelScan['network'], Carrier> = {
  royal_mail: 'royal_mail_tracked_48',
  inpost: 'inpost',
  evri: 'evri',
};

/**
 * A scan of a change-of-mind return's label (parcels/returns-scans.ts, in the scan's
 * transaction): the first scan sends it back as the buyer's typed tracking does; "delivered" is
 * the seller's "it came back" (the same refund, once: the claim); a failed delivery or a parcel
 * sent back to the buyer tells both sides. A return closed meanwhile is left alone.
 */
export async function changeOfMindReturnScanned(
  trx: Transaction<DB>,
  deps: ReturnDeps & Pick<CheckoutDeps, 'payments'>,
  parcel: ReturnParcelScan,
): Promise<void> {
  if (!parcel.returnRequestId) return;
  const current = await trx
    .selectFrom('return_requests')
    .select(['status', 'return_sent_at', 'refunded_by'])
    .where('id', '=', parcel.returnRequestId)
    .forUpdate()
    .executeTakeFirst();
  if (current?.status !== 'accepted') return;
  const row = (await returnById(trx, parcel.returnRequestId))!;
  const system: Actor = { id: null, kind: 'system' };
  if (!current.return_sent_at) {
    await bookSentBack(trx, deps, row, system, {
      carrier: NETWORK_CARRIER[parcel.network],
      trackingRef: parcel.trackingRef,
      sentAt: parcel.occurredAt,
      scanned: true,
    });
  }
  if (parcel.after === 'delivered' && parcel.before !== 'delivered') {
    // Claimed for the seller, on whose behalf the refund goes out (as the posted-return job does).
    if (current.refunded_by === null) await refundReturnWithin(trx, deps, row, row.seller_id, system);
  } else if (
    (parcel.after === 'delivery_failed' || parcel.after === 'returned_to_sender') &&
    parcel.before !== parcel.after
  ) {
    await tellReturnTrouble(trx, deps, row.order_id, row.reference, parcel.after);
  }
}

export async function charityReturns(db: Database, userId: string): Promise<ReturnRequest[]> {
  const charity = await requireCharity(db, userId);
  const { rows } = await sql<ReturnRowBase>`${RETURN_SELECT}
    where r.charity_id = ${charity.charityId}
    order by (r.status in ('requested', 'accepted')) desc, r.created_at desc
    limit 100`.execute(db);
  return (await withBooks(db, rows)).map((row) => toReturn(row, true));
}
