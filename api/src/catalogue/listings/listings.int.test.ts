import {
  DEFAULT_POSTAGE_RATES,
  type ListingPage,
  listingCardSchema,
  listingDetailSchema,
  listingPageSchema,
  parcelFor,
  postageFromFor,
  type SearchResult,
  searchInputSchema,
  searchResultSchema,
} from '@reshelf/contracts';
import type { KyselyPlugin } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/index.ts';
import { seedCatalogueDemo } from '../../seed/catalogue-demo.ts';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { WEB } from '../../testing/auth.ts';
import {
  createBook,
  createCharity,
  createListing,
  createPerson,
  rawTrpcQuery,
} from '../../testing/catalogue.ts';
import { api, type RouterInputs, statusOf } from '../../testing/client.ts';
import { getListingBySlug, searchListings } from './listings.service.ts';

let t: TestApp;
let db: Database;
let sellerId: string;

beforeAll(async () => {
  t = await createTestApp();
  db = t.database.handle.db;
  await seedCatalogueDemo(db);
  sellerId = await createPerson(db, 'fixtures@reshelf.test', 'Fixture Books');
  // Newer than every demo listing, and with the whole of "Pride and Prejudice" in its title:
  // the exact title must still rank first.
  const zombies = await createBook(db, {
    title: 'Pride and Prejudice and Zombies',
    authors: ['Seth Grahame-Smith'],
    isbn13: '9781594743344',
    category: 'fiction',
    genres: ['horror', 'humour'],
  });
  await createListing(db, { sellerId, bookId: zombies, price: 350, publishedAt: new Date() });
});

afterAll(async () => {
  await t?.close();
});

async function search(input: RouterInputs['catalogue']['listings']['search']): Promise<SearchResult> {
  return await api(t.app).catalogue.listings.search.query(input);
}

async function browse(input: RouterInputs['catalogue']['listings']['browse'] = {}): Promise<ListingPage> {
  return await api(t.app).catalogue.listings.browse.query(input);
}

const titles = (page: ListingPage) => page.items.map((item) => item.title);

describe('search relevance', () => {
  it('ranks an exact title first, ahead of newer listings that contain it', async () => {
    const result = await search({ q: 'Pride and Prejudice' });
    expect(result.items[0]!.title).toBe('Pride and Prejudice');
    expect(titles(result)).toContain('Pride and Prejudice and Zombies');
    expect(titles(result).indexOf('Pride and Prejudice and Zombies')).toBeGreaterThan(0);
  });

  it('ranks a short exact title above books that only mention the word', async () => {
    const result = await search({ q: 'Emma' });
    expect(result.items[0]!.title).toBe('Emma');
    expect(titles(result)).toContain('One Day'); // "Emma and Dexter meet…"
  });

  it('finds books by author, with or without accents', async () => {
    const accented = titles(await search({ q: 'Brontë' }));
    expect(accented).toContain('Wuthering Heights');
    expect(titles(await search({ q: 'bronte' }))).toEqual(accented);
    expect(titles(await search({ q: 'Dickens' }))[0]).toBe('Great Expectations');
    expect(titles(await search({ q: 'jane austen' })).slice(0, 4)).toEqual(
      expect.arrayContaining(['Pride and Prejudice', 'Emma']),
    );
  });

  it('finds a book by ISBN-13 or ISBN-10, with or without hyphens', async () => {
    for (const q of [
      '9780141439518',
      '978-0-14-143951-8',
      '0141439513',
      '0-14-143951-3',
      'ISBN 978 0141 439518',
    ]) {
      const result = await search({ q });
      expect(result.isbn, q).toBe('9780141439518');
      expect(result.items[0]!.title, q).toBe('Pride and Prejudice');
      expect(result.items[0]!.isbn13).toBe('9780141439518');
    }
  });

  it('still finds a book from a misspelt title or author', async () => {
    const cases = [
      ['Pride and Prejudise', 'Pride and Prejudice'],
      ['Hary Poter', "Harry Potter and the Philosopher's Stone"],
      ['Wuthering Hieghts', 'Wuthering Heights'],
      ['the hobit', 'The Hobbit'],
      ['Tolkein', 'The Hobbit'],
      ['Handmaids Tail', "The Handmaid's Tale"],
    ] as const;
    for (const [q, expected] of cases) {
      expect(titles(await search({ q })).slice(0, 2), q).toContain(expected);
    }
  });

  it('searches descriptions too', async () => {
    expect(titles(await search({ q: 'Yorkshire moors' }))[0]).toBe('Wuthering Heights');
  });

  it('understands quoted phrases and leaves out -words', async () => {
    const phrase = titles(await search({ q: '"pride and prejudice" -zombies' }));
    expect(phrase).toContain('Pride and Prejudice');
    expect(phrase).not.toContain('Pride and Prejudice and Zombies');
  });
});

