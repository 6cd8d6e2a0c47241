/**
 * Two-sided disputes against real PostgreSQL: every path reaches the right order
 * state, money movement and emails; the seller's 3 working days expire through the job runner.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getListingBySlug } from '../../catalogue/listings/listings.service.ts';
import { getThread, startOrderThread, storeMessagePhoto } from '../../community/messages/messages.service.ts';
import type { Database } from '../../db/index.ts';
import { type JobContext, runJob } from '../../jobs.ts';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { createPerson } from '../../testing/catalogue.ts';
import { rejects } from '../../testing/errors.ts';
import { orderDepsFor, paidOrder } from '../../testing/orders.ts';
import { dispatchOrder, markArrived } from '../orders/orders.service.ts';
import {
  addReturnTracking,
  answerOffer,
  confirmReturn,
  type DisputeDeps,
  decideAsStaff,
  getDisputeCase,
  reportProblem,
  respondAsSeller,
  returnsSetting,
  setReturnsSetting,
} from './disputes.service.ts';

let t: TestApp;
let db: Database;
let deps: DisputeDeps & JobContext;
let staffId: string;

beforeAll(async () => {
  t = await createTestApp();
  db = t.database.handle.db;
  deps = { ...orderDepsFor(t), storage: t.services.storage };
  staffId = await createPerson(db, 'staff-disputes@reshelf.test');
});

afterAll(async () => {
  await t.close();
});

/** A delivered order whose buyer reports `problem`, with one photo from the conversation. */
async function reported(problem: 'damaged' | 'not_as_described' | 'wrong_book' = 'damaged', price = 1000) {
  const order = await paidOrder(t, price);
  await dispatchOrder(deps, order.seller.id, {
    orderId: order.orderId,
    carrier: 'royal_mail_tracked_48',
    trackingRef: 'AB123456789GB',
  });
  await markArrived(deps, order.buyer.id, order.orderId);
  const { threadId } = await startOrderThread(db, order.buyer.id, order.orderId);
  const image = { body: Buffer.from('webp'), contentType: 'image/webp' };
  const photo = await storeMessagePhoto(
    deps,
    { threadId, uploaderId: order.buyer.id },
    { large: image, thumb: image },
    'aaaaaaaaaaaaaaaa',
  );
  const { disputeId } = await reportProblem(deps, order.buyer.id, {
    orderId: order.orderId,
    problem,
    description: 'The cover is torn across and the spine is cracked.',
    photos: [photo.url],
  });
  return { ...order, disputeId, threadId, photo: photo.url };
}

const orderRow = (orderId: string) =>
  db.selectFrom('orders').selectAll().where('id', '=', orderId).executeTakeFirstOrThrow();
const payoutRow = (orderId: string) =>
  db.selectFrom('payouts').selectAll().where('order_id', '=', orderId).executeTakeFirstOrThrow();
const refundedOf = async (orderId: string) =>
  (
    await db
      .selectFrom('payments')
      .select('refunded_minor')
      .where('order_id', '=', orderId)
      .executeTakeFirstOrThrow()
  ).refunded_minor;
const templatesTo = async (email: string) =>
  (await db.selectFrom('email_outbox').select('template').where('to_address', '=', email).execute()).map(
    (row) => row.template,
  );
const auditActions = async (disputeId: string) =>
  (await db.selectFrom('audit_log').select('action').where('target_id', '=', disputeId).execute()).map(
    (row) => row.action,
  );

