import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/index.ts';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { createBook, createListing, createPerson } from '../../testing/catalogue.ts';
import { api, statusOf } from '../../testing/client.ts';
import { insertOrderRow } from '../../testing/orders.ts';

let t: TestApp;
let db: Database;
let sellerId: string;
let buyerId: string;

beforeAll(async () => {
  t = await createTestApp();
  db = t.database.handle.db;
  sellerId = await createPerson(db, 'shelf@reshelf.test', 'Shelf');
  buyerId = await createPerson(db, 'buyer@reshelf.test', 'Buyer');
});

afterAll(async () => {
  await t?.close();
});

async function views(listingId: string, count: number, daysAgo = 0) {
  const day = new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);
  for (let i = 0; i < count; i++) {
    await db
      .insertInto('listing_views')
      .values({ listing_id: listingId, viewed_on: day, viewer_key: `visitor-${listingId}-${daysAgo}-${i}` })
      .execute();
  }
}

describe('trending', () => {
  it('ranks books by recent views, wishlist saves and sales, showing an active copy', async () => {
    const viewed = await createBook(db, { title: 'Viewed A Lot', category: 'fiction' });
    const wished = await createBook(db, { title: 'Wished For', category: 'fiction' });
    const selling = await createBook(db, { title: 'Selling Fast', category: 'fiction' });
    const stale = await createBook(db, { title: 'Popular Last Year', category: 'fiction' });
    const viewedListing = await createListing(db, { sellerId, bookId: viewed });
    const wishedListing = await createListing(db, { sellerId, bookId: wished });
    const soldCopy = await createListing(db, { sellerId, bookId: selling, status: 'sold', price: 800 });
    const secondCopy = await createListing(db, { sellerId, bookId: selling, price: 900 });
    const staleListing = await createListing(db, { sellerId, bookId: stale });

    await views(viewedListing.id, 4); // 4 x 1
    await db
      .insertInto('wishlist_items')
      .values({ user_id: buyerId, listing_id: wishedListing.id })
      .execute();
    await views(wishedListing.id, 2); // 3 + 2 = 5
    await insertOrderRow(db, {
      buyer_id: buyerId,
      seller_id: sellerId,
      listing_id: soldCopy.id,
      status: 'completed',
      item_price_minor: 800,
      postage_minor: 299,
      buyer_protection_minor: 110,
      total_minor: 1209,
      paid_at: new Date(Date.now() - 2 * 86_400_000),
    });
    await views(secondCopy.id, 1); // 5 + 1 = 6
    await views(staleListing.id, 50, 30); // outside the window

    const trending: { id: string; title: string }[] = await api(
      t.app,
    ).catalogue.discovery.public.trending.query({
      limit: 10,
    });
    expect(trending.map((card) => card.title)).toEqual(['Selling Fast', 'Wished For', 'Viewed A Lot']);
    expect(trending[0]!.id).toBe(secondCopy.id); // the sold copy is not offered
  });
});

describe('staff picks and recently added', () => {
  it('lists active staff picks in order, with their notes', async () => {
    const a = await createBook(db, { title: 'Pick One', category: 'history' });
    const b = await createBook(db, { title: 'Pick Two', category: 'history' });
    const la = await createListing(db, { sellerId, bookId: a });
    const lb = await createListing(db, { sellerId, bookId: b });
    const gone = await createListing(db, { sellerId, bookId: b, status: 'sold' });
    await db
      .insertInto('staff_picks')
      .values([
        { listing_id: lb.id, position: 2, note: 'Second' },
        { listing_id: la.id, position: 1, note: 'First' },
        { listing_id: gone.id, position: 0, note: 'Sold: hidden' },
      ])
      .execute();
    const picks = await api(t.app).catalogue.discovery.public.staffPicks.query({});
    expect(picks.map((pick) => [pick.title, pick.note])).toEqual([
      ['Pick One', 'First'],
      ['Pick Two', 'Second'],
    ]);
  });

  it('lists recently added books newest first, never future-dated ones', async () => {
    const book = await createBook(db, { title: 'Brand New Listing', category: 'fiction' });
    await createListing(db, { sellerId, bookId: book, publishedAt: new Date() });
    await createListing(db, { sellerId, bookId: book, publishedAt: new Date(Date.now() + 86_400_000) });
    const recent = await api(t.app).catalogue.discovery.public.recent.query({ limit: 3 });
    expect(recent[0]?.title).toBe('Brand New Listing');
    expect(recent.filter((card) => card.title === 'Brand New Listing')).toHaveLength(1);
  });

  it('gathers the home page sections in one call', async () => {
    const home = await api(t.app).catalogue.discovery.public.home.query();
    expect(Object.keys(home).sort()).toEqual(['recent', 'staffPicks', 'trending']);
    expect(home.recent.length).toBeGreaterThan(0);
  });
});

