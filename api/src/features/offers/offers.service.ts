/**
 * Offers (brief §4): a buyer offers at least half the asking price; the seller accepts,
 * declines or counters; the buyer may answer a counter with one counter of their own (once
 * each way). Every round expires after 48 hours. An accepted offer reserves the book for its
 * buyer, who pays the offer price from /checkout/offer within 24 hours; after that the offer
 * lapses and the book is back on normal sale.
 *
 * Each round is a row (round 1 the buyer's offer, 2 the seller's counter, 3 the buyer's
 * counter) in one thread; at most one open thread per buyer and listing (a unique index).
 */
import { randomUUID } from 'node:crypto';
import {
  COMMERCIAL_DEFAULTS,
  formatPence,
  minimumOfferMinor,
  type OfferThread,
  type OrderRole,
} from '@reshelf/contracts';
import { sql, type Transaction } from 'kysely';
import type { DB } from '../../db/database.generated.ts';
import type { Database } from '../../db/index.ts';
import { AppError } from '../../errors.ts';
import { recordAudit } from '../audit/audit.service.ts';
import { type OrderMailDeps, queueOfferMail } from '../orders/order-mail.ts';

const HOUR_MS = 60 * 60 * 1000;
const MOVED_ON = 'This offer has moved on since you opened it. Refresh the page to see where it is now.';

type Trx = Transaction<DB>;

interface Person {
  id: string;
  email: string;
}

async function person(db: Database | Trx, id: string): Promise<Person & { name: string }> {
  const row = await db
    .selectFrom('auth.users as u')
    .leftJoin('profiles as p', 'p.id', 'u.id')
    .select(['u.id', 'u.email', 'p.display_name'])
    .where('u.id', '=', id)
    .executeTakeFirstOrThrow();
  return { id: row.id, email: row.email ?? '', name: row.display_name ?? 'A Reshelf member' };
}

async function listingFor(db: Database | Trx, listingId: string) {
  const listing = await db
    .selectFrom('listings as l')
    .innerJoin('books as b', 'b.id', 'l.book_id')
    .select(['l.id', 'l.seller_id', 'l.status', 'l.price_minor', 'l.slug', 'b.title'])
    .where('l.id', '=', listingId)
    .executeTakeFirst();
  if (!listing) throw new AppError('NOT_FOUND', 'We could not find that book.');
  return listing;
}

function offersUrl(origin: string, role: OrderRole): string {
  return `${origin}/account/offers?view=${role === 'buyer' ? 'made' : 'received'}`;
}

/** The buyer's opening offer. */
export async function makeOffer(
  deps: OrderMailDeps,
  buyerId: string,
  input: { listingId: string; amountMinor: number; message: string | null },
): Promise<{ offerId: string }> {
  const listing = await listingFor(deps.db, input.listingId);
  if (listing.seller_id === buyerId)
    throw new AppError('BAD_INPUT', 'You cannot make an offer on your own book.');
  if (listing.status !== 'active') {
    throw new AppError('CONFLICT', 'This book is not available for offers right now.');
  }
  const asking = listing.price_minor ?? 0;
  const least = minimumOfferMinor(asking);
  if (input.amountMinor < least) {
    throw new AppError(
      'BAD_INPUT',
      `Offer at least ${formatPence(least)}: offers must be at least half the asking price of ${formatPence(asking)}.`,
    );
  }
  if (input.amountMinor >= asking) {
    throw new AppError(
      'BAD_INPUT',
      `That is the asking price or more: buy it now for ${formatPence(asking)} instead.`,
    );
  }
  const id = randomUUID();
  const [buyer, seller] = await Promise.all([person(deps.db, buyerId), person(deps.db, listing.seller_id)]);
  try {
    // The offer and the seller's email: all or nothing.
    await deps.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('offers')
        .values({
          id,
          thread_id: id,
          round: 1,
          listing_id: listing.id,
          buyer_id: buyerId,
          seller_id: listing.seller_id,
          made_by: 'buyer',
          amount_minor: input.amountMinor,
          message: input.message,
          expires_at: new Date(Date.now() + COMMERCIAL_DEFAULTS.offerExpiryHours * HOUR_MS),
        })
        .execute();
      await queueOfferMail(trx, deps, {
        to: seller,
        subject: `New offer: ${formatPence(input.amountMinor)} for ${listing.title}`,
        lines: [
          `${buyer.name} has offered ${formatPence(input.amountMinor)} for “${listing.title}” (your price ${formatPence(asking)}).`,
          ...(input.message ? [`Their message: “${input.message}”`] : []),
          `Accept, decline or counter within ${COMMERCIAL_DEFAULTS.offerExpiryHours} hours, or the offer expires.`,
        ],
        action: { label: 'Answer the offer', url: offersUrl(deps.origin, 'seller') },
        template: 'offer.made',
        offerId: id,
      });
    });
  } catch (error) {
    if ((error as { code?: string }).code === '23505') {
      throw new AppError(
        'CONFLICT',
        'You already have an open offer on this book. See it in your offers, where you can withdraw it first.',
      );
    }
    throw error;
  }
  return { offerId: id };
}

