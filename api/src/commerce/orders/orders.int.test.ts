/**
 * The order lifecycle after payment, against real PostgreSQL: dispatch, delivery, "Everything
 * is OK", the jobs (dispatch deadline, presumed delivery, auto-completion), disputes resolved
 * by staff with a refund through the payment port or a release, payouts, and the emails.
 */
import { ORDER_STATUS_LABELS } from '@reshelf/contracts';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Database } from '../../db/index.ts';
import { type JobContext, runJob } from '../../jobs.ts';
import { createTestProvider } from '../../platform/payments/test-provider.ts';
import { createSecrets } from '../../secrets.ts';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { createBook, createListing, createPerson } from '../../testing/catalogue.ts';
import { rejects } from '../../testing/errors.ts';
import { applyPaymentEvent, startCheckout } from '../checkout/checkout.service.ts';
import { decideAsStaff, reportProblem } from '../disputes/disputes.service.ts';
import { getOrder, listOrders, listPayouts } from './order-views.ts';
import {
  cancelBySeller,
  confirmOrder,
  dispatchOrder,
  markArrived,
  type OrderDeps,
  presumeDelivered,
  withdrawDispute,
} from './orders.service.ts';

let t: TestApp;
let db: Database;
let deps: OrderDeps & JobContext;
const provider = createTestProvider({ secrets: createSecrets('orders-test-secret-0123456789abcdef') });
const address = {
  fullName: 'Jo March',
  line1: '1 Orchard House',
  line2: null,
  town: 'Bath',
  postcode: 'BA1 1AA',
};
let n = 0;

async function person(label: string) {
  n += 1;
  const email = `${label}-${n}@orders.test`;
  return { id: await createPerson(db, email), email };
}

/** A paid order: a seller's book bought by a new buyer through checkout and the webhook. */
async function paidOrder(price = 1000, to = address) {
  const seller = await person('seller');
  const buyer = await person('buyer');
  const bookId = await createBook(db, { title: `Order book ${n}` });
  const listing = await createListing(db, { sellerId: seller.id, bookId, price, parcelSize: 'small' });
  const started = await startCheckout(deps, buyer, { listingId: listing.id, address: to });
  const payment = await db
    .selectFrom('payments')
    .select('provider_ref')
    .where('order_id', '=', started.orderId)
    .executeTakeFirstOrThrow();
  const signed = provider.signedEvent(payment.provider_ref, 'success', started.totalMinor);
  expect(await applyPaymentEvent(deps, 'test', provider.parseWebhook(signed.body, signed.headers))).toBe(
    'paid',
  );
  return { seller, buyer, listingId: listing.id, orderId: started.orderId, totalMinor: started.totalMinor };
}

async function order(orderId: string) {
  return db.selectFrom('orders').selectAll().where('id', '=', orderId).executeTakeFirstOrThrow();
}

async function payout(orderId: string) {
  return db.selectFrom('payouts').selectAll().where('order_id', '=', orderId).executeTakeFirstOrThrow();
}

async function events(orderId: string) {
  return db
    .selectFrom('order_events')
    .select(['from_status', 'to_status', 'actor_kind', 'actor_id', 'created_at'])
    .where('order_id', '=', orderId)
    .orderBy('id')
    .execute();
}

async function templatesSentTo(email: string): Promise<string[]> {
  const rows = await db
    .selectFrom('email_outbox')
    .select('template')
    .where('to_address', '=', email)
    .orderBy('created_at')
    .execute();
  return rows.map((row) => row.template);
}

async function metrics() {
  const result = await sql<{
    disputes_open: number;
    buyer_protection_minor: number;
  }>`select * from public.admin_metrics('today')`.execute(db);
  return result.rows[0]!;
}

beforeAll(async () => {
  t = await createTestApp();
  db = t.database.handle.db;
  deps = {
    db,
    payments: provider,
    mailer: t.services.mailer,
    storage: t.services.storage,
    origin: 'http://shop.test',
  };
});

afterAll(async () => {
  await t.close();
});

