/**
 * Bundle discount tiers (decision 0043): a seller's own, and a charity shop's (for the
 * charity's listings). Up to three tiers, strictly increasing in both the number of books and
 * the percentage; none is "off" (the default). The basket's pricing (`priceGroup` in
 * packages/contracts) reads them; here they are read and replaced.
 *
 * `setTiers` replaces the owner's tiers in one transaction: the input was validated by
 * `bundleTiersSchema` at the door, and the table's deferred check (at most three, rising) is a
 * second guard, so a half-written set can never be seen.
 */
import { type BundleTier, bundleTierOutSchema, bundleTiersSchema } from '@reshelf/contracts';
import { z } from 'zod';
import type { Database } from '../../db/index.ts';
import { AppError } from '../../errors.ts';

/** Whose tiers: a seller's own, or a charity shop's. */
export type TierOwner = { sellerId: string } | { charityId: string };

export interface BundleTiersView {
  tiers: BundleTier[];
}

/** What the tiers procedures answer: [] is off, the default. */
export const bundleTiersViewSchema = z.object({ tiers: z.array(bundleTierOutSchema) });

function ownerColumn(owner: TierOwner) {
  return 'sellerId' in owner
    ? ({ column: 'seller_id', id: owner.sellerId } as const)
    : ({ column: 'charity_id', id: owner.charityId } as const);
}

/** The owner's tiers, fewest books first ([] when bundle discounts are off). */
export async function getTiers(db: Database, owner: TierOwner): Promise<BundleTiersView> {
  const { column, id } = ownerColumn(owner);
  const rows = await db
    .selectFrom('bundle_tiers')
    .select(['min_books', 'percent'])
    .where(column, '=', id)
    .orderBy('min_books')
    .execute();
  return { tiers: rows.map((row) => ({ minBooks: row.min_books, percent: row.percent })) };
}

/** Replaces the owner's tiers ([] turns bundle discounts off). */
export async function setTiers(
  db: Database,
  owner: TierOwner,
  tiers: BundleTier[],
): Promise<BundleTiersView> {
  // The door validated them; checked again so no caller can write a set the rules refuse.
  const parsed = bundleTiersSchema.safeParse(tiers);
  if (!parsed.success) {
    throw new AppError('BAD_INPUT', parsed.error.issues[0]?.message ?? 'Those tiers are not valid.');
  }
  const { column, id } = ownerColumn(owner);
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('bundle_tiers').where(column, '=', id).execute();
    if (parsed.data.length > 0) {
      await trx
        .insertInto('bundle_tiers')
        .values(
          parsed.data.map((tier) => ({
            [column]: id,
            min_books: tier.minBooks,
            percent: tier.percent,
          })),
        )
        .execute();
    }
  });
  return getTiers(db, owner);
}