/** Locks the round and checks the caller is its counterpart; answers the round. */
async function lockRound(trx: Trx, offerId: string, userId: string) {
  const offer = await trx
    .selectFrom('offers')
    .selectAll()
    .where('id', '=', offerId)
    .forUpdate()
    .executeTakeFirst();
  if (!offer || (offer.buyer_id !== userId && offer.seller_id !== userId)) {
    throw new AppError('NOT_FOUND', 'We could not find that offer.');
  }
  const role: OrderRole = offer.buyer_id === userId ? 'buyer' : 'seller';
  return { offer, role };
}

function requireOpen(offer: { status: string; expires_at: Date }): void {
  if (offer.status === 'pending' && offer.expires_at <= new Date()) {
    throw new AppError('PRECONDITION_FAILED', 'This offer has expired: offers last 48 hours.');
  }
  if (offer.status !== 'pending') throw new AppError('PRECONDITION_FAILED', MOVED_ON);
}

/** The counterpart answers the round with a counter (the seller once, then the buyer once). */
export async function counterOffer(
  deps: OrderMailDeps,
  userId: string,
  input: { offerId: string; amountMinor: number; message: string | null },
): Promise<{ offerId: string }> {
  const result = await deps.db.transaction().execute(async (trx) => {
    const { offer, role } = await lockRound(trx, input.offerId, userId);
    requireOpen(offer);
    if (offer.made_by === role) {
      throw new AppError('BAD_INPUT', 'You made this offer: wait for the answer, or withdraw it.');
    }
    if (offer.round === 3) {
      throw new AppError('BAD_INPUT', 'You have both countered once already: accept or decline this offer.');
    }
    const listing = await listingFor(trx, offer.listing_id);
    const asking = listing.price_minor ?? 0;
    if (role === 'seller') {
      if (input.amountMinor <= offer.amount_minor || input.amountMinor >= asking) {
        throw new AppError(
          'BAD_INPUT',
          `Counter with more than the offer of ${formatPence(offer.amount_minor)} and less than your price of ${formatPence(asking)}.`,
        );
      }
    } else {
      const first = await trx
        .selectFrom('offers')
        .select('amount_minor')
        .where('thread_id', '=', offer.thread_id)
        .where('round', '=', 1)
        .executeTakeFirstOrThrow();
      const least = Math.max(minimumOfferMinor(asking), first.amount_minor + 1);
      if (input.amountMinor < least || input.amountMinor >= offer.amount_minor) {
        throw new AppError(
          'BAD_INPUT',
          `Counter with at least ${formatPence(least)} and less than the seller’s ${formatPence(offer.amount_minor)}.`,
        );
      }
    }
    if (listing.status !== 'active') throw new AppError('CONFLICT', 'This book is no longer available.');
    const now = new Date();
    await trx
      .updateTable('offers')
      .set({ status: 'countered', responded_at: now })
      .where('id', '=', offer.id)
      .execute();
    const id = randomUUID();
    await trx
      .insertInto('offers')
      .values({
        id,
        thread_id: offer.thread_id,
        round: offer.round + 1,
        parent_id: offer.id,
        listing_id: offer.listing_id,
        buyer_id: offer.buyer_id,
        seller_id: offer.seller_id,
        made_by: role,
        amount_minor: input.amountMinor,
        message: input.message,
        expires_at: new Date(now.getTime() + COMMERCIAL_DEFAULTS.offerExpiryHours * HOUR_MS),
      })
      .execute();
    const to = await person(trx, role === 'seller' ? offer.buyer_id : offer.seller_id);
    const from = await person(trx, userId);
    const otherRole: OrderRole = role === 'seller' ? 'buyer' : 'seller';
    await queueOfferMail(trx, deps, {
      to,
      subject: `Counter-offer: ${formatPence(input.amountMinor)} for ${listing.title}`,
      lines: [
        `${from.name} has countered with ${formatPence(input.amountMinor)} for “${listing.title}”.`,
        ...(input.message ? [`Their message: “${input.message}”`] : []),
        otherRole === 'buyer'
          ? `Accept, decline or make one counter-offer within ${COMMERCIAL_DEFAULTS.offerExpiryHours} hours.`
          : `Accept or decline within ${COMMERCIAL_DEFAULTS.offerExpiryHours} hours.`,
      ],
      action: { label: 'Answer the counter-offer', url: offersUrl(deps.origin, otherRole) },
      template: 'offer.countered',
      offerId: id,
    });
    return { id };
  });
  return { offerId: result.id };
}

