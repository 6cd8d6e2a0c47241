/**
 * Sales as a seller or a charity reads them, from the money definitions' `sold_books` (one row per
 * book sold whose goods are not back): what they earned (`earnings`: the order's seller net,
 * postage and take-backs included, split over its books) and, for Gift Aid, the proceeds of each
 * donated book (`proceeds`: its own share, never postage). Seller analytics, the charity dashboard
 * and the Gift Aid pages add up here, so their figures agree (decision 0051).
 */
import { sql, type Transaction } from 'kysely';
import type { DB } from '../../db/database.generated.ts';
import type { Database } from '../../db/index.ts';

type Executor = Database | Transaction<DB>;

/** Whose sales: a seller's own (outside any charity), or a charity's. */
export type SalesOf = { sellerId: string } | { charityId: string };

function whose(of: SalesOf) {
  return 'charityId' in of ? sql`s.charity_id = ${of.charityId}` : sql`s.seller_id = ${of.sellerId}`;
}

export interface SalesTotals {
  orders: number;
  books: number;
  earningsMinor: number;
}

/** Orders, books and earnings, in all and since a moment (the last 30 days, say). */
export async function salesTotals(
  db: Executor,
  of: SalesOf,
  since: Date,
): Promise<{ all: SalesTotals; since: SalesTotals }> {
  const { rows } = await sql<{
    orders: number;
    books: number;
    earnings: number;
    since_orders: number;
    since_books: number;
    since_earnings: number;
  }>`
    select count(distinct s.order_id)::int as orders, count(*)::int as books,
           coalesce(sum(s.earnings_minor), 0)::int as earnings,
           count(distinct s.order_id) filter (where s.paid_at >= ${since})::int as since_orders,
           count(*) filter (where s.paid_at >= ${since})::int as since_books,
           coalesce(sum(s.earnings_minor) filter (where s.paid_at >= ${since}), 0)::int as since_earnings
      from public.sold_books s
     where ${whose(of)}`.execute(db);
  const row = rows[0];
  return {
    all: { orders: row?.orders ?? 0, books: row?.books ?? 0, earningsMinor: row?.earnings ?? 0 },
    since: {
      orders: row?.since_orders ?? 0,
      books: row?.since_books ?? 0,
      earningsMinor: row?.since_earnings ?? 0,
    },
  };
}

/** The best-selling categories by earnings (at most `limit`). */
export async function salesByCategory(
  db: Executor,
  of: SalesOf,
  limit = 5,
): Promise<{ name: string; sold: number; earningsMinor: number }[]> {
  const { rows } = await sql<{ name: string; sold: number; earnings: number }>`
    select coalesce(c.name, 'Uncategorised') as name, count(*)::int as sold, sum(s.earnings_minor)::int as earnings
      from public.sold_books s
      join public.books b on b.id = s.book_id
      left join public.categories c on c.id = b.category_id
     where ${whose(of)}
     group by c.name
     order by earnings desc, name
     limit ${limit}`.execute(db);
  return rows.map((row) => ({ name: row.name, sold: row.sold, earningsMinor: row.earnings }));
}

/** The last twelve London months, oldest first: orders, books and earnings of each. */
export async function salesByMonth(
  db: Executor,
  of: SalesOf,
): Promise<{ month: string; orders: number; books: number; earningsMinor: number }[]> {
  const { rows } = await sql<{ month: string; orders: number; books: number; earnings: number }>`
    with months as (
      select generate_series(
        date_trunc('month', now() at time zone 'Europe/London') - interval '11 months',
        date_trunc('month', now() at time zone 'Europe/London'),
        interval '1 month') as month
    )
    select to_char(m.month, 'YYYY-MM') as month, count(distinct s.order_id)::int as orders,
           count(s.order_item_id)::int as books, coalesce(sum(s.earnings_minor), 0)::int as earnings
      from months m
      left join public.sold_books s
        on date_trunc('month', s.paid_at at time zone 'Europe/London') = m.month and ${whose(of)}
     group by m.month
     order by m.month`.execute(db);
  return rows.map((row) => ({
    month: row.month,
    orders: row.orders,
    books: row.books,
    earningsMinor: row.earnings,
  }));
}

export interface GiftAidItem {
  donorReference: string;
  paidAt: Date;
  reference: string;
  title: string;
  isbn13: string | null;
  proceedsMinor: number;
}

/** A charity's donated books sold in a UK tax year (6 April to 5 April), with each one's proceeds. */
export async function giftAidItems(db: Executor, charityId: string, taxYear: number): Promise<GiftAidItem[]> {
  const { rows } = await sql<{
    donor_reference: string;
    paid_at: Date;
    reference: string;
    title: string;
    isbn13: string | null;
    proceeds_minor: number;
  }>`
    select s.donor_reference, s.paid_at, s.reference, b.title, b.isbn13, s.proceeds_minor
      from public.sold_books s
      join public.books b on b.id = s.book_id
     where s.charity_id = ${charityId} and s.donor_reference is not null
       and (s.paid_at at time zone 'Europe/London') >= ${`${taxYear}-04-06`}::date
       and (s.paid_at at time zone 'Europe/London') < ${`${taxYear + 1}-04-06`}::date
     order by s.donor_reference, s.paid_at, s.reference`.execute(db);
  return rows.map((row) => ({
    donorReference: row.donor_reference,
    paidAt: row.paid_at,
    reference: row.reference,
    title: row.title,
    isbn13: row.isbn13,
    proceedsMinor: row.proceeds_minor,
  }));
}

