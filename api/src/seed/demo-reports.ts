/**
 * A few open reports on demo listings, so /admin/reports has a queue to work on a fresh
 * start: two members report one listing (the page shows "2 open reports on this listing"),
 * one reports another. The reporters are demo buyers who cannot sign in and the listings are
 * not the demo seller's, so nothing a person tries with the demo accounts collides with them.
 * They go with their listing if it is ever deleted (the foreign key cascades).
 */
import { REPORT_REASON_HARM, type ReportReason } from '@reshelf/contracts';
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
