/**
 * The fair price through the real app and PostgreSQL: what a sale is (the view), the three
 * procedures, their access levels and their answers when there is not enough data.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/index.ts';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { createUser, type TestUser } from '../../testing/auth.ts';
import { createBook, createListing, createPerson } from '../../testing/catalogue.ts';
import { api, failure } from '../../testing/client.ts';
import { paidOrder } from '../../testing/orders.ts';

let t: TestApp;
let db: Database;
let seller: TestUser;
const DAY = 86_400_000;

beforeAll(async () => {
  t = await createTestApp();
  db = t.database.handle.db;
  seller = await createUser(db, t.services.identity, 'fair-price-seller@example.test');
});

afterAll(async () => {
  await t.close();
});

async function work(title: string): Promise<string> {
  const row = await db
    .insertInto('works')
    .values({
      title,
      slug: `${title.toLowerCase().replace(/\W+/g, '-')}-${Date.now()}`,
      work_key: `${title}-${Math.random()}`,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

async function history(bookId: string, condition: string, prices: number[], format = 'paperback') {
  const book = await db
    .selectFrom('books')
    .select('category_id')
    .where('id', '=', bookId)
    .executeTakeFirstOrThrow();
  await db
    .insertInto('sales_history')
    .values(
      prices.map((price, i) => ({
        book_id: bookId,
        condition,
        format,
        category_id: book.category_id,
        price_minor: price,
        sold_at: new Date(Date.now() - (i + 1) * DAY),
      })),
    )
    .execute();
}

describe('fair_price_sales: what counts as a sale', () => {
  it("is a paid order's book at its own price, gone when the order is refunded", async () => {
    const order = await paidOrder(t, 1234, 'Fair price sale');
    const listing = await db
      .selectFrom('listings')
      .select(['book_id', 'condition'])
      .where('id', '=', order.listingId)
      .executeTakeFirstOrThrow();
    const sales = () =>
      sql<{ price_minor: number; condition: string }>`
        select price_minor, condition from public.fair_price_sales where book_id = ${listing.book_id}
      `.execute(db);
    // The book's price: not the total with postage and Buyer Protection.
    expect(order.totalMinor).toBeGreaterThan(1234);
    expect((await sales()).rows).toEqual([{ price_minor: 1234, condition: listing.condition }]);
    await db.updateTable('orders').set({ status: 'refunded' }).where('id', '=', order.orderId).execute();
    expect((await sales()).rows).toEqual([]);
  });
});

describe('commerce.fairPrice', () => {
  let edition: string;
  let sibling: string;
  let lonely: string;

  beforeAll(async () => {
    const workId = await work('Fair Price Work');
    edition = await createBook(db, { title: 'Fair price edition', category: 'fiction' });
    sibling = await createBook(db, { title: 'Fair price other edition', category: 'fiction' });
    lonely = await createBook(db, { title: 'Fair price lonely', category: 'fiction' });
    await db.updateTable('books').set({ work_id: workId }).where('id', 'in', [edition, sibling]).execute();
    await history(edition, 'very_good', [400, 450, 500, 550, 600, 650]);
    await history(edition, 'good', [300, 320]);
    await history(sibling, 'good', [340, 360, 380]);
  });

  it("suggests the edition's band to a signed-in seller, with its level and sales", async () => {
    const answer = await api(t.app, seller.accessToken).commerce.fairPrice.suggest.query({
      bookId: edition,
      condition: 'very_good',
      format: 'paperback',
    });
    expect(answer).toEqual({
      level: 'edition',
      salesCount: 6,
      lowMinor: 450,
      highMinor: 600,
      suggestionMinor: 500,
    });
  });

  it('answers a batch in order, falling back to the work and to format and genre, and null with too few', async () => {
    const answers = await api(t.app, seller.accessToken).commerce.fairPrice.suggestMany.query({
      rows: [
        { bookId: sibling, condition: 'good', format: 'paperback' },
        { bookId: lonely, condition: 'very_good', format: 'paperback' },
        { bookId: lonely, condition: 'well_read', format: 'paperback' },
        { bookId: edition, condition: 'very_good', format: null },
      ],
    });
    expect(answers.map((answer) => answer && [answer.level, answer.salesCount])).toEqual([
      ['work', 5],
      // The fiction paperbacks in very good condition: the edition's six.
      ['format_genre', 6],
      null,
      ['edition', 6],
    ]);
  });

  it('shows buyers a typical price only from the book’s own sales', async () => {
    const anonymous = api(t.app).commerce.fairPrice.typical;
    expect(await anonymous.query({ bookId: edition, condition: 'very_good' })).toMatchObject({
      level: 'edition',
      lowMinor: 450,
      highMinor: 600,
    });
    expect(await anonymous.query({ bookId: sibling, condition: 'good' })).toMatchObject({ level: 'work' });
    // Enough sales of similar books is not enough to tell a buyer what this book goes for.
    expect(await anonymous.query({ bookId: lonely, condition: 'very_good' })).toBeNull();
    // A book page: the edition's typical price in each condition that has one, in the conditions' order.
    const byCondition = await api(t.app).commerce.fairPrice.typicalByCondition.query({ bookId: edition });
    expect(byCondition.map(({ condition, price }) => [condition, price.level, price.salesCount])).toEqual([
      ['very_good', 'edition', 6],
      ['good', 'work', 5],
    ]);
    expect(await api(t.app).commerce.fairPrice.typicalByCondition.query({ bookId: lonely })).toEqual([]);
    // A listing page asks by its slug: its copy's edition, in its condition.
    const person = await createPerson(db, 'fair-price-lister@example.test');
    const copy = await createListing(db, { sellerId: person, bookId: edition, condition: 'very_good' });
    expect(await anonymous.query({ listingSlug: copy.slug })).toMatchObject({
      level: 'edition',
      salesCount: 6,
    });
    const other = await createListing(db, { sellerId: person, bookId: lonely, condition: 'very_good' });
    expect(await anonymous.query({ listingSlug: other.slug })).toBeNull();
    expect(await anonymous.query({ listingSlug: 'no-such-listing' })).toBeNull();
    // A bulk upload report asks by its rows' copies, in their order; an unknown id answers null.
    const paperback = await createListing(db, {
      sellerId: person,
      bookId: lonely,
      condition: 'very_good',
      format: 'paperback',
    });
    const unknown = '00000000-0000-4000-8000-000000000000';
    const rows = await api(t.app, seller.accessToken).commerce.fairPrice.forListings.query({
      listingIds: [other.id, copy.id, unknown, paperback.id],
    });
    expect(rows.map((row) => row && [row.level, row.salesCount])).toEqual([
      null,
      ['edition', 6],
      null,
      ['format_genre', 6],
    ]);
  });

  it('refuses the seller procedures anonymously and bad input with a clear message', async () => {
    expect(
      (await failure(api(t.app).commerce.fairPrice.suggest.query({ bookId: edition, condition: 'good' })))
        .status,
    ).toBe(401);
    const bad = await failure(
      api(t.app, seller.accessToken).commerce.fairPrice.suggest.query({
        bookId: edition,
        condition: 'mint' as 'good',
      }),
    );
    expect(bad.status).toBe(400);
    expect(bad.message).toContain('Choose a condition');
  });
});
