/**
 * The buying invariants of brief §5, each against real PostgreSQL: a listing sold at most
 * once under a crowd of simultaneous buyers, reservations lapsing, webhooks applied once and
 * in any order, refunds capped at what was paid, WELCOME20 on one first order only, and
 * retried checkout calls answered once.
 */

import { createHash } from 'node:crypto';
import { parcelFor, postageFor } from '@reshelf/contracts';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Database } from '../../db/index.ts';
import { AppError } from '../../errors.ts';
import { type JobContext, runJob } from '../../jobs.ts';
import { deliveryHolidayRegion, sellerHolidayRegion } from '../../platform/calendar/holiday-region.ts';
import type { CheckoutSession, PaymentProvider } from '../../platform/payments/port.ts';
import { WebhookSignatureError } from '../../platform/payments/port.ts';
import { createTestProvider } from '../../platform/payments/test-provider.ts';
import { createSecrets } from '../../secrets.ts';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { createBook, createCharity, createListing, createPerson } from '../../testing/catalogue.ts';
import { insertOrderRow } from '../../testing/orders.ts';
import { refundPayment } from '../money/refund.ts';
import {
  applyPaymentEvent,
  type CheckoutDeps,
  heldForBuyer,
  IDEMPOTENCY_LEASE_SECONDS,
  type IdempotentAttempt,
  JUST_SOLD_MESSAGE,
  OWN_RESERVATION_MESSAGE,
  quote,
  resumeCheckout,
  startCheckout,
  withIdempotency,
} from './checkout.service.ts';

/** Home delivery for one paperback-sized book with no known pages: the rule's figure. */
const PAPERBACK_HOME = postageFor(
  parcelFor([{ parcelSize: 'small', format: null, pageCount: null }]).band,
  'home',
);

let t: TestApp;
let db: Database;
let deps: CheckoutDeps & JobContext;
const provider = createTestProvider({ secrets: createSecrets('checkout-test-secret-0123456789abcdef') });
const address = {
  fullName: 'Jo March',
  line1: '1 Orchard House',
  line2: null,
  town: 'Concord',
  postcode: 'OX1 2JD',
};
let n = 0;

async function person(label: string): Promise<{ id: string; email: string }> {
  n += 1;
  const email = `${label}-${n}@buyers.test`;
  return { id: await createPerson(db, email), email };
}

/** A paid order of that seller's book, written straight to the tables. */
async function orderOf(sellerId: string, listingId: string): Promise<{ id: string; seller_id: string }> {
  const buyer = await person('buyer');
  return insertOrderRow(db, {
    buyer_id: buyer.id,
    seller_id: sellerId,
    listing_id: listingId,
    status: 'paid',
    item_price_minor: 1000,
    total_minor: 1000,
    paid_at: new Date(),
  });
}

async function listingFor(sellerId: string, price = 1000): Promise<string> {
  const bookId = await createBook(db, { title: `A fine book ${n}` });
  return (await createListing(db, { sellerId, bookId, price, parcelSize: 'small' })).id;
}

/** A prior completed order, so the buyer is past WELCOME20. */
async function makeReturning(buyerId: string): Promise<void> {
  const seller = await person('old-seller');
  const listingId = await listingFor(seller.id);
  await insertOrderRow(db, {
    buyer_id: buyerId,
    seller_id: seller.id,
    listing_id: listingId,
    status: 'completed',
    item_price_minor: 1000,
    total_minor: 1000,
  });
}

async function deliver(providerRef: string, outcome: 'success' | 'decline' | 'abandon', amount: number) {
  const signed = provider.signedEvent(providerRef, outcome, amount);
  return { signed, event: provider.parseWebhook(signed.body, signed.headers) };
}

async function listingStatus(listingId: string): Promise<string> {
  const row = await db
    .selectFrom('listings')
    .select('status')
    .where('id', '=', listingId)
    .executeTakeFirstOrThrow();
  return row.status;
}

