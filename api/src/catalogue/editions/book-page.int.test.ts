/**
 * The book page (decision 0081) through the real app: a work's editions and every copy on sale,
 * priced all-in as the listing page and checkout price them, each with its seller's rating;
 * narrowed to an edition; NOT_FOUND for an unknown book or edition; the REST door; and a
 * listing's other editions and "N more copies from £x".
 */
import { bookForListingSchema, bookPageSchema } from '@reshelf/contracts';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { liveShownPricer } from '../../commerce/index.ts';
import { ratingsOf } from '../../community/reviews/reviews.service.ts';
import type { Database } from '../../db/index.ts';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { createBook, createCharity, createListing, createPerson } from '../../testing/catalogue.ts';
import { api, failure } from '../../testing/client.ts';

let t: TestApp;
let db: Database;
let workSlug: string;
const editions = { paperback: '', hardback: '', unsold: '' };
const copies: Record<'cheap' | 'signed' | 'charity' | 'hardback' | 'sold', string> = {
  cheap: '',
  signed: '',
  charity: '',
  hardback: '',
  sold: '',
};
let sellerA: string;
let sellerB: string;

beforeAll(async () => {
  t = await createTestApp();
  db = t.database.handle.db;
  sellerA = await createPerson(db, 'page-a@reshelf.test', 'Ada Pages');
  sellerB = await createPerson(db, 'page-b@reshelf.test', 'Bea Pages');
  const charityOwner = await createPerson(db, 'page-hospice@reshelf.test', 'Hospice Volunteer');
  const charityId = await createCharity(db, {
    slug: 'page-hospice',
    name: 'Page Hospice Books',
    ownerId: charityOwner,
  });
  const authors = ['Ursula K. Le Guin'];
  editions.paperback = await createBook(db, {
    title: 'The Dispossessed',
    authors,
    isbn13: '9780060512750',
    description: 'An ambiguous utopia.',
  });
  editions.hardback = await createBook(db, { title: 'The Dispossessed', authors, isbn13: '9780060125639' });
  editions.unsold = await createBook(db, { title: 'Dispossessed', authors, isbn13: '9781857988826' });
  await db
    .updateTable('books')
    .set({ publisher: 'Harper Voyager', published_year: 2003 })
    .where('id', '=', editions.paperback)
    .execute();
  const make = async (
    key: keyof typeof copies,
    bookId: string,
    price: number,
    extra: Parameters<typeof createListing>[1] extends infer T ? Partial<T> : never,
  ) => {
    copies[key] = (await createListing(db, { sellerId: sellerA, bookId, price, ...extra })).slug;
  };
  await make('cheap', editions.paperback, 350, { condition: 'well_read' });
  await make('signed', editions.paperback, 2500, {
    condition: 'very_good',
    sellerId: sellerB,
    parcelSize: 'medium',
  });
  await make('charity', editions.paperback, 600, {
    condition: 'like_new',
    charityId,
    sellerId: charityOwner,
  });
  await make('hardback', editions.hardback, 1200, { condition: 'good', sellerId: sellerB });
  await make('sold', editions.hardback, 100, { status: 'sold' });
  await db
    .updateTable('listings')
    .set({ signed: true, bookman_grade: 'near_fine', dust_jacket: 'very_good', format: 'paperback' })
    .where('slug', '=', copies.signed)
    .execute();
  await db.updateTable('listings').set({ format: 'hardback' }).where('slug', '=', copies.hardback).execute();
  const work = await db
    .selectFrom('books')
    .innerJoin('works', 'works.id', 'books.work_id')
    .select('works.slug')
    .where('books.id', '=', editions.paperback)
    .executeTakeFirstOrThrow();
  workSlug = work.slug;
});

afterAll(async () => {
  await t?.close();
});

