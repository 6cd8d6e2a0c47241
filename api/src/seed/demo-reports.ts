/**
 * A few open reports on demo listings, so /admin/reports has a queue to work on a fresh
 * start: two members report one listing (the page shows "2 open reports on this listing"),
 * one reports another. The reporters are demo buyers who cannot sign in and the listings are
 * not the demo seller's, so nothing a person tries with the demo accounts collides with them.
 * They go with their listing if it is ever deleted (the foreign key cascades).
 */
import { APPEAL_WINDOW_DAYS, REPORT_REASON_HARM, type ReportReason } from '@reshelf/contracts';
import type { Database } from '../db/index.ts';
import { DEMO_BUYERS, DEMO_SELLERS } from './catalogue-demo.ts';

export async function seedDemoReports(db: Database): Promise<{ reports: number }> {
  const seller = DEMO_SELLERS[1]?.email;
  const [first, second] = DEMO_BUYERS.map((buyer) => buyer.email);
  if (!seller || !first || !second) return { reports: 0 };
  const people = await db
    .selectFrom('auth.users')
    .select(['id', 'email'])
    .where('email', 'in', [seller, first, second])
    .execute();
  const id = (email: string) => people.find((person) => person.email === email)?.id;
  const sellerId = id(seller);
  const reader = id(first);
  const bookworm = id(second);
  if (!sellerId || !reader || !bookworm) return { reports: 0 };
  const listings = await db
    .selectFrom('listings')
    .select('id')
    .where('seller_id', '=', sellerId)
    .where('status', '=', 'active')
    .orderBy('slug')
    .limit(2)
    .execute();
  const [one, two] = listings;
  if (!one || !two) return { reports: 0 };
  const rows: {
    listing_id: string;
    reporter_id: string;
    reason: ReportReason;
    details: string | null;
    hoursAgo: number;
  }[] = [
    {
      listing_id: one.id,
      reporter_id: reader,
      reason: 'not_as_described',
      details: 'The photos show a paperback but the listing says hardback.',
      hoursAgo: 30,
    },
    { listing_id: one.id, reporter_id: bookworm, reason: 'wrong_details', details: null, hoursAgo: 20 },
    {
      listing_id: two.id,
      reporter_id: reader,
      reason: 'scam_or_fraud',
      details: 'The seller asked me to pay by bank transfer outside Reshelf.',
      hoursAgo: 6,
    },
  ];
  await db
    .insertInto('reports')
    .values(
      rows.map(({ hoursAgo, ...row }) => ({
        ...row,
        harm: REPORT_REASON_HARM[row.reason],
        target_kind: 'listing',
        created_at: new Date(Date.now() - hoursAgo * 3_600_000),
      })),
    )
    .execute();
  return { reports: rows.length };
}

/**
 * One removal with an open appeal, so /admin/appeals is not empty: the moderator removed a third
 * listing of the same demo seller and the seller appealed. The admin (not the moderator who
 * removed it) can decide it, and upholding it puts the listing back.
 */
export async function seedDemoAppeal(db: Database): Promise<{ appeals: number }> {
  const seller = DEMO_SELLERS[1]?.email;
  if (!seller) return { appeals: 0 };
  const people = await db
    .selectFrom('auth.users')
    .select(['id', 'email'])
    .where('email', 'in', [seller, 'moderator@reshelf.test'])
    .execute();
  const sellerId = people.find((person) => person.email === seller)?.id;
  const moderatorId = people.find((person) => person.email === 'moderator@reshelf.test')?.id;
  if (!sellerId || !moderatorId) return { appeals: 0 };
  const listing = await db
    .selectFrom('listings as l')
    .innerJoin('books as b', 'b.id', 'l.book_id')
    .select(['l.id', 'l.status', 'b.title'])
    .where('l.seller_id', '=', sellerId)
    .where('l.status', '=', 'active')
    .orderBy('l.slug', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!listing) return { appeals: 0 };
  const reason = 'The photos look like a photocopy, so it may be a counterfeit.';
  const removedAt = new Date(Date.now() - 2 * 86_400_000);
  await db
    .updateTable('listings')
    .set({ status: 'removed', removed_reason: reason })
    .where('id', '=', listing.id)
    .execute();
  await db
    .insertInto('audit_log')
    .values({
      actor_id: moderatorId,
      actor_email: 'moderator@reshelf.test',
      action: 'listing.remove',
      target_type: 'listing',
      target_id: listing.id,
      details: JSON.stringify({ from: listing.status, to: 'removed', reason }),
      created_at: removedAt,
    })
    .execute();
  await db
    .insertInto('moderation_removals')
    .values({
      target_kind: 'listing',
      listing_id: listing.id,
      owner_id: sellerId,
      removed_by: moderatorId,
      reason,
      harm: REPORT_REASON_HARM.not_as_described,
      what: `your listing “${listing.title}”`,
      created_at: removedAt,
      appeal_by: new Date(removedAt.getTime() + APPEAL_WINDOW_DAYS * 86_400_000),
      appeal_text: 'It is a genuine 1950s printing; the paper is just yellowed. I can send more photos.',
      appealed_at: new Date(Date.now() - 5 * 3_600_000),
      appeal_status: 'open',
    })
    .execute();
  return { appeals: 1 };
}
