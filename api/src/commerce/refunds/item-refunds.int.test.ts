/**
 * Refunds of some of an order's books, against real PostgreSQL: each book gets back
 * exactly what was paid for it (its price less its bundle-discount and WELCOME20 shares, plus its
 * buyer-protection share, apportioned at checkout), the last books take the postage, so refunding
 * every book one by one adds up exactly to what the buyer paid; a refund never exceeds what was
 * paid, in the service and in the database. A report on one book refunds that book and completes
 * the rest; a charity return of one book refunds its goods share.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/index.ts';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { createUser, type TestUser } from '../../testing/auth.ts';
import { basketDepsFor, paidBasketOrder, testPerson } from '../../testing/basket-orders.ts';
import { createCharity } from '../../testing/catalogue.ts';
import { api, failure } from '../../testing/client.ts';
import { revenueFor } from '../money/revenue.ts';
import { refundOrder } from '../orders/staff-orders.service.ts';

let t: TestApp;
let db: Database;
let admin: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  db = t.database.handle.db;
  admin = await createUser(db, t.services.identity, 'admin@item-refunds.test', { roles: ['admin'] });
});

afterAll(async () => {
  await t?.close();
});

const deps = () => ({ ...basketDepsFor(t), mail: basketDepsFor(t) });

async function ledger(orderId: string) {
  const order = await db.selectFrom('orders').selectAll().where('id', '=', orderId).executeTakeFirstOrThrow();
  const payment = await db
    .selectFrom('payments')
    .select(['amount_minor', 'refunded_minor'])
    .where('order_id', '=', orderId)
    .executeTakeFirstOrThrow();
  const refunds = await db
    .selectFrom('refunds')
    .select(['id', 'amount_minor', 'buyer_protection_minor', 'discount_minor'])
    .where('order_id', '=', orderId)
    .orderBy('created_at')
    .execute();
  const items = await db
    .selectFrom('order_items')
    .select(['id', 'refunded_minor', 'live'])
    .where('order_id', '=', orderId)
    .orderBy('position')
    .execute();
  const refundItems = await db
    .selectFrom('refund_items as ri')
    .innerJoin('refunds as r', 'r.id', 'ri.refund_id')
    .select([
      'ri.refund_id',
      'ri.order_item_id',
      'ri.amount_minor',
      'ri.protection_minor',
      'ri.discount_minor',
    ])
    .where('r.order_id', '=', orderId)
    .execute();
  const payout = await db
    .selectFrom('payouts')
    .select(['amount_minor', 'reversed_minor', 'status'])
    .where('order_id', '=', orderId)
    .executeTakeFirstOrThrow();
  return { order, payment, refunds, items, refundItems, payout };
}

// Prices chosen for awkward remainders; the seller's tiers reach 10% or 15%; every buyer is new,
// so WELCOME20 comes off each order too (its shares apportioned as well).
const CASES: { name: string; prices: number[]; sizes?: ('small' | 'medium' | 'large')[]; order: number[] }[] =
  [
    { name: 'the issue’s three books, first to last', prices: [349, 549, 550], order: [0, 1, 2] },
    { name: 'the issue’s three books, last to first', prices: [349, 549, 550], order: [2, 1, 0] },
    {
      name: 'five odd prices, middle out',
      prices: [101, 103, 107, 109, 999],
      sizes: ['small', 'medium', 'large', 'small', 'medium'],
      order: [2, 0, 4, 1, 3],
    },
    { name: 'two books, one penny apart', prices: [1, 2], order: [1, 0] },
  ];

describe('refunding every book of an order one by one', () => {
  it.each(CASES)('adds up exactly to what was paid: $name', async ({ prices, sizes, order }) => {
    const paid = await paidBasketOrder(
      t,
      prices.map((price, i) => ({ price, size: sizes?.[i] ?? 'small' })),
      {
        tiers: [
          [2, 5],
          [3, 10],
          [5, 15],
        ],
        to: 'dispatched',
      },
    );
    const before = await ledger(paid.orderId);
    expect(before.order.discount_minor).toBeGreaterThan(0);
    // (5% of 3p rounds to nothing: the penny books have no bundle share to give back.)
    if (prices.length > 2) expect(before.order.bundle_discount_minor).toBeGreaterThan(0);
    let refundedSoFar = 0;
    for (const [step, index] of order.entries()) {
      const item = paid.items[index]!;
      const last = step === order.length - 1;
      const result = await refundOrder(deps(), admin.id, {
        orderId: paid.orderId,
        amountMinor: 'items',
        itemIds: [item.id],
        reason: `Book ${index + 1} refunded`,
      });
      const now = await ledger(paid.orderId);
      const thisRefund = now.refunds[now.refunds.length - 1]!;
      // Each book but the last gets back exactly what was paid for it; the last takes the postage.
      expect(thisRefund.amount_minor).toBe(
        last ? paid.items[index]!.paidMinor + before.order.postage_minor : item.paidMinor,
      );
      refundedSoFar += thisRefund.amount_minor;
      expect(result.refundedMinor).toBe(refundedSoFar);
      expect(result.status).toBe(last ? 'refunded' : 'dispatched');
      expect(now.items[index]!.refunded_minor).toBe(item.paidMinor);
    }
    const after = await ledger(paid.orderId);
    expect(refundedSoFar).toBe(paid.totalMinor);
    expect(after.payment.refunded_minor).toBe(after.payment.amount_minor);
    expect(after.items.map((i) => i.refunded_minor)).toEqual(paid.items.map((i) => i.paidMinor));
    expect(after.items.every((i) => !i.live)).toBe(true);
    // The protection fee and the discount came back exactly once, item by item.
    expect(after.refunds.reduce((sum, r) => sum + r.buyer_protection_minor, 0)).toBe(
      before.order.buyer_protection_minor,
    );
    expect(after.refunds.reduce((sum, r) => sum + r.discount_minor, 0)).toBe(before.order.discount_minor);
    // What each refund gave back per book adds up to the books' part of it (the rest: postage).
    expect(after.refundItems.reduce((sum, r) => sum + r.amount_minor, 0)).toBe(
      paid.items.reduce((sum, i) => sum + i.paidMinor, 0),
    );
    // The seller gave back what they were paid: the payout is gone.
    expect(after.payout.status).toBe('cancelled');
  });
});

describe('a refund never exceeds what was paid', () => {
  it('refuses a book twice, a book of another order, and anything once all is back', async () => {
    const paid = await paidBasketOrder(t, [{ price: 700 }, { price: 900 }], { to: 'dispatched' });
    const other = await paidBasketOrder(t, [{ price: 500 }, { price: 600 }], { to: 'dispatched' });
    const one = { orderId: paid.orderId, amountMinor: 'items' as const, reason: 'Damaged' };
    await refundOrder(deps(), admin.id, { ...one, itemIds: [paid.items[0]!.id] });
    await expect(refundOrder(deps(), admin.id, { ...one, itemIds: [paid.items[0]!.id] })).rejects.toThrow(
      'One of those books has already been refunded',
    );
    await expect(refundOrder(deps(), admin.id, { ...one, itemIds: [other.items[0]!.id] })).rejects.toThrow(
      'not in this order',
    );
    // More by amount than is left is refused too.
    const left = paid.totalMinor - paid.items[0]!.paidMinor;
    await expect(
      refundOrder(deps(), admin.id, { orderId: paid.orderId, amountMinor: left + 1, reason: 'Too much' }),
    ).rejects.toThrow(/At most £/);
    await refundOrder(deps(), admin.id, { ...one, itemIds: [paid.items[1]!.id] });
    const after = await ledger(paid.orderId);
    expect(after.payment.refunded_minor).toBe(paid.totalMinor);
    await expect(refundOrder(deps(), admin.id, { ...one, itemIds: [paid.items[1]!.id] })).rejects.toThrow(
      /already refunded/,
    );
  });

  it('the database refuses a book refunded beyond what was paid for it, and a refund’s books beyond the refund', async () => {
    const paid = await paidBasketOrder(t, [{ price: 800 }, { price: 450 }], { to: 'dispatched' });
    const item = paid.items[0]!;
    await expect(
      db
        .updateTable('order_items')
        .set({ refunded_minor: item.paidMinor + 1 })
        .where('id', '=', item.id)
        .execute(),
    ).rejects.toThrow(/order_items_refund_within_paid/);
    await expect(
      db
        .updateTable('payments')
        .set({ refunded_minor: sql`amount_minor + 1` })
        .where('order_id', '=', paid.orderId)
        .execute(),
    ).rejects.toThrow(/check/);
    await refundOrder(deps(), admin.id, {
      orderId: paid.orderId,
      amountMinor: 'items',
      itemIds: [item.id],
      reason: 'Damaged',
    });
    const refund = await db
      .selectFrom('refunds')
      .select(['id', 'amount_minor'])
      .where('order_id', '=', paid.orderId)
      .executeTakeFirstOrThrow();
    await expect(
      db
        .insertInto('refund_items')
        .values({ refund_id: refund.id, order_item_id: paid.items[1]!.id, amount_minor: 1 })
        .execute(),
    ).rejects.toThrow(/more than the refund/);
  });

  it('a part by amount is spread over the books, never more than a book has left', async () => {
    const paid = await paidBasketOrder(t, [{ price: 1000 }, { price: 500 }], { to: 'dispatched' });
    await refundOrder(deps(), admin.id, { orderId: paid.orderId, amountMinor: 300, reason: 'Goodwill' });
    const { items, refundItems } = await ledger(paid.orderId);
    expect(refundItems.reduce((sum, r) => sum + r.amount_minor, 0)).toBe(300);
    // apportion(300, by what each has left): 2:1-ish, whole pence.
    expect(items[0]!.refunded_minor + items[1]!.refunded_minor).toBe(300);
    expect(items[0]!.refunded_minor).toBeGreaterThan(items[1]!.refunded_minor);
    // Then the first book: what is left of it.
    await refundOrder(deps(), admin.id, {
      orderId: paid.orderId,
      amountMinor: 'items',
      itemIds: [paid.items[0]!.id],
      reason: 'Damaged',
    });
    const after = await ledger(paid.orderId);
    expect(after.items[0]!.refunded_minor).toBe(paid.items[0]!.paidMinor);
    expect(after.payment.refunded_minor).toBe(300 + paid.items[0]!.paidMinor - items[0]!.refunded_minor);
  });
});

describe('a report on one book of an order', () => {
  it('staff refund that book only; the rest completes and the seller is paid for it', async () => {
    const paid = await paidBasketOrder(t, [{ price: 349 }, { price: 549 }, { price: 550 }], {
      tiers: [[3, 10]],
      to: 'delivered',
    });
    const buyer = await createUser(db, t.services.identity, `${paid.buyer.email.split('@')[0]}@api.test`);
    // The order's buyer, signed in (a person made without a password signs in as a fresh user).
    await db.updateTable('orders').set({ buyer_id: buyer.id }).where('id', '=', paid.orderId).execute();
    const damaged = paid.items[1]!;
    const { disputeId } = await api(t.app, buyer.accessToken).commerce.disputes.member.report.mutate({
      orderId: paid.orderId,
      problem: 'not_as_described',
      description: 'The spine is broken',
      itemIds: [damaged.id],
      photos: [],
    });
    const asAdmin = api(t.app, admin.accessToken).commerce;
    const detail = await asAdmin.orders.staff.order.query({ orderId: paid.orderId });
    expect(detail.dispute?.itemIds).toEqual([damaged.id]);
    const [queued] = (await asAdmin.disputes.staff.queue.query({ status: 'open' })).filter(
      (d) => d.id === disputeId,
    );
    expect(queued).toMatchObject({ bookCount: 3, refundableMinor: damaged.paidMinor });
    expect(queued!.books).toHaveLength(1);

    const before = await ledger(paid.orderId);
    const resolved = await asAdmin.disputes.staff.decide.mutate({
      disputeId,
      decision: 'full_refund',
      note: 'Refunding the damaged book',
    });
    expect(resolved.refundedMinor).toBe(damaged.paidMinor);
    const after = await ledger(paid.orderId);
    expect(after.order.status).toBe('completed');
    expect(after.payment.refunded_minor).toBe(damaged.paidMinor);
    expect(after.items.map((i) => i.refunded_minor)).toEqual([0, damaged.paidMinor, 0]);
    // The seller gives back what they were paid for it (its price less its bundle share).
    const item = await db
      .selectFrom('order_items')
      .selectAll()
      .where('id', '=', damaged.id)
      .executeTakeFirstOrThrow();
    expect(after.payout).toMatchObject({
      status: 'released',
      amount_minor: before.payout.amount_minor,
      reversed_minor: item.price_minor - item.bundle_discount_minor,
    });
    // Revenue: the book's protection share is what went back of the fee.
    const [figures] = await revenueFor(db, [
      { key: 'now', startsAt: new Date(Date.now() - 3_600_000), endsAt: new Date(Date.now() + 3_600_000) },
    ]);
    const protectionBack = after.refunds.reduce((sum, r) => sum + r.buyer_protection_minor, 0);
    expect(protectionBack).toBe(item.protection_minor);
    expect(figures!.protectionRefundedMinor).toBeGreaterThanOrEqual(protectionBack);
  });
});

describe('a charity return of one book of an order', () => {
  it('refunds that book’s goods share, withdraws that copy only, and the order goes on', async () => {
    const owner = await createUser(db, t.services.identity, 'owner@item-refunds.test');
    const charityId = await createCharity(db, {
      slug: 'item-returns',
      name: 'Item Returns',
      ownerId: owner.id,
    });
    const buyer = await createUser(db, t.services.identity, 'buyer@item-refunds.test');
    const paid = await paidBasketOrder(t, [{ price: 400 }, { price: 650 }], {
      seller: { id: owner.id, email: owner.email },
      buyer: { id: buyer.id, email: buyer.email },
      charityId,
      tiers: [[2, 10]],
      to: 'delivered',
    });
    const asBuyer = api(t.app, buyer.accessToken).charities;
    const eligibility = await asBuyer.returnEligibility.query({ orderId: paid.orderId });
    expect(eligibility.books.map((b) => b.orderItemId)).toEqual(paid.items.map((i) => i.id));
    const back = paid.items[1]!;
    const requested = await asBuyer.requestReturn.mutate({
      orderId: paid.orderId,
      reason: 'Wrong edition, sorry',
      itemIds: [back.id],
    });
    expect(requested.request?.books.map((b) => b.orderItemId)).toEqual([back.id]);
    const asOwner = api(t.app, owner.accessToken).charities;
    await asOwner.acceptReturn.mutate({ returnId: requested.request!.id });
    const refunded = await asOwner.receiveReturn.mutate({ returnId: requested.request!.id });
    const item = await db
      .selectFrom('order_items')
      .selectAll()
      .where('id', '=', back.id)
      .executeTakeFirstOrThrow();
    const goods = item.price_minor - item.bundle_discount_minor - item.discount_minor;
    expect(refunded.refundMinor).toBe(goods);
    const after = await ledger(paid.orderId);
    expect(after.order.status).toBe('delivered');
    expect(after.refunds).toMatchObject([{ amount_minor: goods, buyer_protection_minor: 0 }]);
    const listings = await db
      .selectFrom('listings')
      .select(['id', 'status'])
      .where('id', 'in', paid.listingIds)
      .execute();
    const status = new Map(listings.map((l) => [l.id, l.status]));
    expect(status.get(paid.listingIds[0]!)).toBe('sold');
    expect(status.get(paid.listingIds[1]!)).toBe('withdrawn');
    // The dashboard: one order, one book still sold; what it earned the charity is that book's
    // price less its bundle share, and the order's postage (the seller keeps it on a return).
    const kept = await db
      .selectFrom('order_items')
      .selectAll()
      .where('id', '=', paid.items[0]!.id)
      .executeTakeFirstOrThrow();
    const { postage_minor } = await db
      .selectFrom('orders')
      .select('postage_minor')
      .where('id', '=', paid.orderId)
      .executeTakeFirstOrThrow();
    const dashboard = await asOwner.dashboard.query();
    expect(dashboard.sales).toMatchObject({
      ordersCount: 1,
      booksCount: 1,
      earningsMinor: kept.price_minor - kept.bundle_discount_minor + postage_minor,
    });
    expect(dashboard.monthly.at(-1)).toMatchObject({ orders: 1, books: 1 });
  });

  it('a return of every book is the whole order’s: books and postage back, protection kept, order refunded', async () => {
    const owner = await createUser(db, t.services.identity, 'owner2@item-refunds.test');
    const charityId = await createCharity(db, {
      slug: 'whole-returns',
      name: 'Whole Returns',
      ownerId: owner.id,
    });
    const buyer = await createUser(db, t.services.identity, 'buyer2@item-refunds.test');
    const paid = await paidBasketOrder(t, [{ price: 300 }, { price: 350 }, { price: 420 }], {
      seller: { id: owner.id, email: owner.email },
      buyer: { id: buyer.id, email: buyer.email },
      charityId,
      to: 'delivered',
    });
    const requested = await api(t.app, buyer.accessToken).charities.requestReturn.mutate({
      orderId: paid.orderId,
      reason: 'Changed my mind',
    });
    expect(requested.request?.books).toHaveLength(3);
    const asOwner = api(t.app, owner.accessToken).charities;
    await asOwner.acceptReturn.mutate({ returnId: requested.request!.id });
    const refunded = await asOwner.receiveReturn.mutate({ returnId: requested.request!.id });
    const order = (await ledger(paid.orderId)).order;
    expect(refunded.refundMinor).toBe(order.total_minor - order.buyer_protection_minor);
    expect(order.status).toBe('refunded');
  });
});

it('a missing parcel is the whole order, never some of its books', async () => {
  const paid = await paidBasketOrder(t, [{ price: 500 }, { price: 600 }], { to: 'dispatched' });
  const buyer = await createUser(db, t.services.identity, `${paid.buyer.email.split('@')[0]}@parcel.test`);
  await db
    .updateTable('orders')
    .set({ buyer_id: buyer.id, delivery_due_at: new Date(Date.now() - 86_400_000) })
    .where('id', '=', paid.orderId)
    .execute();
  const refused = await failure(
    api(t.app, buyer.accessToken).commerce.disputes.member.report.mutate({
      orderId: paid.orderId,
      problem: 'not_received',
      description: 'Nothing came at all',
      itemIds: [paid.items[0]!.id],
      photos: [],
    }),
  );
  expect(refused.status).toBe(400);
  expect(refused.message).toContain('A parcel that never came is the whole order');
  // Naming every book is the whole order: allowed.
  await api(t.app, buyer.accessToken).commerce.disputes.member.report.mutate({
    orderId: paid.orderId,
    problem: 'not_received',
    description: 'Nothing came at all',
    itemIds: paid.items.map((i) => i.id),
    photos: [],
  });
  expect(await db.selectFrom('dispute_items').selectAll().execute()).not.toContainEqual(
    expect.objectContaining({ order_item_id: paid.items[0]!.id }),
  );
});

it('a person who is not the buyer cannot name books of someone else’s order', async () => {
  const paid = await paidBasketOrder(t, [{ price: 500 }, { price: 500 }], { to: 'delivered' });
  const stranger = await testPerson(db, 'stranger');
  const signedIn = await createUser(db, t.services.identity, `${stranger.email.split('@')[0]}@x.test`);
  const refused = await failure(
    api(t.app, signedIn.accessToken).commerce.disputes.member.report.mutate({
      orderId: paid.orderId,
      problem: 'not_as_described',
      description: 'This is not my order at all',
      itemIds: [paid.items[0]!.id],
      photos: [],
    }),
  );
  expect(refused.status).toBe(404);
});
