/**
 * Reviews (decision 0048 "reviews published together").
 *
 * - When an order completes, `openReviewWindow` (called by order-mail in the completing step's
 *   transaction) opens its review window for REVIEW_WINDOW_DAYS and asks both sides, in the app
 *   and by email. No window opens for an order refunded for "not received".
 * - Each side writes one review (stars and up to REVIEW_MAX_LENGTH characters) while the window
 *   is open. Nobody but its author sees it until the window is published: when the second review
 *   is in (in that review's transaction), or when the window closes (`publishDueWindows`, the job
 *   `reviews.publish`). So neither review can be written in answer to the other.
 * - The person reviewed may reply once to a published review; a member may report one (the
 *   reports queue); staff remove one with a reason, audited, both members told.
 * - A seller's (or charity's) rating is computed from real orders: the average and count of the
 *   published reviews buyers wrote, and the share of orders dispatched by their dispatch
 *   deadline (`orders.dispatch_by`, COMMERCIAL_DEFAULTS.dispatchWorkingDays working days after
 *   payment) among those whose deadline has come or that were dispatched.
 */
import {
  type MyReview,
  type MyReviews,
  type PendingReview,
  type PublicReview,
  type Rating,
  REVIEW_WINDOW_DAYS,
  type ReportReason,
  type ReviewRole,
  type SellerReviews,
} from '@reshelf/contracts';
import { sql, type Transaction } from 'kysely';
import { ratingOf, sellerRatings } from '../../catalogue/index.ts';
import type { DB } from '../../db/database.generated.ts';
import type { Database } from '../../db/index.ts';
import { AppError } from '../../errors.ts';
import { enforce } from '../../http/rate-limit.ts';
import { recordAudit } from '../../platform/audit/audit.service.ts';
import type { Mailer } from '../../platform/mail/mailer.ts';
import { layout } from '../../platform/mail/templates.ts';
import { notify } from '../../platform/notifications/notify.ts';
import { recordRemoval } from '../moderation/close-reports.ts';
import { insertReport, REPORT_RATE } from '../moderation/report-rules.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

export interface ReviewDeps {
  db: Database;
  mailer: Mailer;
  origin: string;
}

type Trx = Transaction<DB>;

const ACCOUNT_REVIEWS = '/account/reviews';

const londonDay = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/London',
  day: 'numeric',
  month: 'long',
});

interface Person {
  id: string;
  email: string | null;
  name: string;
}

async function person(db: Database, id: string): Promise<Person> {
  const row = await db
    .selectFrom('auth.users as u')
    .leftJoin('profiles as p', 'p.id', 'u.id')
    .leftJoin('charities as c', (join) =>
      join.onRef('c.owner_id', '=', 'u.id').on('c.status', '=', 'approved'),
    )
    .select(['u.id', 'u.email', 'p.display_name', 'c.name as charity_name'])
    .where('u.id', '=', id)
    .executeTakeFirst();
  return {
    id,
    email: row?.email ?? null,
    name: row?.charity_name ?? row?.display_name ?? 'a Reshelf member',
  };
}

/** Whether the order was refunded after a "not received" report: no reviews then. */
async function refundedForNotReceived(db: Database, orderId: string): Promise<boolean> {
  const row = await db
    .selectFrom('disputes as d')
    .select('d.id')
    .where('d.order_id', '=', orderId)
    .where('d.kind', '=', 'not_received')
    .where((eb) =>
      eb.or([
        eb.exists(eb.selectFrom('refunds as r').select('r.id').whereRef('r.order_id', '=', 'd.order_id')),
        eb.exists(
          eb
            .selectFrom('orders as o')
            .select('o.id')
            .whereRef('o.id', '=', 'd.order_id')
            .where('o.refunded_at', 'is not', null),
        ),
      ]),
    )
    .executeTakeFirst();
  return !!row;
}

async function sendMail(
  trx: Database,
  deps: ReviewDeps,
  to: Person,
  mail: { subject: string; lines: string[]; action: { label: string; url: string }; template: string },
): Promise<void> {
  if (!to.email) return;
  await deps.mailer.send(
    {
      to: to.email,
      subject: mail.subject,
      text: `${mail.lines.join('\n\n')}\n\n${mail.action.label}: ${mail.action.url}\n`,
      html: layout(mail.lines, mail.action),
      template: mail.template,
      userId: to.id,
    },
    { trx },
  );
}

