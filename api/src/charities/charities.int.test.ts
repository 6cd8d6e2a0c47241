import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/index.ts';
import { createTestApp, type TestApp } from '../testing/app.ts';
import { createBook, createCharity, createListing, createPerson } from '../testing/catalogue.ts';
import { api, type RouterInputs, refusal } from '../testing/client.ts';

let t: TestApp;
let db: Database;

beforeAll(async () => {
  t = await createTestApp();
  db = t.database.handle.db;
  const owner = await createPerson(db, 'hospice@reshelf.test');
  const hospice = await createCharity(db, {
    slug: 'banbury-hospice-books',
    name: 'Banbury Hospice Books',
    town: 'Banbury',
    ownerId: owner,
  });
  await createCharity(db, { slug: 'st-aidans-book-shop', name: "St Aidan's Bookshop", town: 'Durham' });
  await createCharity(db, { slug: 'durham-dogs-trust-books', name: 'Durham Dogs Books', town: 'Durham' });
  await createCharity(db, {
    slug: 'pending-charity',
    name: 'Pending Books',
    town: 'Banbury',
    status: 'pending',
  });
  await createCharity(db, {
    slug: 'rejected-charity',
    name: 'Rejected Books',
    town: 'Banbury',
    status: 'rejected',
  });
  const book = await createBook(db, { title: 'Donated Novel', category: 'fiction' });
  await createListing(db, { sellerId: owner, bookId: book, charityId: hospice });
  await createListing(db, { sellerId: owner, bookId: book, charityId: hospice, status: 'sold' });
});

afterAll(async () => {
  await t?.close();
});

const directory = (input: RouterInputs['charities']['directory']) =>
  api(t.app).charities.directory.query(input);

describe('charity directory', () => {
  it('lists approved charities only, A to Z, with their towns', async () => {
    const all = await directory({});
    expect(all.items.map((c) => c.slug)).toEqual([
      'banbury-hospice-books',
      'durham-dogs-trust-books',
      'st-aidans-book-shop',
    ]);
    expect(all.towns).toEqual(['Banbury', 'Durham']);
    expect(all.items[0]!.activeListings).toBe(1);
  });

  it('searches by name (forgiving typos and accents) and by town', async () => {
    expect((await directory({ q: 'hospice' })).items.map((c) => c.slug)).toEqual(['banbury-hospice-books']);
    expect((await directory({ q: 'St Aidens' })).items.map((c) => c.slug)).toEqual(['st-aidans-book-shop']);
    expect((await directory({ town: 'durham' })).total).toBe(2);
    expect((await directory({ q: 'dogs', town: 'Durham' })).total).toBe(1);
    expect((await directory({ q: 'pending' })).total).toBe(0);
    expect((await directory({ q: '100%_\\' })).total).toBe(0);
  });

  it('refuses over-long search text with a 400', async () => {
    const response = await refusal(api(t.app).charities.directory.query({ q: 'x'.repeat(5000) }));
    expect(response.status).toBe(400);
    expect(response.message).toMatch(/at most 100 characters/);
  });
});

describe('charity profile', () => {
  it('shows an approved charity, and 404 for pending, rejected or unknown ones', async () => {
    const ok = await api(t.app).charities.bySlug.query({ slug: 'banbury-hospice-books' });
    expect(ok).toMatchObject({
      name: 'Banbury Hospice Books',
      town: 'Banbury',
      activeListings: 1,
    });
    for (const slug of ['pending-charity', 'rejected-charity', 'nobody-here']) {
      const response = await refusal(api(t.app).charities.bySlug.query({ slug }));
      expect(response.status).toBe(404);
      expect(response.message).toBe('We couldn’t find that charity on Reshelf.');
    }
  });

  it('features the charities with the most books', async () => {
    const featured = await api(t.app).charities.featured.query({ limit: 2 });
    expect(featured[0]?.slug).toBe('banbury-hospice-books');
    expect(featured).toHaveLength(2);
  });
});