/** Gift Aid per donor: the items and the proceeds of each, and the year's totals. */
export function giftAidByDonor(items: readonly GiftAidItem[]): {
  donors: { donorReference: string; itemsSold: number; proceedsMinor: number }[];
  totalMinor: number;
} {
  const byDonor = new Map<string, { itemsSold: number; proceedsMinor: number }>();
  let totalMinor = 0;
  for (const item of items) {
    const donor = byDonor.get(item.donorReference) ?? { itemsSold: 0, proceedsMinor: 0 };
    donor.itemsSold += 1;
    donor.proceedsMinor += item.proceedsMinor;
    byDonor.set(item.donorReference, donor);
    totalMinor += item.proceedsMinor;
  }
  return {
    donors: [...byDonor.entries()].map(([donorReference, totals]) => ({ donorReference, ...totals })),
    totalMinor,
  };
}

/** The first and last day a charity sold a donated book (the Gift Aid years it can choose). */
export async function giftAidSpan(
  db: Executor,
  charityId: string,
): Promise<{ first: Date | null; last: Date | null }> {
  const { rows } = await sql<{ first: Date | null; last: Date | null }>`
    select min(s.paid_at) as first, max(s.paid_at) as last
      from public.sold_books s where s.charity_id = ${charityId} and s.donor_reference is not null`.execute(
    db,
  );
  return { first: rows[0]?.first ?? null, last: rows[0]?.last ?? null };
}

/** What a seller's (or charity's) earnings come to by where they stand: held, released, taken back. */
export async function earningsByPayoutStatus(
  db: Executor,
  of: SalesOf,
): Promise<{ heldMinor: number; releasedMinor: number; cancelledMinor: number }> {
  const filter =
    'charityId' in of
      ? sql`exists (select 1 from public.order_items i join public.listings l on l.id = i.listing_id
                     where i.order_id = m.order_id and l.charity_id = ${of.charityId})`
      : sql`m.seller_id = ${of.sellerId}`;
  const { rows } = await sql<{ status: string; net: number; earned: number }>`
    select m.payout_status as status, coalesce(sum(m.seller_net_minor), 0)::int as net,
           coalesce(sum(m.seller_earnings_minor), 0)::int as earned
      from public.order_money m
     where m.payout_status is not null and ${filter}
     group by m.payout_status`.execute(db);
  const of_ = (status: string) => rows.find((row) => row.status === status);
  return {
    heldMinor: of_('held')?.net ?? 0,
    releasedMinor: of_('released')?.net ?? 0,
    // What was cancelled: the earnings the buyer's refunds took back in full.
    cancelledMinor: of_('cancelled')?.earned ?? 0,
  };
}

// HMRC platform reporting (decision 0047) ----------------------------------------------------------

export interface QuarterTotals {
  sales: number;
  /** What the seller was paid for their sales: their earnings less what refunds took back. */
  considerationMinor: number;
  /** What the platform kept of the sales' price (today: the bundle discount the seller gave). */
  feesMinor: number;
}

const paidYear = sql<number>`extract(year from (coalesce(o.paid_at, o.created_at) at time zone 'Europe/London'))::int`;
const paidQuarter = sql<number>`extract(quarter from (coalesce(o.paid_at, o.created_at) at time zone 'Europe/London'))::int`;

/** One seller's (or every seller's) sales, consideration and fees in a calendar year, by quarter. */
export async function reportableByQuarter(
  db: Executor,
  year: number,
  sellerId?: string,
): Promise<Map<string, QuarterTotals[]>> {
  let query = db
    .selectFrom('payouts as p')
    .innerJoin('orders as o', 'o.id', 'p.order_id')
    .where('p.status', '<>', 'cancelled')
    .where(paidYear, '=', year)
    .select([
      'p.seller_id',
      paidQuarter.as('quarter'),
      sql<number>`count(*)::int`.as('sales'),
      sql<number>`coalesce(sum(p.amount_minor - p.reversed_minor), 0)::int`.as('consideration'),
      sql<number>`coalesce(sum(greatest(o.item_price_minor + o.postage_minor - p.amount_minor, 0)), 0)::int`.as(
        'fees',
      ),
    ])
    .groupBy(['p.seller_id', paidQuarter]);
  if (sellerId) query = query.where('p.seller_id', '=', sellerId);
  const rows = await query.execute();
  const out = new Map<string, QuarterTotals[]>();
  for (const row of rows) {
    let quarters = out.get(row.seller_id);
    if (!quarters) {
      quarters = [1, 2, 3, 4].map(() => ({ sales: 0, considerationMinor: 0, feesMinor: 0 }));
      out.set(row.seller_id, quarters);
    }
    quarters[row.quarter - 1] = {
      sales: row.sales,
      considerationMinor: row.consideration,
      feesMinor: row.fees,
    };
  }
  return out;
}

/** A year's quarters added up. */
export function yearOfQuarters(quarters: readonly QuarterTotals[] | undefined): QuarterTotals {
  return (quarters ?? []).reduce(
    (total, q) => ({
      sales: total.sales + q.sales,
      considerationMinor: total.considerationMinor + q.considerationMinor,
      feesMinor: total.feesMinor + q.feesMinor,
    }),
    { sales: 0, considerationMinor: 0, feesMinor: 0 },
  );
}
