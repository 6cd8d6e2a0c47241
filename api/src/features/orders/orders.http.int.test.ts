/**
 * The buying lifecycle through the real app, as the web client calls it: an offer, a counter,
 * acceptance, checkout from the offer with WELCOME20 on the provider's page, dispatch, "Everything
 * is OK", the payout; saved addresses; and a dispute refunded by staff, refused to others.
 */
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { createUser, type TestUser } from '../../testing/auth.ts';
import { createBook, createListing } from '../../testing/catalogue.ts';
import { asUser, dataOf, errorOf } from '../../testing/selling.ts';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});

afterAll(async () => {
  await t.close();
});

const address = { fullName: 'Jo March', line1: '1 Orchard House', town: 'Oxford', postcode: 'ox1 2jd' };

async function people(label: string) {
  const db = t.database.handle.db;
  const seller = await createUser(db, t.services.identity, `${label}-seller@example.com`);
  const buyer = await createUser(db, t.services.identity, `${label}-buyer@example.com`);
  const bookId = await createBook(db, { title: `Persuasion (${label})` });
  const listing = await createListing(db, { sellerId: seller.id, bookId, price: 1200 });
  return { seller, buyer, listingId: listing.id };
}

async function pay(buyer: TestUser, source: { listingId: string } | { offerId: string }, key: string) {
  const started = dataOf(
    await asUser(t.app, buyer.accessToken).mutation('checkout.start', {
      ...source,
      address,
      idempotencyKey: key,
    }),
  );
  const pagePath = new URL(started.redirectUrl).pathname;
  const paid = await request(t.app.server).post(`${pagePath}/success`);
  expect(paid.status).toBe(303);
  return started as { orderId: string; totalMinor: number };
}

describe('offer to payout over HTTP', () => {
  it('offer, counter, accept, pay with WELCOME20, dispatch, confirm, payout released', async () => {
    const { seller, buyer, listingId } = await people('journey');
    const asBuyer = asUser(t.app, buyer.accessToken);
    const asSeller = asUser(t.app, seller.accessToken);

    const low = await asBuyer.mutation('offers.make', { listingId, amountMinor: 500 });
    expect(errorOf(low)).toEqual({ status: 400, message: expect.stringContaining('at least £6.00') });
    const made = dataOf(
      await asBuyer.mutation('offers.make', { listingId, amountMinor: 800, message: 'Hello!' }),
    );
    const received = dataOf(await asSeller.query('offers.list', { role: 'seller' }));
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ currentId: made.offerId, status: 'pending', role: 'seller' });
    const countered = dataOf(
      await asSeller.mutation('offers.counter', { offerId: made.offerId, amountMinor: 1000 }),
    );
    const accepted = dataOf(
      await asBuyer.mutation('offers.respond', { offerId: countered.offerId, action: 'accept' }),
    );
    expect(accepted.status).toBe('accepted');
    const [thread] = dataOf(await asBuyer.query('offers.list', { role: 'buyer', listingId }));
    expect(thread.actions.canPay).toBe(true);

    const quote = dataOf(await asBuyer.query('checkout.quote', { offerId: countered.offerId }));
    expect(quote).toMatchObject({ itemMinor: 1000, discountCode: 'WELCOME20', discountMinor: 200 });
    const { orderId, totalMinor } = await pay(buyer, { offerId: countered.offerId }, 'offer-journey-01');
    expect(totalMinor).toBe(quote.totalMinor);

    const sale = dataOf(await asSeller.query('orders.get', { orderId }));
    expect(sale).toMatchObject({
      status: 'paid',
      role: 'seller',
      itemMinor: 1000,
      discountCode: 'WELCOME20',
    });
    expect(sale.actions.canDispatch).toBe(true);
    expect(sale.payout).toMatchObject({ status: 'held', amountMinor: 1000 + sale.postageMinor });

    const badTracking = await asSeller.mutation('orders.dispatch', {
      orderId,
      carrier: 'evri',
      trackingRef: 'ab',
    });
    expect(errorOf(badTracking).status).toBe(400);
    expect(errorOf(badTracking).message).toMatch(/at least 6 characters/);
    const notMine = await asBuyer.mutation('orders.dispatch', {
      orderId,
      carrier: 'evri',
      trackingRef: 'H00AB1234567',
    });
    expect(errorOf(notMine).status).toBe(404);
    dataOf(
      await asSeller.mutation('orders.dispatch', { orderId, carrier: 'evri', trackingRef: 'h00ab 1234 567' }),
    );

    const purchase = dataOf(await asBuyer.query('orders.get', { orderId }));
    expect(purchase).toMatchObject({
      status: 'dispatched',
      trackingRef: 'H00AB1234567',
      carrierLabel: 'Evri',
    });
    expect(purchase.payout).toBeNull();
    expect(purchase.actions).toMatchObject({
      canConfirm: true,
      canMarkArrived: true,
      canReportNotReceived: false,
    });
    dataOf(await asBuyer.mutation('orders.confirm', { orderId }));

    const payouts = dataOf(await asSeller.query('orders.payouts', {}));
    expect(payouts.releasedMinor).toBe(sale.payout.amountMinor);
    expect(payouts.items[0]).toMatchObject({ orderId, status: 'released' });
    // An integrator reads the same over REST with a bearer token.
    const rest = await request(t.app.server)
      .get('/api/v1/me/orders?role=buyer')
      .set('authorization', `Bearer ${buyer.accessToken}`);
    expect(rest.status).toBe(200);
    expect(rest.body).toEqual([expect.objectContaining({ id: orderId, status: 'completed', role: 'buyer' })]);
    const detail = await request(t.app.server)
      .get(`/api/v1/me/orders/${orderId}`)
      .set('authorization', `Bearer ${seller.accessToken}`);
    expect(detail.body).toMatchObject({ id: orderId, role: 'seller', payout: { status: 'released' } });
    const purchases = dataOf(await asBuyer.query('orders.list', { role: 'buyer' }));
    expect(purchases.map((row: { id: string; status: string }) => [row.id, row.status])).toEqual([
      [orderId, 'completed'],
    ]);
  });
});