describe('catalogue.books.public.bySlug', () => {
  it('answers the work, its editions with copies and lowest all-in price, and every copy on sale', async () => {
    const page = await api(t.app).catalogue.books.public.bySlug.query({ slug: workSlug });
    expect(page.work).toMatchObject({
      slug: workSlug,
      title: 'The Dispossessed',
      authors: ['Ursula K. Le Guin'],
      description: 'An ambiguous utopia.',
    });
    // All three editions, those with copies first (the paperback has three).
    expect(page.editions.map((edition) => edition.id)).toEqual([
      editions.paperback,
      editions.hardback,
      editions.unsold,
    ]);
    expect(page.editions.map((edition) => edition.copiesOnSale)).toEqual([3, 1, 0]);
    expect(page.editions[2]!.lowestAllInMinor).toBeNull();
    expect(page.editions[1]!.formats).toEqual(['hardback']);
    expect(page.editions[0]).toMatchObject({ publisher: 'Harper Voyager', publishedYear: 2003 });

    // The sold copy is not on sale; the rest cheapest all-in first.
    expect(page.copies.map((copy) => copy.listingSlug)).toEqual([
      copies.cheap,
      copies.charity,
      copies.hardback,
      copies.signed,
    ]);
    expect(page.copiesOnSale).toBe(4);
    expect(page.lowAllInMinor).toBe(page.copies[0]!.allInMinor);
    expect(page.highAllInMinor).toBe(page.copies[3]!.allInMinor);
    expect(page.editions[0]!.lowestAllInMinor).toBe(page.copies[0]!.allInMinor);
    // /trpc trusts the answer (withTrustedOutput): its schema would leave it as it is.
    expect(bookPageSchema.parse(page)).toEqual(page);
  });

  it('prices every copy as the listing page and shownPrice do (what checkout charges before postage)', async () => {
    const page = await api(t.app).catalogue.books.public.bySlug.query({ slug: workSlug });
    const pricer = await liveShownPricer(db);
    for (const copy of page.copies) {
      const listing = await api(t.app).catalogue.listings.bySlug.query({ slug: copy.listingSlug });
      expect(copy.allInMinor).toBe(listing.price.allInMinor);
      expect(copy.postageFromMinor).toBe(listing.price.postageMinor);
      const shown = pricer({
        priceMinor: listing.price.itemMinor,
        parcelSize: listing.price.parcelSize,
        format: listing.format,
        pageCount: listing.pageCount,
      });
      expect(copy.postageFromMinor).toBe(shown.postageFromMinor);
      expect(copy.allInMinor).toBe(shown.allInMinor);
      // The all-in price is more than the item price: buyer protection is in it.
      expect(copy.allInMinor).toBeGreaterThan(listing.price.itemMinor);
    }
  });

  it('says what each copy is: condition, Bookman grade when collectable, jacket, attributes, seller and rating', async () => {
    const page = await api(t.app).catalogue.books.public.bySlug.query({ slug: workSlug });
    const bySlug = Object.fromEntries(page.copies.map((copy) => [copy.listingSlug, copy]));
    expect(bySlug[copies.signed]).toMatchObject({
      condition: 'very_good',
      bookmanGrade: 'near_fine',
      dustJacket: 'very_good',
      format: 'paperback',
      attributes: ['signed'],
      sellerName: 'Bea Pages',
      charity: null,
    });
    // Not collectable: no Bookman grade.
    expect(bySlug[copies.cheap]).toMatchObject({
      condition: 'well_read',
      bookmanGrade: null,
      attributes: [],
    });
    expect(bySlug[copies.charity]).toMatchObject({
      sellerName: 'Page Hospice Books',
      charity: { slug: 'page-hospice', name: 'Page Hospice Books' },
    });
    const ratings = await ratingsOf(db, [...new Set(page.copies.map((copy) => copy.sellerId))]);
    expect(Object.keys(ratings)).toHaveLength(3);
    for (const copy of page.copies) expect(copy.sellerRating).toEqual(ratings[copy.sellerId]);
  });

  it('narrows the copies to one edition, keeping every edition listed', async () => {
    const page = await api(t.app).catalogue.books.public.bySlug.query({
      slug: workSlug,
      edition: editions.hardback,
    });
    expect(page.editionId).toBe(editions.hardback);
    expect(page.copies.map((copy) => copy.listingSlug)).toEqual([copies.hardback]);
    expect(page.copiesOnSale).toBe(1);
    expect(page.editions).toHaveLength(3);

    const none = await api(t.app).catalogue.books.public.bySlug.query({
      slug: workSlug,
      edition: editions.unsold,
    });
    expect(none.copies).toEqual([]);
    expect(none.lowAllInMinor).toBeNull();
    expect(none.work.title).toBe('The Dispossessed');
  });

  it('answers NOT_FOUND, saying what, for an unknown book or an edition of another book', async () => {
    const unknown = await failure(api(t.app).catalogue.books.public.bySlug.query({ slug: 'no-such-book' }));
    expect(unknown).toMatchObject({ code: 'NOT_FOUND', message: 'There is no book at “no-such-book”.' });
    const other = await createBook(db, { title: 'Another Book Entirely', authors: ['Some One'] });
    const wrong = await failure(
      api(t.app).catalogue.books.public.bySlug.query({ slug: workSlug, edition: other }),
    );
    expect(wrong.code).toBe('NOT_FOUND');
    expect(wrong.message).toContain('has no edition');
    const bad = await failure(
      api(t.app).catalogue.books.public.bySlug.query({ slug: workSlug, edition: 'hardback' }),
    );
    expect(bad.code).toBe('BAD_REQUEST');
    expect(bad.message).toContain('Edition must be the id of one of the book’s editions');
  });

  it('is on the REST API: GET /books/{slug} and ?edition=, with 404 for an unknown book', async () => {
    const page = await request(t.app.server).get(`/api/v1/books/${workSlug}`);
    expect(page.status).toBe(200);
    expect(page.body.copies).toHaveLength(4);
    const one = await request(t.app.server).get(`/api/v1/books/${workSlug}?edition=${editions.hardback}`);
    expect(one.status).toBe(200);
    expect(one.body.copies).toHaveLength(1);
    const missing = await request(t.app.server).get('/api/v1/books/no-such-book');
    expect(missing.status).toBe(404);
    // The search keeps its own path.
    const search = await request(t.app.server).get('/api/v1/books/search?q=dispossessed');
    expect(search.status).toBe(200);
    expect(search.body.items[0].workSlug).toBe(workSlug);
  });
});