/**
 * Opens the order's review window if it has just completed (and has none yet), asking both sides
 * to review each other: an in-app notice and an email each, queued on `trx`. Answers whether it
 * opened one. Called for every order step's mail, so any path to "completed" opens it.
 */
export async function openReviewWindow(
  trx: Database,
  deps: ReviewDeps,
  orderId: string,
  now = new Date(),
): Promise<boolean> {
  const order = await trx
    .selectFrom('orders as o')
    .innerJoin('order_items as first_item', (join) =>
      join.onRef('first_item.order_id', '=', 'o.id').on('first_item.position', '=', 1),
    )
    .innerJoin('listings as l', 'l.id', 'first_item.listing_id')
    // The order's title as every surface names it ("Title and 2 more books", decision 0051).
    .innerJoin('order_titles as ot', 'ot.order_id', 'o.id')
    .select(['o.id', 'o.status', 'o.reference', 'o.buyer_id', 'o.seller_id', 'l.charity_id', 'ot.title'])
    .where('o.id', '=', orderId)
    .$narrowType<{ title: string }>()
    .executeTakeFirst();
  if (order?.status !== 'completed') return false;
  if (await refundedForNotReceived(trx, orderId)) return false;
  const closesAt = new Date(now.getTime() + REVIEW_WINDOW_DAYS * DAY_MS);
  const opened = await trx
    .insertInto('review_windows')
    .values({
      order_id: order.id,
      buyer_id: order.buyer_id,
      seller_id: order.seller_id,
      charity_id: order.charity_id,
      opened_at: now,
      closes_at: closesAt,
    })
    .onConflict((oc) => oc.column('order_id').doNothing())
    .returning('order_id')
    .executeTakeFirst();
  if (!opened) return false;
  const [buyer, seller] = await Promise.all([person(trx, order.buyer_id), person(trx, order.seller_id)]);
  const url = `${deps.origin}${ACCOUNT_REVIEWS}`;
  const by = londonDay.format(closesAt);
  for (const [me, other, what] of [
    [buyer, seller, `how ${seller.name} did as a seller`],
    [seller, buyer, `how ${buyer.name} was as a buyer`],
  ] as const) {
    const lines = [
      `Hello ${me.name},`,
      `Order ${order.reference} (“${order.title}”) is complete. Tell other readers ${what}: from 1 to 5 stars and a few words, by ${by}.`,
      `Your review stays private until ${other.name} has reviewed you too, or until ${by}; then both are published together, so neither of you can answer the other’s.`,
    ];
    await notify(trx, {
      userId: me.id,
      kind: 'review_requested',
      title: `Review order ${order.reference}`,
      body: lines.slice(1).join(' '),
      link: ACCOUNT_REVIEWS,
      orderId: order.id,
    });
    await sendMail(trx, deps, me, {
      subject: `How did it go? Review order ${order.reference}`,
      lines,
      action: { label: 'Write your review', url },
      template: 'order.review_request',
    });
  }
  return true;
}

/** Publishes a window and its reviews; tells each reviewed person their review is up. */
async function publishWindow(trx: Trx, orderId: string, now: Date): Promise<boolean> {
  const window = await trx
    .updateTable('review_windows')
    .set({ published_at: now })
    .where('order_id', '=', orderId)
    .where('published_at', 'is', null)
    .returning(['order_id'])
    .executeTakeFirst();
  if (!window) return false;
  const published = await trx
    .updateTable('reviews')
    .set({ published_at: now })
    .where('order_id', '=', orderId)
    .where('published_at', 'is', null)
    .returning(['id', 'subject_id', 'author_id', 'stars'])
    .execute();
  const reference = (
    await trx.selectFrom('orders').select('reference').where('id', '=', orderId).executeTakeFirstOrThrow()
  ).reference;
  await notify(
    trx,
    published.map((review) => ({
      userId: review.subject_id,
      kind: 'review_published' as const,
      title: `You have a new review: ${review.stars} out of 5`,
      body: `The review of order ${reference} is now published. You may reply to it once.`,
      link: ACCOUNT_REVIEWS,
      orderId,
    })),
  );
  return true;
}