/** The counterpart accepts (the book is reserved for 24 hours) or declines the round. */
export async function respondToOffer(
  deps: OrderMailDeps,
  userId: string,
  input: { offerId: string; action: 'accept' | 'decline' },
): Promise<{ status: 'accepted' | 'declined'; checkoutDeadline: string | null }> {
  const deadline = await deps.db.transaction().execute(async (trx) => {
    const { offer, role } = await lockRound(trx, input.offerId, userId);
    requireOpen(offer);
    if (offer.made_by === role) {
      throw new AppError('BAD_INPUT', 'You made this offer: wait for the answer, or withdraw it.');
    }
    const listing = await listingFor(trx, offer.listing_id);
    const now = new Date();
    let deadline: Date | null = null;
    if (input.action === 'decline') {
      await trx
        .updateTable('offers')
        .set({ status: 'declined', responded_at: now })
        .where('id', '=', offer.id)
        .execute();
    } else {
      // The one conditional update that decides whether the book can be held for this buyer.
      const reserved = await trx
        .updateTable('listings')
        .set({ status: 'reserved' })
        .where('id', '=', offer.listing_id)
        .where('status', '=', 'active')
        .returning('id')
        .executeTakeFirst();
      if (!reserved) {
        throw new AppError('CONFLICT', 'This book is no longer available, so the offer cannot be accepted.');
      }
      deadline = new Date(now.getTime() + COMMERCIAL_DEFAULTS.acceptedOfferCheckoutHours * HOUR_MS);
      await trx
        .updateTable('offers')
        .set({ status: 'accepted', responded_at: now, checkout_deadline: deadline })
        .where('id', '=', offer.id)
        .execute();
    }
    await queueAnswerMail(trx, deps, { offer, role, title: listing.title, deadline, action: input.action });
    return deadline;
  });
  return {
    status: input.action === 'accept' ? 'accepted' : 'declined',
    checkoutDeadline: deadline?.toISOString() ?? null,
  };
}

/** The emails of an answered round, queued in the answer's transaction. */
async function queueAnswerMail(
  trx: Trx,
  deps: OrderMailDeps,
  answer: {
    offer: { id: string; buyer_id: string; seller_id: string; made_by: string; amount_minor: number };
    role: OrderRole;
    title: string;
    deadline: Date | null;
    action: 'accept' | 'decline';
  },
): Promise<void> {
  const { offer, role, title, deadline } = answer;
  const buyer = await person(trx, offer.buyer_id);
  const seller = await person(trx, offer.seller_id);
  const payUrl = `${deps.origin}/checkout/offer?offer=${offer.id}`;
  if (answer.action === 'accept') {
    const due = deadline?.toLocaleString('en-GB', {
      weekday: 'short',
      day: 'numeric',
      month: 'short',
      hour: '2-digit',
      minute: '2-digit',
      timeZone: 'Europe/London',
    });
    await queueOfferMail(trx, deps, {
      to: buyer,
      subject: `Offer accepted: ${title} for ${formatPence(offer.amount_minor)}`,
      lines: [
        role === 'seller'
          ? `${seller.name} accepted your offer of ${formatPence(offer.amount_minor)} for “${title}”.`
          : `You accepted the counter-offer of ${formatPence(offer.amount_minor)} for “${title}”.`,
        `The book is held for you until ${due}. Pay by then, or it goes back on sale.`,
      ],
      action: { label: 'Pay now', url: payUrl },
      template: 'offer.accepted',
      offerId: offer.id,
    });
    if (role === 'buyer') {
      await queueOfferMail(trx, deps, {
        to: seller,
        subject: `Counter-offer accepted: ${title}`,
        lines: [
          `${buyer.name} accepted your counter-offer of ${formatPence(offer.amount_minor)} for “${title}”.`,
          'The book is held for them for 24 hours. We will email you as soon as they have paid.',
        ],
        action: { label: 'View your offers', url: offersUrl(deps.origin, 'seller') },
        template: 'offer.accepted',
        offerId: offer.id,
      });
    }
  } else {
    const maker = offer.made_by === 'buyer' ? buyer : seller;
    await queueOfferMail(trx, deps, {
      to: maker,
      subject: `Offer declined: ${title}`,
      lines: [`Your offer of ${formatPence(offer.amount_minor)} for “${title}” was declined.`],
      action: {
        label: 'View your offers',
        url: offersUrl(deps.origin, offer.made_by === 'buyer' ? 'buyer' : 'seller'),
      },
      template: 'offer.declined',
      offerId: offer.id,
    });
  }
}

