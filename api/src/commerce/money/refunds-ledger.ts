/**
 * The refunds ledger (/admin/refunds): every refund recorded against an order, newest first —
 * the order's reference, the book, the amount, the part of it that was buyer protection, the
 * reason, who made it (no one for a refund the system made) and when. Filtered by the
 * dashboard's periods (`admin_period_bounds`, London time, by refund date, as revenue counts
 * them) and searched by order reference. Totals cover every matching refund, not only the page.
 */

import type { AdminPeriod } from '@reshelf/contracts';
import { booksTitle } from '@reshelf/contracts';
import { sql } from 'kysely';
import type { Database } from '../../db/index.ts';
import { escapeLike } from '../../db/search.ts';

export interface RefundRow {
  id: string;
  orderId: string;
  reference: string;
  title: string | null;
  amountMinor: number;
  protectionMinor: number;
  reason: string;
  byEmail: string | null;
  createdAt: string;
}

export interface RefundLedger {
  rows: RefundRow[];
  count: number;
  totalMinor: number;
  protectionMinor: number;
}

export async function refundLedger(
  db: Database,
  filter: { period?: AdminPeriod; q?: string; limit: number },
  now: Date = new Date(),
): Promise<RefundLedger> {
  let base = db.selectFrom('refunds as r').innerJoin('orders as o', 'o.id', 'r.order_id');
  if (filter.period) {
    const bounds = sql<Date>`(select starts_at from public.admin_period_bounds(${filter.period}, ${now}::timestamptz))`;
    const ends = sql<Date>`(select ends_at from public.admin_period_bounds(${filter.period}, ${now}::timestamptz))`;
    base = base.where('r.created_at', '>=', bounds).where('r.created_at', '<', ends);
  }
  if (filter.q) base = base.where('o.reference', 'ilike', `%${escapeLike(filter.q)}%`);

  const [rows, totals] = await Promise.all([
    base
      .leftJoin('auth.users as u', 'u.id', 'r.created_by')
      .select([
        'r.id',
        'r.order_id',
        'o.reference',
        // The books the refund gave back (some of an order's books), else the order's.
        sql<string[]>`coalesce(
          nullif(array(select b.title from public.refund_items ri
                       join public.order_items i on i.id = ri.order_item_id
                       join public.listings l on l.id = i.listing_id join public.books b on b.id = l.book_id
                       where ri.refund_id = r.id order by i.position), '{}'),
          array(select b.title from public.order_items i
                join public.listings l on l.id = i.listing_id join public.books b on b.id = l.book_id
                where i.order_id = o.id order by i.position))`.as('titles'),
        'r.amount_minor',
        'r.buyer_protection_minor',
        'r.reason',
        'u.email',
        'r.created_at',
      ])
      .orderBy('r.created_at', 'desc')
      .orderBy('r.id')
      .limit(filter.limit)
      .execute(),
    base
      .select([
        sql<number>`count(*)::int`.as('count'),
        sql<number>`coalesce(sum(r.amount_minor), 0)::int`.as('total'),
        sql<number>`coalesce(sum(r.buyer_protection_minor), 0)::int`.as('protection'),
      ])
      .executeTakeFirstOrThrow(),
  ]);
  return {
    rows: rows.map((row) => ({
      id: row.id,
      orderId: row.order_id,
      reference: row.reference,
      title: row.titles.length === 0 ? null : booksTitle(row.titles),
      amountMinor: row.amount_minor,
      protectionMinor: row.buyer_protection_minor,
      reason: row.reason,
      byEmail: row.email ?? null,
      createdAt: row.created_at.toISOString(),
    })),
    count: totals.count,
    totalMinor: totals.total,
    protectionMinor: totals.protection,
  };
}
