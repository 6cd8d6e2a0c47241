/**
 * Offers for staff (/admin/offers): every offer thread, found by the book's title or the
 * buyer's or seller's email, filtered by status and by the dashboard's periods (when the thread
 * started, London time), newest activity first, each with its rounds and the discount asked;
 * and three figures for the top of the page. Cancelling is the offers service's
 * (`cancelOfferAsStaff`), which owns the offer states.
 *
 * Statuses are as the parties see them: a pending round past its 48 hours is "expired" and an
 * accepted one past its 24 hours "lapsed" even before the jobs have moved them. Every status but
 * "countered" only ever sits on a thread's latest round, so "threads with a round in this
 * status" is the thread's status, and for "countered" it means "threads with a counter-offer".
 */
import { type AdminPeriod, offerDiscountPercent } from '@reshelf/contracts';
import { type Expression, type SqlBool, sql } from 'kysely';
import type { Database } from '../../db/index.ts';
import { escapeLike } from '../../db/search.ts';

export const OFFER_STATUSES = [
  'pending',
  'accepted',
  'declined',
  'countered',
  'expired',
  'withdrawn',
  'purchased',
  'lapsed',
  'cancelled',
] as const;
export type OfferStatus = (typeof OFFER_STATUSES)[number];

export interface StaffOfferRound {
  id: string;
  round: number;
  madeBy: 'buyer' | 'seller';
  amountMinor: number;
  /** How far under the listing's price, in whole per cent. */
  discountPercent: number;
  status: string;
  message: string | null;
  createdAt: string;
  expiresAt: string;
  checkoutDeadline: string | null;
  cancelReason: string | null;
}

export interface StaffOfferThread {
  threadId: string;
  currentId: string;
  status: string;
  canCancel: boolean;
  listing: { id: string; title: string; slug: string | null; priceMinor: number; status: string };
  buyer: { email: string | null; name: string | null };
  seller: { email: string | null; name: string | null };
  startedAt: string;
  updatedAt: string;
  rounds: StaffOfferRound[];
}

export interface StaffOfferSummary {
  /** Threads whose latest round is pending, or accepted and still within its 24 hours. */
  open: number;
  /** Threads started in the last 30 days with an answer: the share where an offer was accepted. */
  acceptanceRate: number | null;
  decided30: number;
  accepted30: number;
  /** The median discount buyers asked in opening offers of the last 30 days, in per cent. */
  medianDiscountPercent: number | null;
  opened30: number;
}

/** The status the parties see (see the note at the top). */
function effective(alias: 'o' | 'r', now: Date) {
  return sql<string>`case
    when ${sql.ref(`${alias}.status`)} = 'pending' and ${sql.ref(`${alias}.expires_at`)} <= ${now} then 'expired'
    when ${sql.ref(`${alias}.status`)} = 'accepted' and ${sql.ref(`${alias}.checkout_deadline`)} <= ${now} then 'lapsed'
    else ${sql.ref(`${alias}.status`)} end`;
}

