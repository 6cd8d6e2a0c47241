/**
 * Reviews against real PostgreSQL (decision 0048): completing an order asks both sides
 * (notice + email); one review per side, only of a completed order, none after a refund for "not
 * received"; hidden until both are in or the window closes (the job); one reply; a report goes to
 * the queue and acting on it removes the review (audited, both told); the seller's rating numbers
 * match the orders.
 */
import { REVIEW_MAX_LENGTH, REVIEW_WINDOW_DAYS } from '@reshelf/contracts';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decideAsStaff } from '../../commerce/disputes/disputes.service.ts';
import type { Database } from '../../db/index.ts';
import { runJob } from '../../jobs.ts';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { createUser, lastEmailTo, type TestUser } from '../../testing/auth.ts';
import { api, refusal } from '../../testing/client.ts';
import { completedOrder, disputedOrder, orderDepsFor, paidOrder } from '../../testing/orders.ts';
import { actOnReport } from '../moderation/reports.service.ts';
import {
  myReviews,
  ratingsOf,
  replyToReview,
  reportReview,
  reviewsFor,
  writeReview,
} from './reviews.service.ts';

let t: TestApp;
let db: Database;
let moderator: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  db = t.database.handle.db;
  moderator = await createUser(db, t.services.identity, 'moderator@reviews.test', { roles: ['moderator'] });
});
afterAll(async () => t?.close());

const DAY = 24 * 60 * 60 * 1000;

