/**
 * The wishlist: books a person saved from a listing card or page. Saving is idempotent (the
 * heart says what it should be, not "flip"), so a double tap or a retried request cannot undo
 * itself. Per-person answers only: never part of a cached public answer (decision 0008).
 */
import { type ListingCard, SELLING_LIMITS } from '@reshelf/contracts';
import { sql } from 'kysely';
import type { Database } from '../../db/index.ts';
import { AppError } from '../../errors.ts';
import { CARD_COLUMNS, CARD_JOINS, type CardRow, toCard } from '../listings/listings.service.ts';

export async function setWished(
  db: Database,
  userId: string,
  listingId: string,
  wished: boolean,
): Promise<{ wished: boolean }> {
  if (!wished) {
    await db
      .deleteFrom('wishlist_items')
      .where('user_id', '=', userId)
      .where('listing_id', '=', listingId)
      .execute();
    return { wished: false };
  }
  const listing = await db
    .selectFrom('listings')
    .select(['id', 'seller_id', 'status'])
    .where('id', '=', listingId)
    .executeTakeFirst();
  if (!listing || listing.status === 'draft') {
    throw new AppError('NOT_FOUND', 'We couldn’t find that listing. It may have been taken down.');
  }
  if (listing.seller_id === userId) {
    throw new AppError('BAD_INPUT', 'This is your own listing, so it can’t go on your wishlist.');
  }
  if (listing.status !== 'active' && listing.status !== 'reserved') {
    throw new AppError(
      'BAD_INPUT',
      'This book is no longer for sale, so it can’t be added to your wishlist.',
    );
  }
  await db.transaction().execute(async (trx) => {
    // One person's saves are counted and added one at a time (two taps at once cannot pass the cap).
    await sql`select pg_advisory_xact_lock(hashtext('wishlist'), hashtext(${userId}))`.execute(trx);
    const { count } = await trx
      .selectFrom('wishlist_items')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    if (Number(count) >= SELLING_LIMITS.maxWishlist) {
      const already = await trx
        .selectFrom('wishlist_items')
        .select('listing_id')
        .where('user_id', '=', userId)
        .where('listing_id', '=', listingId)
        .executeTakeFirst();
      if (already) return;
      throw new AppError(
        'BAD_INPUT',
        `Your wishlist is full (${SELLING_LIMITS.maxWishlist} books). Remove a book to save another.`,
      );
    }
    await trx
      .insertInto('wishlist_items')
      .values({ user_id: userId, listing_id: listingId })
      .onConflict((oc) => oc.columns(['user_id', 'listing_id']).doNothing())
      .execute();
  });
  return { wished: true };
}

/** The saved listings, newest save first, whatever has become of them (sold ones say so). */
export async function listWishlist(db: Database, userId: string): Promise<ListingCard[]> {
  const { rows } = await sql<CardRow>`
    select ${CARD_COLUMNS}
    from public.wishlist_items w
    join public.listings l on l.id = w.listing_id and l.status <> 'draft'
    ${CARD_JOINS}
    where w.user_id = ${userId}
    order by w.created_at desc, l.id desc
    limit ${SELLING_LIMITS.maxWishlist}`.execute(db);
  return rows.map(toCard);
}

/** Every listing id the person has saved: one small answer for all the hearts on a page. */
export async function wishedIds(db: Database, userId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('wishlist_items')
    .select('listing_id')
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .limit(SELLING_LIMITS.maxWishlist)
    .execute();
  return rows.map((row) => row.listing_id);
}
