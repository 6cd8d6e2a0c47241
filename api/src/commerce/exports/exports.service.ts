/**
 * CSV exports for staff (/admin/exports): orders, payouts, listings and revenue for a period of
 * days in Europe/London time (both ends included). Rows are read in pages of 500 by keyset and
 * streamed out, so an export of any size never sits in memory whole.
 *
 * orders    paid in the period (unpaid attempts are not orders yet): ONE ROW PER ORDER, its books
 *           listed in `title` (first first, separated by "; ") and counted in `books`; the money
 *           columns are the order's (item_price is the books' subtotal, less bundle_discount)
 * order_items  the books of the orders paid in the period: ONE ROW PER BOOK, with
 *           its price and its apportioned shares of the bundle discount, the discount and buyer
 *           protection, what was paid for it (postage aside) and what has been refunded of it
 * payouts   created in the period (held when the order was paid; released or cancelled since)
 * listings  published in the period
 * revenue   one row per day of the period, then `total`: the figures of /admin/revenue, from
 *           the same query (`revenueFor`), so a period's total row is the page's row for it
 */
import type { Readable } from 'node:stream';
import { sql } from 'kysely';
import type { Database } from '../../db/index.ts';
import { type CsvCell, csvStream, pounds } from '../../http/csv.ts';
import { revenueByDay } from '../money/revenue.ts';

export const EXPORT_KINDS = ['orders', 'order_items', 'payouts', 'listings', 'revenue'] as const;
export type ExportKind = (typeof EXPORT_KINDS)[number];

export interface ExportPeriod {
  from: string;
  to: string;
}

const PAGE = 500;

/** The period's bounds as timestamps: London midnight of `from` to London midnight after `to`. */
const start = (period: ExportPeriod) =>
  sql<Date>`(${period.from}::date)::timestamp at time zone 'Europe/London'`;
const end = (period: ExportPeriod) =>
  sql<Date>`(${period.to}::date + 1)::timestamp at time zone 'Europe/London'`;

type Row = Record<string, CsvCell>;

const COLUMNS: Record<ExportKind, string[]> = {
  orders: [
    'reference',
    'status',
    'paid_at',
    'title',
    'books',
    'buyer_email',
    'seller_email',
    'charity_sale',
    'item_price_gbp',
    'bundle_discount_gbp',
    'postage_gbp',
    'buyer_protection_gbp',
    'buyer_protection_vat_gbp',
    'discount_gbp',
    'discount_code',
    'total_gbp',
    'refunded_gbp',
  ],
  order_items: [
    'order_reference',
    'status',
    'paid_at',
    'position',
    'title',
    'isbn13',
    'seller_email',
    'charity_sale',
    'price_gbp',
    'bundle_discount_gbp',
    'discount_gbp',
    'buyer_protection_gbp',
    'paid_gbp',
    'refunded_gbp',
  ],
  payouts: [
    'order_reference',
    'seller_email',
    'amount_gbp',
    'reversed_gbp',
    'status',
    'created_at',
    'released_at',
  ],
  listings: [
    'slug',
    'title',
    'isbn13',
    'status',
    'condition',
    'price_gbp',
    'parcel_size',
    'seller_email',
    'charity',
    'published_at',
  ],
  revenue: [
    'day',
    'orders_paid',
    'books_paid',
    'buyer_protection_charged_gbp',
    'buyer_protection_refunded_gbp',
    'buyer_protection_net_gbp',
    'discounts_given_gbp',
    'discounts_returned_gbp',
    'discounts_funded_gbp',
    'net_gbp',
    'postage_gbp',
    'refunds_gbp',
  ],
};

async function* pages<T extends { id: string }>(
  load: (after: string | null) => Promise<T[]>,
): AsyncGenerator<T> {
  let after: string | null = null;
  for (;;) {
    const rows = await load(after);
    yield* rows;
    if (rows.length < PAGE) return;
    after = rows[rows.length - 1]!.id;
  }
}