/** A seller's book, and a new buyer's checkout of it waiting for payment. */
async function startedCheckout() {
  const seller = await person('seller');
  const buyer = await person('buyer');
  const listingId = await listingFor(seller.id);
  const started = await startCheckout(deps, buyer, { listingId, address });
  return { seller, buyer, listingId, started };
}

async function paymentOf(orderId: string) {
  return db.selectFrom('payments').selectAll().where('order_id', '=', orderId).executeTakeFirstOrThrow();
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

describe('quote', () => {
  it('prices item, postage, buyer protection with its VAT, and WELCOME20 for a first order', async () => {
    const seller = await person('seller');
    const buyer = await person('buyer');
    const listingId = await listingFor(seller.id, 1000);
    const q = await quote(db, buyer.id, { listingId });
    // 70p + 5% of £10.00 = £1.20, of which VAT (20%, inclusive) is 20p; 20% off £10.00.
    expect(q).toMatchObject({
      itemMinor: 1000,
      postageMinor: PAPERBACK_HOME,
      protectionMinor: 120,
      protectionVatMinor: 20,
      discountMinor: 200,
      discountCode: 'WELCOME20',
      totalMinor: 1000 + PAPERBACK_HOME + 120 - 200,
    });
    await makeReturning(buyer.id);
    expect(await quote(db, buyer.id, { listingId })).toMatchObject({
      discountMinor: 0,
      discountCode: null,
      totalMinor: 1000 + PAPERBACK_HOME + 120,
    });
  });

  it('refuses a seller buying their own book', async () => {
    const seller = await person('seller');
    const listingId = await listingFor(seller.id);
    await expect(quote(db, seller.id, { listingId })).rejects.toThrow('You cannot buy your own book.');
  });
});

describe('a listing is sold at most once', () => {
  it('lets exactly one of 50 simultaneous buyers reserve and pay; the others are told and not charged', async () => {
    const seller = await person('seller');
    const listingId = await listingFor(seller.id, 1500);
    const buyers = await Promise.all(Array.from({ length: 50 }, () => person('crowd')));
    const attempts = await Promise.allSettled(
      buyers.map((buyer) => startCheckout(deps, buyer, { listingId, address })),
    );
    const won = attempts.filter((a) => a.status === 'fulfilled');
    const lost = attempts.filter((a): a is PromiseRejectedResult => a.status === 'rejected');
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(49);
    for (const failure of lost) {
      expect(failure.reason).toBeInstanceOf(AppError);
      expect((failure.reason as AppError).message).toBe(JUST_SOLD_MESSAGE);
    }
    const orders = await db
      .selectFrom('orders')
      .selectAll()
      .where('id', 'in', db.selectFrom('order_items').select('order_id').where('listing_id', '=', listingId))
      .execute();
    expect(orders).toHaveLength(1);
    const payments = await db
      .selectFrom('payments')
      .select('id')
      .where(
        'order_id',
        'in',
        orders.map((o) => o.id),
      )
      .execute();
    expect(payments).toHaveLength(1);

    const order = orders[0]!;
    const { event } = await deliver((await paymentOf(order.id)).provider_ref, 'success', order.total_minor);
    expect(await applyPaymentEvent(deps, 'test', event)).toBe('paid');
    expect(await listingStatus(listingId)).toBe('sold');
    const paid = await db
      .selectFrom('orders')
      .selectAll()
      .where('id', '=', order.id)
      .executeTakeFirstOrThrow();
    expect(paid.status).toBe('paid');
    expect(paid.dispatch_by!.getTime()).toBeGreaterThan(paid.paid_at!.getTime() + 5 * 86_400_000 - 1);
    const payout = await db
      .selectFrom('payouts')
      .selectAll()
      .where('order_id', '=', order.id)
      .executeTakeFirstOrThrow();
    expect(payout).toMatchObject({ status: 'held', amount_minor: 1500 + PAPERBACK_HOME });
  });
});

describe('the dispatch deadline counts the seller’s working days', () => {
  async function saveAddress(userId: string, postcode: string, isDefault: boolean) {
    await db
      .insertInto('addresses')
      .values({
        user_id: userId,
        full_name: 'S',
        line1: '1 High St',
        town: 'T',
        postcode,
        is_default: isDefault,
      })
      .execute();
  }

  it('takes the region from a charity’s postcode, else the seller’s default address, else England and Wales', async () => {
    const nobody = await person('seller');
    expect(await sellerHolidayRegion(db, await orderOf(nobody.id, await listingFor(nobody.id)))).toBe(
      'england-and-wales',
    );

    const glasgow = await person('seller');
    await saveAddress(glasgow.id, 'OX1 2JD', false);
    await saveAddress(glasgow.id, 'G1 1XQ', true);
    expect(await sellerHolidayRegion(db, await orderOf(glasgow.id, await listingFor(glasgow.id)))).toBe(
      'scotland',
    );

    const owner = await person('charity');
    await saveAddress(owner.id, 'OX1 2JD', true);
    const charityId = await createCharity(db, {
      slug: `belfast-books-${n}`,
      name: 'Belfast Books',
      ownerId: owner.id,
    });
    await db.updateTable('charities').set({ postcode: 'BT1 1AA' }).where('id', '=', charityId).execute();
    const bookId = await createBook(db, { title: 'Donated' });
    const { id: charityListing } = await createListing(db, { sellerId: owner.id, bookId, charityId });
    expect(await sellerHolidayRegion(db, await orderOf(owner.id, charityListing))).toBe('northern-ireland');
    // The delivery window counts the working days where the parcel goes.
    expect(deliveryHolidayRegion({ ...address, postcode: 'EH1 1YZ' })).toBe('scotland');
    expect(deliveryHolidayRegion(null)).toBe('england-and-wales');
  });

  it('sets a paid order’s deadline five working days on, in the seller’s region', async () => {
    const seller = await person('seller');
    await saveAddress(seller.id, 'BT7 1NN', true);
    const buyer = await person('buyer');
    const listingId = await listingFor(seller.id);
    const started = await startCheckout(deps, buyer, { listingId, address });
    const payment = await paymentOf(started.orderId);
    const { event } = await deliver(payment.provider_ref, 'success', payment.amount_minor);
    // Paid on Friday 9 July 2027: Monday the 12th is a bank holiday in Northern Ireland only.
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2027-07-09T10:00:00Z') });
    try {
      expect(await applyPaymentEvent(deps, 'test', event)).toBe('paid');
    } finally {
      vi.useRealTimers();
    }
    const paid = await db
      .selectFrom('orders')
      .select(['paid_at', 'dispatch_by'])
      .where('id', '=', started.orderId)
      .executeTakeFirstOrThrow();
    expect(paid.paid_at).toEqual(new Date('2027-07-09T10:00:00Z'));
    // In England it would be Friday the 16th.
    expect(paid.dispatch_by).toEqual(new Date('2027-07-19T10:00:00Z'));
  });
});

describe('reservations', () => {
  it('lapse after 15 minutes and the book returns to sale', async () => {
    const { listingId, started } = await startedCheckout();
    const order = await db
      .selectFrom('orders')
      .selectAll()
      .where('id', '=', started.orderId)
      .executeTakeFirstOrThrow();
    const minutes = (order.reserved_until!.getTime() - order.created_at.getTime()) / 60_000;
    expect(Math.round(minutes)).toBe(15);
    expect(await runJob(deps, 'reservations.lapse')).toBe(0);

    await db
      .updateTable('orders')
      .set({ reserved_until: new Date(Date.now() - 1000) })
      .where('id', '=', order.id)
      .execute();
    expect(await runJob(deps, 'reservations.lapse')).toBeGreaterThanOrEqual(1);
    const after = await db
      .selectFrom('orders')
      .select(['status', 'cancel_reason'])
      .where('id', '=', order.id)
      .executeTakeFirstOrThrow();
    expect(after).toEqual({
      status: 'cancelled',
      cancel_reason: 'The 15-minute reservation lapsed before payment',
    });
    expect(await listingStatus(listingId)).toBe('active');
    const events = await db
      .selectFrom('order_events')
      .selectAll()
      .where('order_id', '=', order.id)
      .orderBy('id')
      .execute();
    expect(events.map((e) => [e.from_status, e.to_status, e.actor_kind])).toEqual([
      [null, 'pending_payment', 'buyer'],
      ['pending_payment', 'cancelled', 'system'],
    ]);
    const run = await db
      .selectFrom('job_runs')
      .selectAll()
      .where('job', '=', 'reservations.lapse')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(run.finished_at).not.toBeNull();

    // Someone else can now buy it.
    const other = await person('buyer');
    await expect(startCheckout(deps, other, { listingId, address })).resolves.toMatchObject({
      orderId: expect.any(String),
    });
  });

  it('a payment that lands after the lapse still buys the book if nobody else has', async () => {
    const { started } = await startedCheckout();
    await db
      .updateTable('orders')
      .set({ reserved_until: new Date(Date.now() - 1000) })
      .where('id', '=', started.orderId)
      .execute();
    await runJob(deps, 'reservations.lapse');
    const { event } = await deliver(
      (await paymentOf(started.orderId)).provider_ref,
      'success',
      started.totalMinor,
    );
    expect(await applyPaymentEvent(deps, 'test', event)).toBe('paid_late');
    const order = await db
      .selectFrom('orders')
      .select('status')
      .where('id', '=', started.orderId)
      .executeTakeFirstOrThrow();
    expect(order.status).toBe('paid');
  });
});

describe('a buyer who leaves the payment page', () => {
  async function orderRow(orderId: string) {
    return db.selectFrom('orders').selectAll().where('id', '=', orderId).executeTakeFirstOrThrow();
  }

  it('resumes the same order and payment session; anyone else still finds the book reserved', async () => {
    const { buyer, listingId, started } = await startedCheckout();
    const ref = (await paymentOf(started.orderId)).provider_ref;

    // Starting again is not "just sold" for them: it points them at the order they have.
    await expect(quote(db, buyer.id, { listingId })).rejects.toThrow(OWN_RESERVATION_MESSAGE);
    await expect(startCheckout(deps, buyer, { listingId, address })).rejects.toThrow(OWN_RESERVATION_MESSAGE);
    const held = await heldForBuyer(db, buyer.id, listingId);
    expect(held).toMatchObject({
      orderId: started.orderId,
      reference: started.reference,
      totalMinor: started.totalMinor,
    });
    expect(held!.reservedUntil.getTime()).toBe((await orderRow(started.orderId)).reserved_until!.getTime());

    const resumed = await resumeCheckout(deps, buyer, started.orderId);
    expect(resumed).toEqual({
      orderId: started.orderId,
      reference: started.reference,
      redirectUrl: started.redirectUrl,
      totalMinor: started.totalMinor,
    });
    const payments = await db
      .selectFrom('payments')
      .selectAll()
      .where('order_id', '=', started.orderId)
      .execute();
    expect(payments.map((p) => [p.provider_ref, p.status])).toEqual([[ref, 'pending']]);

    // Anyone else: the book is reserved, the order is not theirs to see or pay.
    const other = await person('other-buyer');
    await expect(quote(db, other.id, { listingId })).rejects.toThrow(JUST_SOLD_MESSAGE);
    expect(await heldForBuyer(db, other.id, listingId)).toBeNull();
    await expect(resumeCheckout(deps, other, started.orderId)).rejects.toThrow(
      'We could not find that order.',
    );
    expect(await listingStatus(listingId)).toBe('reserved');

    const { event } = await deliver(ref, 'success', started.totalMinor);
    expect(await applyPaymentEvent(deps, 'test', event)).toBe('paid');
    expect((await orderRow(started.orderId)).status).toBe('paid');
    await expect(resumeCheckout(deps, buyer, started.orderId)).rejects.toThrow(
      'This order is already paid: nothing more to pay.',
    );
    expect(await heldForBuyer(db, buyer.id, listingId)).toBeNull();
  });

  it('cannot resume once the 15-minute reservation has lapsed; the order is cancelled as before', async () => {
    const { buyer, listingId, started } = await startedCheckout();
    await db
      .updateTable('orders')
      .set({ reserved_until: new Date(Date.now() - 1000) })
      .where('id', '=', started.orderId)
      .execute();
    const lapsed = /^The 15 minutes we held this book for you have run out/;
    await expect(resumeCheckout(deps, buyer, started.orderId)).rejects.toThrow(lapsed);
    expect(await heldForBuyer(db, buyer.id, listingId)).toBeNull();
    await runJob(deps, 'reservations.lapse');
    expect((await orderRow(started.orderId)).status).toBe('cancelled');
    await expect(resumeCheckout(deps, buyer, started.orderId)).rejects.toThrow(lapsed);
    expect(await listingStatus(listingId)).toBe('active');
  });

  it('gets a fresh session for the same order when the provider’s has closed, and the old one can no longer cancel it', async () => {
    let fresh = 0;
    const closing: PaymentProvider = {
      ...provider,
      async resumeCheckout(_providerRef, input) {
        fresh += 1;
        return provider.createCheckout(input);
      },
    };
    const closingDeps = { ...deps, payments: closing };
    const seller = await person('seller');
    const buyer = await person('buyer');
    const listingId = await listingFor(seller.id);
    const started = await startCheckout(closingDeps, buyer, { listingId, address });
    const oldRef = (await paymentOf(started.orderId)).provider_ref;

    const resumed = await resumeCheckout(closingDeps, buyer, started.orderId);
    expect(fresh).toBe(1);
    expect(resumed.orderId).toBe(started.orderId);
    expect(resumed.redirectUrl).not.toBe(started.redirectUrl);
    const payments = await db
      .selectFrom('payments')
      .select(['provider_ref', 'status', 'amount_minor'])
      .where('order_id', '=', started.orderId)
      .orderBy('created_at')
      .execute();
    expect(payments).toHaveLength(2);
    expect(payments[0]).toEqual({
      provider_ref: oldRef,
      status: 'abandoned',
      amount_minor: started.totalMinor,
    });
    expect(payments[1]).toMatchObject({ status: 'pending', amount_minor: started.totalMinor });
    expect(resumed.redirectUrl).toContain(payments[1]!.provider_ref);

    // The closed session expiring later changes nothing; paying the new one buys the book.
    const expired = await deliver(oldRef, 'abandon', started.totalMinor);
    expect(await applyPaymentEvent(closingDeps, 'test', expired.event)).toBe('no_change');
    expect((await orderRow(started.orderId)).status).toBe('pending_payment');
    const paid = await deliver(payments[1]!.provider_ref, 'success', started.totalMinor);
    expect(await applyPaymentEvent(closingDeps, 'test', paid.event)).toBe('paid');
    expect(await listingStatus(listingId)).toBe('sold');
  });
});

describe('webhooks', () => {
  it('change nothing the second time, and only move orders forwards when out of order', async () => {
    const { started } = await startedCheckout();
    const ref = (await paymentOf(started.orderId)).provider_ref;
    const { event } = await deliver(ref, 'success', started.totalMinor);
    expect(await applyPaymentEvent(deps, 'test', event)).toBe('paid');
    expect(await applyPaymentEvent(deps, 'test', event)).toBe('duplicate');
    // A decline for the same payment arriving late changes nothing.
    const late = await deliver(ref, 'decline', started.totalMinor);
    expect(await applyPaymentEvent(deps, 'test', late.event)).toBe('no_change');
    const order = await db
      .selectFrom('orders')
      .select('status')
      .where('id', '=', started.orderId)
      .executeTakeFirstOrThrow();
    expect(order.status).toBe('paid');
    const events = await db
      .selectFrom('order_events')
      .select('to_status')
      .where('order_id', '=', started.orderId)
      .execute();
    expect(events.map((e) => e.to_status)).toEqual(['pending_payment', 'paid']);
  });

  it('a decline cancels the order and puts the book back on sale', async () => {
    const { listingId, started } = await startedCheckout();
    const { event } = await deliver(
      (await paymentOf(started.orderId)).provider_ref,
      'decline',
      started.totalMinor,
    );
    expect(await applyPaymentEvent(deps, 'test', event)).toBe('released');
    expect(await listingStatus(listingId)).toBe('active');
  });

  it('refuses a tampered or missing signature', () => {
    const signed = provider.signedEvent('tp_x', 'success', 100);
    expect(() => provider.parseWebhook(signed.body.replace('100', '1'), signed.headers)).toThrow(
      WebhookSignatureError,
    );
    expect(() => provider.parseWebhook(signed.body, {})).toThrow(WebhookSignatureError);
  });
});

describe('refunds', () => {
  it('never exceed what was paid, even when two are asked for at once', async () => {
    const { started } = await startedCheckout();
    const payment = await paymentOf(started.orderId);
    await applyPaymentEvent(
      deps,
      'test',
      (await deliver(payment.provider_ref, 'success', started.totalMinor)).event,
    );
    const share = Math.ceil(started.totalMinor * 0.6);
    const both = await Promise.allSettled([
      refundPayment(deps, {
        orderId: started.orderId,
        paymentId: payment.id,
        amountMinor: share,
        protectionMinor: 0,
        reason: 'Part refund',
        actor: { id: null, kind: 'staff' },
      }),
      refundPayment(deps, {
        orderId: started.orderId,
        paymentId: payment.id,
        amountMinor: share,
        protectionMinor: 0,
        reason: 'Part refund',
        actor: { id: null, kind: 'staff' },
      }),
    ]);
    expect(both.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const refused = both.find((r): r is PromiseRejectedResult => r.status === 'rejected')!;
    expect((refused.reason as Error).message).toMatch(
      /^At most \d+ pence of this payment can still be refunded\.$/,
    );
    const after = await paymentOf(started.orderId);
    expect(after.refunded_minor).toBe(share);
    // And the database itself refuses an overshoot.
    await expect(
      db
        .updateTable('payments')
        .set({ refunded_minor: after.amount_minor + 1 })
        .where('id', '=', after.id)
        .execute(),
    ).rejects.toThrow(/payments_check/);
  });
});

describe('WELCOME20', () => {
  it('applies to one first order only, even when two first checkouts race', async () => {
    const seller = await person('seller');
    const buyer = await person('first-timer');
    const [a, b] = [await listingFor(seller.id, 2000), await listingFor(seller.id, 3000)];
    const results = await Promise.all([
      startCheckout(deps, buyer, { listingId: a, address }),
      startCheckout(deps, buyer, { listingId: b, address }),
    ]);
    const orders = await db
      .selectFrom('orders')
      .select(['discount_code', 'discount_minor'])
      .where(
        'id',
        'in',
        results.map((r) => r.orderId),
      )
      .execute();
    expect(orders.filter((o) => o.discount_code === 'WELCOME20')).toHaveLength(1);
    expect(orders.filter((o) => o.discount_code === null)).toHaveLength(1);
    // The database holds the rule too.
    await expect(
      sql`update orders set discount_code = 'WELCOME20' where id in (${sql.join(results.map((r) => r.orderId))})`.execute(
        db,
      ),
    ).rejects.toThrow(/orders_one_welcome_per_buyer/);
  });
});

describe('idempotent checkout', () => {
  it('answers a retried call with the first answer and refuses a reused key', async () => {
    const seller = await person('seller');
    const buyer = await person('buyer');
    const listingId = await listingFor(seller.id);
    const request = { listingId, address };
    const call = () =>
      withIdempotency(db, buyer.id, 'commerce.checkout.start', 'key-0123456789', request, () =>
        startCheckout(deps, buyer, request),
      );
    const first = await call();
    const again = await call();
    expect(again).toEqual(first);
    expect(
      await db.selectFrom('orders').select('id').where('buyer_id', '=', buyer.id).execute(),
    ).toHaveLength(1);
    await expect(
      withIdempotency(
        db,
        buyer.id,
        'commerce.checkout.start',
        'key-0123456789',
        { other: true },
        async () => 1,
      ),
    ).rejects.toThrow('This request key was already used for a different request.');
  });
});

describe('idempotency keys whose holder died (decision 0024)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  /** Polls a condition (with real timers while setInterval is faked), up to 10 seconds. */
  async function until(condition: () => Promise<boolean>): Promise<void> {
    const deadline = Date.now() + 10_000;
    while (!(await condition())) {
      if (Date.now() > deadline) throw new Error('condition not met within 10 s');
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  /** The key's row as the database has it. */
  async function keyRow(userId: string, key: string) {
    return db
      .selectFrom('idempotency_keys')
      .selectAll()
      .select(sql<boolean>`coalesce(locked_until, created_at) < now()`.as('lapsed'))
      .where('user_id', '=', userId)
      .where('scope', '=', 'commerce.checkout.start')
      .where('key', '=', key)
      .executeTakeFirstOrThrow();
  }

  /**
   * A checkout whose process dies mid-way: before the payment opened (the payment provider
   * never answers) or just after it (before the answer was stored). Its heartbeats being timers
   * of the dead process, its lease is never renewed.
   */
  async function dyingCheckout(stage: 'before-payment' | 'after-payment') {
    const seller = await person('seller');
    const buyer = await person('buyer');
    const listingId = await listingFor(seller.id);
    const request = { listingId, address, promoCode: null };
    const key = `dying-${stage}-${n}`;
    let hang!: (error: Error) => void;
    const hung = new Promise<never>((_, reject) => {
      hang = reject;
    });
    const unanswering: CheckoutDeps = {
      ...deps,
      payments: { ...provider, kind: provider.kind, createCheckout: (): Promise<CheckoutSession> => hung },
    };
    const work =
      stage === 'before-payment'
        ? (attempt: IdempotentAttempt) => startCheckout(unanswering, buyer, request, attempt)
        : async (attempt: IdempotentAttempt) => {
            await startCheckout(deps, buyer, request, attempt);
            return hung;
          };
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const first = withIdempotency(db, buyer.id, 'commerce.checkout.start', key, request, work, {
      leaseSeconds: 1,
    }).catch((error: unknown) => error);
    // It got as far as reserving the book (and, after-payment, opening the payment) ...
    // (Polled by hand: vi.waitFor would move the faked timers on, and so the heartbeat.)
    await until(async () => {
      const order = await db
        .selectFrom('orders')
        .select('id')
        .where('buyer_id', '=', buyer.id)
        .where(
          'id',
          'in',
          db.selectFrom('order_items').select('order_id').where('listing_id', '=', listingId),
        )
        .executeTakeFirst();
      if (!order) return false;
      if (stage === 'before-payment') return true;
      const payments = await db
        .selectFrom('payments')
        .select('id')
        .where('order_id', '=', order.id)
        .execute();
      return payments.length === 1;
    });
    // ... and its lease then ran out, with nobody renewing it.
    await until(async () => (await keyRow(buyer.id, key)).lapsed);
    vi.useRealTimers();
    return { buyer, listingId, request, key, first, kill: () => hang(new Error('the process died')) };
  }

  const retry = (buyer: { id: string; email: string }, key: string, request: object) =>
    withIdempotency(db, buyer.id, 'commerce.checkout.start', key, request, (attempt) =>
      startCheckout(deps, buyer, request as never, attempt),
    );

  it('reclaims a key whose holder died before the payment opened: the retry completes with a fresh order', async () => {
    const dead = await dyingCheckout('before-payment');
    try {
      const result = await retry(dead.buyer, dead.key, dead.request);
      expect(result.redirectUrl).toMatch(/\/payments\/test\//);
      const orders = await db
        .selectFrom('orders')
        .select(['id', 'status', 'cancel_reason'])
        .where('buyer_id', '=', dead.buyer.id)
        .orderBy('created_at')
        .execute();
      // The interrupted order let the book go; the retry's order holds it and has its payment.
      expect(orders.map((order) => order.status)).toEqual(['cancelled', 'pending_payment']);
      expect(orders[1]!.id).toBe(result.orderId);
      expect(await paymentOf(result.orderId)).toMatchObject({ status: 'pending' });
      expect(await listingStatus(dead.listingId)).toBe('reserved');
      // Answered once: the same key now gives the same answer.
      expect(await retry(dead.buyer, dead.key, dead.request)).toEqual(result);
    } finally {
      dead.kill();
      await dead.first;
    }
  });

  it('reclaims a key whose holder died after the payment opened: the retry goes back to that payment', async () => {
    const dead = await dyingCheckout('after-payment');
    try {
      const result = await retry(dead.buyer, dead.key, dead.request);
      const orders = await db
        .selectFrom('orders')
        .select(['id', 'status'])
        .where('buyer_id', '=', dead.buyer.id)
        .execute();
      expect(orders).toEqual([{ id: result.orderId, status: 'pending_payment' }]);
      const payment = await paymentOf(result.orderId);
      expect(result.redirectUrl).toContain(payment.provider_ref);
      expect(await retry(dead.buyer, dead.key, dead.request)).toEqual(result);
    } finally {
      dead.kill();
      await dead.first;
    }
  });

  it('keeps the key of a holder that is still working, however long it takes', async () => {
    const buyer = await person('buyer');
    const key = `slow-holder-${n}`;
    let finish!: () => void;
    const gate = new Promise<void>((resolve) => {
      finish = resolve;
    });
    const slow = withIdempotency(
      db,
      buyer.id,
      'commerce.checkout.start',
      key,
      { slow: true },
      async () => {
        await gate;
        return { done: true };
      },
      { leaseSeconds: 1 },
    );
    // Well past one lease, the heartbeat has kept it.
    await vi.waitFor(
      async () => {
        const row = await keyRow(buyer.id, key);
        const { rows } = await sql<{
          past: boolean;
        }>`select now() > ${row.created_at}::timestamptz + interval '1.5 seconds' as past`.execute(db);
        expect(rows[0]!.past).toBe(true);
        expect(row.lapsed).toBe(false);
      },
      { timeout: 10_000, interval: 100 },
    );
    await expect(
      withIdempotency(
        db,
        buyer.id,
        'commerce.checkout.start',
        key,
        { slow: true },
        async () => ({ done: false }),
        {
          leaseSeconds: 1,
        },
      ),
    ).rejects.toThrow('This request is still being processed. Please wait a moment.');
    finish();
    expect(await slow).toEqual({ done: true });
    expect(
      await withIdempotency(db, buyer.id, 'commerce.checkout.start', key, { slow: true }, async () => ({
        done: false,
      })),
    ).toEqual({ done: true });
  });

  it('reclaims a key left unanswered from before leases, once it is older than a lease', async () => {
    const seller = await person('seller');
    const buyer = await person('buyer');
    const listingId = await listingFor(seller.id);
    const request = { listingId, address, promoCode: null };
    await db
      .insertInto('idempotency_keys')
      .values({
        user_id: buyer.id,
        scope: 'commerce.checkout.start',
        key: 'left-behind-0001',
        request_hash: createHash('sha256').update(JSON.stringify(request)).digest('hex'),
        created_at: sql<Date>`now() - make_interval(secs => ${IDEMPOTENCY_LEASE_SECONDS + 1})`,
      })
      .execute();
    const result = await retry(buyer, 'left-behind-0001', request);
    expect(await paymentOf(result.orderId)).toMatchObject({ status: 'pending' });
  });
});