/** Whoever made a pending round may take it back. */
export async function withdrawOffer(db: Database, userId: string, offerId: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const { offer, role } = await lockRound(trx, offerId, userId);
    requireOpen(offer);
    if (offer.made_by !== role)
      throw new AppError('BAD_INPUT', 'Only the person who made an offer can withdraw it.');
    await closePendingRound(trx, offer.id, { status: 'withdrawn' });
  });
}

/** How an open round ends; a staff cancellation carries who and why. */
type Ending =
  | { status: 'withdrawn' | 'lapsed' }
  | { status: 'cancelled'; cancel_reason: string; cancelled_by: string };

/**
 * Closes a pending round (withdrawn by its maker, or cancelled by staff). Nothing is held for
 * a pending offer, so there is nothing to release; false when the round has moved on.
 */
async function closePendingRound(trx: Trx, offerId: string, ending: Ending) {
  const closed = await trx
    .updateTable('offers')
    .set({ ...ending, responded_at: new Date() })
    .where('id', '=', offerId)
    .where('status', '=', 'pending')
    .returning('id')
    .executeTakeFirst();
  return closed !== undefined;
}

/**
 * Ends an accepted offer that was not paid (lapsed after 24 hours, or cancelled by staff) and
 * puts its book back on normal sale. An offer whose buyer is paying at this moment waits for
 * that payment's outcome ('paying'); 'moved' when the offer is no longer accepted.
 */
async function endAcceptedOffer(
  trx: Trx,
  offer: { id: string; listing_id: string },
  ending: Ending,
): Promise<'ended' | 'paying' | 'moved'> {
  const live = await trx
    .selectFrom('orders')
    .select('id')
    .where('listing_id', '=', offer.listing_id)
    .where('status', 'not in', ['cancelled', 'refunded'])
    .forUpdate()
    .executeTakeFirst();
  if (live) return 'paying';
  const ended = await trx
    .updateTable('offers')
    .set(ending)
    .where('id', '=', offer.id)
    .where('status', '=', 'accepted')
    .returning('id')
    .executeTakeFirst();
  if (!ended) return 'moved';
  await trx
    .updateTable('listings')
    .set({ status: 'active' })
    .where('id', '=', offer.listing_id)
    .where('status', '=', 'reserved')
    .execute();
  return 'ended';
}

export interface StaffCancelResult {
  /** What the offer was before: pending (nothing held) or accepted (the book was held). */
  was: 'pending' | 'accepted';
  /** The accepted offer's book went back on normal sale. */
  released: boolean;
}

/**
 * Staff cancel an open offer (/admin/offers), e.g. for abuse: the thread's latest round while
 * it is pending, or accepted and not yet paid. An accepted one ends exactly as a lapse does
 * (the book back on sale; refused while its buyer is paying). Audited in the same
 * transaction, and both parties' emails queued in it. The reason stays with staff (the offer
 * and the audit log); the emails say only that Reshelf cancelled it.
 */
