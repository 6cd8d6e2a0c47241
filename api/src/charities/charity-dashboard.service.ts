/**
 * The charity dashboard's figures and Retail Gift Aid.
 *
 * A sale counts once the buyer has paid and until it is cancelled or refunded: orders paid,
 * dispatched, delivered or completed. An order holds one or more of the charity's books (issue
 * 23); each book counts as sold unless it came back (a return or a refund of that book), and
 * the dashboard counts both orders and books. A book's proceeds are its price less its share of
 * the shop's bundle discount (what the charity receives for it; postage pays for the post, and
 * WELCOME20 or a promo code is Reshelf's, not the charity's). Months and tax years are in London
 * time.
 *
 * Gift Aid: a listing may carry the donor's reference; the proceeds of each donor's items sold
 * in a UK tax year (6 April to 5 April) are what the charity claims on and tells the donor in
 * its letter. The export is a CSV per tax year: one row per donor, or one row per item sold.
 */
import { type CharityDashboard, type GiftAidSummary, taxYearLabel, taxYearOf } from '@reshelf/contracts';
import { sql } from 'kysely';
import type { Database } from '../db/index.ts';
import { csvText, pounds } from '../http/csv.ts';
import { requireCharity } from '../platform/identity/memberships.ts';

const SOLD = sql`('paid', 'dispatched', 'delivered', 'completed')`;

/**
 * The charity's books sold: one row per order item of a live sale whose book has not come back
 * (its goods part refunded), with what the charity receives for it.
 */
function soldItems(charityId: string) {
  return sql`(
    select i.id, i.order_id, i.listing_id, o.paid_at, o.reference, l.book_id, l.donor_reference,
      (i.price_minor - i.bundle_discount_minor) as proceeds
    from public.order_items i
    join public.orders o on o.id = i.order_id
    join public.listings l on l.id = i.listing_id
    where l.charity_id = ${charityId} and o.status in ${SOLD}
      and i.refunded_minor < i.price_minor - i.bundle_discount_minor - i.discount_minor
  )`;
}

export async function charityDashboard(db: Database, userId: string): Promise<CharityDashboard> {
  const charity = await requireCharity(db, userId);
  const id = charity.charityId;
  const [sales, listings, payouts, categories, monthly, returns] = await Promise.all([
    sql<{
      orders: number;
      books: number;
      proceeds: number;
      last30_orders: number;
      last30_books: number;
      last30_proceeds: number;
    }>`
      select count(distinct s.order_id)::int as orders, count(*)::int as books,
        coalesce(sum(s.proceeds), 0)::int as proceeds,
        count(distinct s.order_id) filter (where s.paid_at >= now() - interval '30 days')::int as last30_orders,
        count(*) filter (where s.paid_at >= now() - interval '30 days')::int as last30_books,
        coalesce(sum(s.proceeds) filter (where s.paid_at >= now() - interval '30 days'), 0)::int as last30_proceeds
      from ${soldItems(id)} s`.execute(db),
    sql<{ status: string; count: number }>`
      select status, count(*)::int as count from public.listings
      where charity_id = ${id} group by status order by count desc`.execute(db),
    sql<{ status: string; amount: number }>`
      select p.status, coalesce(sum(p.amount_minor - p.reversed_minor), 0)::int as amount
      from public.payouts p
      where exists (select 1 from public.order_items i join public.listings l on l.id = i.listing_id
                    where i.order_id = p.order_id and l.charity_id = ${id})
      group by p.status`.execute(db),
    sql<{ name: string; sold: number; proceeds: number }>`
      select coalesce(c.name, 'Uncategorised') as name, count(*)::int as sold,
        sum(s.proceeds)::int as proceeds
      from ${soldItems(id)} s
      join public.books b on b.id = s.book_id
      left join public.categories c on c.id = b.category_id
      group by c.name order by proceeds desc, name limit 5`.execute(db),
    sql<{ month: string; orders: number; books: number; proceeds: number }>`
      with months as (
        select generate_series(
          date_trunc('month', now() at time zone 'Europe/London') - interval '11 months',
          date_trunc('month', now() at time zone 'Europe/London'),
          interval '1 month') as month
      )
      select to_char(m.month, 'YYYY-MM') as month, count(distinct s.order_id)::int as orders,
        count(s.id)::int as books, coalesce(sum(s.proceeds), 0)::int as proceeds
      from months m
      left join ${soldItems(id)} s on date_trunc('month', s.paid_at at time zone 'Europe/London') = m.month
      group by m.month order by m.month`.execute(db),
    sql<{ open: number }>`
      select count(*)::int as open from public.return_requests
      where charity_id = ${id} and status in ('requested', 'accepted')`.execute(db),
  ]);
  const payout = (status: string) => payouts.rows.find((row) => row.status === status)?.amount ?? 0;
  const s = sales.rows[0]!;
  return {
    sales: {
      ordersCount: s.orders,
      booksCount: s.books,
      proceedsMinor: s.proceeds,
      last30Count: s.last30_orders,
      last30Books: s.last30_books,
      last30Minor: s.last30_proceeds,
    },
    listingsByStatus: listings.rows,
    payouts: {
      heldMinor: payout('held'),
      releasedMinor: payout('released'),
      cancelledMinor: payout('cancelled'),
    },
    topCategories: categories.rows.map((row) => ({
      name: row.name,
      sold: row.sold,
      proceedsMinor: row.proceeds,
    })),
    monthly: monthly.rows.map((row) => ({
      month: row.month,
      orders: row.orders,
      books: row.books,
      proceedsMinor: row.proceeds,
    })),
    openReturns: returns.rows[0]?.open ?? 0,
  };
}