describe('the happy path', () => {
  it('dispatch, "Everything is OK", payout released; every step an event and an email', async () => {
    const { seller, buyer, orderId } = await paidOrder(1200);
    const placed = await order(orderId);
    expect(placed.status).toBe('paid');
    expect(placed.dispatch_by).not.toBeNull();
    expect((await payout(orderId)).status).toBe('held');
    expect((await payout(orderId)).amount_minor).toBe(1200 + placed.postage_minor);

    const sellerView = await getOrder(db, { id: seller.id }, orderId);
    expect(sellerView.actions).toMatchObject({ canDispatch: true, canCancel: true, canConfirm: false });
    expect(sellerView.address?.postcode).toBe('BA1 1AA');
    const buyerView = await getOrder(db, { id: buyer.id }, orderId);
    expect(buyerView.actions).toMatchObject({ canDispatch: false, canConfirm: false });
    expect(buyerView.payout).toBeNull();
    const stranger = await person('stranger');
    await rejects(getOrder(db, { id: stranger.id }, orderId), 'NOT_FOUND');

    // Only the seller dispatches, once.
    await rejects(
      dispatchOrder(deps, buyer.id, { orderId, carrier: 'evri', trackingRef: 'H00AB123456789' }),
      'NOT_FOUND',
    );
    await dispatchOrder(deps, seller.id, { orderId, carrier: 'evri', trackingRef: 'H00AB123456789' });
    await rejects(
      dispatchOrder(deps, seller.id, { orderId, carrier: 'evri', trackingRef: 'H00AB123456789' }),
      'PRECONDITION_FAILED',
      /moved on/,
    );
    const dispatched = await order(orderId);
    expect(dispatched.status).toBe('dispatched');
    expect(dispatched.carrier).toBe('evri');
    expect(dispatched.delivery_due_at!.getTime()).toBeGreaterThan(dispatched.dispatched_at!.getTime());

    await confirmOrder(deps, buyer.id, orderId);
    const done = await order(orderId);
    expect(done.status).toBe('completed');
    // The status badge says "Completed" (ORDER_STATUS_LABELS); the next step beside it says what
    // is next, never the status again in another word ("Complete").
    for (const viewer of [buyer, seller]) {
      const seen = await getOrder(db, viewer, orderId);
      expect(seen.nextStep).not.toMatch(/\bcomplete/i);
      expect(seen.nextStep).not.toBe(ORDER_STATUS_LABELS.completed);
    }
    expect(done.delivered_at).not.toBeNull();
    const released = await payout(orderId);
    expect(released.status).toBe('released');
    expect(released.released_at).not.toBeNull();
    await rejects(confirmOrder(deps, buyer.id, orderId), 'PRECONDITION_FAILED');

    const steps = await events(orderId);
    expect(steps.map((step) => `${step.from_status}>${step.to_status}:${step.actor_kind}`)).toEqual([
      'null>pending_payment:buyer',
      'pending_payment>paid:provider',
      'paid>dispatched:seller',
      'dispatched>delivered:buyer',
      'delivered>completed:buyer',
    ]);
    expect(
      steps.filter((step) => step.actor_kind === 'buyer').every((step) => step.actor_id === buyer.id),
    ).toBe(true);

    // Completion asks both sides to review each other (decision 0048).
    expect(await templatesSentTo(buyer.email)).toEqual([
      'order.placed',
      'order.dispatched',
      'order.review_request',
      'order.completed',
    ]);
    // Released, but the seller has no payout account yet: they are told why it waits.
    expect(await templatesSentTo(seller.email)).toEqual([
      'order.placed',
      'order.review_request',
      'order.completed',
      'payout.waiting_no_account',
    ]);

    const ledger = await listPayouts(db, seller.id);
    expect(ledger.releasedMinor).toBe(released.amount_minor);
    expect(ledger.items[0]).toMatchObject({ orderId, status: 'released' });
    expect((await listOrders(db, buyer.id, 'buyer')).map((row) => row.id)).toEqual([orderId]);
    expect((await listOrders(db, seller.id, 'seller', { status: 'open' })).length).toBe(0);
  });
});

