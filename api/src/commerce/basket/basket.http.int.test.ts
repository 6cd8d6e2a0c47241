/**
 * The basket through the real app: basket.member.* and checkout.startBasket over
 * tRPC, the test provider's page and webhook, the orders and the emails that follow.
 */
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { createUser, type TestUser } from '../../testing/auth.ts';
import { createBook, createCharity, createListing } from '../../testing/catalogue.ts';
import { api, failure } from '../../testing/client.ts';

let t: TestApp;
let n = 0;
const address = { fullName: 'Jo March', line1: '1 Orchard House', town: 'Oxford', postcode: 'ox12jd' };

beforeAll(async () => {
  t = await createTestApp();
});

afterAll(async () => {
  await t.close();
});

async function member(label: string): Promise<TestUser> {
  n += 1;
  return createUser(t.database.handle.db, t.services.identity, `${label}-${n}@basket-http.test`);
}

async function book(sellerId: string, title: string, price: number, status: 'active' | 'sold' = 'active') {
  const db = t.database.handle.db;
  const bookId = await createBook(db, { title });
  return (await createListing(db, { sellerId, bookId, price, status })).id;
}

describe('the basket', () => {
  it('adds once, refuses the buyer’s own and sold books, counts, lists by seller, removes and merges', async () => {
    const seller = await member('seller');
    const other = await member('other-seller');
    const buyer = await member('buyer');
    const client = api(t.app, buyer.accessToken);
    const a = await book(seller.id, 'Persuasion', 500);
    const b = await book(other.id, 'Emma', 700);
    const mine = await book(buyer.id, 'My own book', 400);
    const sold = await book(seller.id, 'Already gone', 400, 'sold');

    expect(await client.commerce.basket.member.add.mutate({ listingId: a })).toEqual({ count: 1 });
    expect(await client.commerce.basket.member.add.mutate({ listingId: a })).toEqual({ count: 1 });
    expect((await failure(client.commerce.basket.member.add.mutate({ listingId: mine }))).message).toBe(
      'This is your own book, so it can’t go in your basket.',
    );
    expect((await failure(client.commerce.basket.member.add.mutate({ listingId: sold }))).message).toBe(
      'This book has just been sold, so it can’t go in your basket.',
    );
    // A visitor's basket from the browser, on sign-in: what can be bought joins, the rest is named.
    expect(await client.commerce.basket.member.merge.mutate({ listingIds: [a, b, mine, sold] })).toEqual({
      count: 2,
      added: [b],
      skipped: [mine, sold],
    });
    // One of them sells meanwhile: it stays, shown as gone, and the count leaves it out.
    await t.database.handle.db.updateTable('listings').set({ status: 'sold' }).where('id', '=', b).execute();
    expect(await client.commerce.basket.member.count.query()).toEqual({ count: 1, gone: 1 });
    const basket = await client.commerce.basket.member.list.query();
    expect(basket.count).toBe(1);
    expect(
      basket.groups.map((group) => [group.sellerId, group.items.map((item) => [item.title, item.state])]),
    ).toEqual(
      expect.arrayContaining([
        [seller.id, [['Persuasion', 'available']]],
        [other.id, [['Emma', 'gone']]],
      ]),
    );
    expect(await client.commerce.basket.member.remove.mutate({ listingIds: [b] })).toEqual({ count: 1 });
    expect(await client.commerce.basket.member.remove.mutate({ listingId: a })).toEqual({ count: 0 });
    expect((await failure(api(t.app).commerce.basket.member.count.query())).status).toBe(401);
  });
});

describe('bundle tiers for anyone to read', () => {
  it('answers a seller’s or an approved charity shop’s tiers, lowest first, and [] for none', async () => {
    const db = t.database.handle.db;
    const seller = await member('tiered');
    const owner = await member('shop-owner');
    await db
      .insertInto('bundle_tiers')
      .values([
        { seller_id: seller.id, min_books: 3, percent: 10 },
        { seller_id: seller.id, min_books: 2, percent: 5 },
      ])
      .execute();
    const charity = {
      id: await createCharity(db, { slug: `tier-shop-${n}`, name: 'Tier Shop', ownerId: owner.id }),
    };
    await db
      .insertInto('bundle_tiers')
      .values({ charity_id: charity.id, min_books: 2, percent: 20 })
      .execute();
    const anyone = api(t.app);
    expect(await anyone.commerce.basket.public.tiers.query({ sellerId: seller.id })).toEqual([
      { minBooks: 2, percent: 5 },
      { minBooks: 3, percent: 10 },
    ]);
    expect(await anyone.commerce.basket.public.tiers.query({ charitySlug: `tier-shop-${n}` })).toEqual([
      { minBooks: 2, percent: 20 },
    ]);
    expect(await anyone.commerce.basket.public.tiers.query({ sellerId: owner.id })).toEqual([]);
    expect((await failure(anyone.commerce.basket.public.tiers.query({ sellerId: 'nope' }))).status).toBe(400);
  });
});

