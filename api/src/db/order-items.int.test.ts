/**
 * The schema of decision 0043, against real PostgreSQL: an order's items (one made
 * at commit for a one-book insert), a listing in at most one live order through its items, items
 * that must add up to the order, a refund that never exceeds what was paid for a book, bundle
 * tiers that rise, and a one-order payment row that gets its checkout payment.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../testing/db.ts';
import type { Database } from './index.ts';

let testDb: TestDatabase;
let db: Database;
let n = 0;

async function user(): Promise<string> {
  n += 1;
  const row = await db
    .insertInto('auth.users')
    .values({ email: `items-${n}@reshelf.test` })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

async function listing(sellerId: string, price = 500): Promise<string> {
  n += 1;
  const book = await db
    .insertInto('books')
    .values({ title: `Items book ${n}`, authors: ['A. Writer'] })
    .returning('id')
    .executeTakeFirstOrThrow();
  const row = await db
    .insertInto('listings')
    .values({
      seller_id: sellerId,
      book_id: book.id,
      slug: `items-${n}`,
      status: 'active',
      condition: 'good',
      price_minor: price,
      parcel_size: 'small',
      published_at: new Date(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** An order of these books (prices 500 each), with its items, in one transaction. */
async function orderOf(
  buyerId: string,
  sellerId: string,
  listings: string[],
  options: { status?: string; items?: 'right' | 'short' | 'none' } = {},
) {
  return db.transaction().execute(async (trx) => {
    const order = await trx
      .insertInto('orders')
      .values({
        buyer_id: buyerId,
        seller_id: sellerId,
        status: options.status ?? 'paid',
        item_price_minor: 500 * listings.length,
        bundle_discount_minor: 10 * listings.length,
        postage_minor: 399,
        buyer_protection_minor: 100 * listings.length,
        total_minor: 500 * listings.length - 10 * listings.length + 399 + 100 * listings.length,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (options.items !== 'none') {
      await trx
        .insertInto('order_items')
        .values(
          listings.map((listingId, i) => ({
            order_id: order.id,
            listing_id: listingId,
            position: i + 1,
            price_minor: options.items === 'short' && i === 0 ? 499 : 500,
            bundle_discount_minor: 10,
            protection_minor: 100,
          })),
        )
        .execute();
    }
    return order.id;
  });
}

beforeAll(async () => {
  testDb = await createTestDatabase();
  db = testDb.handle.db;
});

afterAll(async () => {
  await testDb.drop();
});

describe('order items', () => {
  it('refuses an order without books at commit: an order names its books only in its items', async () => {
    const seller = await user();
    const book = await listing(seller);
    await expect(orderOf(await user(), seller, [book], { items: 'none' })).rejects.toThrow(/has no books/);
    expect(await db.selectFrom('orders').select('id').where('seller_id', '=', seller).execute()).toEqual([]);
    // With its book it is written.
    await expect(orderOf(await user(), seller, [book])).resolves.toBeTruthy();
  });

  it('keeps a listing in at most one live order through its items, whichever item it is', async () => {
    const seller = await user();
    const [a, b, c] = [await listing(seller), await listing(seller), await listing(seller)];
    const first = await orderOf(await user(), seller, [a as string, b as string]);
    // The second order's FIRST book is free, but its second is in a live order already.
    await expect(orderOf(await user(), seller, [c as string, b as string])).rejects.toThrow(
      /order_items_one_live_per_listing/,
    );
    // Cancelled, the first order's items are no longer live: the books can be ordered again.
    await db.updateTable('orders').set({ status: 'cancelled' }).where('id', '=', first).execute();
    const live = await db.selectFrom('order_items').select('live').where('order_id', '=', first).execute();
    expect(live.map((row) => row.live)).toEqual([false, false]);
    await expect(orderOf(await user(), seller, [c as string, b as string])).resolves.toBeTruthy();
    // And a live order's items cannot be brought back to life beside it.
    await expect(
      db.updateTable('orders').set({ status: 'paid' }).where('id', '=', first).execute(),
    ).rejects.toThrow(/order_items_one_live_per_listing/);
  });

  it('refuses items that do not add up to the order', async () => {
    const seller = await user();
    const books = [await listing(seller), await listing(seller)];
    await expect(orderOf(await user(), seller, books, { items: 'short' })).rejects.toThrow(/do not add up/);
    // Nothing of the attempt is left.
    expect(
      await db.selectFrom('order_items').select('id').where('listing_id', 'in', books).execute(),
    ).toEqual([]);
  });

  it('never lets a book’s refund exceed what was paid for it', async () => {
    const seller = await user();
    const books = [await listing(seller), await listing(seller)];
    const order = await orderOf(await user(), seller, books);
    // Paid for the first book: 500 - 10 + 100 = 590.
    await db
      .updateTable('order_items')
      .set({ refunded_minor: 590 })
      .where('order_id', '=', order)
      .where('position', '=', 1)
      .execute();
    await expect(
      db
        .updateTable('order_items')
        .set({ refunded_minor: 591 })
        .where('order_id', '=', order)
        .where('position', '=', 2)
        .execute(),
    ).rejects.toThrow(/order_items_refund_within_paid/);
  });
});

describe('bundle tiers', () => {
  it('allows up to three tiers rising in books and percentage, per seller or charity shop', async () => {
    const seller = await user();
    const tier = (min_books: number, percent: number) =>
      db.insertInto('bundle_tiers').values({ seller_id: seller, min_books, percent }).execute();
    await db.transaction().execute(async (trx) => {
      await trx
        .insertInto('bundle_tiers')
        .values([
          { seller_id: seller, min_books: 2, percent: 5 },
          { seller_id: seller, min_books: 3, percent: 10 },
          { seller_id: seller, min_books: 5, percent: 15 },
        ])
        .execute();
    });
    await expect(tier(8, 20)).rejects.toThrow(/at most three bundle tiers/);
    await db.deleteFrom('bundle_tiers').where('seller_id', '=', seller).where('min_books', '=', 5).execute();
    await expect(tier(4, 10)).rejects.toThrow(/must rise/);
    await expect(tier(1, 5)).rejects.toThrow(/bundle_tiers_min_books_check/);
    await expect(tier(6, 51)).rejects.toThrow(/bundle_tiers_percent_check/);
    await expect(
      db.insertInto('bundle_tiers').values({ min_books: 2, percent: 5 }).execute(),
    ).rejects.toThrow(/bundle_tiers_one_owner/);
  });
});

describe('checkout payments', () => {
  it('gives a payment row written the one-order way its own checkout payment, and the order its payment', async () => {
    const seller = await user();
    const buyer = await user();
    const order = await orderOf(buyer, seller, [await listing(seller)], { status: 'pending_payment' });
    const payment = await db
      .insertInto('payments')
      .values({ order_id: order, provider: 'test', provider_ref: `one-${n}`, amount_minor: 989 })
      .returning('checkout_payment_id')
      .executeTakeFirstOrThrow();
    const owner = await db
      .selectFrom('checkout_payments')
      .selectAll()
      .where('id', '=', payment.checkout_payment_id as string)
      .executeTakeFirstOrThrow();
    expect(owner).toMatchObject({
      buyer_id: buyer,
      provider_ref: `one-${n}`,
      amount_minor: 989,
      status: 'pending',
    });
    const row = await db
      .selectFrom('orders')
      .select('checkout_payment_id')
      .where('id', '=', order)
      .executeTakeFirstOrThrow();
    expect(row.checkout_payment_id).toBe(owner.id);
  });

  it('lets one provider reference pay several orders, once each', async () => {
    const seller = await user();
    const buyer = await user();
    const first = await orderOf(buyer, seller, [await listing(seller)], { status: 'pending_payment' });
    const other = await user();
    const second = await orderOf(buyer, other, [await listing(other)], { status: 'pending_payment' });
    const ref = `shared-${n}`;
    const owner = await db
      .insertInto('checkout_payments')
      .values({ buyer_id: buyer, provider: 'test', provider_ref: ref, amount_minor: 2 * 989 })
      .returning('id')
      .executeTakeFirstOrThrow();
    const pay = (orderId: string) =>
      db
        .insertInto('payments')
        .values({
          order_id: orderId,
          checkout_payment_id: owner.id,
          provider: 'test',
          provider_ref: ref,
          amount_minor: 989,
        })
        .execute();
    await pay(first);
    await pay(second);
    await expect(pay(second)).rejects.toThrow(/payments_provider_ref_order_key/);
    const { rows } = await sql<{
      n: number;
    }>`select count(*)::int as n from public.payments where provider_ref = ${ref}`.execute(db);
    expect(rows[0]?.n).toBe(2);
  });
});