/** The job `reviews.publish`: windows whose 14 days are over are published with what is in. */
export async function publishDueWindows(deps: { db: Database }, now = new Date()): Promise<number> {
  const due = await deps.db
    .selectFrom('review_windows')
    .select('order_id')
    .where('published_at', 'is', null)
    .where('closes_at', '<=', now)
    .orderBy('closes_at')
    .limit(500)
    .execute();
  let moved = 0;
  for (const row of due) {
    const done = await deps.db.transaction().execute((trx) => publishWindow(trx, row.order_id, now));
    if (done) moved += 1;
  }
  return moved;
}

/** One review of an order by its buyer or seller; both in → the window is published at once. */
export async function writeReview(
  db: Database,
  authorId: string,
  input: { orderId: string; stars: number; body: string },
  now = new Date(),
): Promise<{ id: string; published: boolean }> {
  return db.transaction().execute(async (trx) => {
    const window = await trx
      .selectFrom('review_windows')
      .selectAll()
      .where('order_id', '=', input.orderId)
      .forUpdate()
      .executeTakeFirst();
    const role: ReviewRole | null = !window
      ? null
      : window.buyer_id === authorId
        ? 'buyer'
        : window.seller_id === authorId
          ? 'seller'
          : null;
    if (!window || !role) {
      const order = await trx
        .selectFrom('orders')
        .select(['buyer_id', 'seller_id', 'status'])
        .where('id', '=', input.orderId)
        .executeTakeFirst();
      if (!order || (order.buyer_id !== authorId && order.seller_id !== authorId)) {
        throw new AppError('NOT_FOUND', 'We could not find that order among yours.');
      }
      throw new AppError(
        'PRECONDITION_FAILED',
        'You can review an order only once it is complete (and not after a refund for a parcel that never arrived).',
      );
    }
    if (window.published_at || window.closes_at <= now) {
      throw new AppError(
        'PRECONDITION_FAILED',
        `The ${REVIEW_WINDOW_DAYS} days to review this order are over.`,
      );
    }
    const inserted = await trx
      .insertInto('reviews')
      .values({
        order_id: input.orderId,
        author_role: role,
        author_id: authorId,
        subject_id: role === 'buyer' ? window.seller_id : window.buyer_id,
        stars: input.stars,
        body: input.body,
        created_at: now,
      })
      .onConflict((oc) => oc.columns(['order_id', 'author_role']).doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!inserted) throw new AppError('CONFLICT', 'You have already reviewed this order.');
    const count = await trx
      .selectFrom('reviews')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('order_id', '=', input.orderId)
      .executeTakeFirstOrThrow();
    const published = count.n >= 2 ? await publishWindow(trx, input.orderId, now) : false;
    return { id: inserted.id, published };
  });
}

/** The reviewed person's one reply to a published review. */
export async function replyToReview(
  db: Database,
  memberId: string,
  input: { reviewId: string; reply: string },
): Promise<void> {
  const updated = await db
    .updateTable('reviews')
    .set({ reply: input.reply, replied_at: new Date() })
    .where('id', '=', input.reviewId)
    .where('subject_id', '=', memberId)
    .where('published_at', 'is not', null)
    .where('removed_at', 'is', null)
    .where('reply', 'is', null)
    .returning('id')
    .executeTakeFirst();
  if (updated) return;
  const review = await db
    .selectFrom('reviews')
    .select(['subject_id', 'published_at', 'removed_at', 'reply'])
    .where('id', '=', input.reviewId)
    .executeTakeFirst();
  if (!review || review.subject_id !== memberId || !review.published_at || review.removed_at) {
    throw new AppError('NOT_FOUND', 'We could not find that review of you.');
  }
  throw new AppError('CONFLICT', 'You have already replied to this review; a review takes one reply.');
}

/** A member reports a published review (not one they wrote) to the reports queue. */
export async function reportReview(
  db: Database,
  reporterId: string,
  input: { reviewId: string; reason: ReportReason; details: string | null },
): Promise<{ id: string }> {
  const review = await db
    .selectFrom('reviews')
    .select(['author_id', 'published_at', 'removed_at'])
    .where('id', '=', input.reviewId)
    .executeTakeFirst();
  if (!review?.published_at) throw new AppError('NOT_FOUND', 'We could not find that review.');
  if (review.author_id === reporterId) throw new AppError('FORBIDDEN', 'You can’t report your own review.');
  if (review.removed_at) throw new AppError('CONFLICT', 'Our team has already removed this review.');
  await enforce(db, [[REPORT_RATE, reporterId]]);
  return insertReport(db, reporterId, { reviewId: input.reviewId }, input);
}

