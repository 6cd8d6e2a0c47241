/**
 * The basket (decision 0043): books a member means to buy, grouped by seller (one
 * parcel, one order each). Adding is idempotent (a double tap adds once); a visitor's basket
 * lives in the browser and is merged in on sign-in. A book sold, reserved or withdrawn
 * meanwhile stays in the basket shown as gone, until the member removes it (or buys the rest).
 * Per-person answers only.
 */
import {
  BASKET_LIMITS,
  type Basket,
  type BasketGroup,
  type BasketItem,
  type BundleTier,
} from '@reshelf/contracts';
import { sql, type Transaction } from 'kysely';
import { CARD_COLUMNS, CARD_JOINS, type CardRow, toCard } from '../../catalogue/index.ts';
import type { DB } from '../../db/database.generated.ts';
import type { Database } from '../../db/index.ts';
import { AppError } from '../../errors.ts';
import { groupKey, tiersFor } from '../checkout/basket-checkout.ts';

const FULL_MESSAGE = `Your basket is full (${BASKET_LIMITS.maxItems} books). Buy or remove some to add more.`;

/** One member's basket changes one at a time (two taps at once cannot pass the cap). */
async function lockBasket(trx: Transaction<DB>, buyerId: string) {
  await sql`select pg_advisory_xact_lock(hashtext('basket'), hashtext(${buyerId}))`.execute(trx);
}

/** Adds a book; already there is fine. Refuses what cannot be bought (gone, own, draft). */
export async function addToBasket(
  db: Database,
  buyerId: string,
  listingId: string,
): Promise<{ count: number }> {
  const listing = await db
    .selectFrom('listings')
    .select(['id', 'seller_id', 'status'])
    .where('id', '=', listingId)
    .executeTakeFirst();
  if (!listing || listing.status === 'draft' || listing.status === 'removed') {
    throw new AppError('NOT_FOUND', 'We couldn’t find that book. It may have been taken down.');
  }
  if (listing.seller_id === buyerId) {
    throw new AppError('BAD_INPUT', 'This is your own book, so it can’t go in your basket.');
  }
  if (listing.status !== 'active') {
    throw new AppError('CONFLICT', 'This book has just been sold, so it can’t go in your basket.');
  }
  return db.transaction().execute(async (trx) => {
    await lockBasket(trx, buyerId);
    const count = await countOf(trx, buyerId);
    const already = await trx
      .selectFrom('basket_items')
      .select('listing_id')
      .where('buyer_id', '=', buyerId)
      .where('listing_id', '=', listingId)
      .executeTakeFirst();
    if (already) return { count };
    if (count >= BASKET_LIMITS.maxItems) throw new AppError('BAD_INPUT', FULL_MESSAGE);
    await trx.insertInto('basket_items').values({ buyer_id: buyerId, listing_id: listingId }).execute();
    return { count: count + 1 };
  });
}

export async function removeFromBasket(
  db: Database,
  buyerId: string,
  listingIds: string[],
): Promise<{ count: number }> {
  if (listingIds.length > 0) {
    await db
      .deleteFrom('basket_items')
      .where('buyer_id', '=', buyerId)
      .where('listing_id', 'in', listingIds)
      .execute();
  }
  return { count: await countOf(db, buyerId) };
}

/**
 * A visitor's basket (kept in the browser) joins the account on sign-in: the books that can be
 * bought are added, oldest first, up to the cap; the rest (gone, own, unknown) are skipped and
 * named in the answer, so the browser can forget them.
 */
export async function mergeBasket(
  db: Database,
  buyerId: string,
  listingIds: string[],
): Promise<{ count: number; added: string[]; skipped: string[] }> {
  const ids = [...new Set(listingIds)];
  if (ids.length === 0) return { count: await countOf(db, buyerId), added: [], skipped: [] };
  const rows = await db
    .selectFrom('listings')
    .select(['id', 'seller_id', 'status'])
    .where('id', 'in', ids)
    .execute();
  const buyable = new Set(
    rows.filter((row) => row.status === 'active' && row.seller_id !== buyerId).map((row) => row.id),
  );
  return db.transaction().execute(async (trx) => {
    await lockBasket(trx, buyerId);
    const have = new Set(
      (
        await trx.selectFrom('basket_items').select('listing_id').where('buyer_id', '=', buyerId).execute()
      ).map((row) => row.listing_id),
    );
    const added: string[] = [];
    const skipped: string[] = [];
    for (const id of ids) {
      if (have.has(id)) continue;
      if (!buyable.has(id) || have.size + added.length >= BASKET_LIMITS.maxItems) {
        skipped.push(id);
        continue;
      }
      added.push(id);
    }
    if (added.length > 0) {
      await trx
        .insertInto('basket_items')
        .values(added.map((listingId) => ({ buyer_id: buyerId, listing_id: listingId })))
        .onConflict((oc) => oc.columns(['buyer_id', 'listing_id']).doNothing())
        .execute();
    }
    return { count: have.size + added.length, added, skipped };
  });
}

