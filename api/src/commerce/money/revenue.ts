/**
 * Revenue (/admin/revenue and the revenue CSV export): Reshelf's income for each dashboard
 * period (today, month to date, last 30 days, year to date; Europe/London,
 * `admin_period_bounds`), or for each London day of an export.
 *
 * The figures, for a period [startsAt, endsAt):
 *
 * - protection charged: the buyer-protection fee of orders paid in the period;
 * - protection refunded: the protection part of refunds made in the period (by refund date, so
 *   a refund after a dispute lowers the period it happened in);
 * - protection net = charged − refunded: the dashboard's Buyer Protection card
 *   (`admin_metrics`), unchanged;
 * - discounts given: WELCOME20 and promo-code discounts (`orders.discount_minor`) of orders
 *   paid in the period. Reshelf funds them: the seller's payout is the full item price and
 *   postage (`applyPaymentEvent` in checkout), the buyer pays that less the discount, and the
 *   difference comes out of the buyer-protection fee Reshelf keeps;
 * - discounts returned: the discount taken back by refunds made in the period
 *   (`refunds.discount_minor`): a refund of everything left takes back what is left of the
 *   order's discount (the seller's payout was cancelled or taken back in full, so Reshelf paid
 *   nothing towards it), a refund of some books their apportioned shares of it (the
 *   seller gives back what they were paid for those books, the buyer gets what they paid). A
 *   partial refund by amount comes out of the seller's payout (decision 0022) and leaves the
 *   discount funded. (Before decision 0043 this was "the discounts of orders refunded or cancelled
 *   after payment, dated by their last refund"; the migration moved each such discount onto that
 *   last refund, so the figures are unchanged for them.)
 * - discounts funded = given − returned;
 * - net = protection charged − protection refunded − discounts funded;
 * - postage: what buyers paid for postage on orders paid in the period (passed on to sellers
 *   with their payout, so not income); refunds: every refund made in the period, in full;
 * - books paid: the books (order items) of the orders paid in the period (an order
 *   holds one or more books, so orders paid and books paid differ).
 *
 * One query (`revenueFor`) works out every figure for any list of periods, so the page and the
 * CSV cannot disagree. Decision 0027 has the reasoning.
 */
import { ADMIN_PERIODS, type AdminPeriod } from '@reshelf/contracts';
import { sql } from 'kysely';
import type { Database } from '../../db/index.ts';

export interface RevenueFigures {
  startsAt: string;
  endsAt: string;
  ordersPaid: number;
  booksPaid: number;
  protectionChargedMinor: number;
  protectionRefundedMinor: number;
  protectionNetMinor: number;
  discountsGivenMinor: number;
  discountsReturnedMinor: number;
  discountsFundedMinor: number;
  netMinor: number;
  postageMinor: number;
  refundsMinor: number;
}

export interface RevenueRow extends RevenueFigures {
  period: AdminPeriod;
}

export interface RevenueInterval<K extends string = string> {
  key: K;
  startsAt: Date;
  endsAt: Date;
}