describe('jobs', () => {
  it('cancel and refund an order not dispatched within 5 working days, once', async () => {
    const { seller, buyer, orderId, listingId, totalMinor } = await paidOrder();
    const before = await metrics();
    await db
      .updateTable('orders')
      .set({ dispatch_by: new Date(Date.now() - 60_000) })
      .where('id', '=', orderId)
      .execute();
    expect(await runJob(deps, 'orders.dispatch_deadline')).toBe(1);
    expect(await runJob(deps, 'orders.dispatch_deadline')).toBe(0);
    const cancelled = await order(orderId);
    expect(cancelled.status).toBe('cancelled');
    expect(cancelled.cancel_reason).toMatch(/did not dispatch/);
    const payment = await db
      .selectFrom('payments')
      .selectAll()
      .where('order_id', '=', orderId)
      .executeTakeFirstOrThrow();
    expect(payment.refunded_minor).toBe(totalMinor);
    expect((await payout(orderId)).status).toBe('cancelled');
    const listing = await db
      .selectFrom('listings')
      .select('status')
      .where('id', '=', listingId)
      .executeTakeFirstOrThrow();
    expect(listing.status).toBe('withdrawn');
    // The fee refunded comes off the period's buyer protection revenue.
    expect((await metrics()).buyer_protection_minor).toBe(
      before.buyer_protection_minor - cancelled.buyer_protection_minor,
    );
    expect(await templatesSentTo(buyer.email)).toContain('order.cancelled');
    expect(await templatesSentTo(seller.email)).toContain('order.cancelled');
    await rejects(
      dispatchOrder(deps, seller.id, { orderId, carrier: 'dpd', trackingRef: '15501234567890' }),
      'PRECONDITION_FAILED',
      /cancelled/,
    );
  });

  it('take a parcel as delivered after the carrier window, then complete it 2 days later', async () => {
    const { seller, orderId } = await paidOrder();
    await dispatchOrder(deps, seller.id, {
      orderId,
      carrier: 'royal_mail_tracked_48',
      trackingRef: 'AB123456789GB',
    });
    expect(await runJob(deps, 'orders.presume_delivered')).toBe(0);
    await db
      .updateTable('orders')
      .set({ delivery_due_at: new Date(Date.now() - 15 * 24 * 3600_000) })
      .where('id', '=', orderId)
      .execute();
    expect(await runJob(deps, 'orders.presume_delivered')).toBe(1);
    const delivered = await order(orderId);
    expect(delivered.status).toBe('delivered');
    expect(delivered.complete_after!.getTime() - delivered.delivered_at!.getTime()).toBe(2 * 24 * 3600_000);

    expect(await runJob(deps, 'orders.auto_complete')).toBe(0);
    await db
      .updateTable('orders')
      .set({ complete_after: new Date(Date.now() - 1000) })
      .where('id', '=', orderId)
      .execute();
    expect(await runJob(deps, 'orders.auto_complete')).toBe(1);
    expect((await order(orderId)).status).toBe('completed');
    expect((await payout(orderId)).status).toBe('released');
    const last = (await events(orderId)).at(-1)!;
    expect(last).toMatchObject({ to_status: 'completed', actor_kind: 'system', actor_id: null });
  });

  it('run once at a time across instances, recorded in job_runs', async () => {
    const other = await t.database.handle.pool.connect();
    try {
      await other.query(`select pg_advisory_lock(hashtext('job:orders.auto_complete'))`);
      expect(await runJob(deps, 'orders.auto_complete')).toBeNull();
      await other.query(`select pg_advisory_unlock(hashtext('job:orders.auto_complete'))`);
    } finally {
      other.release();
    }
    expect(await runJob(deps, 'orders.auto_complete')).toBe(0);
    const runs = await db
      .selectFrom('job_runs')
      .select(['job', 'finished_at', 'error'])
      .where('job', '=', 'orders.auto_complete')
      .execute();
    expect(runs.length).toBeGreaterThan(0);
    expect(runs.every((run) => run.finished_at && !run.error)).toBe(true);
  });
});

