/**
 * Ninety days of selling for the demo seller (Sam's Shelf, seller@reshelf.test) and the demo
 * charity (Cherwell Valley Hospice Books, charity@reshelf.test), so /account/analytics and the
 * charity dashboard have something to show on a first start: listing views and
 * wishlist saves spread over the period, offers that were declined, expired, withdrawn or ended
 * in a purchase, and sales of earlier copies (completed orders with their payouts). A few views
 * are by the demo buyer (buyer@reshelf.test), so their recommendations have something to follow.
 *
 * Nothing open is left behind (no pending or accepted offer, no order in progress), so the
 * browser tests that make offers and orders on the demo listings start from a clean slate.
 * Deterministic, like the rest of the demo data.
 */
import { createHash, randomUUID } from 'node:crypto';
import { type ParcelSize, slugify } from '@reshelf/contracts';
import { sql } from 'kysely';
import type { Database } from '../db/index.ts';
import { DEMO_BUYERS } from './catalogue-demo.ts';
import { seedSale } from './seed-sale.ts';

const DAY = 86_400_000;
/** How far back the activity goes. */
export const ACTIVITY_DAYS = 90;

/**
 * A number in [0, 1) from a key: keys name listings by slug, never by their random ids, so the
 * demo's activity (and the tests that read it) is the same on every run.
 */
function pick(key: string): number {
  return createHash('sha256').update(`activity:${key}`).digest().readUInt32BE(0) / 2 ** 32;
}

async function userId(db: Database, email: string): Promise<string | null> {
  const row = await db.selectFrom('auth.users').select('id').where('email', '=', email).executeTakeFirst();
  return row?.id ?? null;
}

interface Seller {
  key: string;
  userId: string;
  charityId: string | null;
  /** Earlier copies sold over the period. */
  sold: number;
}

export interface SellerActivityReport extends Record<string, unknown> {
  views: number;
  wishlists: number;
  offers: number;
  sales: number;
}