/** The dates of a tax year, 6 April to 5 April, as London calendar dates. */
function taxYearBounds(startYear: number) {
  return { from: `${startYear}-04-06`, to: `${startYear + 1}-04-06` };
}

interface GiftAidItem {
  donor_reference: string;
  paid_at: Date;
  reference: string;
  title: string;
  isbn13: string | null;
  item_price_minor: number;
}

async function giftAidItems(db: Database, charityId: string, taxYear: number): Promise<GiftAidItem[]> {
  const { from, to } = taxYearBounds(taxYear);
  const { rows } = await sql<GiftAidItem>`
    select s.donor_reference, s.paid_at, s.reference, b.title, b.isbn13, s.proceeds as item_price_minor
    from ${soldItems(charityId)} s
    join public.books b on b.id = s.book_id
    where s.donor_reference is not null
      and (s.paid_at at time zone 'Europe/London') >= ${from}::date
      and (s.paid_at at time zone 'Europe/London') < ${to}::date
    order by s.donor_reference, s.paid_at, s.reference`.execute(db);
  return rows;
}

export async function giftAidSummary(db: Database, userId: string, taxYear: number): Promise<GiftAidSummary> {
  const charity = await requireCharity(db, userId);
  const [items, years] = await Promise.all([
    giftAidItems(db, charity.charityId, taxYear),
    sql<{ paid_at: Date }>`
      select min(s.paid_at) as paid_at from ${soldItems(charity.charityId)} s where s.donor_reference is not null
      union all
      select max(s.paid_at) from ${soldItems(charity.charityId)} s where s.donor_reference is not null`.execute(
      db,
    ),
  ]);
  const byDonor = new Map<string, { itemsSold: number; proceedsMinor: number }>();
  for (const item of items) {
    const donor = byDonor.get(item.donor_reference) ?? { itemsSold: 0, proceedsMinor: 0 };
    donor.itemsSold += 1;
    donor.proceedsMinor += item.item_price_minor;
    byDonor.set(item.donor_reference, donor);
  }
  const [first, last] = years.rows.map((row) => (row.paid_at ? taxYearOf(row.paid_at) : null));
  const current = taxYearOf(new Date());
  const span: number[] = [];
  for (let year = Math.max(last ?? current, current); year >= (first ?? current); year--) span.push(year);
  return {
    taxYear,
    label: taxYearLabel(taxYear),
    donors: [...byDonor.entries()].map(([donorReference, totals]) => ({ donorReference, ...totals })),
    totalMinor: items.reduce((sum, item) => sum + item.item_price_minor, 0),
    itemsSold: items.length,
    years: span,
  };
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
          donor_reference: item.donor_reference,
          date_sold: londonDay.format(item.paid_at),
          order_reference: item.reference,
          title: item.title,
          isbn: item.isbn13,
          proceeds_gbp: pounds(item.item_price_minor),
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