describe('filters and sorts', () => {
  it('filters by category, including through search', async () => {
    const page = await browse({ category: 'crime-thriller', pageSize: 48 });
    expect(page.total).toBeGreaterThan(3);
    expect(titles(page)).toContain('The Thursday Murder Club');
    expect(titles(page)).not.toContain('Pride and Prejudice');
    const searched = await search({ q: 'pride', category: 'crime-thriller' });
    expect(searched.total).toBe(0);
  });

  it('filters by genre', async () => {
    const page = await browse({ genre: 'dystopian', pageSize: 48 });
    expect(titles(page)).toEqual(expect.arrayContaining(['Nineteen Eighty-Four', 'The Hunger Games']));
    expect(titles(page)).not.toContain('Emma');
  });

  it('filters by one or more conditions', async () => {
    const page = await browse({ condition: 'like_new,well_read', pageSize: 48 });
    expect(page.total).toBeGreaterThan(0);
    expect(page.items.every((item) => item.condition === 'like_new' || item.condition === 'well_read')).toBe(
      true,
    );
  });

  it('filters by the all-in price (decision 0071), inclusive at both ends', async () => {
    const all = await browse({ pageSize: 48, sort: 'price_asc' });
    const cheapest = all.items[0]!.allInMinor;
    const page = await browse({ minPrice: cheapest, maxPrice: cheapest, pageSize: 48 });
    expect(page.total).toBeGreaterThan(0);
    expect(page.items.every((item) => item.allInMinor === cheapest)).toBe(true);
    const range = await browse({ minPrice: 500, maxPrice: 800, pageSize: 48 });
    expect(range.total).toBeGreaterThan(0);
    expect(range.items.every((item) => item.allInMinor >= 500 && item.allInMinor <= 800)).toBe(true);
    // A penny either side of a listing's all-in price takes it out: the bounds are exact.
    const edge = all.items[1]!;
    const above = await browse({ minPrice: edge.allInMinor + 1, pageSize: 48, sort: 'price_asc' });
    expect(above.items.map((item) => item.id)).not.toContain(edge.id);
    const below = await browse({ maxPrice: edge.allInMinor - 1, pageSize: 48, sort: 'price_asc' });
    expect(below.items.map((item) => item.id)).not.toContain(edge.id);
    // Sorted by price, the all-in prices are in order too (they rise with the item price).
    const shown = all.items.map((item) => item.allInMinor);
    expect(shown).toEqual([...shown].sort((a, b) => a - b));
  });

  it('filters to charity sellers, or one charity', async () => {
    const charities = await browse({ charityOnly: true, pageSize: 48 });
    expect(charities.total).toBeGreaterThan(5);
    expect(charities.items.every((item) => item.charity !== null)).toBe(true);
    const one = await browse({ charity: 'leith-literacy-trust', pageSize: 48 });
    expect(one.total).toBeGreaterThan(0);
    expect(one.items.every((item) => item.charity?.slug === 'leith-literacy-trust')).toBe(true);
    expect(one.total).toBeLessThan(charities.total);
  });

  it('filters to one seller', async () => {
    const page = await browse({ seller: sellerId });
    expect(titles(page)).toEqual(['Pride and Prejudice and Zombies']);
  });

  it('combines filters: category, condition, price and charity', async () => {
    const page = await browse({
      category: 'fiction',
      condition: 'very_good,good',
      minPrice: 300,
      maxPrice: 1200,
      sort: 'price_desc',
      pageSize: 48,
    });
    expect(page.total).toBeGreaterThan(0);
    for (const item of page.items) {
      expect(['very_good', 'good']).toContain(item.condition);
      expect(item.priceMinor).toBeGreaterThanOrEqual(300);
      expect(item.priceMinor).toBeLessThanOrEqual(1200);
    }
    const prices = page.items.map((item) => item.priceMinor);
    expect(prices).toEqual([...prices].sort((a, b) => b - a));
    const withCharity = await browse({
      category: 'fiction',
      charityOnly: true,
      condition: 'good,very_good,like_new,well_read',
    });
    expect(withCharity.items.every((item) => item.charity)).toBe(true);
    const searched = await search({
      q: 'austen',
      condition: 'like_new,very_good,good,well_read',
      maxPrice: 100_000,
    });
    expect(searched.total).toBeGreaterThan(2);
  });

  it('sorts by price both ways and by newest', async () => {
    const up = (await browse({ sort: 'price_asc', pageSize: 48 })).items.map((item) => item.priceMinor);
    expect(up).toEqual([...up].sort((a, b) => a - b));
    const down = (await browse({ sort: 'price_desc', pageSize: 48 })).items.map((item) => item.priceMinor);
    expect(down).toEqual([...down].sort((a, b) => b - a));
    const newest = (await browse({ sort: 'newest', pageSize: 48 })).items.map((item) => item.publishedAt);
    expect(newest).toEqual([...newest].sort().reverse());
    const searchedByPrice = (await search({ q: 'austen', sort: 'price_asc' })).items.map(
      (item) => item.priceMinor,
    );
    expect(searchedByPrice).toEqual([...searchedByPrice].sort((a, b) => a - b));
  });

  it('never shows drafts, sold, withdrawn or removed listings', async () => {
    const book = await createBook(db, { title: 'Quillon Hidden Shelf', category: 'fiction' });
    for (const status of ['draft', 'sold', 'withdrawn', 'removed', 'reserved'] as const) {
      await createListing(db, { sellerId, bookId: book, status });
    }
    expect((await search({ q: 'Quillon Hidden Shelf' })).total).toBe(0);
    await createListing(db, { sellerId, bookId: book });
    expect((await search({ q: 'Quillon Hidden Shelf' })).total).toBe(1);
  });
});

