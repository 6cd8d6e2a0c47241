/**
 * "Complete the set" in the demo (decision 0089): the demo buyer has volumes 1, 2 and 4 of Harry
 * Potter (marked "I have this") while volume 3 is on sale, so the book page and the account show
 * a gap with a price. Nothing is bought for them: the demo buyer's first order is still to come
 * (the WELCOME20 first-order discount is theirs to try). Runs once, after the catalogue demo. No
 * copy of volume 2 is on sale in the demo (`demoCopies: 0`): that kept "harry potter" from showing
 * the Chamber of Secrets first before search put a series in volume order (decision 0092), and the
 * demo's counts, which tests read, still assume it.
 */
import { sql } from 'kysely';
import type { Database } from '../db/index.ts';

export const DEMO_SET = {
  member: 'buyer@reshelf.test',
  /** The Philosopher's Stone, the Chamber of Secrets and the Goblet of Fire: the member's own copies. */
  marked: ['9781408855652', '9781408855669', '9781408855683'],
  /** The Prisoner of Azkaban: the gap, on sale. */
  missing: '9781408855676',
} as const;

export async function seedDemoSeries(db: Database): Promise<{ marked: number }> {
  const member = await db
    .selectFrom('auth.users')
    .select('id')
    .where(sql<string>`lower(email)`, '=', DEMO_SET.member)
    .executeTakeFirst();
  if (!member) return { marked: 0 };
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
  return { marked: works.length };
}