export async function searchOfferThreads(
  db: Database,
  filter: { q?: string; status?: OfferStatus; period?: AdminPeriod; limit: number },
  now: Date = new Date(),
): Promise<StaffOfferThread[]> {
  // Each thread's latest round, with when the thread started and last moved.
  let query = db
    .with('latest', (qb) =>
      qb
        .selectFrom('offers')
        .distinctOn('thread_id')
        .select([
          'thread_id',
          'id',
          'listing_id',
          'buyer_id',
          'seller_id',
          'status',
          'expires_at',
          'checkout_deadline',
          'created_at',
        ])
        .orderBy('thread_id')
        .orderBy('round', 'desc'),
    )
    .selectFrom('latest as o')
    .innerJoin('offers as first', (join) =>
      join.onRef('first.thread_id', '=', 'o.thread_id').on('first.round', '=', 1),
    )
    .innerJoin('listings as l', 'l.id', 'o.listing_id')
    .innerJoin('books as b', 'b.id', 'l.book_id')
    .leftJoin('auth.users as bu', 'bu.id', 'o.buyer_id')
    .leftJoin('auth.users as su', 'su.id', 'o.seller_id')
    .leftJoin('profiles as bp', 'bp.id', 'o.buyer_id')
    .leftJoin('profiles as sp', 'sp.id', 'o.seller_id')
    .select([
      'o.thread_id',
      'o.id as current_id',
      effective('o', now).as('status'),
      'first.created_at as started_at',
      'o.created_at as updated_at',
      'l.id as listing_id',
      'l.slug',
      'l.price_minor',
      'l.status as listing_status',
      'b.title',
      'bu.email as buyer_email',
      'su.email as seller_email',
      'bp.display_name as buyer_name',
      'sp.display_name as seller_name',
    ]);
  if (filter.q) {
    const pattern = `%${escapeLike(filter.q)}%`;
    query = query.where((eb) =>
      eb.or([
        eb('b.title', 'ilike', pattern),
        eb('bu.email', 'ilike', pattern),
        eb('su.email', 'ilike', pattern),
      ]),
    );
  }
  if (filter.status) {
    const status = filter.status;
    query = query.where(({ exists, selectFrom }) =>
      exists(
        selectFrom('offers as r')
          .select('r.id')
          .whereRef('r.thread_id', '=', 'o.thread_id')
          .where(sql<SqlBool>`${effective('r', now)} = ${status}` as Expression<SqlBool>),
      ),
    );
  }
  if (filter.period) {
    const bounds = sql`public.admin_period_bounds(${filter.period}, ${now}::timestamptz)`;
    query = query
      .where('first.created_at', '>=', sql<Date>`(select starts_at from ${bounds})`)
      .where('first.created_at', '<', sql<Date>`(select ends_at from ${bounds})`);
  }
  const threads = await query
    .orderBy('o.created_at', 'desc')
    .orderBy('o.thread_id')
    .limit(filter.limit)
    .execute();
  if (threads.length === 0) return [];
  const rounds = await db
    .selectFrom('offers as r')
    .select([
      'r.id',
      'r.thread_id',
      'r.round',
      'r.made_by',
      'r.amount_minor',
      effective('r', now).as('status'),
      'r.message',
      'r.created_at',
      'r.expires_at',
      'r.checkout_deadline',
      'r.cancel_reason',
    ])
    .where(
      'r.thread_id',
      'in',
      threads.map((thread) => thread.thread_id),
    )
    .orderBy('r.round')
    .execute();
  return threads.map((thread) => {
    const price = thread.price_minor ?? 0;
    return {
      threadId: thread.thread_id,
      currentId: thread.current_id,
      status: thread.status,
      canCancel: thread.status === 'pending' || thread.status === 'accepted',
      listing: {
        id: thread.listing_id,
        title: thread.title,
        slug: thread.slug,
        priceMinor: price,
        status: thread.listing_status,
      },
      buyer: { email: thread.buyer_email ?? null, name: thread.buyer_name ?? null },
      seller: { email: thread.seller_email ?? null, name: thread.seller_name ?? null },
      startedAt: thread.started_at.toISOString(),
      updatedAt: thread.updated_at.toISOString(),
      rounds: rounds
        .filter((row) => row.thread_id === thread.thread_id)
        .map((row) => ({
          id: row.id,
          round: row.round,
          madeBy: row.made_by as 'buyer' | 'seller',
          amountMinor: row.amount_minor,
          discountPercent: offerDiscountPercent(price, row.amount_minor),
          status: row.status,
          message: row.message,
          createdAt: row.created_at.toISOString(),
          expiresAt: row.expires_at.toISOString(),
          checkoutDeadline: row.checkout_deadline?.toISOString() ?? null,
          cancelReason: row.cancel_reason,
        })),
    };
  });
}

/**
 * The figures at the top of /admin/offers. "Accepted" is any round ever accepted (it has a
 * checkout deadline), so an offer later bought, lapsed or cancelled still counts; a thread is
 * "answered" once its latest round is no longer pending.
 */
export async function offerSummary(db: Database, now: Date = new Date()): Promise<StaffOfferSummary> {
  const since = new Date(now.getTime() - 30 * 24 * 60 * 60 * 1000);
  const [open, recent] = await Promise.all([
    db
      .selectFrom('offers')
      .select(sql<number>`count(*)::int`.as('count'))
      .where((eb) =>
        eb.or([
          eb.and([eb('status', '=', 'pending'), eb('expires_at', '>', now)]),
          eb.and([eb('status', '=', 'accepted'), eb('checkout_deadline', '>', now)]),
        ]),
      )
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('offers as first')
      .innerJoin('listings as l', 'l.id', 'first.listing_id')
      .where('first.round', '=', 1)
      .where('first.created_at', '>=', since)
      .where('first.created_at', '<=', now)
      .select([
        sql<number>`count(*)::int`.as('opened'),
        sql<number>`count(*) filter (where (
          select ${effective('r', now)} from public.offers r
          where r.thread_id = first.thread_id order by r.round desc limit 1) <> 'pending')::int`.as(
          'decided',
        ),
        sql<number>`count(*) filter (where exists (
          select 1 from public.offers r
          where r.thread_id = first.thread_id and r.checkout_deadline is not null))::int`.as('accepted'),
        sql<number | null>`percentile_cont(0.5) within group ( -- money-ok: offerDiscountPercent's rule in SQL
          order by (l.price_minor - first.amount_minor)::float8 * 100 / nullif(l.price_minor, 0))`.as(
          'median_discount',
        ),
      ])
      .executeTakeFirstOrThrow(),
  ]);
  return {
    open: open.count,
    decided30: recent.decided,
    accepted30: recent.accepted,
    acceptanceRate: recent.decided > 0 ? recent.accepted / recent.decided : null,
    medianDiscountPercent:
      recent.median_discount === null ? null : Math.round(Number(recent.median_discount) * 10) / 10,
    opened30: recent.opened,
  };
}