describe('pagination', () => {
  it('walks every result exactly once, page by page', async () => {
    const first = await browse({ pageSize: 10 });
    const seen = new Set<string>();
    let page = first;
    let n = 1;
    while (true) {
      for (const item of page.items) {
        expect(seen.has(item.id)).toBe(false);
        seen.add(item.id);
      }
      if (!page.hasNextPage) break;
      n += 1;
      page = await browse({ pageSize: 10, page: n, asOf: first.asOf });
    }
    expect(seen.size).toBe(first.total);
  });

  it('stays stable when new listings are published between pages', async () => {
    const first = await browse({ pageSize: 5, sort: 'newest' });
    const expected = await browse({ pageSize: 10, sort: 'newest', asOf: first.asOf });
    const book = await createBook(db, { title: 'A Newly Listed Book', category: 'fiction' });
    for (let i = 0; i < 3; i++) {
      await createListing(db, { sellerId, bookId: book, price: 100 + i, publishedAt: new Date() });
    }
    const second = await browse({ pageSize: 5, page: 2, sort: 'newest', asOf: first.asOf });
    expect([...first.items, ...second.items].map((item) => item.id)).toEqual(
      expected.items.map((item) => item.id),
    );
    // Cheapest-first would put the new 1.00 listings at the very front: as of the first page they don't exist.
    const cheapFirst = await browse({ pageSize: 5, sort: 'price_asc', asOf: first.asOf });
    expect(cheapFirst.items.map((item) => item.title)).not.toContain('A Newly Listed Book');
    // A fresh visit sees them.
    expect(titles(await browse({ pageSize: 5, sort: 'newest' }))).toContain('A Newly Listed Book');
  });

  it('keeps search pages stable too', async () => {
    const first = await search({ q: 'the', pageSize: 4 });
    const book = await createBook(db, { title: 'The Latest Arrival', category: 'fiction' });
    await createListing(db, { sellerId, bookId: book, publishedAt: new Date() });
    const again = await search({ q: 'the', pageSize: 4, asOf: first.asOf });
    expect(again.items.map((item) => item.id)).toEqual(first.items.map((item) => item.id));
    expect(again.total).toBe(first.total);
  });

  it('answers a page past the end with an empty page, not an error', async () => {
    const page = await browse({ page: 500, pageSize: 48 });
    expect(page.items).toEqual([]);
    expect(page.hasNextPage).toBe(false);
    expect(page.total).toBeGreaterThan(50);
    const searched = await search({ q: 'austen', page: 300 });
    expect(searched.items).toEqual([]);
    expect(searched.total).toBeGreaterThan(2);
  });
});