/**
 * Staff remove a review with a reason: hidden everywhere (kept for the record), every open report
 * on it closed, audited, and both members told by email and in the app.
 */
export async function removeReview(
  deps: ReviewDeps,
  staffId: string,
  input: { reviewId: string; reason: string },
): Promise<{ closedReports: number }> {
  return deps.db.transaction().execute(async (trx) => {
    const review = await trx
      .updateTable('reviews')
      .set({ removed_at: new Date(), removed_by: staffId, removed_reason: input.reason })
      .where('id', '=', input.reviewId)
      .where('removed_at', 'is', null)
      .returning(['id', 'order_id', 'author_id', 'subject_id', 'stars'])
      .executeTakeFirst();
    if (!review) {
      const exists = await trx
        .selectFrom('reviews')
        .select('id')
        .where('id', '=', input.reviewId)
        .executeTakeFirst();
      if (!exists) throw new AppError('NOT_FOUND', 'That review no longer exists. Refresh the page.');
      throw new AppError('CONFLICT', 'This review has already been removed. Refresh the page.');
    }
    await recordAudit(trx, {
      actorId: staffId,
      action: 'review.remove',
      targetType: 'review',
      targetId: review.id,
      details: {
        orderId: review.order_id,
        authorId: review.author_id,
        subjectId: review.subject_id,
        reason: input.reason,
      },
    });
    const reference = (
      await trx
        .selectFrom('orders')
        .select('reference')
        .where('id', '=', review.order_id)
        .executeTakeFirstOrThrow()
    ).reference;
    // Its reporters are told the outcome, and its author why, with the appeal (close-reports.ts).
    const closedReports = await recordRemoval(trx, deps, staffId, {
      target: { reviewId: review.id },
      ownerId: review.author_id,
      note: input.reason,
      what: `your review of order ${reference}`,
    });
    const url = `${deps.origin}${ACCOUNT_REVIEWS}`;
    // Its author is told by recordRemoval above (with the appeal); the member it was about, here.
    for (const [who, lines] of [
      [
        review.subject_id,
        [
          `Our team has removed a review of you (order ${reference}); it no longer counts towards your rating.`,
          `The reason: ${input.reason}`,
        ],
      ],
    ] as const) {
      const to = await person(trx, who);
      await notify(trx, {
        userId: who,
        kind: 'review_removed',
        title: `A review of order ${reference} was removed`,
        body: lines.join(' '),
        link: ACCOUNT_REVIEWS,
        orderId: review.order_id,
      });
      await sendMail(trx, deps, to, {
        subject: `A review of order ${reference} was removed`,
        lines: [`Hello ${to.name},`, ...lines],
        action: { label: 'See your reviews', url },
        template: 'order.review_removed',
      });
    }
    return { closedReports };
  });
}

// Reading ------------------------------------------------------------------------------------------

type Subject = { sellerId: string } | { charityId: string };

/** Ratings of several sellers at once (listing cards), by seller id; sellers with none are absent. */
export async function ratingsOf(db: Database, sellerIds: string[]): Promise<Record<string, Rating>> {
  return sellerRatings(db, sellerIds);
}

/** The ratings of the sellers of some listings (a page of cards), by listing id. */
export async function ratingsOfListings(db: Database, listingIds: string[]): Promise<Record<string, Rating>> {
  if (listingIds.length === 0) return {};
  const listings = await db
    .selectFrom('listings')
    .select(['id', 'seller_id'])
    .where('id', 'in', listingIds)
    .execute();
  const bySeller = await ratingsOf(db, [...new Set(listings.map((l) => l.seller_id))]);
  return Object.fromEntries(
    listings.flatMap((l) => (bySeller[l.seller_id] ? [[l.id, bySeller[l.seller_id]!] as const] : [])),
  );
}

