/**
 * A generated set of orders for the money tests (consistency.int.test.ts, amounts.int.test.ts):
 * every way an order's money can move, each made through the real services or the real API as
 * a buyer, a seller, a charity or staff would: single books (WELCOME20 on a first order, none on
 * a repeat one, a promotion code), baskets at each bundle tier, an accepted offer, a partial and a
 * per-book refund, a charity return of a whole order (postage back too) and of one book, reports
 * decided each way by staff (commerce.disputes.staff.decide), an order completed (its earnings
 * released) and one refunded after release (taken back from released earnings). The demo seed
 * adds earnings paid out, transfers reversed, a debt netted and a failed payout paid again.
 */
import {
  applyPaymentEvent,
  makeOffer,
  refundOrder,
  respondToOffer,
  startCheckout,
} from '../commerce/index.ts';
import type { TestProvider } from '../platform/payments/test-provider.ts';
import type { TestApp } from './app.ts';
import { createUser, type TestUser } from './auth.ts';
import { paidBasketOrder, testPerson } from './basket-orders.ts';
import { createBook, createCharity, createListing } from './catalogue.ts';
import { api } from './client.ts';
import { completedOrder, disputedOrder, orderDepsFor, paidOrder } from './orders.ts';

export interface MoneyOrders {
  admin: TestUser;
  /** Each generated order by what it shows. */
  orders: Record<string, string>;
  /** The disputes decided (order id by decision). */
  disputes: Record<'full_refund' | 'partial_refund' | 'release', string>;
  charityId: string;
  /** The charity shop's owner (its dashboard). */
  charityOwner: TestUser;
  promoCode: string;
}

const address = {
  fullName: 'Anne Elliot',
  line1: '1 Camden Place',
  line2: null,
  town: 'Bath',
  postcode: 'BA1 5HX',
};

