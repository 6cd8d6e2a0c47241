/**
 * "What users saw" (issue 32), each through the real Fastify app as the page asks for it: a
 * settled dispute's one outcome on the buyer's, seller's and staff's views; the charity
 * dashboard's books sold, its listing breakdown and its sales analytics; a three-book basket
 * order's title wherever it is named and its seller's earnings after the bundle discount;
 * released earnings before payout set-up; the seller's earnings during an open report; a charity
 * order's 14 days; no "Everything is OK" or report once a return is accepted. Each failed on main
 * before the commerce rebuild (9dc8bbf).
 */
import { formatPence } from '@reshelf/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/index.ts';
import { createTestApp, type TestApp } from '../testing/app.ts';
import { createUser, type TestUser } from '../testing/auth.ts';
import { paidBasketOrder } from '../testing/basket-orders.ts';
import { createCharity } from '../testing/catalogue.ts';
import { api } from '../testing/client.ts';
import { paidOrder } from '../testing/orders.ts';

let t: TestApp;
let db: Database;
let staff: TestUser;
let n = 0;

beforeAll(async () => {
  t = await createTestApp();
  db = t.database.handle.db;
  staff = await createUser(db, t.services.identity, 'staff@saw.test', { roles: ['moderator'] });
});

afterAll(async () => {
  await t?.close();
});

const person = async (label: string) => {
  n += 1;
  return createUser(db, t.services.identity, `${label}-${n}@saw.test`);
};
const as = (user: TestUser) => api(t.app, user.accessToken);
const party = (user: TestUser) => ({ id: user.id, email: user.email });

/** A charity with its owner (who sells its books), and where returns go. */
async function charity() {
  const owner = await person('charity-owner');
  n += 1;
  const charityId = await createCharity(db, {
    slug: `saw-charity-${n}`,
    name: `Saw Books ${n}`,
    ownerId: owner.id,
  });
  await db
    .updateTable('charities')
    .set({ address_line1: '4 Market Place', town: 'Banbury', postcode: 'OX16 5LW' })
    .where('id', '=', charityId)
    .execute();
  return { owner, charityId };
}

/** The seller sends the order and the buyer says it arrived, as their pages do. */
async function sentAndArrived(seller: TestUser, buyer: TestUser, orderId: string) {
  await as(seller).commerce.orders.member.dispatch.mutate({
    orderId,
    carrier: 'royal_mail_tracked_48',
    trackingRef: 'AB123456789GB',
  });
  await as(buyer).commerce.orders.member.markArrived.mutate({ orderId });
}

