/**
 * The charity dashboard's figures and Retail Gift Aid, read from the commerce module's sales
 * (the money definitions' sold_books, decision 0051), so the dashboard, its sales analytics and
 * the charity's payouts tell one story.
 *
 * A sale counts once the buyer has paid and until it is cancelled or refunded. An order holds one
 * or more of the charity's books; each book counts as sold unless it came back (a
 * return or a refund of that book), and the dashboard counts both orders and books. What they
 * earned is what the charity is paid (its books less the shop's bundle discount, and postage, less
 * what refunds took back). Months and tax years are in London time.
 *
 * Gift Aid: a listing may carry the donor's reference; the proceeds of each donor's items sold
 * in a UK tax year (6 April to 5 April) are what the charity claims on and tells the donor in
 * its letter: a book's own share of the sale, never postage (WELCOME20 or a promo code is
 * Reshelf's, not the charity's). The export is a CSV per tax year: one row per donor, or one row
 * per item sold.
 */
import { type CharityDashboard, type GiftAidSummary, taxYearLabel, taxYearOf } from '@reshelf/contracts';
import { sql } from 'kysely';
import {
  earningsByPayoutStatus,
  giftAidByDonor,
  giftAidItems,
  giftAidSpan,
  salesByCategory,
  salesByMonth,
  salesTotals,
} from '../commerce/index.ts';
import type { Database } from '../db/index.ts';
import { csvText, pounds } from '../http/csv.ts';
import { requireCharity } from '../platform/identity/memberships.ts';

const DAY_MS = 86_400_000;

export async function charityDashboard(db: Database, userId: string): Promise<CharityDashboard> {
  const charity = await requireCharity(db, userId);
  const of = { charityId: charity.charityId };
  const [sales, listings, payouts, categories, monthly, returns] = await Promise.all([
    salesTotals(db, of, new Date(Date.now() - 30 * DAY_MS)),
    // A listing whose sale was refunded is "sold" in the catalogue but not a book sold: it counts
    // apart, so "Sold" here is the same number as the books sold above.
    sql<{ status: string; count: number }>`
      select case when l.status = 'sold'
                   and not exists (select 1 from public.sold_books s where s.listing_id = l.id)
                  then 'refunded' else l.status end as status,
             count(*)::int as count
        from public.listings l
       where l.charity_id = ${charity.charityId}
       group by 1 order by count desc`.execute(db),
    earningsByPayoutStatus(db, of),
    salesByCategory(db, of, 5),
    salesByMonth(db, of),
    sql<{ open: number }>`
      select count(*)::int as open from public.return_requests
      where charity_id = ${charity.charityId} and status in ('requested', 'accepted')`.execute(db),
  ]);
  return {
    sales: {
      ordersCount: sales.all.orders,
      booksCount: sales.all.books,
      earningsMinor: sales.all.earningsMinor,
      last30Count: sales.since.orders,
      last30Books: sales.since.books,
      last30Minor: sales.since.earningsMinor,
    },
    listingsByStatus: listings.rows,
    payouts,
    topCategories: categories,
    monthly,
    openReturns: returns.rows[0]?.open ?? 0,
  };
}

export async function giftAidSummary(db: Database, userId: string, taxYear: number): Promise<GiftAidSummary> {
  const charity = await requireCharity(db, userId);
  const [items, span] = await Promise.all([
    giftAidItems(db, charity.charityId, taxYear),
    giftAidSpan(db, charity.charityId),
  ]);
  const { donors, totalMinor } = giftAidByDonor(items);
  const first = span.first ? taxYearOf(span.first) : null;
  const last = span.last ? taxYearOf(span.last) : null;
  const current = taxYearOf(new Date());
  const years: number[] = [];
  for (let year = Math.max(last ?? current, current); year >= (first ?? current); year--) years.push(year);
  return { taxYear, label: taxYearLabel(taxYear), donors, totalMinor, itemsSold: items.length, years };
}

const londonDay = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London' });

/**
 * The Gift Aid export for a tax year: per donor (claim and letters) or per item sold, through
 * the one CSV writer (a donor reference or a title a spreadsheet would run is written as text).
 */
export async function giftAidCsv(
  db: Database,
  userId: string,
  input: { taxYear: number; detail: 'donors' | 'items' },
): Promise<{ fileName: string; csv: string }> {
  const charity = await requireCharity(db, userId);
  const label = taxYearLabel(input.taxYear);
  if (input.detail === 'items') {
    const items = await giftAidItems(db, charity.charityId, input.taxYear);
    return {
      fileName: `${charity.slug}-gift-aid-items-${label}.csv`,
      csv: csvText(
        ['donor_reference', 'date_sold', 'order_reference', 'title', 'isbn', 'proceeds_gbp'],
        items.map((item) => ({
          donor_reference: item.donorReference,
          date_sold: londonDay.format(item.paidAt),
          order_reference: item.reference,
          title: item.title,
          isbn: item.isbn13,
          proceeds_gbp: pounds(item.proceedsMinor),
        })),
      ),
    };
  }
  const summary = await giftAidSummary(db, userId, input.taxYear);
  return {
    fileName: `${charity.slug}-gift-aid-donors-${label}.csv`,
    csv: csvText(
      ['donor_reference', 'tax_year', 'items_sold', 'proceeds_gbp'],
      summary.donors.map((donor) => ({
        donor_reference: donor.donorReference,
        tax_year: label,
        items_sold: donor.itemsSold,
        proceeds_gbp: pounds(donor.proceedsMinor),
      })),
    ),
  };
}