describe('disputes', () => {
  it('a problem within 2 days of delivery, resolved by staff with a full refund through the port', async () => {
    const { seller, buyer, orderId, totalMinor } = await paidOrder(2000);
    const staff = await person('staff');
    await dispatchOrder(deps, seller.id, { orderId, carrier: 'dpd', trackingRef: '15501234567890' });
    await markArrived(deps, buyer.id, orderId);
    const before = await metrics();
    const { disputeId } = await reportProblem(deps, buyer.id, {
      orderId,
      problem: 'not_as_described',
      description: 'Several pages are missing from the middle.',
      photos: [],
    });
    expect((await order(orderId)).status).toBe('disputed');
    expect((await metrics()).disputes_open).toBe(before.disputes_open + 1);
    // The seller's money stays held while the dispute is open; auto-completion passes it by.
    await db
      .updateTable('orders')
      .set({ complete_after: new Date(Date.now() - 1000) })
      .where('id', '=', orderId)
      .execute();
    expect(await runJob(deps, 'orders.auto_complete')).toBe(0);
    expect((await payout(orderId)).status).toBe('held');
    // A second report while one is open is refused.
    await rejects(
      reportProblem(deps, buyer.id, {
        orderId,
        problem: 'not_as_described',
        description: 'Still missing pages.',
        photos: [],
      }),
      'PRECONDITION_FAILED',
    );

    const refunds: { providerRef: string; amountMinor: number }[] = [];
    const watching = {
      ...deps,
      payments: {
        ...provider,
        async refund(input: Parameters<typeof provider.refund>[0]) {
          refunds.push(input);
          return provider.refund(input);
        },
      },
    };
    const result = await decideAsStaff(watching, staff.id, {
      disputeId,
      decision: 'full_refund',
      note: 'Pages missing.',
    });
    expect(result.refundedMinor).toBe(totalMinor);
    expect(refunds).toEqual([expect.objectContaining({ amountMinor: totalMinor })]);
    const refunded = await order(orderId);
    expect(refunded.status).toBe('refunded');
    expect((await payout(orderId)).status).toBe('cancelled');
    const after = await metrics();
    expect(after.disputes_open).toBe(before.disputes_open);
    expect(after.buyer_protection_minor).toBe(
      before.buyer_protection_minor - refunded.buyer_protection_minor,
    );
    const dispute = await db
      .selectFrom('disputes')
      .selectAll()
      .where('id', '=', disputeId)
      .executeTakeFirstOrThrow();
    expect(dispute).toMatchObject({ status: 'resolved_refund', resolved_by: staff.id });
    // Resolving twice changes nothing and refunds nothing more.
    await rejects(
      decideAsStaff(watching, staff.id, { disputeId, decision: 'full_refund', note: 'Again.' }),
      'PRECONDITION_FAILED',
      /has been settled/,
    );
    expect(refunds.length).toBe(1);
    expect((await events(orderId)).at(-1)).toMatchObject({
      from_status: 'disputed',
      to_status: 'refunded',
      actor_kind: 'staff',
      actor_id: staff.id,
    });
    expect(await templatesSentTo(buyer.email)).toEqual(
      expect.arrayContaining(['order.dispute_opened', 'order.dispute_decided']),
    );
    expect(await templatesSentTo(seller.email)).toEqual(
      expect.arrayContaining(['order.dispute_opened', 'order.dispute_decided']),
    );
  });

  it('refuses a problem report after the 2 days, and a missing parcel before the carrier window ends', async () => {
    const late = await paidOrder();
    await dispatchOrder(deps, late.seller.id, {
      orderId: late.orderId,
      carrier: 'dpd',
      trackingRef: '15509999999999',
    });
    await rejects(
      reportProblem(deps, late.buyer.id, {
        orderId: late.orderId,
        problem: 'not_received',
        description: 'Nothing has come yet.',
        photos: [],
      }),
      'PRECONDITION_FAILED',
      /delivery window has not ended/,
    );
    await markArrived(deps, late.buyer.id, late.orderId);
    await db
      .updateTable('orders')
      .set({ complete_after: new Date(Date.now() - 1000) })
      .where('id', '=', late.orderId)
      .execute();
    await rejects(
      reportProblem(deps, late.buyer.id, {
        orderId: late.orderId,
        problem: 'not_as_described',
        description: 'The cover is torn badly.',
        photos: [],
      }),
      'PRECONDITION_FAILED',
      /2 days/,
    );
  });

  it('a shipping dispute after the carrier window, released to the seller by staff', async () => {
    const { seller, buyer, orderId } = await paidOrder();
    const staff = await person('staff');
    await dispatchOrder(deps, seller.id, { orderId, carrier: 'yodel', trackingRef: 'JD0002212345678' });
    await db
      .updateTable('orders')
      .set({ delivery_due_at: new Date(Date.now() - 1000) })
      .where('id', '=', orderId)
      .execute();
    expect((await getOrder(db, { id: buyer.id }, orderId)).actions.canReportNotReceived).toBe(true);
    const { disputeId } = await reportProblem(deps, buyer.id, {
      orderId,
      problem: 'not_received',
      description: 'Tracking has not moved for a week.',
      photos: [],
    });
    const staffView = await getOrder(db, { id: staff.id, staff: true }, orderId);
    expect(staffView.dispute).toMatchObject({ kind: 'not_received', status: 'open' });
    await decideAsStaff(deps, staff.id, {
      disputeId,
      decision: 'release',
      note: 'Tracking shows it was delivered.',
    });
    expect((await order(orderId)).status).toBe('completed');
    expect((await payout(orderId)).status).toBe('released');
    expect(await templatesSentTo(seller.email)).toContain('order.dispute_decided');
  });

  it('the buyer can withdraw their report, which completes the order', async () => {
    const { seller, buyer, orderId } = await paidOrder();
    await dispatchOrder(deps, seller.id, { orderId, carrier: 'inpost', trackingRef: 'IP123456789' });
    await reportProblem(deps, buyer.id, {
      orderId,
      problem: 'not_as_described',
      description: 'It looks damaged on the corner.',
      photos: [],
    });
    await withdrawDispute(deps, buyer.id, orderId);
    expect((await order(orderId)).status).toBe('completed');
    expect((await payout(orderId)).status).toBe('released');
    const dispute = await db
      .selectFrom('disputes')
      .select('status')
      .where('order_id', '=', orderId)
      .executeTakeFirstOrThrow();
    expect(dispute.status).toBe('withdrawn');
  });

  it('"Everything is OK" and a problem report at the same moment: exactly one wins', async () => {
    const { seller, buyer, orderId } = await paidOrder();
    await dispatchOrder(deps, seller.id, { orderId, carrier: 'dpd', trackingRef: '15507777777777' });
    await markArrived(deps, buyer.id, orderId);
    const results = await Promise.allSettled([
      confirmOrder(deps, buyer.id, orderId),
      reportProblem(deps, buyer.id, {
        orderId,
        problem: 'not_as_described',
        description: 'Water damage on the back.',
        photos: [],
      }),
    ]);
    expect(results.filter((result) => result.status === 'fulfilled').length).toBe(1);
    const final = await order(orderId);
    expect(['completed', 'disputed']).toContain(final.status);
    const payoutRow = await payout(orderId);
    expect(payoutRow.status).toBe(final.status === 'completed' ? 'released' : 'held');
  });
});