describe('what users saw (issue 32)', () => {
  it('a contested dispute staff settle with "Refund buyer" shows one outcome and amount to the buyer, the seller and staff', async () => {
    const seller = await person('seller');
    const buyer = await person('buyer');
    const order = await paidOrder(t, 1200, 'Contested book', { seller: party(seller), buyer: party(buyer) });
    await sentAndArrived(seller, buyer, order.orderId);
    const { disputeId } = await as(buyer).commerce.disputes.member.report.mutate({
      orderId: order.orderId,
      problem: 'damaged',
      description: 'The cover is torn across the front and the corner is crushed.',
      photos: [],
    });
    await as(seller).commerce.disputes.member.respond.mutate({
      disputeId,
      response: 'contest',
      statement: 'It left here in the condition the listing describes.',
      photos: [],
    });
    await as(staff).commerce.disputes.staff.decide.mutate({
      disputeId,
      decision: 'full_refund',
      note: 'The photos show the damage: refunded in full.',
    });

    // One outcome, the same words on every side: the whole payment back.
    const outcome = `Settled: ${formatPence(order.totalMinor)} refunded`;
    const buyerCase = await as(buyer).commerce.disputes.member.forOrder.query({ orderId: order.orderId });
    const sellerCase = await as(seller).commerce.disputes.member.forOrder.query({ orderId: order.orderId });
    const staffCase = await as(staff).commerce.disputes.staff.get.query({ disputeId });
    expect([buyerCase?.stateText, sellerCase?.stateText, staffCase.stateText]).toEqual([
      outcome,
      outcome,
      outcome,
    ]);
    expect([buyerCase?.refundedMinor, sellerCase?.refundedMinor, staffCase.refundedMinor]).toEqual([
      order.totalMinor,
      order.totalMinor,
      order.totalMinor,
    ]);
    // The order pages beside it say the same.
    const bought = await as(buyer).commerce.orders.member.get.query({ orderId: order.orderId });
    expect(bought).toMatchObject({ status: 'refunded', refundedMinor: order.totalMinor });
    expect(bought.money.refundedMinor).toBe(order.totalMinor);
    expect(bought.story.nextStep).toBe('Refunded to you');
    const sold = await as(seller).commerce.orders.member.get.query({ orderId: order.orderId });
    expect(sold.story.nextStep).toBe('Refunded to the buyer');
    expect(sold.story.earnings?.state).toBe('taken_back');
    expect(sold.sellerMoney?.netMinor).toBe(0);
    // The staff queue's "Resolved" tab: the amount refunded, not £0.00.
    const resolved = await as(staff).commerce.disputes.staff.queue.query({ status: 'resolved' });
    expect(resolved.find((item) => item.id === disputeId)?.refundedMinor).toBe(order.totalMinor);
  });

  it('the charity dashboard’s books sold equal its listings sold, and its 30 days equal its sales analytics', async () => {
    const { owner, charityId } = await charity();
    const buyer = await person('charity-buyer');
    const ownerSide = { seller: party(owner), charityId, tiers: [] as [number, number][] };
    // Three books in one order, one book in another, one sold and then refunded on return.
    await paidBasketOrder(t, [{ price: 650 }, { price: 600 }, { price: 599 }], {
      ...ownerSide,
      buyer: party(buyer),
    });
    await paidBasketOrder(t, [{ price: 450 }], { ...ownerSide, buyer: party(buyer) });
    const returned = await paidBasketOrder(t, [{ price: 700 }], {
      ...ownerSide,
      buyer: party(buyer),
      to: 'delivered',
    });
    const asBuyer = as(buyer);
    const asOwner = as(owner);
    const requested = await asBuyer.charities.requestReturn.mutate({
      orderId: returned.orderId,
      reason: 'I changed my mind about it',
    });
    const returnId = requested.request!.id;
    await asOwner.charities.acceptReturn.mutate({ returnId });
    await asBuyer.commerce.disputes.member.returnSentBack.mutate({
      returnId,
      carrier: 'royal_mail_tracked_48',
      trackingRef: 'RM100000001GB',
    });
    await asOwner.charities.receiveReturn.mutate({ returnId });
    // And one refunded after a reported problem: its listing stays sold, but no book was sold.
    const reported = await paidBasketOrder(t, [{ price: 520 }], {
      ...ownerSide,
      buyer: party(buyer),
      to: 'dispatched',
    });
    const { disputeId } = await asBuyer.commerce.disputes.member.report.mutate({
      orderId: reported.orderId,
      problem: 'damaged',
      description: 'Water damage all through the second half of the book.',
      photos: [],
    });
    await as(staff).commerce.disputes.staff.decide.mutate({
      disputeId,
      decision: 'full_refund',
      note: 'Refunded: the photos show the water damage.',
    });

    const dashboard = await asOwner.charities.dashboard.query();
    const analytics = await asOwner.selling.analytics.charity.query({ period: '30d' });
    const listedSold = dashboard.listingsByStatus.find((row) => row.status === 'sold')?.count ?? 0;
    // Four books kept by their buyers, in two orders: "Books sold" and the breakdown's "Sold" agree.
    expect(dashboard.sales).toMatchObject({ booksCount: 4, ordersCount: 2 });
    expect(listedSold).toBe(dashboard.sales.booksCount);
    // The last 30 days: the same sales and money in the card as in the analytics.
    expect(dashboard.sales.last30Books).toBe(4);
    expect(analytics.totals.sales).toBe(dashboard.sales.last30Books);
    expect(analytics.totals.revenueNetMinor).toBe(dashboard.sales.last30Minor);
  });

  it('a three-book basket order is titled by its first book and how many more everywhere, and its seller earns after the bundle discount', async () => {
    const seller = await person('basket-seller');
    const buyer = await person('basket-buyer');
    n += 1;
    const order = await paidBasketOrder(
      t,
      [
        { price: 650, title: `Brave New World ${n}` },
        { price: 600, title: `Cranford ${n}` },
        { price: 599, title: `Silas Marner ${n}` },
      ],
      { seller: party(seller), buyer: party(buyer), tiers: [[3, 10]] },
    );
    const title = `Brave New World ${n} and 2 more books`;
    // The success page reads the buyer's order.
    const bought = await as(buyer).commerce.orders.member.get.query({ orderId: order.orderId });
    expect(bought.title).toBe(title);
    expect(bought.money).toMatchObject({ books: 3, itemsMinor: 1849, bundleDiscountMinor: 185 });
    // The seller's sales list: what they receive, after the bundle discount (£18.49 − £1.85 + postage).
    const sales = await as(seller).commerce.orders.member.list.query({ role: 'seller' });
    const sale = sales.find((row) => row.id === order.orderId);
    expect(sale?.title).toBe(title);
    expect(sale?.sellerMoney?.netMinor).toBe(1849 - 185 + (sale?.money.postageMinor ?? Number.NaN));
    // The payouts ledger.
    const payouts = await as(seller).commerce.orders.member.payouts.query({});
    expect(payouts.items.find((item) => item.orderId === order.orderId)?.title).toBe(title);
    // The notification of the sale.
    const notices = await as(seller).account.notifications.list.query({ limit: 50 });
    const about = notices.items.filter((item) => item.link?.includes(order.orderId));
    expect(about.length).toBeGreaterThan(0);
    for (const notice of about) expect(notice.title).toContain(title);
    // Once it completes, the review prompt.
    await sentAndArrived(seller, buyer, order.orderId);
    await as(buyer).commerce.orders.member.confirm.mutate({ orderId: order.orderId });
    const pending = await as(buyer).community.reviews.member.pending.query();
    expect(pending.find((review) => review.orderId === order.orderId)?.title).toBe(title);
    const asked = (await as(buyer).account.notifications.list.query({ limit: 50 })).items.find(
      (item) => item.kind === 'review_requested',
    );
    expect(asked?.body).toContain(`(“${title}”)`);
    // Both review; the seller's page then says what the buyer bought: the order, not its first book.
    await as(buyer).community.reviews.member.write.mutate({
      orderId: order.orderId,
      stars: 5,
      body: 'All three arrived well packed.',
    });
    await as(seller).community.reviews.member.write.mutate({
      orderId: order.orderId,
      stars: 5,
      body: 'Paid promptly, thank you.',
    });
    const published = await api(t.app).community.reviews.public.forSeller.query({ sellerId: seller.id });
    expect(published.reviews.map((review) => review.bookTitle)).toEqual([title]);
  });

  it('before payouts are set up, released earnings wait: none of them is "paid out"', async () => {
    const seller = await person('unset-seller');
    const buyer = await person('unset-buyer');
    const order = await paidOrder(t, 1400, 'Released book', { seller: party(seller), buyer: party(buyer) });
    await sentAndArrived(seller, buyer, order.orderId);
    await as(buyer).commerce.orders.member.confirm.mutate({ orderId: order.orderId });
    const payouts = await as(seller).commerce.orders.member.payouts.query({});
    expect(payouts.releasedMinor).toBeGreaterThan(0);
    expect(payouts).toMatchObject({ waitingMinor: payouts.releasedMinor, sentMinor: 0 });
    const item = payouts.items.find((row) => row.orderId === order.orderId);
    expect(item?.state).toBe('waiting');
    expect(item?.stateText).toMatch(/waiting until you set up payouts/);
    expect(item?.stateText).not.toMatch(/paid out|sent/i);
  });

  it('during an open report the seller reads that their earnings are on hold, not "held until the buyer confirms"', async () => {
    const seller = await person('reported-seller');
    const buyer = await person('reported-buyer');
    const order = await paidOrder(t, 900, 'Reported book', { seller: party(seller), buyer: party(buyer) });
    await sentAndArrived(seller, buyer, order.orderId);
    await as(buyer).commerce.disputes.member.report.mutate({
      orderId: order.orderId,
      problem: 'not_as_described',
      description: 'The listing said no markings; half the pages are underlined.',
      photos: [],
    });
    const sold = await as(seller).commerce.orders.member.get.query({ orderId: order.orderId });
    expect(sold.story.earnings).toEqual({
      state: 'on_hold',
      text: 'On hold while the reported problem is sorted out.',
    });
    const payouts = await as(seller).commerce.orders.member.payouts.query({});
    const item = payouts.items.find((row) => row.orderId === order.orderId);
    expect(item?.stateText).toBe(sold.story.earnings?.text);
    expect(item?.stateText).not.toMatch(/buyer confirms/);
  });

  it('a charity order’s buyer is told the charity is paid after the 14-day return window, not 2 days', async () => {
    const { owner, charityId } = await charity();
    const buyer = await person('charity-14-buyer');
    const order = await paidBasketOrder(t, [{ price: 800 }], {
      seller: party(owner),
      buyer: party(buyer),
      charityId,
      to: 'delivered',
    });
    const bought = await as(buyer).commerce.orders.member.get.query({ orderId: order.orderId });
    expect(bought.charitySale).toBe(true);
    expect(bought.story.sellerPaid).toContain('14-day return window');
    expect(bought.story.sellerPaid).not.toMatch(/2 days/);
  });

  it('once a return is accepted, the buyer is offered neither "Everything is OK" nor "Report a problem"', async () => {
    const { owner, charityId } = await charity();
    const buyer = await person('returning-buyer');
    const order = await paidBasketOrder(t, [{ price: 750 }], {
      seller: party(owner),
      buyer: party(buyer),
      charityId,
      to: 'delivered',
    });
    const before = await as(buyer).commerce.orders.member.get.query({ orderId: order.orderId });
    // Before the return, both are offered (the test can fail).
    expect(before.actions).toMatchObject({ canConfirm: true, canReportProblem: true });
    const requested = await as(buyer).charities.requestReturn.mutate({
      orderId: order.orderId,
      reason: 'Bought it twice by mistake',
    });
    await as(owner).charities.acceptReturn.mutate({ returnId: requested.request!.id });
    const after = await as(buyer).commerce.orders.member.get.query({ orderId: order.orderId });
    expect(after.actions).toMatchObject({ canConfirm: false, canReportProblem: false });
    expect(after.story.nextStep).toBe('Return accepted: send the book back');
  });
});