describe('bad input never becomes a 500', () => {
  // Raw HTTP on purpose: these tables send input the typed client would refuse to type.
  const clean200 = [
    { q: '📚📖🦄' },
    { q: "'; drop table listings; --" },
    { q: '" unbalanced quote' },
    { q: "O'Brien's \"half" },
    { q: '((( ))) & | ! <-> :* \\' },
    { q: '-' },
    { q: 'OR' },
    { q: 'é'.repeat(200) },
  ];
  it.each(clean200)('searches for %j and answers cleanly', async (input) => {
    const response = await rawTrpcQuery(t.app, 'catalogue.listings.search', input);
    expect(response.status).toBe(200);
    expect(Array.isArray(response.body.result.data.items)).toBe(true);
  });

  const clear400 = [
    ['empty search', 'catalogue.listings.search', { q: '' }, /Enter something to search for/],
    ['blank search', 'catalogue.listings.search', { q: '   \t ' }, /Enter something to search for/],
    ['10 KB search', 'catalogue.listings.search', { q: 'x'.repeat(10_240) }, /at most 200 characters/],
    // PostgreSQL cannot store a NUL: refused at the boundary, naming the field (decision 0025).
    [
      'NUL in a search',
      'catalogue.listings.search',
      { q: 'a\u0000b' },
      /q: Text cannot contain a NUL character/,
    ],
    ['no search text', 'catalogue.listings.search', {}, /Enter something to search for/],
    ['negative price', 'catalogue.listings.browse', { minPrice: -100 }, /cannot be negative/],
    ['absurd price', 'catalogue.listings.browse', { maxPrice: 1e12 }, /at most £10,000/],
    ['fractional price', 'catalogue.listings.browse', { maxPrice: 9.5 }, /whole number of pence/],
    ['price as text', 'catalogue.listings.browse', { minPrice: 'cheap' }, /minimum price must be a number/],
    [
      'prices reversed',
      'catalogue.listings.browse',
      { minPrice: 900, maxPrice: 100 },
      /must not be more than the maximum/,
    ],
    ['page 0', 'catalogue.listings.browse', { page: 0 }, /Page must be 1 or more/],
    ['absurd page', 'catalogue.listings.browse', { page: 99_999_999 }, /Page can be at most 10000/],
    ['huge page size', 'catalogue.listings.browse', { pageSize: 1000 }, /Page size can be at most 48/],
    ['unknown sort', 'catalogue.listings.browse', { sort: 'random' }, /sort/],
    ['unknown condition', 'catalogue.listings.browse', { condition: 'mint' }, /Condition must be/],
    ['bad category slug', 'catalogue.listings.browse', { category: '../../etc' }, /category/],
    ['bad asOf', 'catalogue.listings.browse', { asOf: 'yesterday' }, /asOf/],
    ['bad seller id', 'catalogue.listings.browse', { seller: '1 or 1=1' }, /seller id/],
    ['bad listing slug', 'catalogue.listings.bySlug', { slug: "x' or '1'='1" }, /slug/],
  ] as const;
  it.each(clear400)('answers %s with a clear 400', async (_name, path, input, message) => {
    const response = await rawTrpcQuery(t.app, path, input);
    expect(response.status).toBe(400);
    expect(response.body.error.message).toMatch(message);
    expect(JSON.stringify(response.body)).not.toMatch(/select |stack|at async/i);
  });

  it('answers malformed JSON input with a 400', async () => {
    const response = await rawTrpcQuery(t.app, 'catalogue.listings.browse').query('input=%7Bnot-json');
    expect(response.status).toBe(400);
  });

  const clear404 = [
    [
      'unknown category',
      'catalogue.listings.browse',
      { category: 'underwater-basket-weaving' },
      /no category called/,
    ],
    ['unknown genre', 'catalogue.listings.browse', { genre: 'no-such-genre' }, /no genre called/],
    ['unknown charity', 'catalogue.listings.browse', { charity: 'no-such-charity' }, /no charity called/],
    [
      'unknown listing',
      'catalogue.listings.bySlug',
      { slug: 'no-such-listing' },
      /couldn’t find that listing/,
    ],
  ] as const;
  it.each(clear404)('answers %s with a clear 404', async (_name, path, input, message) => {
    const response = await rawTrpcQuery(t.app, path, input);
    expect(response.status).toBe(404);
    expect(response.body.error.message).toMatch(message);
  });

  it('accepts an unknown seller id with an empty page', async () => {
    const page = await browse({ seller: '00000000-0000-4000-8000-000000000000' });
    expect(page.items).toEqual([]);
  });

  it('searches directly through the service with the same rules', async () => {
    const result = await searchListings(db, searchInputSchema.parse({ q: '  Hary   Poter ' }));
    expect(result.query).toBe('Hary Poter');
    expect(result.items[0]?.title).toBe("Harry Potter and the Philosopher's Stone");
  });
});

