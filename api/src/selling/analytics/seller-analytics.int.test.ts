/**
 * Seller analytics through the real app and database: views, saves, offers, sales and revenue
 * net of fees per period and per day, conversion, days to sell, the per-listing table and its
 * suggestions; a charity's figures for its members only.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { createUser, type TestUser } from '../../testing/auth.ts';
import { paidBasketOrder } from '../../testing/basket-orders.ts';
import { createBook, createCharity, createListing, createPerson } from '../../testing/catalogue.ts';
import { api, refusal } from '../../testing/client.ts';
import { insertOrderRow } from '../../testing/orders.ts';
import { suggestionFor } from './seller-analytics.service.ts';

let t: TestApp;
let seller: TestUser;
let stranger: TestUser;
let charityOwner: TestUser;
let buyerId: string;
const db = () => t.database.handle.db;
const DAY = 86_400_000;
const ago = (days: number) => new Date(Date.now() - days * DAY);
const PHOTO = JSON.stringify(['/storage/x/1600.webp']);

beforeAll(async () => {
  t = await createTestApp();
  seller = await createUser(db(), t.services.identity, 'seller@analytics.test');
  stranger = await createUser(db(), t.services.identity, 'stranger@analytics.test');
  charityOwner = await createUser(db(), t.services.identity, 'owner@analytics.test');
  buyerId = await createPerson(db(), 'buyer@analytics.test');
});

afterAll(async () => {
  await t.close();
});

async function listing(
  title: string,
  publishedDaysAgo: number,
  sellerId = seller.id,
  charityId: string | null = null,
) {
  const bookId = await createBook(db(), { title });
  const row = await createListing(db(), {
    sellerId,
    bookId,
    price: 1000,
    publishedAt: ago(publishedDaysAgo),
    charityId,
  });
  await db().updateTable('listings').set({ photos: PHOTO }).where('id', '=', row.id).execute();
  return row;
}

async function views(listingId: string, daysAgo: number, count: number) {
  const day = ago(daysAgo);
  await db()
    .insertInto('listing_views')
    .values(
      Array.from({ length: count }, (_, i) => ({
        listing_id: listingId,
        viewed_on: day.toISOString().slice(0, 10),
        viewed_at: day,
        viewer_key: `viewer-${daysAgo}-${i}-${listingId.slice(0, 8)}`,
      })),
    )
    .execute();
}

async function sell(listingId: string, sellerId: string, daysAgo: number, price = 1000) {
  const order = await insertOrderRow(db(), {
    buyer_id: buyerId,
    seller_id: sellerId,
    listing_id: listingId,
    status: 'paid',
    item_price_minor: price,
    postage_minor: 300,
    buyer_protection_minor: 120,
    total_minor: price + 420,
    paid_at: ago(daysAgo),
  });
  await db()
    .insertInto('payouts')
    .values({ seller_id: sellerId, order_id: order.id, amount_minor: price + 300, status: 'held' })
    .execute();
  await db().updateTable('listings').set({ status: 'sold' }).where('id', '=', listingId).execute();
}

describe('seller analytics', () => {
  it('count views, saves, offers and sales in the period, day by day, with revenue net of fees', async () => {
    const busy = await listing('Busy Book', 20);
    const sold = await listing('Sold Book', 10);
    await listing('Stale Book', 30);
    await views(busy.id, 1, 5);
    await views(busy.id, 40, 7); // outside 30 days, inside 12 months
    await views(sold.id, 3, 5);
    await db()
      .insertInto('wishlist_items')
      .values([{ user_id: buyerId, listing_id: busy.id }])
      .execute();
    const [first, second] = [randomUUID(), randomUUID()];
    await db()
      .insertInto('offers')
      .values([
        {
          id: first,
          thread_id: first,
          listing_id: busy.id,
          buyer_id: buyerId,
          seller_id: seller.id,
          made_by: 'buyer',
          amount_minor: 800,
          expires_at: ago(-2),
        },
        {
          id: second,
          thread_id: second,
          listing_id: sold.id,
          buyer_id: buyerId,
          seller_id: seller.id,
          made_by: 'buyer',
          amount_minor: 900,
          status: 'purchased',
          expires_at: ago(-2),
          responded_at: ago(4),
          checkout_deadline: ago(3),
          created_at: ago(4),
        },
      ])
      .execute();
    await sell(sold.id, seller.id, 3);

    const calls = api(t.app, seller.accessToken).selling.analytics;
    const month = await calls.mine.query({ period: '30d' });
    expect(month.scope).toBe('seller');
    expect(month.points).toHaveLength(30);
    expect(month.totals).toEqual({
      views: 10,
      wishlists: 1,
      offersReceived: 2,
      offersAccepted: 1,
      sales: 1,
      revenueNetMinor: 1300,
      conversionPercent: 10,
      averageDaysToSell: 7,
    });
    const today = month.points.at(-1)!;
    expect(today.wishlists).toBe(1);
    expect(month.points.reduce((sum, point) => sum + point.views, 0)).toBe(10);

    const year = await calls.mine.query({ period: '12m' });
    expect(year.points).toHaveLength(12);
    expect(year.points.at(-1)!.bucket).toMatch(/^\d{4}-\d{2}$/);
    expect(year.totals.views).toBe(17);
    const week = await calls.mine.query({ period: '7d' });
    expect(week.points).toHaveLength(7);
    expect(week.totals.views).toBe(10);

    const rows = Object.fromEntries(month.listings.map((row) => [row.title, row]));
    expect(rows['Busy Book']).toMatchObject({
      views: 5,
      wishlists: 1,
      offers: 1,
      daysListed: 20,
      suggestion: null,
    });
    expect(rows['Sold Book']).toMatchObject({ status: 'sold', views: 5, daysListed: 7, suggestion: null });
    expect(rows['Stale Book']).toMatchObject({
      views: 0,
      daysListed: 30,
      suggestion: 'No views in 14 days: consider a lower price or a better photo.',
    });
  });

  it('count every book of an order of several as a sale, and the order’s net once, to the penny', async () => {
    const bundler = await createUser(db(), t.services.identity, 'bundler@analytics.test');
    const order = await paidBasketOrder(t, [{ price: 1000 }, { price: 650 }, { price: 425 }], {
      seller: { id: bundler.id, email: bundler.email },
      tiers: [[3, 10]],
    });
    const payout = await db()
      .selectFrom('payouts')
      .select('amount_minor')
      .where('order_id', '=', order.orderId)
      .executeTakeFirstOrThrow();
    const month = await api(t.app, bundler.accessToken).selling.analytics.mine.query({ period: '30d' });
    expect(month.totals.sales).toBe(3);
    expect(month.totals.revenueNetMinor).toBe(payout.amount_minor);
    expect(month.listings.filter((row) => row.status === 'sold')).toHaveLength(3);
  });

  it('are the seller’s own: another member sees none of them, signed out is refused', async () => {
    const theirs = await api(t.app, stranger.accessToken).selling.analytics.mine.query({ period: '12m' });
    expect(theirs.totals).toMatchObject({ views: 0, sales: 0, revenueNetMinor: 0 });
    expect(theirs.listings).toEqual([]);
    expect(await refusal(api(t.app).selling.analytics.mine.query({ period: '7d' }))).toMatchObject({
      status: 401,
    });
    expect(
      await refusal(api(t.app, seller.accessToken).selling.analytics.mine.query({ period: '1y' } as never)),
    ).toMatchObject({ status: 400, message: 'period: Choose a period of 7d, 30d or 12m' });
  });

  it('give a charity’s members their charity’s books, and refuse anyone else', async () => {
    const charityId = await createCharity(db(), {
      slug: 'analytics-charity',
      name: 'Analytics Hospice',
      ownerId: charityOwner.id,
    });
    const donated = await listing('Donated Book', 5, charityOwner.id, charityId);
    await views(donated.id, 2, 4);
    await sell(donated.id, charityOwner.id, 1, 500);
    const figures = await api(t.app, charityOwner.accessToken).selling.analytics.charity.query({
      period: '7d',
    });
    expect(figures.scope).toBe('charity');
    expect(figures.totals).toMatchObject({ views: 4, sales: 1, revenueNetMinor: 800, conversionPercent: 25 });
    // The owner's own (non-charity) figures do not include the charity's books.
    const own = await api(t.app, charityOwner.accessToken).selling.analytics.mine.query({ period: '7d' });
    expect(own.totals.views).toBe(0);
    expect(
      await refusal(api(t.app, stranger.accessToken).selling.analytics.charity.query({ period: '7d' })),
    ).toMatchObject({
      status: 403,
    });
  });
});

describe('suggestions', () => {
  const base = {
    status: 'active',
    photos: 1,
    views: 5,
    viewsLast14Days: 5,
    wishlists: 0,
    offers: 0,
    daysListed: 5,
  };
  it('name what a seller might do', () => {
    expect(suggestionFor(base)).toBeNull();
    expect(suggestionFor({ ...base, photos: 0 })).toMatch(/^No photo yet/);
    expect(suggestionFor({ ...base, daysListed: 14, viewsLast14Days: 0 })).toBe(
      'No views in 14 days: consider a lower price or a better photo.',
    );
    expect(suggestionFor({ ...base, wishlists: 3 })).toBe(
      'Saved by 3 readers: a small price drop tells each of them.',
    );
    expect(suggestionFor({ ...base, views: 25 })).toMatch(/^Plenty of views/);
    expect(suggestionFor({ ...base, daysListed: 61 })).toMatch(/^Listed for over 60 days/);
    expect(suggestionFor({ ...base, status: 'sold', photos: 0 })).toBeNull();
  });
});