export async function cancelOfferAsStaff(
  deps: OrderMailDeps,
  staffId: string,
  input: { offerId: string; reason: string },
): Promise<StaffCancelResult> {
  const result = await deps.db.transaction().execute(async (trx) => {
    // Not locked here: the endings below are conditional updates (and an accepted offer's locks
    // its book's orders first, in the lapse job's order), so a race ends in "moved on".
    const offer = await trx
      .selectFrom('offers')
      .selectAll()
      .where('id', '=', input.offerId)
      .executeTakeFirst();
    if (!offer) throw new AppError('NOT_FOUND', 'We could not find that offer. Refresh the page.');
    const now = new Date();
    const status = effectiveStatus(offer, now);
    if (status !== 'pending' && status !== 'accepted') {
      throw new AppError(
        'PRECONDITION_FAILED',
        `This offer is no longer open (it is ${status}), so there is nothing to cancel. Refresh the page.`,
      );
    }
    const was: StaffCancelResult['was'] = status;
    const listing = await listingFor(trx, offer.listing_id);
    const ending: Ending = { status: 'cancelled', cancel_reason: input.reason, cancelled_by: staffId };
    let released = false;
    if (status === 'pending') {
      if (!(await closePendingRound(trx, offer.id, ending))) throw new AppError('CONFLICT', MOVED_ON);
    } else {
      const outcome = await endAcceptedOffer(trx, offer, ending);
      if (outcome === 'paying') {
        throw new AppError(
          'CONFLICT',
          'The buyer is paying for this offer right now. Wait for the payment to finish, then deal with the order instead.',
        );
      }
      if (outcome === 'moved') throw new AppError('CONFLICT', MOVED_ON);
      released = true;
    }
    await recordAudit(trx, {
      actorId: staffId,
      action: 'offer.cancel',
      targetType: 'offer',
      targetId: offer.id,
      details: {
        reason: input.reason,
        was,
        released,
        title: listing.title,
        listingId: offer.listing_id,
        threadId: offer.thread_id,
        amountMinor: offer.amount_minor,
      },
    });
    const title = listing.title;
    const [buyer, seller] = await Promise.all([person(trx, offer.buyer_id), person(trx, offer.seller_id)]);
    const amount = formatPence(offer.amount_minor);
    for (const [to, role] of [
      [buyer, 'buyer'],
      [seller, 'seller'],
    ] as const) {
      await queueOfferMail(trx, deps, {
        to,
        subject: `Offer cancelled: ${title}`,
        lines: [
          `Our team has cancelled the offer of ${amount} for “${title}”.`,
          released
            ? role === 'buyer'
              ? 'The book is no longer held for you and is back on sale.'
              : 'The book is no longer held for the buyer and is back on sale.'
            : 'Nothing more needs doing.',
          'If you have questions, reply to this email or contact us.',
        ],
        action: { label: 'View your offers', url: offersUrl(deps.origin, role) },
        template: 'offer.cancelled',
        offerId: offer.id,
      });
    }
    return { was, released };
  });
  return { was: result.was, released: result.released };
}

/** When a book is sold, its other open offers are closed. */
export async function closeOffersForSoldListing(trx: Trx, listingId: string, exceptOfferId: string | null) {
  let query = trx
    .updateTable('offers')
    .set({ status: 'declined', responded_at: new Date() })
    .where('listing_id', '=', listingId)
    .where('status', 'in', ['pending', 'accepted']);
  if (exceptOfferId) query = query.where('id', '<>', exceptOfferId);
  await query.execute();
}

// Reading --------------------------------------------------------------------------------------

function effectiveStatus(
  row: { status: string; expires_at: Date; checkout_deadline: Date | null },
  now: Date,
) {
  if (row.status === 'pending' && row.expires_at <= now) return 'expired';
  if (row.status === 'accepted' && row.checkout_deadline && row.checkout_deadline <= now) return 'lapsed';
  return row.status;
}