describe('the listing page', () => {
  it('shows the full price: item, postage from for the book alone, buyer protection with its VAT, total', async () => {
    const book = await createBook(db, { title: 'A Priced Book', category: 'fiction', genres: ['classics'] });
    const { slug } = await createListing(db, { sellerId, bookId: book, price: 799, parcelSize: 'medium' });
    const postage = postageFromFor(parcelFor([{ parcelSize: 'medium', format: null, pageCount: null }]).band);
    const detail = await api(t.app).catalogue.listings.bySlug.query({ slug });
    expect(detail).toMatchObject({
      title: 'A Priced Book',
      available: true,
      unavailableReason: null,
      category: { slug: 'fiction', name: 'Fiction' },
      genres: [{ slug: 'classics', name: 'Classics' }],
      seller: { id: sellerId, displayName: 'Fixture Books', charity: null },
      price: {
        itemMinor: 799,
        postageMinor: postage,
        protectionMinor: 110, // 70p + 5% of £7.99 (39.95p -> 40p)
        protectionVatMinor: 18,
        totalMinor: 799 + postage + 110,
        parcelSize: 'medium',
        protectionFixedMinor: 70,
        protectionPercent: 5,
      },
    });
  });

  it('follows the settings when staff change the fee or postage', async () => {
    const book = await createBook(db, { title: 'Settings Follow', category: 'fiction' });
    const { slug } = await createListing(db, { sellerId, bookId: book, price: 1000, parcelSize: 'large' });
    const band = parcelFor([{ parcelSize: 'large', format: null, pageCount: null }]).band;
    const rates = structuredClone(DEFAULT_POSTAGE_RATES);
    rates[band] = { home: 601, drop_off: 600 };
    await db
      .updateTable('settings')
      .set({ value: JSON.stringify(rates) })
      .where('key', '=', 'postage_rates')
      .execute();
    try {
      const detail = await api(t.app).catalogue.listings.bySlug.query({ slug });
      expect(detail.price).toMatchObject({ postageMinor: 600, protectionMinor: 120, totalMinor: 1720 });
    } finally {
      await db
        .updateTable('settings')
        .set({ value: JSON.stringify(DEFAULT_POSTAGE_RATES) })
        .where('key', '=', 'postage_rates')
        .execute();
    }
  });

  it('says a sold or removed listing is no longer available instead of erroring', async () => {
    const book = await createBook(db, { title: 'Gone Already', category: 'fiction' });
    const sold = await createListing(db, {
      sellerId,
      bookId: book,
      status: 'sold',
      description: 'Lovely copy',
    });
    const removed = await createListing(db, {
      sellerId,
      bookId: book,
      status: 'removed',
      description: 'Spam text',
    });
    const draft = await createListing(db, { sellerId, bookId: book, status: 'draft' });
    const soldDetail = await api(t.app).catalogue.listings.bySlug.query({ slug: sold.slug });
    expect(soldDetail).toMatchObject({
      available: false,
      unavailableReason: 'sold',
      description: 'Lovely copy',
    });
    const removedDetail = await api(t.app).catalogue.listings.bySlug.query({ slug: removed.slug });
    expect(removedDetail).toMatchObject({
      available: false,
      unavailableReason: 'removed',
      description: null,
    });
    expect(await statusOf(api(t.app).catalogue.listings.bySlug.query({ slug: draft.slug }))).toBe(404);
  });

  it('names the charity for a charity listing', async () => {
    const owner = await createPerson(db, 'owner@reshelf.test');
    const charityId = await createCharity(db, {
      slug: 'test-hospice-books',
      name: 'Test Hospice Books',
      town: 'Oxford',
      ownerId: owner,
    });
    const book = await createBook(db, { title: 'Charity Copy', category: 'fiction' });
    const { slug } = await createListing(db, { sellerId: owner, bookId: book, charityId });
    const detail = await api(t.app).catalogue.listings.bySlug.query({ slug });
    expect(detail.charity).toMatchObject({
      slug: 'test-hospice-books',
      name: 'Test Hospice Books',
      town: 'Oxford',
    });
    expect(detail.seller).toMatchObject({
      displayName: 'Test Hospice Books',
      charity: { slug: 'test-hospice-books' },
    });
  });

  it('suggests other copies of the same book first, then related books', async () => {
    const book = await createBook(db, { title: 'Twice Listed', category: 'history', genres: ['true-crime'] });
    const a = await createListing(db, { sellerId, bookId: book });
    const b = await createListing(db, {
      sellerId,
      bookId: book,
      publishedAt: new Date(Date.now() - 86_400_000),
    });
    const similar = await api(t.app).catalogue.listings.similar.query({ slug: a.slug });
    expect(similar[0]?.id).toBe(b.id);
    expect(similar.map((card) => card.id)).not.toContain(a.id);
    expect(similar.length).toBeGreaterThan(1);
  });

  it('counts a view once per visitor and day', async () => {
    const book = await createBook(db, { title: 'Viewed Book', category: 'fiction' });
    const { id } = await createListing(db, { sellerId, bookId: book });
    for (let i = 0; i < 3; i++) {
      const response = api(t.app, {
        headers: { ...WEB, 'user-agent': 'Test/1' },
      }).catalogue.listings.recordView.mutate({
        listingId: id,
      });
      expect(await statusOf(response)).toBe(200);
    }
    await api(t.app, { headers: { ...WEB, 'user-agent': 'Other/2' } }).catalogue.listings.recordView.mutate({
      listingId: id,
    });
    await t.app.listingViews.flush();
    const views = await db
      .selectFrom('listing_views')
      .select('viewer_key')
      .where('listing_id', '=', id)
      .execute();
    expect(views).toHaveLength(2);
    expect(views[0]!.viewer_key).toMatch(/^[A-Za-z0-9_-]{32}$/);
  });
});

