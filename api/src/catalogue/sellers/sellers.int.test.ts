import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { createBook, createCharity, createListing, createPerson } from '../../testing/catalogue.ts';
import { api, statusOf } from '../../testing/client.ts';

let t: TestApp;
let busy: string;
let quiet: string;

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.handle.db;
  busy = await createPerson(db, 'busy@reshelf.test', 'Busy Seller');
  quiet = await createPerson(db, 'quiet@reshelf.test', 'Quiet Seller');
  const charityOwner = await createPerson(db, 'books@charity.test', 'charity user');
  const charity = await createCharity(db, {
    slug: 'shelter-books',
    name: 'Shelter Books',
    town: 'Leeds',
    ownerId: charityOwner,
  });
  const book = await createBook(db, { title: 'Any Book', category: 'fiction' });
  for (let i = 0; i < 3; i++) await createListing(db, { sellerId: busy, bookId: book });
  await createListing(db, { sellerId: quiet, bookId: book, status: 'sold' });
  await createListing(db, { sellerId: charityOwner, bookId: book, charityId: charity });
});

afterAll(async () => {
  await t?.close();
});

describe('sellers', () => {
  it('discovers sellers with books on sale, busiest first, charities by their name', async () => {
    const sellers = await api(t.app).catalogue.sellers.discover.query({});
    expect(sellers.map((s) => s.displayName)).toEqual(['Busy Seller', 'Shelter Books']);
    expect(sellers[0]?.activeListings).toBe(3);
    expect(sellers[1]?.charity).toEqual({ slug: 'shelter-books', name: 'Shelter Books' });
  });

  it('shows a seller’s profile even with nothing on sale, and 404 for an unknown id', async () => {
    const profile = await api(t.app).catalogue.sellers.byId.query({ sellerId: quiet });
    expect(profile).toMatchObject({ id: quiet, displayName: 'Quiet Seller', activeListings: 0 });
    const missing = api(t.app).catalogue.sellers.byId.query({
      sellerId: '00000000-0000-4000-8000-000000000000',
    });
    expect(await statusOf(missing)).toBe(404);
    const malformed = api(t.app).catalogue.sellers.byId.query({ sellerId: 'abc' });
    expect(await statusOf(malformed)).toBe(400);
    expect(busy).toBeTruthy();
  });
});