export async function seedSellerActivity(
  db: Database,
  now: Date = new Date(),
): Promise<SellerActivityReport> {
  const report: SellerActivityReport = { views: 0, wishlists: 0, offers: 0, sales: 0 };
  const sam = await userId(db, 'seller@reshelf.test');
  const hospiceOwner = await userId(db, 'charity@reshelf.test');
  const hospice = hospiceOwner
    ? await db.selectFrom('charities').select('id').where('owner_id', '=', hospiceOwner).executeTakeFirst()
    : undefined;
  const buyers = (
    await db
      .selectFrom('auth.users')
      .select('id')
      .where(
        'email',
        'in',
        DEMO_BUYERS.map((buyer) => buyer.email),
      )
      .orderBy('email')
      .execute()
  ).map((row) => row.id);
  if (buyers.length === 0) return report;
  const sellers: Seller[] = [];
  if (sam) sellers.push({ key: 'sam', userId: sam, charityId: null, sold: 12 });
  if (hospiceOwner && hospice) {
    sellers.push({ key: 'hospice', userId: hospiceOwner, charityId: hospice.id, sold: 10 });
  }
  const ago = (days: number, hour = 0) => new Date(now.getTime() - days * DAY - hour * 3_600_000);

  for (const seller of sellers) {
    const scope =
      seller.charityId === null
        ? sql`l.seller_id = ${seller.userId} and l.charity_id is null`
        : sql`l.charity_id = ${seller.charityId}`;
    const { rows: active } = await sql<{ id: string; slug: string; published_at: Date }>`
      select l.id, l.slug, l.published_at from public.listings l
       where ${scope} and l.status = 'active'
       order by l.slug`.execute(db);

    // Earlier copies of books the seller does not list now, sold over the period.
    const { rows: books } = await sql<{ id: string; title: string; parcel: ParcelSize }>`
      select b.id, b.title,
             (case when coalesce(b.page_count, 300) > 600 then 'large'
                   when coalesce(b.page_count, 300) > 350 then 'medium' else 'small' end) as parcel
        from public.books b
       where b.isbn13 is not null
         and not exists (select 1 from public.listings l where l.book_id = b.id and ${scope})
       order by b.isbn13
       limit ${seller.sold}`.execute(db);
    const sold: { id: string; slug: string; published: Date; paid: Date }[] = [];
    for (const [n, book] of books.entries()) {
      const key = `${seller.key}:sold:${n}`;
      // Two sales in the last week, the rest spread back to the start of the period.
      const paidDaysAgo = n < 2 ? 5 + n : 8 + Math.floor(pick(`${key}:paid`) * (ACTIVITY_DAYS - 12));
      const daysToSell = 1 + Math.floor(pick(`${key}:days`) * 20);
      const published = ago(paidDaysAgo + daysToSell, 3);
      const paid = ago(paidDaysAgo, Math.floor(pick(`${key}:hour`) * 8));
      const itemMinor = 300 + Math.floor(pick(`${key}:price`) * 12) * 50;
      // An offer 50p under the asking price, for the sales that followed one.
      const offeredMinor = 250 + Math.floor(pick(`${key}:price`) * 12) * 50;
      const slug = `${slugify(book.title)}-${createHash('sha256').update(key).digest('hex').slice(0, 6)}`;
      const listing = await db
        .insertInto('listings')
        .values({
          seller_id: seller.userId,
          charity_id: seller.charityId,
          book_id: book.id,
          slug,
          status: 'sold',
          condition: pick(`${key}:condition`) < 0.5 ? 'very_good' : 'good',
          price_minor: itemMinor,
          parcel_size: book.parcel,
          description: 'Sold earlier in the demo.',
          // Charities record who donated each book, for Retail Gift Aid (as the catalogue does).
          donor_reference: seller.charityId ? `D-${String(101 + (n % 7)).padStart(5, '0')}` : null,
          published_at: published,
          created_at: published,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const buyerId = buyers[n % buyers.length]!;
      // Every third sale followed an offer the seller accepted.
      let offerId: string | null = null;
      if (n % 3 === 1) {
        offerId = randomUUID();
        await db
          .insertInto('offers')
          .values({
            id: offerId,
            thread_id: offerId,
            listing_id: listing.id,
            buyer_id: buyerId,
            seller_id: seller.userId,
            made_by: 'buyer',
            amount_minor: offeredMinor,
            status: 'purchased',
            expires_at: new Date(paid.getTime() + DAY),
            responded_at: new Date(paid.getTime() - 3_600_000),
            checkout_deadline: new Date(paid.getTime() + DAY),
            created_at: new Date(paid.getTime() - 5 * 3_600_000),
          })
          .execute();
        report.offers += 1;
      }
      // Paid through the test provider, as a real sale is: the money in matches the order.
      await seedSale(db, {
        buyerId,
        sellerId: seller.userId,
        charityId: seller.charityId,
        books: [{ listingId: listing.id, priceMinor: itemMinor, parcelSize: book.parcel }],
        offer: offerId ? { id: offerId, amountMinor: offeredMinor } : null,
        status: 'completed',
        paidAt: paid,
        dispatchedAt: new Date(paid.getTime() + DAY),
        deliveredAt: new Date(paid.getTime() + 3 * DAY),
        completedAt: new Date(paid.getTime() + 4 * DAY),
        paymentRef: `demo_activity_${listing.id.replaceAll('-', '')}`,
        note: 'Demo sale',
      });
      sold.push({ id: listing.id, slug, published, paid });
      report.sales += 1;
    }

    // Views: each listing gets a few a day while it was on sale, some books far more than others.
    const views: { listing_id: string; viewed_on: string; viewed_at: Date; viewer_key: string }[] = [];
    const onSale = [
      ...active.map((listing) => ({
        id: listing.id,
        slug: listing.slug,
        from: listing.published_at,
        to: now,
      })),
      ...sold.map((listing) => ({
        id: listing.id,
        slug: listing.slug,
        from: listing.published,
        to: listing.paid,
      })),
    ];
    for (const listing of onSale) {
      const appeal = pick(`${listing.slug}:appeal`) ** 2;
      for (let day = 0; day < ACTIVITY_DAYS; day++) {
        const at = ago(day, 1 + Math.floor(pick(`${listing.slug}:${day}:hour`) * 10));
        if (at < listing.from || at > listing.to) continue;
        const count = Math.floor(pick(`${listing.slug}:${day}:views`) * appeal * 4);
        for (let v = 0; v < count; v++) {
          views.push({
            listing_id: listing.id,
            viewed_on: at.toISOString().slice(0, 10),
            viewed_at: at,
            viewer_key: createHash('sha256')
              .update(`activity:${listing.id}:${day}:${v}`)
              .digest('hex')
              .slice(0, 32),
          });
        }
      }
    }
    for (let start = 0; start < views.length; start += 1000) {
      const inserted = await db
        .insertInto('listing_views')
        .values(views.slice(start, start + 1000))
        .onConflict((oc) => oc.doNothing())
        .executeTakeFirst();
      report.views += Number(inserted.numInsertedOrUpdatedRows ?? 0);
    }

    // Wishlist saves by the demo buyers over the period (on books still on sale).
    const saves = active.flatMap((listing) =>
      buyers
        .filter((_, b) => pick(`${listing.slug}:save:${b}`) < 0.25)
        .map((buyerId, b) => {
          const span = Math.max(0, (now.getTime() - listing.published_at.getTime()) / DAY);
          return {
            user_id: buyerId,
            listing_id: listing.id,
            created_at: ago(
              Math.floor(pick(`${listing.slug}:save:${b}:day`) * Math.min(span, ACTIVITY_DAYS)),
            ),
          };
        }),
    );
    if (saves.length) {
      const inserted = await db
        .insertInto('wishlist_items')
        .values(saves)
        .onConflict((oc) => oc.doNothing())
        .executeTakeFirst();
      report.wishlists += Number(inserted.numInsertedOrUpdatedRows ?? 0);
    }

    // Offers that came to nothing: declined, expired or withdrawn (nothing left open).
    const endings = ['declined', 'expired', 'withdrawn'] as const;
    const offers = active
      .filter((listing) => pick(`${listing.slug}:offer`) < 0.35)
      .map((listing, n) => {
        const id = randomUUID();
        const span = Math.max(1, (now.getTime() - listing.published_at.getTime()) / DAY - 3);
        const made = ago(
          3 + Math.floor(pick(`${listing.slug}:offer:day`) * Math.min(span, ACTIVITY_DAYS - 3)),
        );
        const status = endings[n % endings.length]!;
        return {
          id,
          thread_id: id,
          listing_id: listing.id,
          buyer_id: buyers[n % buyers.length]!,
          seller_id: seller.userId,
          made_by: 'buyer',
          amount_minor: 200 + Math.floor(pick(`${listing.slug}:offer:amount`) * 6) * 50,
          status,
          expires_at: new Date(made.getTime() + 2 * DAY),
          responded_at: status === 'declined' ? new Date(made.getTime() + 6 * 3_600_000) : null,
          created_at: made,
        };
      });
    if (offers.length) {
      await db.insertInto('offers').values(offers).execute();
      report.offers += offers.length;
    }
  }

  // The demo buyer looked at a few books lately: their recommendations follow them.
  const reader = await userId(db, 'buyer@reshelf.test');
  if (reader) {
    const { rows: looked } = await sql<{ id: string }>`
      select l.id from public.listings l join public.books b on b.id = l.book_id
       where l.status = 'active' and cardinality(b.authors) > 0
       order by l.slug limit 3`.execute(db);
    const key = createHash('sha256').update(`member|${reader}`).digest('hex').slice(0, 32);
    for (const [n, listing] of looked.entries()) {
      const at = ago(2 + n, 2);
      await db
        .insertInto('listing_views')
        .values({
          listing_id: listing.id,
          viewed_on: at.toISOString().slice(0, 10),
          viewed_at: at,
          viewer_key: key,
          viewer_id: reader,
        })
        .onConflict((oc) => oc.doNothing())
        .execute();
      report.views += 1;
    }
  }
  return report;
}