describe('asking for reviews', () => {
  it('opens a 14-day window when an order completes and asks both sides in the app and by email', async () => {
    const order = await completedOrder(t);
    const window = await db
      .selectFrom('review_windows')
      .selectAll()
      .where('order_id', '=', order.orderId)
      .executeTakeFirstOrThrow();
    expect(window.closes_at.getTime() - window.opened_at.getTime()).toBe(REVIEW_WINDOW_DAYS * DAY);
    for (const who of [order.buyer, order.seller]) {
      const mail = await db
        .selectFrom('email_outbox')
        .select(['subject', 'text_body'])
        .where('to_address', '=', who.email)
        .where('template', '=', 'order.review_request')
        .executeTakeFirst();
      expect(mail?.subject).toBe(`How did it go? Review order ${order.reference}`);
      expect(mail?.text_body).toContain('/account/reviews');
      const notice = await db
        .selectFrom('notifications')
        .select(['title', 'link'])
        .where('user_id', '=', who.id)
        .where('kind', '=', 'review_requested')
        .executeTakeFirstOrThrow();
      expect(notice).toEqual({ title: `Review order ${order.reference}`, link: '/account/reviews' });
    }
    const pending = await myReviews(db, order.buyer.id);
    expect(pending.pending.map((p) => [p.orderId, p.role])).toEqual([[order.orderId, 'buyer']]);
  });

  it('refuses a review of an order that is not complete, and of someone else’s order', async () => {
    const order = await paidOrder(t);
    await expect(
      writeReview(db, order.buyer.id, { orderId: order.orderId, stars: 5, body: '' }),
    ).rejects.toMatchObject({ code: 'PRECONDITION_FAILED' });
    const done = await completedOrder(t);
    await expect(
      writeReview(db, order.buyer.id, { orderId: done.orderId, stars: 5, body: '' }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('opens no window after a refund for "not received", even if the order then completes', async () => {
    const refunded = await disputedOrder(t, 'not_received');
    await decideAsStaff(orderDepsFor(t), moderator.id, {
      disputeId: refunded.disputeId,
      decision: 'full_refund',
      note: 'The parcel was lost by the carrier.',
    });
    // A part refunded for "not received", then released: complete, yet not reviewable.
    const partly = await disputedOrder(t, 'not_received');
    const payment = await db
      .selectFrom('payments')
      .select('id')
      .where('order_id', '=', partly.orderId)
      .executeTakeFirstOrThrow();
    await db
      .insertInto('refunds')
      .values({ order_id: partly.orderId, payment_id: payment.id, amount_minor: 300, reason: 'Part of it' })
      .execute();
    await decideAsStaff(orderDepsFor(t), moderator.id, {
      disputeId: partly.disputeId,
      decision: 'release',
      note: 'It turned up late; part refunded for the wait.',
    });
    // Released without any refund: reviewable as usual.
    const released = await disputedOrder(t, 'not_received');
    await decideAsStaff(orderDepsFor(t), moderator.id, {
      disputeId: released.disputeId,
      decision: 'release',
      note: 'Tracking shows it was delivered.',
    });
    const windows = await db
      .selectFrom('review_windows')
      .select('order_id')
      .where('order_id', 'in', [refunded.orderId, partly.orderId, released.orderId])
      .execute();
    expect(windows.map((w) => w.order_id)).toEqual([released.orderId]);
    for (const order of [refunded, partly]) {
      await expect(
        writeReview(db, order.buyer.id, { orderId: order.orderId, stars: 1, body: 'Never came' }),
      ).rejects.toMatchObject({ code: 'PRECONDITION_FAILED' });
    }
  });
});

describe('writing and publishing', () => {
  it('keeps a review hidden until the other side has reviewed too, then publishes both together', async () => {
    const order = await completedOrder(t);
    const first = await writeReview(db, order.buyer.id, {
      orderId: order.orderId,
      stars: 4,
      body: 'Well packed, as described.',
    });
    expect(first.published).toBe(false);
    // Hidden: not on the seller's page, not in the seller's received list.
    expect((await reviewsFor(db, { sellerId: order.seller.id })).reviews).toEqual([]);
    expect((await myReviews(db, order.seller.id)).received).toEqual([]);
    await expect(
      writeReview(db, order.buyer.id, { orderId: order.orderId, stars: 5, body: 'Again' }),
    ).rejects.toMatchObject({ code: 'CONFLICT', message: 'You have already reviewed this order.' });

    const second = await writeReview(db, order.seller.id, {
      orderId: order.orderId,
      stars: 5,
      body: 'Paid at once, lovely buyer.',
    });
    expect(second.published).toBe(true);
    const page = await reviewsFor(db, { sellerId: order.seller.id });
    expect(page.reviews.map((r) => [r.stars, r.body, r.authorRole])).toEqual([
      [4, 'Well packed, as described.', 'buyer'],
    ]);
    expect(page.rating).toMatchObject({ average: 4, count: 1 });
    const both = await db
      .selectFrom('reviews')
      .select('published_at')
      .where('order_id', '=', order.orderId)
      .execute();
    expect(new Set(both.map((r) => r.published_at?.toISOString())).size).toBe(1);
    expect((await myReviews(db, order.buyer.id)).received.map((r) => r.body)).toEqual([
      'Paid at once, lovely buyer.',
    ]);
  });

  it('pages a seller’s reviews newest first, each once, ties at the same microsecond included', async () => {
    const orders = [await completedOrder(t), await completedOrder(t), await completedOrder(t)];
    const seller = orders[0]!.seller;
    for (const [i, order] of orders.entries()) {
      await writeReview(db, order.buyer.id, { orderId: order.orderId, stars: 5 - i, body: `Review ${i}` });
    }
    // All three about one seller; the two older ones published in the same instant.
    const ids = orders.map((order) => order.orderId);
    await db.updateTable('reviews').set({ subject_id: seller.id }).where('order_id', 'in', ids).execute();
    await db
      .updateTable('reviews')
      .set({ published_at: new Date('2026-11-20T10:00:00.123Z') })
      .where('order_id', 'in', ids)
      .execute();
    await db
      .updateTable('reviews')
      .set({ published_at: sql<Date>`'2026-11-20T10:00:00.123456Z'::timestamptz` })
      .where('order_id', '=', ids[2]!)
      .execute();
    const first = await reviewsFor(db, { sellerId: seller.id }, 2);
    expect(first.reviews.map((r) => r.body)[0]).toBe('Review 2');
    expect(first.reviews).toHaveLength(2);
    expect(first.nextCursor).toMatch(/^2026-11-20T10:00:00\.123000Z_/);
    const second = await reviewsFor(db, { sellerId: seller.id }, 2, first.nextCursor);
    expect(second.nextCursor).toBeNull();
    expect([...first.reviews, ...second.reviews].map((r) => r.body).sort()).toEqual([
      'Review 0',
      'Review 1',
      'Review 2',
    ]);
    // Through the API, as the seller's page asks.
    const viaApi = await api(t.app).community.reviews.public.forSeller.query({
      sellerId: seller.id,
      limit: 2,
      cursor: first.nextCursor,
    });
    expect(viaApi.reviews.map((r) => r.id)).toEqual(second.reviews.map((r) => r.id));
    expect(
      await refusal(
        api(t.app).community.reviews.public.forSeller.query({ sellerId: seller.id, cursor: 'drop table' }),
      ),
    ).toEqual({ status: 400, message: 'cursor: That is not a page of reviews' });
  });

  it('publishes a lone review when the window closes (the job), and refuses reviews after it', async () => {
    const order = await completedOrder(t);
    await writeReview(db, order.buyer.id, { orderId: order.orderId, stars: 2, body: 'Slow to send.' });
    await db
      .updateTable('review_windows')
      .set({ opened_at: new Date(Date.now() - 15 * DAY), closes_at: new Date(Date.now() - DAY) })
      .where('order_id', '=', order.orderId)
      .execute();
    await expect(
      writeReview(db, order.seller.id, { orderId: order.orderId, stars: 1, body: 'Retaliation' }),
    ).rejects.toMatchObject({ code: 'PRECONDITION_FAILED' });
    const moved = await runJob({ ...orderDepsFor(t) }, 'reviews.publish');
    expect(moved).toBeGreaterThanOrEqual(1);
    const page = await reviewsFor(db, { sellerId: order.seller.id });
    expect(page.reviews.map((r) => r.body)).toEqual(['Slow to send.']);
    expect(await myReviews(db, order.seller.id)).toMatchObject({ pending: [] });
  });

  it('validates stars and length through the API with clear messages', async () => {
    const buyer = await createUser(db, t.services.identity, 'api-buyer@reviews.test');
    const order = await completedOrder(t);
    const client = api(t.app, buyer.accessToken);
    const tooMany = await refusal(
      client.community.reviews.member.write.mutate({ orderId: order.orderId, stars: 6, body: '' }),
    );
    expect(tooMany).toEqual({ status: 400, message: 'stars: Choose from 1 to 5 stars' });
    const tooLong = await refusal(
      client.community.reviews.member.write.mutate({
        orderId: order.orderId,
        stars: 3,
        body: 'x'.repeat(REVIEW_MAX_LENGTH + 1),
      }),
    );
    expect(tooLong).toEqual({ status: 400, message: 'body: Keep your review to 500 characters or fewer' });
    const notMine = await refusal(
      client.community.reviews.member.write.mutate({ orderId: order.orderId, stars: 3, body: 'ok' }),
    );
    expect(notMine.status).toBe(404);
  });
});

describe('replies, reports and removal', () => {
  it('lets the person reviewed reply once; a report goes to the queue; acting removes it, audited, both told', async () => {
    const order = await completedOrder(t);
    const { id: reviewId } = await writeReview(db, order.buyer.id, {
      orderId: order.orderId,
      stars: 1,
      body: 'Rude seller, never again.',
    });
    await writeReview(db, order.seller.id, { orderId: order.orderId, stars: 5, body: 'Fine.' });
    await expect(
      replyToReview(db, order.buyer.id, { reviewId, reply: 'Not yours to answer' }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await replyToReview(db, order.seller.id, { reviewId, reply: 'Sorry you felt that way.' });
    await expect(
      replyToReview(db, order.seller.id, { reviewId, reply: 'And another thing' }),
    ).rejects.toMatchObject({ code: 'CONFLICT' });
    expect((await reviewsFor(db, { sellerId: order.seller.id })).reviews[0]?.reply).toBe(
      'Sorry you felt that way.',
    );

    await expect(
      reportReview(db, order.buyer.id, { reviewId, reason: 'offensive', details: null }),
    ).rejects.toMatchObject({ code: 'FORBIDDEN' });
    const report = await reportReview(db, order.seller.id, {
      reviewId,
      reason: 'offensive',
      details: 'Not about the book at all.',
    });
    const queue = await api(t.app, moderator.accessToken).community.moderation.staff.list.query({
      status: 'open',
    });
    const listed = queue.find((row) => row.id === report.id);
    expect(listed?.review).toMatchObject({ reviewId, stars: 1, text: 'Rude seller, never again.' });

    const acted = await actOnReport(orderDepsFor(t), moderator.id, {
      reportId: report.id,
      note: 'Personal remarks are not allowed in reviews.',
      warnSender: false,
    });
    expect(acted).toEqual({ kind: 'review', closed: 1 });
    expect((await reviewsFor(db, { sellerId: order.seller.id })).reviews).toEqual([]);
    const audit = await db
      .selectFrom('audit_log')
      .select('details')
      .where('action', '=', 'review.remove')
      .where('target_id', '=', reviewId)
      .executeTakeFirstOrThrow();
    expect(audit.details).toMatchObject({ reason: 'Personal remarks are not allowed in reviews.' });
    // Its author is told why and may appeal (close-reports.ts); the member it was about is told too.
    for (const [who, subject] of [
      [order.buyer, `We removed your review of order ${order.reference}`],
      [order.seller, `A review of order ${order.reference} was removed`],
    ] as const) {
      const mail = await lastEmailTo(db, who.email);
      expect(mail?.subject).toBe(subject);
      expect(mail?.text_body).toContain('Personal remarks are not allowed in reviews.');
    }
  });

  it('staff remove a review directly through reviews.staff.remove, with a reason', async () => {
    const order = await completedOrder(t);
    const { id: reviewId } = await writeReview(db, order.buyer.id, {
      orderId: order.orderId,
      stars: 3,
      body: 'Contains a phone number 07700 900000',
    });
    const staff = api(t.app, moderator.accessToken);
    const noReason = await refusal(staff.community.reviews.staff.remove.mutate({ reviewId, reason: '' }));
    expect(noReason.status).toBe(400);
    await staff.community.reviews.staff.remove.mutate({
      reviewId,
      reason: 'Contact details are not allowed.',
    });
    const again = await refusal(
      staff.community.reviews.staff.remove.mutate({ reviewId, reason: 'Contact details are not allowed.' }),
    );
    expect(again.status).toBe(409);
  });
});

describe('the seller’s rating', () => {
  it('matches the orders: average and count of published buyer reviews, share dispatched on time', async () => {
    // Three orders from one seller: two completed and reviewed, one dispatched late.
    const a = await completedOrder(t);
    const sellerId = a.seller.id;
    const ids = [a.orderId];
    for (const _ of [1, 2]) {
      const next = await paidOrder(t);
      await db.updateTable('orders').set({ seller_id: sellerId }).where('id', '=', next.orderId).execute();
      ids.push(next.orderId);
    }
    // b: dispatched on time; c: dispatched a day after its deadline.
    const now = Date.now();
    await db
      .updateTable('orders')
      .set({ dispatch_by: new Date(now + DAY), dispatched_at: new Date(now) })
      .where('id', '=', ids[1]!)
      .execute();
    await db
      .updateTable('orders')
      .set({ dispatch_by: new Date(now - 2 * DAY), dispatched_at: new Date(now - DAY) })
      .where('id', '=', ids[2]!)
      .execute();
    await writeReview(db, a.buyer.id, { orderId: a.orderId, stars: 5, body: '' });
    await writeReview(db, sellerId, { orderId: a.orderId, stars: 4, body: '' });

    const rating = (await ratingsOf(db, [sellerId]))[sellerId]!;
    const orders = await db
      .selectFrom('orders')
      .select(['dispatch_by', 'dispatched_at'])
      .where('seller_id', '=', sellerId)
      .execute();
    const counted = orders.filter(
      (o) => o.dispatch_by && (o.dispatched_at || o.dispatch_by.getTime() <= Date.now()),
    );
    const onTime = counted.filter((o) => o.dispatched_at && o.dispatched_at <= o.dispatch_by!);
    expect(counted.length).toBe(3);
    expect(rating).toEqual({
      average: 5,
      count: 1,
      dispatchCounted: counted.length,
      dispatchedOnTime: onTime.length,
      onTimePercent: Math.round((onTime.length * 100) / counted.length),
    });
    // A seller's review of their buyer is no seller rating of the buyer.
    expect((await ratingsOf(db, [a.buyer.id]))[a.buyer.id]).toMatchObject({ count: 0, average: null });
  });
});
