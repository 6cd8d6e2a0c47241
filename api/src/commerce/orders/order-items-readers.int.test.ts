/**
 * Issue 23: the readers of "an order's books" see every book of an order of several, not only
 * its first (orders.listing_id): staff order search, trending sales,
 * the order's message thread (one per order), notifications, the refunds ledger.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trendingListings } from '../../catalogue/discovery/discovery.service.ts';
import { startOrderThread } from '../../community/messages/messages.service.ts';
import type { Database } from '../../db/index.ts';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { createUser, type TestUser } from '../../testing/auth.ts';
import { basketDepsFor, type PaidBasketOrder, paidBasketOrder } from '../../testing/basket-orders.ts';
import { createListing } from '../../testing/catalogue.ts';
import { api } from '../../testing/client.ts';
import { refundLedger } from '../money/refunds-ledger.ts';
import { refundOrder, searchOrders } from './staff-orders.service.ts';

let t: TestApp;
let db: Database;
let admin: TestUser;
let seller: TestUser;
let order: PaidBasketOrder;

beforeAll(async () => {
  t = await createTestApp();
  db = t.database.handle.db;
  admin = await createUser(db, t.services.identity, 'admin@readers.test', { roles: ['admin'] });
  seller = await createUser(db, t.services.identity, 'seller@readers.test');
  order = await paidBasketOrder(
    t,
    [
      { price: 349, title: 'Readers first book' },
      { price: 549, title: 'Readers second book' },
      { price: 550, title: 'Readers third book' },
    ],
    { seller: { id: seller.id, email: seller.email }, tiers: [[3, 10]], to: 'dispatched' },
  );
});

afterAll(async () => {
  await t?.close();
});

describe('staff orders', () => {
  it('list every book of an order and find it by any of its titles', async () => {
    const [row] = await searchOrders(db, { q: 'Readers third', limit: 10 });
    expect(row).toMatchObject({
      id: order.orderId,
      title: 'Readers first book and 2 more books',
      bookCount: 3,
    });
    expect(row!.books.map((book) => book.title)).toEqual([
      'Readers first book',
      'Readers second book',
      'Readers third book',
    ]);
    expect(row!.books.reduce((sum, book) => sum + book.paidMinor, 0)).toBe(
      order.items.reduce((sum, item) => sum + item.paidMinor, 0),
    );
    // Over the API too (orders.staff.search).
    const viaApi = await api(t.app, admin.accessToken).commerce.orders.staff.search.query({
      q: order.reference,
    });
    expect(viaApi[0]).toMatchObject({ bookCount: 3 });
  });

  it('the refunds ledger names the books a refund gave back', async () => {
    await refundOrder({ ...basketDepsFor(t), mail: basketDepsFor(t) }, admin.id, {
      orderId: order.orderId,
      amountMinor: 'items',
      itemIds: [order.items[2]!.id],
      reason: 'Third book damaged',
    });
    const ledger = await refundLedger(db, { q: order.reference, limit: 10 });
    expect(ledger.rows).toMatchObject([
      { title: 'Readers third book', amountMinor: order.items[2]!.paidMinor },
    ]);
    const [row] = await searchOrders(db, { q: order.reference, limit: 10 });
    expect(row!.books.map((book) => book.refundedMinor)).toEqual([0, 0, order.items[2]!.paidMinor]);
    expect(row!.refundedMinor).toBe(order.items[2]!.paidMinor);
  });
});

describe('the seller and the catalogue', () => {
  it('trending counts a sale for every book of the order, not only its first', async () => {
    // Another copy of the third book, on sale: trending shows a trending book by its copy on sale.
    const third = await db
      .selectFrom('listings')
      .select('book_id')
      .where('id', '=', order.listingIds[2]!)
      .executeTakeFirstOrThrow();
    const copy = await createListing(db, { sellerId: admin.id, bookId: third.book_id!, price: 600 });
    const trending = await trendingListings(db, 50);
    expect(trending.map((card) => card.id)).toContain(copy.id);
  });
});

describe('messages', () => {
  it('an order has one thread, whichever side opens it, about its first book', async () => {
    const fromSeller = await startOrderThread(db, seller.id, order.orderId);
    const fromBuyer = await startOrderThread(db, order.buyer.id, order.orderId);
    expect(fromBuyer.threadId).toBe(fromSeller.threadId);
    const thread = await db
      .selectFrom('message_threads')
      .select('listing_id')
      .where('id', '=', fromSeller.threadId)
      .executeTakeFirstOrThrow();
    expect(thread.listing_id).toBe(order.listingIds[0]);
  });
});