describe('catalogue.books.public.forListing', () => {
  it('answers the other editions on sale and how many more copies, from the lowest all-in price', async () => {
    const book = await api(t.app).catalogue.books.public.forListing.query({ slug: copies.charity });
    expect(book.workSlug).toBe(workSlug);
    expect(book.editionId).toBe(editions.paperback);
    // Editions without a copy on sale are not offered.
    expect(book.otherEditions.map((edition) => edition.id)).toEqual([editions.hardback]);
    expect(book.moreCopies).toBe(3);
    expect(bookForListingSchema.parse(book)).toEqual(book);
    const cheap = await api(t.app).catalogue.listings.bySlug.query({ slug: copies.cheap });
    expect(book.moreCopiesFromMinor).toBe(cheap.price.allInMinor);

    // From the cheapest copy, the next cheapest is the "from".
    const fromCheap = await api(t.app).catalogue.books.public.forListing.query({ slug: copies.cheap });
    const charity = await api(t.app).catalogue.listings.bySlug.query({ slug: copies.charity });
    expect(fromCheap.moreCopiesFromMinor).toBe(charity.price.allInMinor);
  });

  it('answers no more copies for a book with one copy, and NOT_FOUND for an unknown listing', async () => {
    const lone = await createBook(db, { title: 'A Lone Copy', authors: ['Only Once'] });
    const { slug } = await createListing(db, { sellerId: sellerA, bookId: lone });
    const book = await api(t.app).catalogue.books.public.forListing.query({ slug });
    expect(book).toMatchObject({ moreCopies: 0, moreCopiesFromMinor: null, otherEditions: [] });
    const missing = await failure(
      api(t.app).catalogue.books.public.forListing.query({ slug: 'no-such-copy' }),
    );
    expect(missing.code).toBe('NOT_FOUND');
    const rest = await request(t.app.server).get(`/api/v1/listings/${copies.cheap}/book`);
    expect(rest.status).toBe(200);
    expect(rest.body.moreCopies).toBe(3);
  });
});