async function countOf(db: Database | Transaction<DB>, buyerId: string): Promise<number> {
  const { count } = await db
    .selectFrom('basket_items')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('buyer_id', '=', buyerId)
    .executeTakeFirstOrThrow();
  return Number(count);
}

/** How many books are in the basket (the header's count): the ones that can still be bought. */
export async function basketCount(db: Database, buyerId: string): Promise<{ count: number; gone: number }> {
  const row = await db
    .selectFrom('basket_items as bi')
    .innerJoin('listings as l', 'l.id', 'bi.listing_id')
    .select([
      (eb) => eb.fn.countAll<number>().as('total'),
      sql<number>`count(*) filter (where l.status = 'active')`.as('available'),
    ])
    .where('bi.buyer_id', '=', buyerId)
    .executeTakeFirstOrThrow();
  return { count: Number(row.available), gone: Number(row.total) - Number(row.available) };
}

interface BasketRow extends CardRow {
  seller_id: string;
  charity_id: string | null;
  seller_name: string;
  added_at: Date;
}

/** The basket grouped by seller (one parcel each), newest addition first within a group. */
export async function listBasket(db: Database, buyerId: string): Promise<Basket> {
  const { rows } = await sql<BasketRow>`
    select ${CARD_COLUMNS}, l.seller_id, l.charity_id, p.display_name as seller_name, bi.added_at
    from public.basket_items bi
    join public.listings l on l.id = bi.listing_id
    ${CARD_JOINS}
    join public.profiles p on p.id = l.seller_id
    where bi.buyer_id = ${buyerId}
    order by bi.added_at desc, l.id`.execute(db);
  const tiers = await tiersFor(db, {
    sellerIds: [...new Set(rows.filter((row) => !row.charity_id).map((row) => row.seller_id))],
    charityIds: [...new Set(rows.flatMap((row) => (row.charity_id ? [row.charity_id] : [])))],
  });
  const groups: BasketGroup[] = [];
  for (const row of rows) {
    const key = groupKey({ sellerId: row.seller_id, charityId: row.charity_id });
    let group = groups.find((candidate) => candidate.key === key);
    if (!group) {
      const groupTiers: BundleTier[] =
        (row.charity_id ? tiers.byCharity.get(row.charity_id) : tiers.bySeller.get(row.seller_id)) ?? [];
      const card = toCard(row);
      group = {
        key,
        sellerId: row.seller_id,
        charityId: row.charity_id,
        sellerName: card.charity?.name ?? row.seller_name,
        charity: card.charity,
        tiers: groupTiers,
        items: [],
      };
      groups.push(group);
    }
    const item: BasketItem = {
      ...toCard(row),
      state: row.seller_id === buyerId ? 'own' : row.status === 'active' ? 'available' : 'gone',
      addedAt: row.added_at.toISOString(),
    };
    group.items.push(item);
  }
  return { groups, count: rows.filter((row) => row.status === 'active' && row.seller_id !== buyerId).length };
}

/**
 * A seller's own bundle tiers, or a charity shop's (by its slug, approved shops only), lowest
 * first; [] when they set none (or there is no such seller or shop: nothing is said about which).
 */
export async function bundleTiersOf(
  db: Database,
  owner: { sellerId: string } | { charitySlug: string },
): Promise<BundleTier[]> {
  if ('sellerId' in owner) {
    return (
      (await tiersFor(db, { sellerIds: [owner.sellerId], charityIds: [] })).bySeller.get(owner.sellerId) ?? []
    );
  }
  const charity = await db
    .selectFrom('charities')
    .select('id')
    .where('slug', '=', owner.charitySlug)
    .where('status', '=', 'approved')
    .executeTakeFirst();
  if (!charity) return [];
  return (await tiersFor(db, { sellerIds: [], charityIds: [charity.id] })).byCharity.get(charity.id) ?? [];
}
