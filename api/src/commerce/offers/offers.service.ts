/**
 * Offers (brief §4): a buyer offers at least half the asking price; the seller accepts,
 * declines or counters; the buyer may answer a counter with one counter of their own (once
 * each way). Every round expires after 48 hours. An accepted offer reserves the book for its
 * buyer, who pays the offer price from /checkout/offer within 24 hours; after that the offer
 * lapses and the book is back on normal sale.
 *
 * Each round is a row (round 1 the buyer's offer, 2 the seller's counter, 3 the buyer's
 * counter) in one thread; at most one open thread per buyer and listing (a unique index).
 *
 * "Ask for a bundle price": an offer on a whole seller group, 2 to 20 books of one
 * seller (or one charity's shop), under the same rules: at least half the group's item
 * subtotal, less than what the books cost now (the subtotal less the seller's bundle tier), 48
 * hours a round, one counter each way, 24 hours to pay. Every round names its books
 * (`offer_items`; `offers.listing_id` is the first). Accepting reserves every book for the buyer,
 * all or none, the books locked in id order (so two acceptances sharing books wait rather than
 * deadlock); a lapse or a staff cancellation puts them all back on sale. The buyer pays through
 * checkout's bundle-offer entry (one order, the books priced at the offer, apportioned).
 */
import { randomUUID } from 'node:crypto';
import {
  askingSubtotal,
  BASKET_LIMITS,
  booksTitle,
  bundleAsking,
  bundlePercent,
  COMMERCIAL_DEFAULTS,
  counterBounds,
  formatPence,
  minimumOfferMinor,
  type OfferThread,
  type OrderRole,
} from '@reshelf/contracts';
import { sql, type Transaction } from 'kysely';
import type { DB } from '../../db/database.generated.ts';
import type { Database } from '../../db/index.ts';
import { AppError } from '../../errors.ts';
import { recordAudit } from '../../platform/audit/audit.service.ts';
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

/** The books of an offer round: its offer_items, or its one listing (an ordinary offer). */
export async function offerListingIds(
  db: Database | Trx,
  offer: { id: string; listing_id: string },
): Promise<string[]> {
  const rows = await db
    .selectFrom('offer_items')
    .select('listing_id')
    .where('offer_id', '=', offer.id)
    .orderBy('position')
    .execute();
  return rows.length > 0 ? rows.map((row) => row.listing_id) : [offer.listing_id];
}

interface GroupListing {
  id: string;
  seller_id: string;
  charity_id: string | null;
  status: string;
  price_minor: number | null;
  title: string;
}

/** What an offer is for: its books, a title for emails, and what they cost bought now. */
interface OfferGroup {
  listings: GroupListing[];
  bundle: boolean;
  title: string;
  askingMinor: number;
  allActive: boolean;
}

function groupTitle(listings: readonly { title: string }[]): string {
  return booksTitle(listings.map((l) => l.title)) || 'your books';
}

/** The seller's (or the charity shop's) tiers, for a group of their books. */
async function tiersFor(db: Database | Trx, listing: { seller_id: string; charity_id: string | null }) {
  const query = db.selectFrom('bundle_tiers').select(['min_books as minBooks', 'percent']);
  return listing.charity_id
    ? query.where('charity_id', '=', listing.charity_id).execute()
    : query.where('seller_id', '=', listing.seller_id).execute();
}

async function groupOf(db: Database | Trx, listingIds: readonly string[]): Promise<OfferGroup> {
  const rows = await db
    .selectFrom('listings as l')
    .innerJoin('books as b', 'b.id', 'l.book_id')
    .select(['l.id', 'l.seller_id', 'l.charity_id', 'l.status', 'l.price_minor', 'b.title'])
    .where('l.id', 'in', listingIds)
    .execute();
  const listings = listingIds.flatMap((id) => rows.filter((row) => row.id === id));
  if (listings.length !== listingIds.length)
    throw new AppError('NOT_FOUND', 'We could not find one of those books.');
  const subtotal = askingSubtotal(listings.map((l) => l.price_minor));
  const first = listings[0] as GroupListing;
  const bundle = listings.length > 1;
  const percent = bundle ? bundlePercent(await tiersFor(db, first), listings.length) : 0;
  return {
    listings,
    bundle,
    title: groupTitle(listings),
    askingMinor: bundleAsking(subtotal, percent),
    allActive: listings.every((l) => l.status === 'active'),
  };
}

/** The books' prices added up (what the 50% minimum is of). */
function subtotalOf(group: Pick<OfferGroup, 'listings'>): number {
  return askingSubtotal(group.listings.map((l) => l.price_minor));
}

