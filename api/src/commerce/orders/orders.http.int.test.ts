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
import { api, refusal, statusOf } from '../../testing/client.ts';

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
  const started = await api(t.app, buyer.accessToken).commerce.checkout.start.mutate({
    ...source,
    address,
    idempotencyKey: key,
  });
  const pagePath = new URL(started.redirectUrl).pathname;
  const paid = await request(t.app.server).post(`${pagePath}/success`);
  expect(paid.status).toBe(303);
  return started as { orderId: string; totalMinor: number };
}

describe('offer to payout over HTTP', () => {
  it('offer, counter, accept, pay with WELCOME20, dispatch, confirm, payout released', async () => {
    const { seller, buyer, listingId } = await people('journey');
    const asBuyer = api(t.app, buyer.accessToken);
    const asSeller = api(t.app, seller.accessToken);

    const low = asBuyer.commerce.offers.member.make.mutate({ listingId, amountMinor: 500 });
    expect(await refusal(low)).toEqual({ status: 400, message: expect.stringContaining('at least £6.00') });
    const made = await asBuyer.commerce.offers.member.make.mutate({
      listingId,
      amountMinor: 800,
      message: 'Hello!',
    });
    const received = await asSeller.commerce.offers.member.list.query({ role: 'seller' });
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ currentId: made.offerId, status: 'pending', role: 'seller' });
    const countered = await asSeller.commerce.offers.member.counter.mutate({
      offerId: made.offerId,
      amountMinor: 1000,
    });
    const accepted = await asBuyer.commerce.offers.member.respond.mutate({
      offerId: countered.offerId,
      action: 'accept',
    });
    expect(accepted.status).toBe('accepted');
    const [thread] = await asBuyer.commerce.offers.member.list.query({ role: 'buyer', listingId });
    expect(thread!.actions.canPay).toBe(true);

    const quote = await asBuyer.commerce.checkout.quote.query({ offerId: countered.offerId });
    expect(quote).toMatchObject({ itemMinor: 1000, discountCode: 'WELCOME20', discountMinor: 200 });
    const { orderId, totalMinor } = await pay(buyer, { offerId: countered.offerId }, 'offer-journey-01');
    expect(totalMinor).toBe(quote.totalMinor);

    const sale = await asSeller.commerce.orders.member.get.query({ orderId });
    expect(sale).toMatchObject({
      status: 'paid',
      role: 'seller',
      itemMinor: 1000,
      discountCode: 'WELCOME20',
    });
    expect(sale.actions.canDispatch).toBe(true);
    expect(sale.payout).toMatchObject({ status: 'held', amountMinor: 1000 + sale.postageMinor });

    const badTracking = asSeller.commerce.orders.member.dispatch.mutate({
      orderId,
      carrier: 'evri',
      trackingRef: 'ab',
    });
    expect(await statusOf(badTracking)).toBe(400);
    expect((await refusal(badTracking)).message).toMatch(/at least 6 characters/);
    const notMine = asBuyer.commerce.orders.member.dispatch.mutate({
      orderId,
      carrier: 'evri',
      trackingRef: 'H00AB1234567',
    });
    expect(await statusOf(notMine)).toBe(404);
    await asSeller.commerce.orders.member.dispatch.mutate({
      orderId,
      carrier: 'evri',
      trackingRef: 'h00ab 1234 567',
    });

    const purchase = await asBuyer.commerce.orders.member.get.query({ orderId });
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
    await asBuyer.commerce.orders.member.confirm.mutate({ orderId });

    const payouts = await asSeller.commerce.orders.member.payouts.query({});
    expect(payouts.releasedMinor).toBe(sale.payout!.amountMinor);
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
    const purchases = await asBuyer.commerce.orders.member.list.query({ role: 'buyer' });
    expect(purchases.map((row) => [row.id, row.status])).toEqual([[orderId, 'completed']]);
  });
});

describe('saved addresses', () => {
  it('saves once, keeps one default, and moves the default when it is removed', async () => {
    const { buyer } = await people('addresses');
    const as = api(t.app, buyer.accessToken);
    const bad = as.commerce.checkout.saveAddress.mutate({ address: { ...address, postcode: 'NOPE' } });
    expect(await refusal(bad)).toEqual({ status: 400, message: expect.stringContaining('UK postcode') });
    const home = await as.commerce.checkout.saveAddress.mutate({ address });
    expect(home).toMatchObject({ postcode: 'OX1 2JD', isDefault: true });
    const again = await as.commerce.checkout.saveAddress.mutate({ address });
    expect(again.id).toBe(home.id);
    const work = await as.commerce.checkout.saveAddress.mutate({
      address: { ...address, line1: '2 Broad Street' },
      makeDefault: true,
    });
    let saved = await as.commerce.checkout.addresses.query({});
    expect(saved.map((row) => [row.id, row.isDefault])).toEqual([
      [work.id, true],
      [home.id, false],
    ]);
    await as.commerce.checkout.removeAddress.mutate({ addressId: work.id });
    saved = await as.commerce.checkout.addresses.query({});
    expect(saved).toEqual([expect.objectContaining({ id: home.id, isDefault: true })]);
    const { seller } = await people('addresses-other');
    const theirs = api(t.app, seller.accessToken).commerce.checkout.removeAddress.mutate({
      addressId: home.id,
    });
    expect(await statusOf(theirs)).toBe(404);
  });
});

describe('disputes over HTTP', () => {
  it('the buyer reports, only staff resolve, and the refund shows on the order', async () => {
    const { seller, buyer, listingId } = await people('dispute');
    const staff = await createUser(t.database.handle.db, t.services.identity, 'dispute-staff@example.com', {
      roles: ['moderator'],
    });
    const { orderId, totalMinor } = await pay(buyer, { listingId }, 'dispute-order-01');
    const asBuyer = api(t.app, buyer.accessToken);
    await api(t.app, seller.accessToken).commerce.orders.member.dispatch.mutate({
      orderId,
      carrier: 'royal_mail_tracked_24',
      trackingRef: 'AB123456785GB',
    });
    const vague = asBuyer.commerce.disputes.member.report.mutate({
      orderId,
      problem: 'not_as_described',
      description: 'bad',
      photos: [],
    });
    expect((await refusal(vague)).message).toMatch(/at least 10 characters/);
    const { disputeId } = await asBuyer.commerce.disputes.member.report.mutate({
      orderId,
      problem: 'not_as_described',
      description: 'The dust jacket is missing and the spine is cracked.',
      photos: [],
    });
    const refused = api(t.app, seller.accessToken).commerce.disputes.staff.decide.mutate({
      disputeId,
      decision: 'release',
      note: 'Looks fine to me.',
    });
    expect(await statusOf(refused)).toBe(403);

    const asStaff = api(t.app, staff.accessToken);
    const queue = await asStaff.commerce.disputes.staff.queue.query({ kind: 'item_not_as_described' });
    expect(queue.map((item) => item.id)).toContain(disputeId);
    const resolved = await asStaff.commerce.disputes.staff.decide.mutate({
      disputeId,
      decision: 'full_refund',
      note: 'Not as described.',
    });
    expect(resolved).toMatchObject({ orderId, refundedMinor: totalMinor, stage: 'closed' });
    const order = await asBuyer.commerce.orders.member.get.query({ orderId });
    expect(order).toMatchObject({ status: 'refunded', refundedMinor: totalMinor });
    expect(order.dispute).toMatchObject({ status: 'resolved_refund', resolutionNote: 'Not as described.' });
    const open = await asStaff.commerce.disputes.staff.queue.query({});
    expect(open.map((item) => item.id)).not.toContain(disputeId);
  });
});