/** The caller's offer threads, as buyer (made) or seller (received), newest first. */
export async function listThreads(
  db: Database,
  userId: string,
  role: OrderRole,
  options: { listingId?: string; limit?: number } = {},
): Promise<OfferThread[]> {
  let threads = db
    .selectFrom('offers')
    .select('thread_id')
    .where(role === 'buyer' ? 'buyer_id' : 'seller_id', '=', userId)
    .groupBy('thread_id')
    .orderBy(sql`max(created_at)`, 'desc')
    .limit(options.limit ?? 100);
  if (options.listingId) threads = threads.where('listing_id', '=', options.listingId);
  const ids = (await threads.execute()).map((row) => row.thread_id);
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('offers as o')
    .innerJoin('listings as l', 'l.id', 'o.listing_id')
    .innerJoin('books as b', 'b.id', 'l.book_id')
    .leftJoin('profiles as bp', 'bp.id', 'o.buyer_id')
    .leftJoin('profiles as sp', 'sp.id', 'o.seller_id')
    .select([
      'o.id',
      'o.thread_id',
      'o.round',
      'o.made_by',
      'o.amount_minor',
      'o.status',
      'o.message',
      'o.message_hidden_at',
      'o.created_at',
      'o.expires_at',
      'o.checkout_deadline',
      'l.id as listing_id',
      'l.slug',
      'l.status as listing_status',
      'l.price_minor',
      'b.title',
      'b.cover_url',
      sql<string | null>`l.photos ->> 0`.as('photo_url'),
      'bp.display_name as buyer_name',
      'sp.display_name as seller_name',
    ])
    .where('o.thread_id', 'in', ids)
    .orderBy('o.round')
    .execute();
  const now = new Date();
  return ids.map((threadId) => {
    const rounds = rows.filter((row) => row.thread_id === threadId);
    const current = rounds[rounds.length - 1];
    if (!current) throw new Error(`Offer thread ${threadId} has no rounds`);
    const status = effectiveStatus(current, now);
    const open = status === 'pending';
    const theirs = current.made_by !== role;
    const asking = current.price_minor ?? 0;
    const first = rounds[0]?.amount_minor ?? 0;
    const canCounter = open && theirs && (role === 'seller' ? current.round === 1 : current.round === 2);
    return {
      currentId: current.id,
      status,
      role,
      listing: {
        id: current.listing_id,
        slug: current.slug,
        title: current.title,
        priceMinor: asking,
        imageUrl: current.photo_url ?? current.cover_url,
        status: current.listing_status,
      },
      counterpartName: (role === 'buyer' ? current.seller_name : current.buyer_name) ?? 'A Reshelf member',
      rounds: rounds.map((row) => ({
        id: row.id,
        madeBy: row.made_by as 'buyer' | 'seller',
        amountMinor: row.amount_minor,
        status: effectiveStatus(row, now),
        // A message staff removed after a report never leaves the server again.
        message: row.message_hidden_at ? null : row.message,
        messageRemoved: row.message_hidden_at !== null,
        createdAt: row.created_at.toISOString(),
        expiresAt: row.expires_at.toISOString(),
        checkoutDeadline: row.checkout_deadline?.toISOString() ?? null,
      })),
      actions: {
        canAccept: open && theirs,
        canDecline: open && theirs,
        canCounter,
        canWithdraw: open && !theirs,
        canPay: role === 'buyer' && status === 'accepted' && current.listing_status === 'reserved',
      },
      counterMinMinor: canCounter
        ? role === 'seller'
          ? current.amount_minor + 1
          : Math.max(minimumOfferMinor(asking), first + 1)
        : null,
      counterMaxMinor: canCounter ? (role === 'seller' ? asking - 1 : current.amount_minor - 1) : null,
    };
  });
}

// Jobs -------------------------------------------------------------------------------------------

/** Pending rounds past their 48 hours expire; whoever made them is told. */
export async function expireOffers(deps: OrderMailDeps, now = new Date()): Promise<number> {
  // The expiries and their emails in one transaction: all or nothing.
  return deps.db.transaction().execute(async (trx) => {
    const expired = await trx
      .updateTable('offers')
      .set({ status: 'expired' })
      .where('status', '=', 'pending')
      .where('expires_at', '<=', now)
      .returning(['id', 'buyer_id', 'seller_id', 'made_by', 'amount_minor', 'listing_id'])
      .execute();
    for (const offer of expired) {
      const maker = await person(trx, offer.made_by === 'buyer' ? offer.buyer_id : offer.seller_id);
      const listing = await listingFor(trx, offer.listing_id);
      await queueOfferMail(trx, deps, {
        to: maker,
        subject: `Offer expired: ${listing.title}`,
        lines: [
          `Your offer of ${formatPence(offer.amount_minor)} for “${listing.title}” was not answered within ${COMMERCIAL_DEFAULTS.offerExpiryHours} hours, so it has expired.`,
        ],
        action: {
          label: 'View your offers',
          url: offersUrl(deps.origin, offer.made_by === 'buyer' ? 'buyer' : 'seller'),
        },
        template: 'offer.expired',
        offerId: offer.id,
      });
    }
    return expired.length;
  });
}

/**
 * Accepted offers not paid within 24 hours lapse and the book returns to normal sale. An offer
 * whose buyer is paying at this moment waits for that payment's outcome.
 */
export async function lapseAcceptedOffers(db: Database, now = new Date()): Promise<number> {
  const due = await db
    .selectFrom('offers')
    .select(['id', 'listing_id'])
    .where('status', '=', 'accepted')
    .where('checkout_deadline', '<=', now)
    .limit(500)
    .execute();
  let moved = 0;
  for (const offer of due) {
    const done = await db
      .transaction()
      .execute(async (trx) => (await endAcceptedOffer(trx, offer, { status: 'lapsed' })) === 'ended');
    if (done) moved += 1;
  }
  return moved;
}