describe('shelves', () => {
  it('counts active books per category and finds one by slug', async () => {
    const categories = await api(t.app).catalogue.discovery.public.categories.query();
    const history = categories.find((c) => c.slug === 'history');
    expect(history?.activeListings).toBe(2);
    const one = await api(t.app).catalogue.discovery.public.category.query({ slug: 'history' });
    expect(one).toMatchObject({
      slug: 'history',
      name: 'History',
      activeListings: 2,
      parent: null,
    });
    expect(
      await statusOf(api(t.app).catalogue.discovery.public.category.query({ slug: 'no-such-shelf' })),
    ).toBe(404);
  });

  it('includes sub-categories in a parent category', async () => {
    const parent = await db
      .selectFrom('categories')
      .select('id')
      .where('slug', '=', 'history')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('categories')
      .values({ slug: 'military-history', name: 'Military History', parent_id: parent.id })
      .execute();
    const book = await createBook(db, { title: 'Battles Long Ago', category: 'military-history' });
    await createListing(db, { sellerId, bookId: book });
    const browse = await api(t.app).catalogue.listings.browse.query({ category: 'history' });
    expect(browse.items.map((item) => item.title)).toContain('Battles Long Ago');
    const child = await api(t.app).catalogue.discovery.public.category.query({ slug: 'military-history' });
    expect(child.parent).toEqual({ slug: 'history', name: 'History' });
  });

  it('finds a genre by slug, or answers 404', async () => {
    const book = await createBook(db, {
      title: 'Cosy Village Mystery',
      category: 'crime-thriller',
      genres: ['cosy-crime'],
    });
    await createListing(db, { sellerId, bookId: book });
    const genre = await api(t.app).catalogue.discovery.public.genre.query({ slug: 'cosy-crime' });
    expect(genre).toMatchObject({ slug: 'cosy-crime', name: 'Cosy crime', activeListings: 1 });
    expect(
      await statusOf(api(t.app).catalogue.discovery.public.genre.query({ slug: 'space-westerns' })),
    ).toBe(404);
  });

  it('keeps genre filters right when a book’s genres change', async () => {
    const book = await createBook(db, { title: 'Changing Genres', category: 'fiction', genres: ['horror'] });
    await createListing(db, { sellerId, bookId: book });
    const humour = await db
      .selectFrom('genres')
      .select('id')
      .where('slug', '=', 'humour')
      .executeTakeFirstOrThrow();
    await db.insertInto('book_genres').values({ book_id: book, genre_id: humour.id }).execute();
    await db
      .deleteFrom('book_genres')
      .where('book_id', '=', book)
      .where('genre_id', '<>', humour.id)
      .execute();
    const inHumour = await api(t.app).catalogue.listings.browse.query({ genre: 'humour' });
    const inHorror = await api(t.app).catalogue.listings.browse.query({ genre: 'horror' });
    expect(inHumour.items.map((item) => item.title)).toContain('Changing Genres');
    expect(inHorror.items.map((item) => item.title)).not.toContain('Changing Genres');
    // And a renamed book is found by its new title.
    await db.updateTable('books').set({ title: 'Renamed Completely' }).where('id', '=', book).execute();
    const found = await api(t.app).catalogue.listings.search.query({ q: 'renamed completely' });
    expect(found.items[0]?.title).toBe('Renamed Completely');
    const { rows } = await sql<{
      n: number;
    }>`select count(*)::int as n from listings where genre_ids is null and status = 'active'`.execute(db);
    expect(rows[0]!.n).toBe(0);
  });
});

describe('search suggestions', () => {
  it('offers similar titles on sale and the fullest categories when a search finds nothing', async () => {
    const book = await createBook(db, { title: 'The Lighthouse Keeper', category: 'fiction' });
    await createListing(db, { sellerId, bookId: book });
    const empty = await api(t.app).catalogue.listings.search.query({ q: 'lighthouse diaries of a seafarer' });
    expect(empty.total).toBe(0);
    const suggestions = await api(t.app).catalogue.discovery.public.suggestions.query({
      q: 'lighthouse diaries of a seafarer',
    });
    expect(suggestions.titles[0]?.title).toBe('The Lighthouse Keeper');
    expect(suggestions.categories.length).toBeGreaterThan(0);
    expect(suggestions.categories[0]?.activeListings).toBeGreaterThanOrEqual(
      suggestions.categories.at(-1)!.activeListings,
    );
  });

  it('answers emoji or nonsense with categories only', async () => {
    const suggestions = await api(t.app).catalogue.discovery.public.suggestions.query({ q: '🦄🦄' });
    expect(suggestions.titles).toEqual([]);
    expect(suggestions.categories.length).toBeGreaterThan(0);
  });
});