async function ratingFor(db: Database, subject: Subject): Promise<Rating> {
  if ('sellerId' in subject) return (await ratingsOf(db, [subject.sellerId]))[subject.sellerId]!;
  const { rows } = await sql<{ average: string | null; n: number; counted: number; on_time: number }>`
    select
      (select avg(r.stars) from public.reviews r join public.review_windows w on w.order_id = r.order_id
        where w.charity_id = ${subject.charityId} and r.author_role = 'buyer'
          and r.published_at is not null and r.removed_at is null) as average,
      (select count(*)::int from public.reviews r join public.review_windows w on w.order_id = r.order_id
        where w.charity_id = ${subject.charityId} and r.author_role = 'buyer'
          and r.published_at is not null and r.removed_at is null) as n,
      (select count(*)::int from public.orders o
        where exists (select 1 from public.order_items i join public.listings l on l.id = i.listing_id
                       where i.order_id = o.id and l.charity_id = ${subject.charityId})
          and o.dispatch_by is not null
          and (o.dispatched_at is not null or o.dispatch_by <= now())) as counted,
      (select count(*)::int from public.orders o
        where exists (select 1 from public.order_items i join public.listings l on l.id = i.listing_id
                       where i.order_id = o.id and l.charity_id = ${subject.charityId})
          and o.dispatched_at <= o.dispatch_by) as on_time`.execute(db);
  return ratingOf(rows[0]!);
}

/** Published reviews buyers wrote about a seller (or a charity), newest first, with the rating. */
/**
 * A seller's or charity's published reviews by buyers, newest first, a page at a time: `cursor`
 * is the previous page's `nextCursor` (the last review's publication time and id).
 */
export async function reviewsFor(
  db: Database,
  subject: Subject,
  limit = 20,
  cursor: string | null = null,
): Promise<SellerReviews> {
  let query = db
    .selectFrom('reviews as r')
    .innerJoin('review_windows as w', 'w.order_id', 'r.order_id')
    .innerJoin('orders as o', 'o.id', 'r.order_id')
    // "Ava bought “Brave New World and 2 more books”": the order's title, as every surface names it.
    .innerJoin('order_titles as ot', 'ot.order_id', 'o.id')
    .leftJoin('profiles as ap', 'ap.id', 'r.author_id')
    .select([
      'r.id',
      'r.stars',
      'r.body',
      'r.author_role',
      'ap.display_name as author_name',
      'ot.title',
      'r.published_at',
      'r.reply',
      'r.replied_at',
      // To the microsecond, as stored: the next page starts exactly after this review.
      sql<string>`to_char(r.published_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`.as(
        'published_key',
      ),
    ])
    .where('r.author_role', '=', 'buyer')
    .where('r.published_at', 'is not', null)
    .where('r.removed_at', 'is', null)
    .$narrowType<{ title: string }>();
  query =
    'sellerId' in subject
      ? query.where('r.subject_id', '=', subject.sellerId)
      : query.where('w.charity_id', '=', subject.charityId);
  if (cursor) {
    const [at, id] = cursor.split('_') as [string, string];
    const after = sql<Date>`${at}::timestamptz`;
    query = query.where((eb) =>
      eb.or([
        eb('r.published_at', '<', after),
        eb.and([eb('r.published_at', '=', after), eb('r.id', '>', id)]),
      ]),
    );
  }
  const [found, rating] = await Promise.all([
    query
      .orderBy('r.published_at', 'desc')
      .orderBy('r.id')
      .limit(limit + 1)
      .execute(),
    ratingFor(db, subject),
  ]);
  const rows = found.slice(0, limit);
  const last = rows.at(-1);
  const nextCursor = found.length > limit && last ? `${last.published_key}_${last.id}` : null;
  const reviews: PublicReview[] = rows.map((row) => ({
    id: row.id,
    stars: row.stars,
    body: row.body,
    authorRole: row.author_role as ReviewRole,
    authorName: row.author_name ?? 'A Reshelf reader',
    bookTitle: row.title,
    publishedAt: (row.published_at as Date).toISOString(),
    reply: row.reply,
    repliedAt: row.replied_at?.toISOString() ?? null,
  }));
  return { rating, reviews, nextCursor };
}

export async function reviewsForCharity(
  db: Database,
  slug: string,
  limit = 20,
  cursor: string | null = null,
): Promise<SellerReviews> {
  const charity = await db
    .selectFrom('charities')
    .select('id')
    .where('slug', '=', slug)
    .where('status', '=', 'approved')
    .executeTakeFirst();
  if (!charity) throw new AppError('NOT_FOUND', 'We couldn’t find that charity.');
  return reviewsFor(db, { charityId: charity.id }, limit, cursor);
}

