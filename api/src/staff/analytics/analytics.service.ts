/**
 * Analytics (/admin/analytics): listings published, orders paid and sign-ups over time, by
 * London day for the last 30 days (today included) or by London month for this calendar year
 * (January to December, months still to come at zero). A listing counts on the day it was
 * first published whatever became of it since; an order on the day it was paid.
 */
import { sql } from 'kysely';
import type { Database } from '../../db/index.ts';

export const ANALYTICS_RANGES = ['daily', 'monthly'] as const;
export type AnalyticsRange = (typeof ANALYTICS_RANGES)[number];

export interface AnalyticsPoint {
  /** YYYY-MM-DD for a day, YYYY-MM for a month (London). */
  bucket: string;
  listingsPublished: number;
  ordersPaid: number;
  signUps: number;
}

export interface AnalyticsSeries {
  range: AnalyticsRange;
  points: AnalyticsPoint[];
  totals: Omit<AnalyticsPoint, 'bucket'>;
}

export async function analyticsSeries(
  db: Database,
  range: AnalyticsRange,
  now: Date = new Date(),
): Promise<AnalyticsSeries> {
  const buckets =
    range === 'daily'
      ? sql`select d::date as starts, d::date + 1 as ends, to_char(d, 'YYYY-MM-DD') as bucket
              from generate_series(today - 29, today, interval '1 day') d`
      : sql`select d::date as starts, (d + interval '1 month')::date as ends, to_char(d, 'YYYY-MM') as bucket
              from generate_series(date_trunc('year', today), date_trunc('year', today) + interval '11 months',
                                   interval '1 month') d`;
  const { rows } = await sql<{
    bucket: string;
    listings: number;
    orders: number;
    signups: number;
  }>`
    with t as (select (${now}::timestamptz at time zone 'Europe/London')::date as today),
    b as (
      select bucket,
             starts::timestamp at time zone 'Europe/London' as starts_at,
             ends::timestamp at time zone 'Europe/London' as ends_at
        from t, lateral (${buckets}) x
    )
    select b.bucket,
      (select count(*)::int from public.listings l
        where l.published_at >= b.starts_at and l.published_at < b.ends_at) as listings,
      (select count(*)::int from public.orders o
        where o.paid_at >= b.starts_at and o.paid_at < b.ends_at) as orders,
      (select count(*)::int from auth.users u
        where u.created_at >= b.starts_at and u.created_at < b.ends_at) as signups
    from b
    order by b.bucket`.execute(db);
  const points = rows.map((row) => ({
    bucket: row.bucket,
    listingsPublished: row.listings,
    ordersPaid: row.orders,
    signUps: row.signups,
  }));
  const sum = (key: keyof Omit<AnalyticsPoint, 'bucket'>) => points.reduce((total, p) => total + p[key], 0);
  return {
    range,
    points,
    totals: {
      listingsPublished: sum('listingsPublished'),
      ordersPaid: sum('ordersPaid'),
      signUps: sum('signUps'),
    },
  };
}