describe('checkout of the basket over HTTP', () => {
  it('refuses a stale quote with the new one, then pays both sellers’ orders at once and emails every book', async () => {
    const db = t.database.handle.db;
    const sam = await member('sam');
    const charityish = await member('second-seller');
    const buyer = await member('buyer');
    const client = api(t.app, buyer.accessToken);
    await db
      .insertInto('bundle_tiers')
      .values([
        { seller_id: sam.id, min_books: 2, percent: 5 },
        { seller_id: sam.id, min_books: 3, percent: 10 },
      ])
      .execute();
    const sams = [
      await book(sam.id, 'North and South', 349),
      await book(sam.id, 'Cranford', 549),
      await book(sam.id, 'Wives and Daughters', 550),
    ];
    const single = await book(charityish.id, 'Silas Marner', 400);
    const listingIds = [...sams, single];
    for (const listingId of listingIds) await client.commerce.basket.member.add.mutate({ listingId });

    const quote = await client.commerce.basket.member.quote.query({ listingIds });
    expect(quote.groups.map((group) => [group.bookCount, group.bundlePercent])).toEqual([
      [3, 10],
      [1, 0],
    ]);
    const quoted = {
      quotedTotalMinor: quote.totalMinor,
      quotedGroups: quote.groups.map((group) => ({ key: group.key, totalMinor: group.totalMinor })),
    };
    // Sam puts a price up before the buyer pays: refused (412), with the new quote to show.
    await db
      .updateTable('listings')
      .set({ price_minor: 649 })
      .where('id', '=', sams[1] as string)
      .execute();
    const refused = await failure(
      client.commerce.checkout.startBasket.mutate({
        listingIds,
        address,
        idempotencyKey: `stale-key-${n}`,
        ...quoted,
      }),
    );
    expect(refused.status).toBe(412);
    expect(refused.message).toBe(
      'The price has changed since you looked: check the new total below and pay again.',
    );
    const fresh = refused.data?.quote as typeof quote;
    expect(fresh.totalMinor).toBeGreaterThan(quote.totalMinor);
    expect(fresh.groups[0]?.itemSubtotalMinor).toBe(349 + 649 + 550);

    const input = {
      listingIds,
      address,
      idempotencyKey: `fresh-key-${n}`,
      quotedTotalMinor: fresh.totalMinor,
      quotedGroups: fresh.groups.map((group) => ({ key: group.key, totalMinor: group.totalMinor })),
    };
    const started = await client.commerce.checkout.startBasket.mutate(input);
    // A retried call with the same key answers the same, and makes nothing more.
    expect(await client.commerce.checkout.startBasket.mutate(input)).toEqual(started);
    expect(started.totalMinor).toBe(fresh.totalMinor);
    expect(started.orders).toHaveLength(2);
    // "Finish paying" from either order goes back to the same payment.
    const resumed = await client.commerce.checkout.resume.mutate({
      orderId: started.orders[1]?.orderId as string,
    });
    expect(resumed.redirectUrl).toBe(started.redirectUrl);
    expect(resumed.totalMinor).toBe(started.totalMinor);

    const pagePath = new URL(started.redirectUrl).pathname;
    const page = await request(t.app.server).get(pagePath);
    expect(page.text).toContain(`Orders ${started.orders.map((order) => order.reference).join(', ')}`);
    expect(page.text).toContain('4 books: North and South, Cranford, Wives and Daughters, Silas Marner');
    const paid = await request(t.app.server).post(`${pagePath}/success`);
    expect(paid.status).toBe(303);
    expect(paid.headers.location).toBe(
      `/checkout/success?order=${started.orders[0]?.orderId}&payment=${started.checkoutPaymentId}`,
    );

    const { orders, totalMinor } = await client.commerce.checkout.paymentOrders.query({
      checkoutPaymentId: started.checkoutPaymentId,
    });
    expect(totalMinor).toBe(started.totalMinor);
    expect(orders.map((order) => order.titles)).toEqual([
      ['North and South', 'Cranford', 'Wives and Daughters'],
      ['Silas Marner'],
    ]);
    // The success page says who sends each parcel.
    expect(orders.map((order) => order.sellerName)).toEqual([
      sam.email.split('@')[0],
      charityish.email.split('@')[0],
    ]);
    const samOrder = await client.commerce.orders.member.get.query({
      orderId: started.orders[0]?.orderId as string,
    });
    expect(samOrder).toMatchObject({
      status: 'paid',
      itemCount: 3,
      title: 'North and South and 2 more books',
    });
    expect(samOrder.items.map((item) => [item.title, item.priceMinor])).toEqual([
      ['North and South', 349],
      ['Cranford', 649],
      ['Wives and Daughters', 550],
    ]);
    expect(samOrder.items.reduce((sum, item) => sum + item.paidMinor, 0) + samOrder.postageMinor).toBe(
      samOrder.totalMinor,
    );
    const purchases = await client.commerce.orders.member.list.query({ role: 'buyer' });
    expect(purchases.map((order) => order.itemCount).sort()).toEqual([1, 3]);
    expect((await client.commerce.basket.member.count.query()).count).toBe(0);

    // The emails are titled as the order is everywhere (its first book and how many more), name
    // every book, and ask the seller for one parcel.
    const mail = async (to: string) =>
      db
        .selectFrom('email_outbox')
        .select(['subject', 'text_body'])
        .where('to_address', '=', to)
        .orderBy('created_at')
        .execute();
    const buyerMail = await mail(buyer.email);
    expect(buyerMail.map((m) => m.subject)).toEqual(
      expect.arrayContaining([
        'Order confirmed: North and South and 2 more books',
        'Order confirmed: Silas Marner',
      ]),
    );
    expect(
      buyerMail.find((m) => m.subject === 'Order confirmed: North and South and 2 more books')?.text_body,
    ).toContain('3 books (“North and South”, “Cranford” and “Wives and Daughters”)');
    const samMail = (await mail(sam.email)).find(
      (m) => m.subject === 'You sold North and South and 2 more books — please send them',
    );
    expect(samMail?.text_body).toContain('Please post them together in one parcel');
  });
});