function orderRows(db: Database, period: ExportPeriod): AsyncGenerator<Row> {
  return (async function* () {
    for await (const row of pages((after) => {
      let query = db
        .selectFrom('orders as o')
        .leftJoin('auth.users as bu', 'bu.id', 'o.buyer_id')
        .leftJoin('auth.users as su', 'su.id', 'o.seller_id')
        .select([
          'o.id',
          'o.reference',
          'o.status',
          'o.paid_at',
          sql<string[]>`array(
            select b.title from public.order_items i
            join public.listings l on l.id = i.listing_id join public.books b on b.id = l.book_id
            where i.order_id = o.id order by i.position)`.as('titles'),
          'bu.email as buyer_email',
          'su.email as seller_email',
          'o.charity_sale',
          'o.item_price_minor',
          'o.bundle_discount_minor',
          'o.postage_minor',
          'o.buyer_protection_minor',
          'o.buyer_protection_vat_minor',
          'o.discount_minor',
          'o.discount_code',
          'o.total_minor',
          // What was refunded: the money definitions' order_money.
          sql<number>`(select m.refunded_minor from public.order_money m where m.order_id = o.id)`.as(
            'refunded_minor',
          ),
        ])
        .where('o.paid_at', '>=', start(period))
        .where('o.paid_at', '<', end(period));
      if (after) query = query.where('o.id', '>', after);
      return query.orderBy('o.id').limit(PAGE).execute();
    })) {
      yield {
        reference: row.reference,
        status: row.status,
        paid_at: row.paid_at,
        title: row.titles.join('; '),
        books: row.titles.length,
        buyer_email: row.buyer_email ?? '',
        seller_email: row.seller_email ?? '',
        charity_sale: row.charity_sale ? 'yes' : 'no',
        item_price_gbp: pounds(row.item_price_minor),
        bundle_discount_gbp: pounds(row.bundle_discount_minor),
        postage_gbp: pounds(row.postage_minor),
        buyer_protection_gbp: pounds(row.buyer_protection_minor),
        buyer_protection_vat_gbp: pounds(row.buyer_protection_vat_minor),
        discount_gbp: pounds(row.discount_minor),
        discount_code: row.discount_code ?? '',
        total_gbp: pounds(row.total_minor),
        refunded_gbp: pounds(row.refunded_minor),
      };
    }
  })();
}

function orderItemRows(db: Database, period: ExportPeriod): AsyncGenerator<Row> {
  return (async function* () {
    for await (const row of pages((after) => {
      let query = db
        .selectFrom('order_item_money as i')
        .innerJoin('orders as o', 'o.id', 'i.order_id')
        .innerJoin('listings as l', 'l.id', 'i.listing_id')
        .innerJoin('books as b', 'b.id', 'l.book_id')
        .leftJoin('auth.users as su', 'su.id', 'o.seller_id')
        .select([
          'i.order_item_id as id',
          'o.reference',
          'o.status',
          'o.paid_at',
          'i.position',
          'b.title',
          'b.isbn13',
          'su.email as seller_email',
          'o.charity_sale',
          'i.price_minor',
          'i.bundle_discount_minor',
          'i.discount_minor',
          'i.protection_minor',
          'i.paid_minor',
          'i.refunded_minor',
        ])
        .where('o.paid_at', '>=', start(period))
        .where('o.paid_at', '<', end(period))
        .$narrowType<{ id: string; position: number }>();
      if (after) query = query.where('i.order_item_id', '>', after);
      return query.orderBy('i.order_item_id').limit(PAGE).execute();
    })) {
      yield {
        order_reference: row.reference,
        status: row.status,
        paid_at: row.paid_at,
        position: row.position,
        title: row.title,
        isbn13: row.isbn13 ?? '',
        seller_email: row.seller_email ?? '',
        charity_sale: row.charity_sale ? 'yes' : 'no',
        price_gbp: pounds(row.price_minor),
        bundle_discount_gbp: pounds(row.bundle_discount_minor),
        discount_gbp: pounds(row.discount_minor),
        buyer_protection_gbp: pounds(row.protection_minor),
        paid_gbp: pounds(row.paid_minor ?? 0),
        refunded_gbp: pounds(row.refunded_minor),
      };
    }
  })();
}

