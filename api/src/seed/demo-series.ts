/**
 * "Complete the set" in the demo (decision 0089): the demo buyer has volumes 1, 2 and 4 of Harry
 * Potter (volume 2 bought on Reshelf as a completed order, volumes 1 and 4 marked "I have this")
 * while volume 3 is on sale, so the book page and the account show a gap with a price. Runs once,
 * after the catalogue demo (its HP2 copy is the one bought).
 */
import type { ParcelSize } from '@reshelf/contracts';
import { sql } from 'kysely';
import type { Database } from '../db/index.ts';
import { catalogueDemoSlug } from './catalogue-demo.ts';
import { seedSale } from './seed-sale.ts';

export const DEMO_SET = {
  member: 'buyer@reshelf.test',
  /** Harry Potter and the Chamber of Secrets: bought from its demo seller. */
  bought: '9781408855669',
  /** The Philosopher's Stone and the Goblet of Fire: the member's own copies. */
  marked: ['9781408855652', '9781408855683'],
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