describe('saved addresses', () => {
  it('saves once, keeps one default, and moves the default when it is removed', async () => {
    const { buyer } = await people('addresses');
    const as = asUser(t.app, buyer.accessToken);
    const bad = await as.mutation('checkout.saveAddress', { address: { ...address, postcode: 'NOPE' } });
    expect(errorOf(bad)).toEqual({ status: 400, message: expect.stringContaining('UK postcode') });
    const home = dataOf(await as.mutation('checkout.saveAddress', { address }));
    expect(home).toMatchObject({ postcode: 'OX1 2JD', isDefault: true });
    const again = dataOf(await as.mutation('checkout.saveAddress', { address }));
    expect(again.id).toBe(home.id);
    const work = dataOf(
      await as.mutation('checkout.saveAddress', {
        address: { ...address, line1: '2 Broad Street' },
        makeDefault: true,
      }),
    );
    let saved = dataOf(await as.query('checkout.addresses', {}));
    expect(saved.map((row: { id: string; isDefault: boolean }) => [row.id, row.isDefault])).toEqual([
      [work.id, true],
      [home.id, false],
    ]);
    dataOf(await as.mutation('checkout.removeAddress', { addressId: work.id }));
    saved = dataOf(await as.query('checkout.addresses', {}));
    expect(saved).toEqual([expect.objectContaining({ id: home.id, isDefault: true })]);
    const { seller } = await people('addresses-other');
    const theirs = await asUser(t.app, seller.accessToken).mutation('checkout.removeAddress', {
      addressId: home.id,
    });
    expect(errorOf(theirs).status).toBe(404);
  });
});

describe('disputes over HTTP', () => {
  it('the buyer reports, only staff resolve, and the refund shows on the order', async () => {
    const { seller, buyer, listingId } = await people('dispute');
    const staff = await createUser(t.database.handle.db, t.services.identity, 'dispute-staff@example.com', {
      roles: ['moderator'],
    });
    const { orderId, totalMinor } = await pay(buyer, { listingId }, 'dispute-order-01');
    const asBuyer = asUser(t.app, buyer.accessToken);
    dataOf(
      await asUser(t.app, seller.accessToken).mutation('orders.dispatch', {
        orderId,
        carrier: 'royal_mail_tracked_24',
        trackingRef: 'AB123456785GB',
      }),
    );
    const vague = await asBuyer.mutation('orders.reportProblem', {
      orderId,
      kind: 'item_not_as_described',
      reason: 'bad',
    });
    expect(errorOf(vague).message).toMatch(/at least 10 characters/);
    const { disputeId } = dataOf(
      await asBuyer.mutation('orders.reportProblem', {
        orderId,
        kind: 'item_not_as_described',
        reason: 'The dust jacket is missing and the spine is cracked.',
      }),
    );
    const refused = await asUser(t.app, seller.accessToken).mutation('disputes.resolve', {
      disputeId,
      outcome: 'release',
      note: 'Looks fine to me.',
    });
    expect(refused.status).toBe(403);

    const asStaff = asUser(t.app, staff.accessToken);
    const queue = dataOf(await asStaff.query('disputes.queue', { kind: 'item_not_as_described' }));
    expect(queue.map((item: { id: string }) => item.id)).toContain(disputeId);
    const resolved = dataOf(
      await asStaff.mutation('disputes.resolve', { disputeId, outcome: 'refund', note: 'Not as described.' }),
    );
    expect(resolved).toEqual({ orderId, refundedMinor: totalMinor });
    const order = dataOf(await asBuyer.query('orders.get', { orderId }));
    expect(order).toMatchObject({ status: 'refunded', refundedMinor: totalMinor });
    expect(order.dispute).toMatchObject({ status: 'resolved_refund', resolutionNote: 'Not as described.' });
    const open = dataOf(await asStaff.query('disputes.queue', {}));
    expect(open.map((item: { id: string }) => item.id)).not.toContain(disputeId);
  });
});