describe('two-sided disputes', () => {
  it('records the reason, the photo and the seller’s 3 working days, and tells the seller', async () => {
    const r = await reported('damaged');
    const row = await db
      .selectFrom('disputes')
      .selectAll()
      .where('id', '=', r.disputeId)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      problem: 'damaged',
      photos: [r.photo],
      stage: 'seller',
      kind: 'item_not_as_described',
    });
    // 3 working days: at least 3 calendar days later, at most 3 + a weekend + bank holidays.
    const days = (row.respond_by!.getTime() - row.opened_at.getTime()) / 86_400_000;
    // (opened_at is the database's transaction time, respond_by the step's own clock: a minute apart at most.)
    expect(days).toBeGreaterThanOrEqual(3 - 1 / 1440);
    expect(days).toBeLessThanOrEqual(7);
    expect((await orderRow(r.orderId)).status).toBe('disputed');
    expect(await templatesTo(r.seller.email)).toContain('order.dispute_opened');
    const seen = await getDisputeCase(db, { id: r.seller.id }, r.disputeId);
    expect(seen.can).toMatchObject({ respond: true, answerOffer: false });
    expect(seen.photos).toEqual([r.photo]);
  });

  it('“not received” is the same report: a description and a photo (of the tracking), the seller told', async () => {
    const order = await paidOrder(t, 900);
    await dispatchOrder(deps, order.seller.id, {
      orderId: order.orderId,
      carrier: 'royal_mail_tracked_48',
      trackingRef: 'AB987654321GB',
    });
    // The carrier's window has passed.
    await db
      .updateTable('orders')
      .set({ delivery_due_at: new Date(Date.now() - 3_600_000) })
      .where('id', '=', order.orderId)
      .execute();
    const { threadId } = await startOrderThread(db, order.buyer.id, order.orderId);
    const image = { body: Buffer.from('webp'), contentType: 'image/webp' };
    const photo = await storeMessagePhoto(
      deps,
      { threadId, uploaderId: order.buyer.id },
      { large: image, thumb: image },
      'bbbbbbbbbbbbbbbb',
    );
    const { disputeId } = await reportProblem(deps, order.buyer.id, {
      orderId: order.orderId,
      problem: 'not_received',
      description: 'Tracking has said in transit for a week and nothing came.',
      photos: [photo.url],
    });
    const row = await db
      .selectFrom('disputes')
      .selectAll()
      .where('id', '=', disputeId)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      problem: 'not_received',
      kind: 'not_received',
      photos: [photo.url],
      stage: 'seller',
    });
    expect((await orderRow(order.orderId)).status).toBe('disputed');
    expect(await templatesTo(order.seller.email)).toContain('order.dispute_opened');
    const seen = await getDisputeCase(db, { id: order.seller.id }, disputeId);
    expect(seen).toMatchObject({ photos: [photo.url], can: { respond: true } });
  });

  it('refuses a photo that is not from the order’s conversation', async () => {
    const r = await reported('damaged');
    const other = await paidOrder(t);
    await rejects(
      reportProblem(deps, other.buyer.id, {
        orderId: other.orderId,
        problem: 'damaged',
        description: 'The cover is torn across and the spine is cracked.',
        photos: [r.photo],
      }),
      'BAD_INPUT',
    );
  });

  it('partial offer accepted: the buyer gets that much back, the order completes, the payout keeps the rest', async () => {
    const r = await reported('damaged', 1000);
    const before = await payoutRow(r.orderId);
    const offer = Math.round(r.totalMinor * 0.4);
    const offered = await respondAsSeller(deps, r.seller.id, {
      disputeId: r.disputeId,
      response: 'offer_partial',
      amountMinor: offer,
    });
    expect(offered).toMatchObject({ stage: 'buyer', offerMinor: offer, offerStatus: 'pending' });
    // Only the buyer answers the offer.
    await rejects(answerOffer(deps, r.seller.id, { disputeId: r.disputeId, accept: true }), 'NOT_FOUND');
    const done = await answerOffer(deps, r.buyer.id, { disputeId: r.disputeId, accept: true });
    expect(done).toMatchObject({ stage: 'closed', status: 'resolved_refund', refundedMinor: offer });
    expect(await refundedOf(r.orderId)).toBe(offer);
    expect((await orderRow(r.orderId)).status).toBe('completed');
    // A completed order asks both sides to review it (decision 0048), however it completed.
    const window = await db
      .selectFrom('review_windows')
      .select('order_id')
      .where('order_id', '=', r.orderId)
      .executeTakeFirst();
    expect(window?.order_id).toBe(r.orderId);
    const after = await payoutRow(r.orderId);
    expect(after.status).toBe('released');
    expect(after.amount_minor - after.reversed_minor).toBe(before.amount_minor - offer);
    expect(await templatesTo(r.buyer.email)).toEqual(
      expect.arrayContaining(['order.dispute_offer', 'order.dispute_offer_accepted']),
    );
    expect(await templatesTo(r.seller.email)).toEqual(
      expect.arrayContaining(['order.dispute_offer', 'order.dispute_offer_accepted']),
    );
    expect(await auditActions(r.disputeId)).toEqual(
      expect.arrayContaining(['dispute.seller_offer_partial', 'dispute.offer_accepted']),
    );
    // The steps are system lines in the order's conversation.
    const thread = await getThread(db, r.buyer.id, r.threadId);
    const lines = thread.entries.filter((e) => e.kind === 'system').map((e) => ('text' in e ? e.text : ''));
    expect(lines.some((line) => line?.includes('The seller offered'))).toBe(true);
  });

  it('an offer of everything is refused (that is a full refund)', async () => {
    const r = await reported('damaged');
    await rejects(
      respondAsSeller(deps, r.seller.id, {
        disputeId: r.disputeId,
        response: 'offer_partial',
        amountMinor: r.totalMinor,
      }),
      'BAD_INPUT',
    );
  });

  it('partial offer refused: our team decides', async () => {
    const r = await reported('damaged');
    await respondAsSeller(deps, r.seller.id, {
      disputeId: r.disputeId,
      response: 'offer_partial',
      amountMinor: 200,
    });
    const refused = await answerOffer(deps, r.buyer.id, { disputeId: r.disputeId, accept: false });
    expect(refused).toMatchObject({ stage: 'staff', offerStatus: 'refused', status: 'open' });
    expect(await refundedOf(r.orderId)).toBe(0);
    const decided = await decideAsStaff(deps, staffId, {
      disputeId: r.disputeId,
      decision: 'partial_refund',
      amountMinor: 500,
      note: 'A fair part for the damage shown.',
    });
    expect(decided).toMatchObject({ status: 'resolved_refund', refundedMinor: 500 });
    expect((await orderRow(r.orderId)).status).toBe('completed');
    expect(await auditActions(r.disputeId)).toContain('dispute.decide_partial_refund');
  });

  it('the seller accepts a full refund: everything back, the order refunded, the payout cancelled', async () => {
    const r = await reported('wrong_book');
    const done = await respondAsSeller(deps, r.seller.id, {
      disputeId: r.disputeId,
      response: 'accept_full',
    });
    expect(done).toMatchObject({ status: 'resolved_refund', refundedMinor: r.totalMinor });
    expect(await refundedOf(r.orderId)).toBe(r.totalMinor);
    expect((await orderRow(r.orderId)).status).toBe('refunded');
    expect((await payoutRow(r.orderId)).status).toBe('cancelled');
    expect(await templatesTo(r.buyer.email)).toContain('order.dispute_refunded');
  });

  it('contested, staff order a return: tracking, receipt, then the refund goes out', async () => {
    const r = await reported('not_as_described');
    const contested = await respondAsSeller(deps, r.seller.id, {
      disputeId: r.disputeId,
      response: 'contest',
      statement: 'The listing photos showed the torn cover clearly.',
      photos: [],
    });
    expect(contested).toMatchObject({ stage: 'staff', sellerResponse: 'contest' });
    // The seller cannot answer twice; staff see both sides.
    await rejects(
      respondAsSeller(deps, r.seller.id, { disputeId: r.disputeId, response: 'accept_full' }),
      'PRECONDITION_FAILED',
    );
    const staffView = await getDisputeCase(db, { id: staffId, staff: true }, r.disputeId);
    expect(staffView).toMatchObject({
      sellerStatement: 'The listing photos showed the torn cover clearly.',
      photos: [r.photo],
    });
    expect(staffView.can.decide).toBe(true);
    const ordered = await decideAsStaff(deps, staffId, {
      disputeId: r.disputeId,
      decision: 'return_first',
      note: 'Please send the book back first.',
    });
    expect(ordered).toMatchObject({ stage: 'return', returnPostageBy: 'seller', status: 'open' });
    expect(await refundedOf(r.orderId)).toBe(0);
    // Receipt before tracking is refused.
    await rejects(confirmReturn(deps, r.seller.id, { disputeId: r.disputeId }), 'PRECONDITION_FAILED');
    const sent = await addReturnTracking(deps, r.buyer.id, {
      disputeId: r.disputeId,
      carrier: 'royal_mail_tracked_48',
      trackingRef: 'rt123456789gb',
    });
    expect(sent).toMatchObject({ returnTrackingRef: 'RT123456789GB', can: { addReturnTracking: false } });
    expect((await orderRow(r.orderId)).status).toBe('disputed');
    const back = await confirmReturn(deps, r.seller.id, { disputeId: r.disputeId });
    expect(back).toMatchObject({ status: 'resolved_refund', refundedMinor: r.totalMinor, stage: 'closed' });
    expect(await refundedOf(r.orderId)).toBe(r.totalMinor);
    expect((await orderRow(r.orderId)).status).toBe('refunded');
    for (const email of [r.buyer.email, r.seller.email]) {
      expect(await templatesTo(email)).toEqual(
        expect.arrayContaining([
          'order.dispute_contested',
          'order.dispute_return',
          'order.dispute_return_sent',
          'order.dispute_return_received',
        ]),
      );
    }
    expect(await auditActions(r.disputeId)).toEqual(
      expect.arrayContaining([
        'dispute.seller_contest',
        'dispute.decide_return_first',
        'dispute.return_sent',
        'dispute.return_received',
      ]),
    );
  });

  it('staff release: the seller is paid, nothing refunded; staff partial refunds are capped at what was paid', async () => {
    const r = await reported('damaged');
    await rejects(
      decideAsStaff(deps, staffId, {
        disputeId: r.disputeId,
        decision: 'partial_refund',
        amountMinor: r.totalMinor + 1,
        note: 'Too much.',
      }),
      'BAD_INPUT',
    );
    const released = await decideAsStaff(deps, staffId, {
      disputeId: r.disputeId,
      decision: 'release',
      note: 'As described.',
    });
    expect(released).toMatchObject({ status: 'resolved_release', refundedMinor: 0 });
    expect((await orderRow(r.orderId)).status).toBe('completed');
    expect((await payoutRow(r.orderId)).status).toBe('released');
  });

  it('no answer within the working days: the job hands the report to staff, once', async () => {
    const r = await reported('damaged');
    expect(await runJob(deps, 'disputes.escalate')).toBe(0);
    await db
      .updateTable('disputes')
      .set({ respond_by: new Date(Date.now() - 60_000) })
      .where('id', '=', r.disputeId)
      .execute();
    expect(await runJob(deps, 'disputes.escalate')).toBe(1);
    expect(await runJob(deps, 'disputes.escalate')).toBe(0);
    const view = await getDisputeCase(db, { id: r.seller.id }, r.disputeId);
    expect(view).toMatchObject({ stage: 'staff', can: { respond: false } });
    expect(await templatesTo(r.seller.email)).toContain('order.dispute_escalated');
    await rejects(
      respondAsSeller(deps, r.seller.id, { disputeId: r.disputeId, response: 'accept_full' }),
      'PRECONDITION_FAILED',
    );
  });

  it('someone else sees nothing', async () => {
    const r = await reported('damaged');
    const stranger = await createPerson(db, 'stranger-disputes@reshelf.test');
    await rejects(getDisputeCase(db, { id: stranger }, r.disputeId), 'NOT_FOUND');
    await rejects(
      respondAsSeller(deps, stranger, { disputeId: r.disputeId, response: 'accept_full' }),
      'NOT_FOUND',
    );
  });

  it('a private seller may accept returns; their listings say so', async () => {
    const order = await paidOrder(t);
    const slug = (
      await db
        .selectFrom('listings')
        .select('slug')
        .where('id', '=', order.listingId)
        .executeTakeFirstOrThrow()
    ).slug!;
    expect(await returnsSetting(db, order.seller.id)).toEqual({ acceptsReturns: false });
    expect((await getListingBySlug(db, slug)).returns).toBeNull();
    await setReturnsSetting(db, order.seller.id, true);
    expect(await returnsSetting(db, order.seller.id)).toEqual({ acceptsReturns: true });
    expect((await getListingBySlug(db, slug)).returns).toEqual({ days: 14, postageBy: 'buyer' });
  });
});