/** A member's reviews: the ones to write, the ones written, and the published ones about them. */
export async function myReviews(db: Database, memberId: string, now = new Date()): Promise<MyReviews> {
  const pendingRows = await db
    .selectFrom('review_windows as w')
    .innerJoin('orders as o', 'o.id', 'w.order_id')
    // The order's title as every surface names it ("Title and 2 more books", decision 0051).
    .innerJoin('order_titles as ot', 'ot.order_id', 'o.id')
    .leftJoin('profiles as bp', 'bp.id', 'w.buyer_id')
    .leftJoin('profiles as sp', 'sp.id', 'w.seller_id')
    .leftJoin('charities as c', 'c.id', 'w.charity_id')
    .select([
      'w.order_id',
      'w.buyer_id',
      'w.closes_at',
      'o.reference',
      'ot.title',
      'bp.display_name as buyer_name',
      'sp.display_name as seller_name',
      'c.name as charity_name',
    ])
    .where((eb) => eb.or([eb('w.buyer_id', '=', memberId), eb('w.seller_id', '=', memberId)]))
    .where('w.published_at', 'is', null)
    .where('w.closes_at', '>', now)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('reviews as r')
            .select('r.id')
            .whereRef('r.order_id', '=', 'w.order_id')
            .where('r.author_id', '=', memberId),
        ),
      ),
    )
    .orderBy('w.closes_at')
    .limit(100)
    .$narrowType<{ title: string }>()
    .execute();
  const pending: PendingReview[] = pendingRows.map((row) => {
    const role: ReviewRole = row.buyer_id === memberId ? 'buyer' : 'seller';
    return {
      orderId: row.order_id,
      reference: row.reference,
      role,
      counterpartName:
        role === 'buyer'
          ? (row.charity_name ?? row.seller_name ?? 'the seller')
          : (row.buyer_name ?? 'the buyer'),
      title: row.title,
      closesAt: row.closes_at.toISOString(),
    };
  });

  const base = db
    .selectFrom('reviews as r')
    .innerJoin('orders as o', 'o.id', 'r.order_id')
    .innerJoin('order_titles as ot', 'ot.order_id', 'o.id')
    .innerJoin('review_windows as w', 'w.order_id', 'r.order_id')
    .leftJoin('profiles as ap', 'ap.id', 'r.author_id')
    .leftJoin('profiles as sp', 'sp.id', 'r.subject_id')
    .leftJoin('charities as c', 'c.id', 'w.charity_id')
    .select([
      'r.id',
      'r.order_id',
      'o.reference',
      'r.stars',
      'r.body',
      'r.author_role',
      'r.author_id',
      'ap.display_name as author_name',
      'sp.display_name as subject_name',
      'c.name as charity_name',
      'ot.title',
      'r.created_at',
      'r.published_at',
      'r.reply',
      'r.removed_at',
      'r.removed_reason',
    ])
    .$narrowType<{ title: string }>();
  const [givenRows, receivedRows] = await Promise.all([
    base.where('r.author_id', '=', memberId).orderBy('r.created_at', 'desc').limit(100).execute(),
    base
      .where('r.subject_id', '=', memberId)
      .where('r.published_at', 'is not', null)
      .orderBy('r.published_at', 'desc')
      .limit(100)
      .execute(),
  ]);
  const toMine = (row: (typeof givenRows)[number], given: boolean): MyReview => {
    const published = row.published_at !== null && row.removed_at === null;
    const subjectName =
      row.author_role === 'buyer' ? (row.charity_name ?? row.subject_name) : row.subject_name;
    const authorName = row.author_role === 'seller' ? (row.charity_name ?? row.author_name) : row.author_name;
    return {
      id: row.id,
      orderId: row.order_id,
      reference: row.reference,
      stars: row.stars,
      body: row.body,
      authorRole: row.author_role as ReviewRole,
      counterpartName: (given ? subjectName : authorName) ?? 'a Reshelf member',
      title: row.title,
      createdAt: row.created_at.toISOString(),
      publishedAt: row.published_at?.toISOString() ?? null,
      reply: row.reply,
      canReply: !given && published && row.reply === null,
      canReport: !given && published,
      removedReason: row.removed_reason,
    };
  };
  return {
    pending,
    given: givenRows.map((row) => toMine(row, true)),
    received: receivedRows.map((row) => toMine(row, false)),
  };
}
