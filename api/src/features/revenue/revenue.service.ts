/**
 * Revenue (/admin/revenue): buyer protection and postage for each dashboard period (today,
 * month to date, last 30 days, year to date; Europe/London, `admin_period_bounds`).
 *
 * Buyer protection is counted as the dashboard's card counts it (`admin_metrics`): what orders
 * paid in the period charged, less the protection refunded in the period, by refund date, so a
 * refund after a dispute lowers the period it happened in. Postage is what buyers paid for
 * postage on orders paid in the period (it is passed on to sellers with their payout).
 */
import { ADMIN_PERIODS, type AdminPeriod } from '@reshelf/contracts';
import { sql } from 'kysely';
import type { Database } from '../../db/index.ts';

export interface RevenueRow {
  period: AdminPeriod;
  startsAt: string;
  endsAt: string;
  ordersPaid: number;
  protectionChargedMinor: number;
  protectionRefundedMinor: number;
  protectionNetMinor: number;
  postageMinor: number;
  refundsMinor: number;
}

export async function revenueByPeriod(db: Database, now: Date = new Date()): Promise<RevenueRow[]> {
  const rows = await Promise.all(
    ADMIN_PERIODS.map(async (period) => {
      const { rows } = await sql<{
        starts_at: Date;
        ends_at: Date;
        orders_paid: number;
        protection_charged: number;
        protection_refunded: number;
        postage: number;
        refunds: number;
      }>`
        with b as (select * from public.admin_period_bounds(${period}, ${now}::timestamptz)),
        paid as (
          select count(*)::int as orders_paid,
                 coalesce(sum(o.buyer_protection_minor), 0)::int as protection_charged,
                 coalesce(sum(o.postage_minor), 0)::int as postage
          from public.orders o, b
          where o.paid_at >= b.starts_at and o.paid_at < b.ends_at
        ),
        refunded as (
          select coalesce(sum(r.buyer_protection_minor), 0)::int as protection_refunded,
                 coalesce(sum(r.amount_minor), 0)::int as refunds
          from public.refunds r, b
          where r.created_at >= b.starts_at and r.created_at < b.ends_at
        )
        select b.starts_at, b.ends_at, paid.*, refunded.* from b, paid, refunded`.execute(db);
      const row = rows[0]!;
      return {
        period,
        startsAt: row.starts_at.toISOString(),
        endsAt: row.ends_at.toISOString(),
        ordersPaid: row.orders_paid,
        protectionChargedMinor: row.protection_charged,
        protectionRefundedMinor: row.protection_refunded,
        protectionNetMinor: row.protection_charged - row.protection_refunded,
        postageMinor: row.postage,
        refundsMinor: row.refunds,
      };
    }),
  );
  return rows;
}