function payoutRows(db: Database, period: ExportPeriod): AsyncGenerator<Row> {
  return (async function* () {
    for await (const row of pages((after) => {
      let query = db
        .selectFrom('payouts as p')
        .innerJoin('orders as o', 'o.id', 'p.order_id')
        .leftJoin('auth.users as su', 'su.id', 'p.seller_id')
        .select([
          'p.id',
          'o.reference',
          'su.email',
          'p.amount_minor',
          'p.reversed_minor',
          'p.status',
          'p.created_at',
          'p.released_at',
        ])
        .where('p.created_at', '>=', start(period))
        .where('p.created_at', '<', end(period));
      if (after) query = query.where('p.id', '>', after);
      return query.orderBy('p.id').limit(PAGE).execute();
    })) {
      yield {
        order_reference: row.reference,
        seller_email: row.email ?? '',
        amount_gbp: pounds(row.amount_minor),
        reversed_gbp: pounds(row.reversed_minor),
        status: row.status,
        created_at: row.created_at,
        released_at: row.released_at,
      };
    }
  })();
}

function listingRows(db: Database, period: ExportPeriod): AsyncGenerator<Row> {
  return (async function* () {
    for await (const row of pages((after) => {
      let query = db
        .selectFrom('listings as l')
        .innerJoin('books as b', 'b.id', 'l.book_id')
        .leftJoin('auth.users as su', 'su.id', 'l.seller_id')
        .leftJoin('charities as c', 'c.id', 'l.charity_id')
        .select([
          'l.id',
          'l.slug',
          'b.title',
          'b.isbn13',
          'l.status',
          'l.condition',
          'l.price_minor',
          'l.parcel_size',
          'su.email',
          'c.name as charity',
          'l.published_at',
        ])
        .where('l.published_at', '>=', start(period))
        .where('l.published_at', '<', end(period));
      if (after) query = query.where('l.id', '>', after);
      return query.orderBy('l.id').limit(PAGE).execute();
    })) {
      yield {
        slug: row.slug ?? '',
        title: row.title,
        isbn13: row.isbn13 ?? '',
        status: row.status,
        condition: row.condition ?? '',
        price_gbp: pounds(row.price_minor),
        parcel_size: row.parcel_size ?? '',
        seller_email: row.email ?? '',
        charity: row.charity ?? '',
        published_at: row.published_at,
      };
    }
  })();
}

function revenueRows(db: Database, period: ExportPeriod): AsyncGenerator<Row> {
  return (async function* () {
    for (const row of await revenueByDay(db, period)) {
      yield {
        day: row.key,
        orders_paid: row.ordersPaid,
        books_paid: row.booksPaid,
        buyer_protection_charged_gbp: pounds(row.protectionChargedMinor),
        buyer_protection_refunded_gbp: pounds(row.protectionRefundedMinor),
        buyer_protection_net_gbp: pounds(row.protectionNetMinor),
        discounts_given_gbp: pounds(row.discountsGivenMinor),
        discounts_returned_gbp: pounds(row.discountsReturnedMinor),
        discounts_funded_gbp: pounds(row.discountsFundedMinor),
        net_gbp: pounds(row.netMinor),
        postage_gbp: pounds(row.postageMinor),
        refunds_gbp: pounds(row.refundsMinor),
      };
    }
  })();
}

const ROWS: Record<ExportKind, (db: Database, period: ExportPeriod) => AsyncGenerator<Row>> = {
  orders: orderRows,
  order_items: orderItemRows,
  payouts: payoutRows,
  listings: listingRows,
  revenue: revenueRows,
};

/**
 * The export as a stream of CSV text, header first, through the one CSV writer: text that a
 * spreadsheet would run as a formula is neutralised there, money stays numbers (http/csv.ts).
 */
export function exportCsv(db: Database, kind: ExportKind, period: ExportPeriod): Readable {
  return csvStream(COLUMNS[kind], ROWS[kind](db, period), { bom: true });
}

export function exportFileName(kind: ExportKind, period: ExportPeriod): string {
  return `reshelf-${kind}-${period.from}-to-${period.to}.csv`;
}