/** The group an offer round is for. */
async function offerGroup(
  db: Database | Trx,
  offer: { id: string; listing_id: string },
): Promise<OfferGroup> {
  return groupOf(db, await offerListingIds(db, offer));
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
      // The book may be in an open bundle offer of this buyer's (the unique index sees only a
      // bundle's first book).
      await refuseOpenOffer(trx, buyerId, [listing.id]);
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

/**
 * "Ask for a bundle price": the buyer's opening offer on a whole seller group. At least half the
 * group's item subtotal, less than the books cost now; every book on sale, all of one seller
 * (one charity's shop), none the buyer's own, none already in an open offer of theirs.
 */
export async function makeBundleOffer(
  deps: OrderMailDeps,
  buyerId: string,
  input: { listingIds: string[]; amountMinor: number; message: string | null },
): Promise<{ offerId: string }> {
  const ids = [...new Set(input.listingIds)];
  if (ids.length < 2) {
    throw new AppError(
      'BAD_INPUT',
      'A bundle offer is for two books or more: make an ordinary offer for one.',
    );
  }
  if (ids.length > BASKET_LIMITS.maxGroupItems) {
    throw new AppError('BAD_INPUT', `A bundle offer is for at most ${BASKET_LIMITS.maxGroupItems} books.`);
  }
  const group = await groupOf(deps.db, ids);
  const first = group.listings[0] as GroupListing;
  if (group.listings.some((l) => l.seller_id !== first.seller_id || l.charity_id !== first.charity_id)) {
    throw new AppError(
      'BAD_INPUT',
      'A bundle offer is for books from one seller: make a separate offer to each seller.',
    );
  }
  if (first.seller_id === buyerId)
    throw new AppError('BAD_INPUT', 'You cannot make an offer on your own books.');
  if (!group.allActive) {
    throw new AppError(
      'CONFLICT',
      'One of these books is not available any more: remove it from the bundle and try again.',
    );
  }
  const subtotal = subtotalOf(group);
  const least = minimumOfferMinor(subtotal);
  if (input.amountMinor < least) {
    throw new AppError(
      'BAD_INPUT',
      `Offer at least ${formatPence(least)}: offers must be at least half the books’ total of ${formatPence(subtotal)}.`,
    );
  }
  if (input.amountMinor >= group.askingMinor) {
    throw new AppError(
      'BAD_INPUT',
      `That is what the books cost now or more: buy them together for ${formatPence(group.askingMinor)} instead.`,
    );
  }
  const id = randomUUID();
  const [buyer, seller] = await Promise.all([person(deps.db, buyerId), person(deps.db, first.seller_id)]);
  try {
    await deps.db.transaction().execute(async (trx) => {
      // One open offer per buyer and book, whether for the book alone or in a bundle.
      await refuseOpenOffer(trx, buyerId, ids);
      await trx
        .insertInto('offers')
        .values({
          id,
          thread_id: id,
          round: 1,
          listing_id: first.id,
          buyer_id: buyerId,
          seller_id: first.seller_id,
          made_by: 'buyer',
          amount_minor: input.amountMinor,
          message: input.message,
          expires_at: new Date(Date.now() + COMMERCIAL_DEFAULTS.offerExpiryHours * HOUR_MS),
        })
        .execute();
      await copyItems(trx, id, ids);
      await queueOfferMail(trx, deps, {
        to: seller,
        subject: `New bundle offer: ${formatPence(input.amountMinor)} for ${group.listings.length} books`,
        lines: [
          `${buyer.name} has offered ${formatPence(input.amountMinor)} for ${group.listings.length} of your books together (${formatPence(group.askingMinor)} bought now):`,
          ...group.listings.map((l) => `• “${l.title}” (${formatPence(l.price_minor ?? 0)})`),
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
        'You already have an open offer on one of these books. See it in your offers, where you can withdraw it first.',
      );
    }
    throw error;
  }
  return { offerId: id };
}

/** Refuses (as the unique index would) when the buyer has an open offer on any of these books. */
async function refuseOpenOffer(trx: Trx, buyerId: string, ids: readonly string[]): Promise<void> {
  const open = await trx
    .selectFrom('offers as o')
    .select('o.id')
    .where('o.buyer_id', '=', buyerId)
    .where('o.status', 'in', ['pending', 'accepted'])
    .where((eb) =>
      eb.or([
        eb('o.listing_id', 'in', ids),
        eb.exists(
          eb
            .selectFrom('offer_items as i')
            .select('i.offer_id')
            .whereRef('i.offer_id', '=', 'o.id')
            .where('i.listing_id', 'in', ids),
        ),
      ]),
    )
    .executeTakeFirst();
  if (open) throw Object.assign(new Error('open offer'), { code: '23505' });
}

/** Names a round's books (a bundle offer's every round carries them). */
async function copyItems(trx: Trx, offerId: string, listingIds: readonly string[]): Promise<void> {
  if (listingIds.length < 2) return;
  await trx
    .insertInto('offer_items')
    .values(
      listingIds.map((listingId, index) => ({
        offer_id: offerId,
        listing_id: listingId,
        position: index + 1,
      })),
    )
    .execute();
}

/**
 * Reserves every book of an accepted offer for its buyer, all or none: the books are locked in
 * id order (two acceptances sharing books wait rather than deadlock), and all must be on sale.
 */
async function reserveAll(trx: Trx, listingIds: readonly string[]): Promise<boolean> {
  const sorted = [...listingIds].sort();
  const locked = await trx
    .selectFrom('listings')
    .select(['id', 'status'])
    .where('id', 'in', sorted)
    .orderBy('id')
    .forUpdate()
    .execute();
  if (locked.length !== sorted.length || locked.some((row) => row.status !== 'active')) return false;
  await trx.updateTable('listings').set({ status: 'reserved' }).where('id', 'in', sorted).execute();
  return true;
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
    const group = await offerGroup(trx, offer);
    const asking = group.askingMinor;
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
      const { minMinor: least } = counterBounds({
        role: 'buyer',
        currentMinor: offer.amount_minor,
        askingMinor: offer.amount_minor,
        subtotalMinor: subtotalOf(group),
        openingMinor: first.amount_minor,
      });
      if (input.amountMinor < least || input.amountMinor >= offer.amount_minor) {
        throw new AppError(
          'BAD_INPUT',
          `Counter with at least ${formatPence(least)} and less than the seller’s ${formatPence(offer.amount_minor)}.`,
        );
      }
    }
    if (!group.allActive) {
      throw new AppError(
        'CONFLICT',
        group.bundle ? 'One of these books is no longer available.' : 'This book is no longer available.',
      );
    }
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
    await copyItems(
      trx,
      id,
      group.listings.map((l) => l.id),
    );
    const listing = { title: group.title };
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
    const group = await offerGroup(trx, offer);
    const now = new Date();
    let deadline: Date | null = null;
    if (input.action === 'decline') {
      await trx
        .updateTable('offers')
        .set({ status: 'declined', responded_at: now })
        .where('id', '=', offer.id)
        .execute();
    } else {
      // Every book held for this buyer, or none (the transaction ends with the refusal).
      const reserved = await reserveAll(
        trx,
        group.listings.map((l) => l.id),
      );
      if (!reserved) {
        throw new AppError(
          'CONFLICT',
          group.bundle
            ? 'One of these books is no longer available, so the offer cannot be accepted.'
            : 'This book is no longer available, so the offer cannot be accepted.',
        );
      }
      deadline = new Date(now.getTime() + COMMERCIAL_DEFAULTS.acceptedOfferCheckoutHours * HOUR_MS);
      await trx
        .updateTable('offers')
        .set({ status: 'accepted', responded_at: now, checkout_deadline: deadline })
        .where('id', '=', offer.id)
        .execute();
    }
    await queueAnswerMail(trx, deps, {
      offer,
      role,
      title: group.title,
      bundle: group.bundle,
      deadline,
      action: input.action,
    });
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
    bundle?: boolean;
    deadline: Date | null;
    action: 'accept' | 'decline';
  },
): Promise<void> {
  const { offer, role, title, deadline } = answer;
  // check-plurals: a bundle is two books or more, one offer for them all
  const held = answer.bundle ? 'The books are' : 'The book is';
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
        answer.bundle
          ? `The books are held for you until ${due}. Pay by then, or they go back on sale.`
          : `The book is held for you until ${due}. Pay by then, or it goes back on sale.`,
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
          `${held} held for them for 24 hours. We will email you as soon as they have paid.`,
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
  const listingIds = await offerListingIds(trx, offer);
  // A live order holding any of the books means its buyer is paying.
  const live = await trx
    .selectFrom('orders as o')
    .select('o.id')
    .where('o.status', 'not in', ['cancelled', 'refunded'])
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('order_items as i')
          .select('i.id')
          .whereRef('i.order_id', '=', 'o.id')
          .where('i.listing_id', 'in', listingIds)
          .where('i.live', '=', true),
      ),
    )
    .orderBy('o.id')
    .forUpdate()
    .execute();
  if (live.length > 0) return 'paying';
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
    .where('id', 'in', [...listingIds].sort())
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
    const listing = { title: (await offerGroup(trx, offer)).title };
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

/** When a book is sold, its other open offers (alone, or in a bundle) are closed. */
export async function closeOffersForSoldListing(trx: Trx, listingId: string, exceptOfferId: string | null) {
  let query = trx
    .updateTable('offers')
    .set({ status: 'declined', responded_at: new Date() })
    .where((eb) =>
      eb.or([
        eb('listing_id', '=', listingId),
        eb(
          'id',
          'in',
          eb.selectFrom('offer_items').select('offer_id').where('offer_items.listing_id', '=', listingId),
        ),
      ]),
    )
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

function threadRows(db: Database, ids: string[]) {
  return db
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
}

function bundleBookRows(db: Database, offerIds: string[]) {
  return db
    .selectFrom('offer_items as i')
    .innerJoin('listings as l', 'l.id', 'i.listing_id')
    .innerJoin('books as b', 'b.id', 'l.book_id')
    .select([
      'i.offer_id',
      'i.position',
      'l.id',
      'l.slug',
      'l.status',
      'l.price_minor',
      'l.seller_id',
      'l.charity_id',
      'b.title',
      'b.cover_url',
      sql<string | null>`l.photos ->> 0`.as('photo_url'),
    ])
    .where('i.offer_id', 'in', offerIds)
    .orderBy('i.position')
    .execute();
}

type ThreadRow = Awaited<ReturnType<typeof threadRows>>[number];
type BundleBookRow = Awaited<ReturnType<typeof bundleBookRows>>[number];

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
  if (options.listingId) {
    const listingId = options.listingId;
    threads = threads.where((eb) =>
      eb.or([
        eb('listing_id', '=', listingId),
        eb(
          'id',
          'in',
          eb.selectFrom('offer_items').select('offer_id').where('offer_items.listing_id', '=', listingId),
        ),
      ]),
    );
  }
  const ids = (await threads.execute()).map((row) => row.thread_id);
  if (ids.length === 0) return [];
  const rows = await threadRows(db, ids);
  // A bundle thread's books (its first round names them; every round names the same).
  const firstRounds = rows.filter((row) => row.round === 1).map((row) => row.id);
  const bundleBooks = firstRounds.length === 0 ? [] : await bundleBookRows(db, firstRounds);
  const tierCache = new Map<string, { minBooks: number; percent: number }[]>();
  const now = new Date();
  const threadsOut: OfferThread[] = [];
  for (const threadId of ids) {
    const rounds = rows.filter((row) => row.thread_id === threadId);
    const opening = rounds[0];
    const items = opening ? bundleBooks.filter((book) => book.offer_id === opening.id) : [];
    let askingMinor = rounds[rounds.length - 1]?.price_minor ?? 0;
    let subtotalMinor = askingMinor;
    if (items.length > 1) {
      const owner = items[0] as (typeof items)[number];
      const key = owner.charity_id ? `c:${owner.charity_id}` : `s:${owner.seller_id}`;
      if (!tierCache.has(key)) tierCache.set(key, await tiersFor(db, owner));
      subtotalMinor = askingSubtotal(items.map((book) => book.price_minor));
      askingMinor = bundleAsking(subtotalMinor, bundlePercent(tierCache.get(key) ?? [], items.length));
    }
    threadsOut.push(threadView(threadId, rounds, items, { askingMinor, subtotalMinor }, role, now));
  }
  return threadsOut;
}

function threadView(
  threadId: string,
  rounds: ThreadRow[],
  items: BundleBookRow[],
  price: { askingMinor: number; subtotalMinor: number },
  role: OrderRole,
  now: Date,
): OfferThread {
  const current = rounds[rounds.length - 1];
  if (!current) throw new Error(`Offer thread ${threadId} has no rounds`);
  const status = effectiveStatus(current, now);
  const open = status === 'pending';
  const theirs = current.made_by !== role;
  const asking = price.askingMinor;
  const first = rounds[0]?.amount_minor ?? 0;
  const bundle = items.length > 1;
  const books = bundle
    ? items.map((book) => ({
        id: book.id,
        slug: book.slug,
        title: book.title,
        priceMinor: book.price_minor ?? 0,
        imageUrl: book.photo_url ?? book.cover_url,
        status: book.status,
      }))
    : [
        {
          id: current.listing_id,
          slug: current.slug,
          title: current.title,
          priceMinor: current.price_minor ?? 0,
          imageUrl: current.photo_url ?? current.cover_url,
          status: current.listing_status,
        },
      ];
  const canCounter = open && theirs && (role === 'seller' ? current.round === 1 : current.round === 2);
  const counter = counterBounds({
    role,
    currentMinor: current.amount_minor,
    askingMinor: asking,
    subtotalMinor: price.subtotalMinor,
    openingMinor: first,
  });
  return {
    currentId: current.id,
    status,
    role,
    listing: {
      id: current.listing_id,
      slug: current.slug,
      title: current.title,
      priceMinor: current.price_minor ?? 0,
      imageUrl: current.photo_url ?? current.cover_url,
      status: current.listing_status,
    },
    bundle,
    books,
    askingMinor: asking,
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
      canPay: role === 'buyer' && status === 'accepted' && books.every((book) => book.status === 'reserved'),
    },
    counterMinMinor: canCounter ? counter.minMinor : null,
    counterMaxMinor: canCounter ? counter.maxMinor : null,
  };
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
      const listing = { title: (await offerGroup(trx, offer)).title };
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