/** Every figure for each interval, in the order given. */
export async function revenueFor<K extends string>(
  db: Database,
  intervals: readonly RevenueInterval<K>[],
): Promise<(RevenueFigures & { key: K })[]> {
  if (intervals.length === 0) return [];
  const keys = intervals.map((interval) => interval.key);
  const starts = intervals.map((interval) => interval.startsAt.toISOString());
  const ends = intervals.map((interval) => interval.endsAt.toISOString());
  const { rows } = await sql<{
    key: K;
    starts_at: Date;
    ends_at: Date;
    orders_paid: number;
    books_paid: number;
    protection_charged: number;
    protection_refunded: number;
    discounts_given: number;
    discounts_returned: number;
    postage: number;
    refunds: number;
  }>`
    with periods as (
      select p.key, p.starts_at, p.ends_at, p.n
      from unnest(${keys}::text[], ${starts}::timestamptz[], ${ends}::timestamptz[])
        with ordinality as p(key, starts_at, ends_at, n)
    ),
    span as (select min(starts_at) as starts_at, max(ends_at) as ends_at from periods),
    paid as materialized (
      select o.paid_at, o.buyer_protection_minor, o.postage_minor, o.discount_minor,
             (select count(*) from public.order_items i where i.order_id = o.id)::int as books
      from public.orders o, span
      where o.paid_at >= span.starts_at and o.paid_at < span.ends_at
    ),
    refunded as materialized (
      select r.created_at, r.amount_minor, r.buyer_protection_minor
      from public.refunds r, span
      where r.created_at >= span.starts_at and r.created_at < span.ends_at
    ),
    returned as materialized (
      select r.discount_minor, r.created_at as returned_at
      from public.refunds r, span
      where r.discount_minor > 0 and r.created_at >= span.starts_at and r.created_at < span.ends_at
    )
    select p.key, p.starts_at, p.ends_at,
           x.orders_paid, x.books_paid, x.protection_charged, x.postage, x.discounts_given,
           y.protection_refunded, y.refunds, z.discounts_returned
    from periods p
    cross join lateral (
      select count(*)::int as orders_paid,
             coalesce(sum(books), 0)::int as books_paid,
             coalesce(sum(buyer_protection_minor), 0)::int as protection_charged,
             coalesce(sum(postage_minor), 0)::int as postage,
             coalesce(sum(discount_minor), 0)::int as discounts_given
      from paid where paid_at >= p.starts_at and paid_at < p.ends_at
    ) x
    cross join lateral (
      select coalesce(sum(buyer_protection_minor), 0)::int as protection_refunded,
             coalesce(sum(amount_minor), 0)::int as refunds
      from refunded where created_at >= p.starts_at and created_at < p.ends_at
    ) y
    cross join lateral (
      select coalesce(sum(discount_minor), 0)::int as discounts_returned
      from returned where returned_at >= p.starts_at and returned_at < p.ends_at
    ) z
    order by p.n`.execute(db);
  return rows.map((row) => {
    const protectionNetMinor = row.protection_charged - row.protection_refunded;
    const discountsFundedMinor = row.discounts_given - row.discounts_returned;
    return {
      key: row.key,
      startsAt: row.starts_at.toISOString(),
      endsAt: row.ends_at.toISOString(),
      ordersPaid: row.orders_paid,
      booksPaid: row.books_paid,
      protectionChargedMinor: row.protection_charged,
      protectionRefundedMinor: row.protection_refunded,
      protectionNetMinor,
      discountsGivenMinor: row.discounts_given,
      discountsReturnedMinor: row.discounts_returned,
      discountsFundedMinor,
      netMinor: protectionNetMinor - discountsFundedMinor,
      postageMinor: row.postage,
      refundsMinor: row.refunds,
    };
  });
}

/** The dashboard's periods, each from its start (London) to now. */
export async function revenueByPeriod(db: Database, now: Date = new Date()): Promise<RevenueRow[]> {
  const { rows: bounds } = await sql<{ period: AdminPeriod; starts_at: Date; ends_at: Date }>`
    select p.period, b.starts_at, b.ends_at
    from unnest(${[...ADMIN_PERIODS]}::text[]) with ordinality as p(period, n)
    cross join lateral public.admin_period_bounds(p.period, ${now}::timestamptz) b
    order by p.n`.execute(db);
  const figures = await revenueFor(
    db,
    bounds.map((bound) => ({ key: bound.period, startsAt: bound.starts_at, endsAt: bound.ends_at })),
  );
  return figures.map(({ key, ...rest }) => ({ period: key, ...rest }));
}

/**
 * Each London day from `from` to `to` (YYYY-MM-DD, both included), then the whole span as
 * `total`: the revenue CSV's rows.
 */
export async function revenueByDay(
  db: Database,
  period: { from: string; to: string },
): Promise<(RevenueFigures & { key: string })[]> {
  const { rows: days } = await sql<{ day: string; starts_at: Date; ends_at: Date }>`
    select to_char(d, 'YYYY-MM-DD') as day,
           d::timestamp at time zone 'Europe/London' as starts_at,
           (d + 1)::timestamp at time zone 'Europe/London' as ends_at
    from generate_series(${period.from}::date, ${period.to}::date, interval '1 day') as g(t),
         lateral (select g.t::date as d) x
    order by d`.execute(db);
  if (days.length === 0) return [];
  return revenueFor(db, [
    ...days.map((day) => ({ key: day.day, startsAt: day.starts_at, endsAt: day.ends_at })),
    { key: 'total', startsAt: days[0]!.starts_at, endsAt: days[days.length - 1]!.ends_at },
  ]);
}