describe('the seller cannot send it', () => {
  it('cancels before dispatch with a full refund; never after', async () => {
    const { seller, buyer, orderId, totalMinor } = await paidOrder();
    await rejects(
      cancelBySeller(deps, buyer.id, { orderId, reason: 'Changed my mind about it.' }),
      'NOT_FOUND',
    );
    await cancelBySeller(deps, seller.id, { orderId, reason: 'The book was damaged in storage.' });
    const cancelled = await order(orderId);
    expect(cancelled.status).toBe('cancelled');
    const refunds = await db.selectFrom('refunds').selectAll().where('order_id', '=', orderId).execute();
    expect(refunds.map((refund) => refund.amount_minor)).toEqual([totalMinor]);
    expect(refunds[0]?.buyer_protection_minor).toBe(cancelled.buyer_protection_minor);

    const other = await paidOrder();
    await dispatchOrder(deps, other.seller.id, {
      orderId: other.orderId,
      carrier: 'dpd',
      trackingRef: '15501111111111',
    });
    await rejects(
      cancelBySeller(deps, other.seller.id, { orderId: other.orderId, reason: 'Too late to cancel now.' }),
      'PRECONDITION_FAILED',
      /not been dispatched/,
    );
  });
});

describe('the carrier’s window counts working days where the parcel is delivered', () => {
  it('skips St Andrew’s Day for a Scottish address, and presumes delivery later there', async () => {
    const toEdinburgh = await paidOrder(1000, { ...address, town: 'Edinburgh', postcode: 'EH1 1YZ' });
    const toBath = await paidOrder(1000);
    // Dispatched with DPD (2 working days) on Friday 26 November 2027; Tuesday the 30th is a
    // bank holiday in Scotland only.
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2027-11-26T10:00:00Z') });
    try {
      for (const { seller, orderId } of [toEdinburgh, toBath]) {
        await dispatchOrder(deps, seller.id, { orderId, carrier: 'dpd', trackingRef: '15501111111111' });
      }
    } finally {
      vi.useRealTimers();
    }
    expect((await order(toEdinburgh.orderId)).delivery_due_at).toEqual(new Date('2027-12-01T10:00:00Z'));
    expect((await order(toBath.orderId)).delivery_due_at).toEqual(new Date('2027-11-30T10:00:00Z'));

    // Presumed delivered five working days after the window, counted there too: with both
    // windows ending on Friday 26 November, Friday 3 December in England, Monday the 6th in
    // Scotland.
    await db
      .updateTable('orders')
      .set({ delivery_due_at: new Date('2027-11-26T10:00:00Z') })
      .where('id', 'in', [toEdinburgh.orderId, toBath.orderId])
      .execute();
    await presumeDelivered(deps, new Date('2027-12-04T12:00:00Z'));
    expect((await order(toBath.orderId)).status).toBe('delivered');
    expect((await order(toEdinburgh.orderId)).status).toBe('dispatched');
    await presumeDelivered(deps, new Date('2027-12-06T12:00:00Z'));
    expect((await order(toEdinburgh.orderId)).status).toBe('delivered');
  });
});