describe('the hot reads', () => {
  it('read the listing page, its commercial settings included, in one statement', async () => {
    const book = await createBook(db, { title: 'One Round Trip', category: 'fiction' });
    const { slug } = await createListing(db, { sellerId, bookId: book, price: 1000, parcelSize: 'large' });
    let statements = 0;
    const counting: KyselyPlugin = {
      transformQuery: (args) => {
        statements += 1;
        return args.node;
      },
      transformResult: async (args) => args.result,
    };
    const detail = await getListingBySlug(db.withPlugin(counting), slug);
    expect(statements).toBe(1);
    const postage = postageFromFor(parcelFor([{ parcelSize: 'large', format: null, pageCount: null }]).band);
    expect(detail.price).toMatchObject({
      postageMinor: postage,
      protectionMinor: 120,
      totalMinor: 1120 + postage,
    });
  });

  it('answer exactly what their output schemas would (/trpc no longer parses them)', async () => {
    const book = await createBook(db, { title: 'Schema Shaped', category: 'fiction' });
    const { slug } = await createListing(db, { sellerId, bookId: book });
    const client = api(t.app).catalogue.listings;
    for (const [answer, schema] of [
      [await client.browse.query({}), listingPageSchema],
      [
        await client.browse.query({ category: 'fiction', sort: 'price_asc', page: 2, pageSize: 5 }),
        listingPageSchema,
      ],
      [await client.search.query({ q: 'Pride and Prejudice' }), searchResultSchema],
      [await client.search.query({ q: '9780141439518' }), searchResultSchema],
      [await client.bySlug.query({ slug }), listingDetailSchema],
      [await client.similar.query({ slug }), listingCardSchema.array()],
    ] as const) {
      expect(schema.parse(answer)).toStrictEqual(answer);
    }
  });
});