export async function generateMoneyOrders(t: TestApp, label: string): Promise<MoneyOrders> {
  const db = t.database.handle.db;
  const deps = orderDepsFor(t);
  const mail = { db, mailer: t.services.mailer, origin: 'http://shop.test' };
  const admin = await createUser(db, t.services.identity, `admin@${label}.test`, { roles: ['admin'] });
  const staff = api(t.app, admin.accessToken).commerce;
  const orders: Record<string, string> = {};

  // Single books: WELCOME20 on a first order, nothing off a repeat one, a promotion code.
  const welcome = await paidOrder(t, 1299, 'Persuasion');
  orders.welcome20 = welcome.orderId;
  const repeat = await paidOrder(t, 850, 'Emma', { buyer: welcome.buyer });
  orders.repeat = repeat.orderId;
  const promoCode = `${label
    .replace(/[^a-z]/gi, '')
    .toUpperCase()
    .slice(0, 8)}15`;
  await staff.promotions.create.mutate({
    code: promoCode,
    kind: 'percent',
    percentOff: 15,
    startsAt: new Date(Date.now() - 86_400_000).toISOString(),
    endsAt: new Date(Date.now() + 86_400_000).toISOString(),
  });
  orders.promotion = (
    await paidOrder(t, 1333, 'Mansfield Park', { buyer: welcome.buyer, promoCode })
  ).orderId;

  // Baskets at each bundle tier (none, 10 %, 15 %), with awkward prices so shares have remainders.
  const tiers: [number, number][] = [
    [3, 10],
    [4, 15],
  ];
  const seller = await testPerson(db, 'bundle-seller');
  orders.basketNoTier = (
    await paidBasketOrder(t, [{ price: 349 }, { price: 551 }], { seller, tiers })
  ).orderId;
  orders.basketTier1 = (
    await paidBasketOrder(t, [{ price: 349 }, { price: 549 }, { price: 550 }], { seller, tiers })
  ).orderId;
  const tier2 = await paidBasketOrder(
    t,
    [{ price: 333 }, { price: 777 }, { price: 1001 }, { price: 450, size: 'medium' }],
    { seller, tiers, buyer: welcome.buyer },
  );
  orders.basketTier2 = tier2.orderId;

  // An accepted offer.
  const offerSeller = await testPerson(db, 'offer-seller');
  const offerBuyer = await testPerson(db, 'offer-buyer');
  const bookId = await createBook(db, { title: 'Sense and Sensibility' });
  const listing = await createListing(db, {
    sellerId: offerSeller.id,
    bookId,
    price: 1200,
    parcelSize: 'small',
  });
  const { offerId } = await makeOffer(deps, offerBuyer.id, {
    listingId: listing.id,
    amountMinor: 950,
    message: null,
  });
  await respondToOffer(deps, offerSeller.id, { offerId, action: 'accept' });
  const started = await startCheckout(deps, offerBuyer, { offerId, address });
  const payment = await db
    .selectFrom('payments')
    .select('provider_ref')
    .where('order_id', '=', started.orderId)
    .executeTakeFirstOrThrow();
  const provider = t.services.payments as TestProvider;
  const signed = provider.signedEvent(payment.provider_ref, 'success', started.totalMinor);
  const outcome = await applyPaymentEvent(deps, 'test', provider.parseWebhook(signed.body, signed.headers));
  if (outcome !== 'paid') throw new Error(`offer payment not applied: ${outcome}`);
  orders.offer = started.orderId;

  // A partial refund (pence) and a per-book refund, by staff.
  const partial = await paidBasketOrder(t, [{ price: 725 }, { price: 480 }, { price: 999 }], {
    seller,
    tiers,
  });
  orders.partialRefund = partial.orderId;
  await staff.orders.staff.refund.mutate({
    orderId: partial.orderId,
    amountMinor: 333,
    reason: 'A torn dust jacket',
  });
  const perBook = await paidBasketOrder(t, [{ price: 610 }, { price: 390 }, { price: 875 }], {
    seller,
    tiers,
  });
  orders.perBookRefund = perBook.orderId;
  await staff.orders.staff.refund.mutate({
    orderId: perBook.orderId,
    amountMinor: 'items',
    itemIds: [perBook.items[1]!.id],
    reason: 'The second book never went in the parcel',
  });
  const fullRefund = await paidOrder(t, 1500, 'Northanger Abbey');
  orders.fullRefund = fullRefund.orderId;
  await refundOrder({ ...deps, mail }, admin.id, {
    orderId: fullRefund.orderId,
    amountMinor: 'full',
    reason: 'The seller could not find it',
  });

  // Charity returns: a whole order (the postage back too) and one book of another.
  const owner = await createUser(db, t.services.identity, `owner@${label}.test`);
  const charityId = await createCharity(db, {
    slug: `${label}-shop`,
    name: `${label} Shop`,
    ownerId: owner.id,
  });
  const charityBuyer = await createUser(db, t.services.identity, `charity-buyer@${label}.test`);
  const asCharityBuyer = api(t.app, charityBuyer.accessToken).charities;
  const asOwner = api(t.app, owner.accessToken).charities;
  const shopSeller = { id: owner.id, email: owner.email };
  const whole = await paidBasketOrder(t, [{ price: 300 }, { price: 350 }, { price: 420 }], {
    seller: shopSeller,
    buyer: { id: charityBuyer.id, email: charityBuyer.email },
    charityId,
    tiers: [[2, 10]],
    to: 'delivered',
  });
  orders.charityWholeReturn = whole.orderId;
  const wholeReturn = await asCharityBuyer.requestReturn.mutate({
    orderId: whole.orderId,
    reason: 'Changed my mind',
  });
  await asOwner.acceptReturn.mutate({ returnId: wholeReturn.request!.id });
  await asOwner.receiveReturn.mutate({ returnId: wholeReturn.request!.id });
  const oneBook = await paidBasketOrder(t, [{ price: 400 }, { price: 650 }], {
    seller: shopSeller,
    buyer: { id: charityBuyer.id, email: charityBuyer.email },
    charityId,
    to: 'delivered',
  });
  orders.charityBookReturn = oneBook.orderId;
  const bookReturn = await asCharityBuyer.requestReturn.mutate({
    orderId: oneBook.orderId,
    reason: 'Wrong edition, sorry',
    itemIds: [oneBook.items[1]!.id],
  });
  await asOwner.acceptReturn.mutate({ returnId: bookReturn.request!.id });
  await asOwner.receiveReturn.mutate({ returnId: bookReturn.request!.id });
  orders.charityKept = (
    await paidBasketOrder(t, [{ price: 275 }, { price: 325 }], {
      seller: shopSeller,
      charityId,
      to: 'delivered',
    })
  ).orderId;

  // Reports decided each way by staff.
  const decide = staff.disputes.staff.decide;
  const forFull = await disputedOrder(t, 'item_not_as_described', 1100);
  await decide.mutate({ disputeId: forFull.disputeId, decision: 'full_refund', note: 'Pages are missing.' });
  const forPart = await disputedOrder(t, 'item_not_as_described', 1400);
  await decide.mutate({
    disputeId: forPart.disputeId,
    decision: 'partial_refund',
    amountMinor: 427,
    note: 'A fair part for the damage.',
  });
  const forRelease = await disputedOrder(t, 'not_received', 900);
  await decide.mutate({
    disputeId: forRelease.disputeId,
    decision: 'release',
    note: 'Tracking shows it delivered.',
  });
  const open = await disputedOrder(t, 'not_received', 650);
  orders.disputeOpen = open.orderId;
  const disputes = {
    full_refund: forFull.orderId,
    partial_refund: forPart.orderId,
    release: forRelease.orderId,
  };
  Object.assign(orders, {
    disputeFull: forFull.orderId,
    disputePartial: forPart.orderId,
    disputeRelease: forRelease.orderId,
  });

  // Earnings released (completed), and a refund after release (taken back from them).
  orders.released = (await completedOrder(t, 1750)).orderId;
  const reversed = await completedOrder(t, 2050);
  orders.releasedThenRefunded = reversed.orderId;
  await staff.orders.staff.refund.mutate({
    orderId: reversed.orderId,
    amountMinor: 505,
    reason: 'Agreed with the buyer',
  });
  // Held: paid and dispatched, not yet received.
  orders.held = (await paidBasketOrder(t, [{ price: 640 }], { to: 'dispatched' })).orderId;

  return { admin, orders, disputes, charityId, charityOwner: owner, promoCode };
}
