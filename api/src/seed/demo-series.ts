/**
 * "Complete the set" in the demo (decision 0089): the demo buyer has volumes 1, 2 and 4 of Harry
 * Potter (marked "I have this") while volume 3 is on sale, so the book page and the account show
 * a gap with a price; and bought The Subtle Knife on Reshelf as a completed order, so His Dark
 * Materials shows a volume bought here. Runs once, after the catalogue demo (its copy of The
 * Subtle Knife is the one bought). No copy of volume 2 is on sale in the demo: search ranks a
 * series' volumes by the engine's own rules (the shortest title first), and the demo's "harry
 * potter" should find the first book first.
 */
import type { ParcelSize } from '@reshelf/contracts';
import { sql } from 'kysely';
import type { Database } from '../db/index.ts';
import { catalogueDemoSlug } from './catalogue-demo.ts';
import { seedSale } from './seed-sale.ts';

/** The Subtle Knife, His Dark Materials 2. */
const SUBTLE_KNIFE = '9781407130231';

export const DEMO_SET = {
  member: 'buyer@reshelf.test',
  /** The Subtle Knife (His Dark Materials 2): bought from its demo seller. */
  bought: SUBTLE_KNIFE,
  /** The Philosopher's Stone, the Chamber of Secrets and the Goblet of Fire: the member's own copies. */
  marked: ['9781408855652', '9781408855669', '9781408855683'],
  /** The Prisoner of Azkaban: the gap, on sale. */
  missing: '9781408855676',
} as const;

export async function seedDemoSeries(db: Database): Promise<{ bought: number; marked: number }> {
  const member = await db
    .selectFrom('auth.users')
    .select('id')
    .where(sql<string>`lower(email)`, '=', DEMO_SET.member)
    .executeTakeFirst();
  if (!member) return { bought: 0, marked: 0 };
  const listing = await db
    .selectFrom('listings')
    .select(['id', 'seller_id', 'charity_id', 'price_minor', 'parcel_size'])
    .where('slug', '=', catalogueDemoSlug(DEMO_SET.bought))
    .where('status', '=', 'active')
    .executeTakeFirst();
  if (listing) {
    const paidAt = new Date(Date.now() - 40 * 86_400_000);
    const at = (days: number) => new Date(paidAt.getTime() + days * 86_400_000);
    await seedSale(db, {
      buyerId: member.id,
      sellerId: listing.seller_id,
      charityId: listing.charity_id,
      books: [
        {
          listingId: listing.id,
          priceMinor: listing.price_minor!,
          parcelSize: listing.parcel_size as ParcelSize,
        },
      ],
      status: 'completed',
      paidAt,
      dispatchedAt: at(1),
      deliveredAt: at(3),
      completedAt: at(4),
      paymentRef: `demo_series_${listing.id.replaceAll('-', '')}`,
      note: 'Demo sale (a volume of a series)',
    });
  }
  const works = await db
    .selectFrom('books')
    .select('work_id')
    .where('isbn13', 'in', [...DEMO_SET.marked])
    .execute();
  if (works.length) {
    await db
      .insertInto('member_books')
      .values(works.map((row) => ({ user_id: member.id, work_id: row.work_id!, source: 'reshelf' })))
      .onConflict((oc) => oc.columns(['user_id', 'work_id']).doNothing())
      .execute();
  }
  return { bought: listing ? 1 : 0, marked: works.length };
}
