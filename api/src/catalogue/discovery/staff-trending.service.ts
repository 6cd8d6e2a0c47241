/**
 * Trending books for staff (/admin/trending-books): the list /trending shows, computed by
 * discovery (`trendingListings`), with the staff's overrides — pin a listing to the top while
 * it is on sale, or hide a listing's book from the list. Each change is audited in its
 * transaction; the table's trigger drops the public cache (decision 0008).
 */
import type { ListingCard } from '@reshelf/contracts';
import { sql } from 'kysely';
import type { Database } from '../../db/index.ts';
import { AppError } from '../../errors.ts';
import { recordAudit } from '../../platform/audit/audit.service.ts';
import { trendingListings } from './discovery.service.ts';

/** The home page's trending shelf shows 8: more pins than that would leave no room to trend. */
export const MAX_TRENDING_PINS = 8;
/** How much of the computed list staff see. */
export const TRENDING_BOARD_SIZE = 24;

export type TrendingMode = 'pin' | 'hide';

export interface TrendingOverrideRow {
  listingId: string;
  slug: string | null;
  title: string;
  status: string;
  mode: TrendingMode;
  setBy: string | null;
  createdAt: string;
}

export interface TrendingBoard {
  list: (Pick<ListingCard, 'id' | 'slug' | 'title' | 'authors' | 'priceMinor'> & { pinned: boolean })[];
  overrides: TrendingOverrideRow[];
}

export async function trendingBoard(db: Database): Promise<TrendingBoard> {
  const [cards, overrides] = await Promise.all([
    trendingListings(db, TRENDING_BOARD_SIZE),
    db
      .selectFrom('trending_overrides as t')
      .innerJoin('listings as l', 'l.id', 't.listing_id')
      .innerJoin('books as b', 'b.id', 'l.book_id')
      .leftJoin('auth.users as u', 'u.id', 't.set_by')
      .select(['t.listing_id', 'l.slug', 'b.title', 'l.status', 't.mode', 'u.email', 't.created_at'])
      .orderBy('t.mode', 'desc')
      .orderBy('t.created_at')
      .orderBy('t.listing_id')
      .execute(),
  ]);
  const pinned = new Set(overrides.filter((row) => row.mode === 'pin').map((row) => row.listing_id));
  return {
    list: cards.map((card) => ({
      id: card.id,
      slug: card.slug,
      title: card.title,
      authors: card.authors,
      priceMinor: card.priceMinor,
      pinned: pinned.has(card.id),
    })),
    overrides: overrides.map((row) => ({
      listingId: row.listing_id,
      slug: row.slug,
      title: row.title,
      status: row.status,
      mode: row.mode as TrendingMode,
      setBy: row.email ?? null,
      createdAt: row.created_at.toISOString(),
    })),
  };
}

export async function setTrendingOverride(
  db: Database,
  staffId: string,
  input: { listingId: string; mode: TrendingMode },
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    // One curator at a time: the pin limit is counted under this lock.
    await sql`select pg_advisory_xact_lock(hashtext('trending_overrides'))`.execute(trx);
    const listing = await trx
      .selectFrom('listings as l')
      .innerJoin('books as b', 'b.id', 'l.book_id')
      .select(['l.status', 'b.title'])
      .where('l.id', '=', input.listingId)
      .executeTakeFirst();
    if (!listing) throw new AppError('NOT_FOUND', 'We could not find that listing. Refresh the page.');
    const current = await trx
      .selectFrom('trending_overrides')
      .select('mode')
      .where('listing_id', '=', input.listingId)
      .executeTakeFirst();
    if (current?.mode === input.mode) {
      throw new AppError(
        'CONFLICT',
        input.mode === 'pin'
          ? 'That listing is already pinned.'
          : 'That book is already hidden from trending.',
      );
    }
    if (input.mode === 'pin') {
      if (listing.status !== 'active') {
        throw new AppError('PRECONDITION_FAILED', 'Only a listing on sale can be pinned to trending.');
      }
      const { count } = await trx
        .selectFrom('trending_overrides')
        .select((eb) => eb.fn.countAll<string>().as('count'))
        .where('mode', '=', 'pin')
        .executeTakeFirstOrThrow();
      if (Number(count) >= MAX_TRENDING_PINS) {
        throw new AppError(
          'PRECONDITION_FAILED',
          `At most ${MAX_TRENDING_PINS} listings can be pinned to trending. Unpin one first.`,
        );
      }
    }
    await trx
      .insertInto('trending_overrides')
      .values({ listing_id: input.listingId, mode: input.mode, set_by: staffId })
      .onConflict((oc) =>
        oc.column('listing_id').doUpdateSet({ mode: input.mode, set_by: staffId, created_at: sql`now()` }),
      )
      .execute();
    await recordAudit(trx, {
      actorId: staffId,
      action: input.mode === 'pin' ? 'trending.pin' : 'trending.hide',
      targetType: 'listing',
      targetId: input.listingId,
      details: { title: listing.title, ...(current ? { was: current.mode } : {}) },
    });
  });
}

export async function clearTrendingOverride(db: Database, staffId: string, listingId: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const removed = await trx
      .deleteFrom('trending_overrides')
      .where('listing_id', '=', listingId)
      .returning('mode')
      .executeTakeFirst();
    if (!removed) {
      throw new AppError(
        'NOT_FOUND',
        'That listing is neither pinned nor hidden any more. Refresh the page.',
      );
    }
    await recordAudit(trx, {
      actorId: staffId,
      action: removed.mode === 'pin' ? 'trending.unpin' : 'trending.unhide',
      targetType: 'listing',
      targetId: listingId,
    });
  });
}
