/**
 * Open Library's works join editions (decision 0082): a book created from a lookup that names
 * its work joins the work with that key, or the work its title and author give (which takes
 * the key); a lookup without one groups by title and author as offline. The adapter is the
 * real one, pointed at a local HTTP server shaped like Open Library's API.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/index.ts';
import { createOpenLibraryLookup } from '../../platform/book-lookup/book-lookup.ts';
import {
  type FakeEdition,
  type FakeOpenLibrary,
  startFakeOpenLibrary,
} from '../../platform/book-lookup/fake-open-library.ts';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { createUser, type TestUser } from '../../testing/auth.ts';
import { createBook } from '../../testing/catalogue.ts';
import { api } from '../../testing/client.ts';

let server: FakeOpenLibrary;
let t: TestApp;
let db: Database;
let seller: TestUser;
let isbnCounter = 0;

/** A valid ISBN-13 no one has used in this test yet. */
function freshIsbn(): string {
  isbnCounter += 1;
  const body = `978100${String(isbnCounter).padStart(6, '0')}`;
  const sum = [...body].reduce((total, digit, index) => total + Number(digit) * (index % 2 ? 3 : 1), 0);
  return `${body}${(10 - (sum % 10)) % 10}`;
}

beforeAll(async () => {
  server = await startFakeOpenLibrary();
  t = await createTestApp({
    services: (defaults) => ({
      ...defaults,
      bookLookup: createOpenLibraryLookup({ baseUrl: server.baseUrl }),
    }),
  });
  db = t.database.handle.db;
  seller = await createUser(db, t.services.identity, 'seller@works.test');
});

afterAll(async () => {
  await t?.close();
  await server?.close();
});

/** Open Library knows this ISBN as this book, in this work (or with this edition answer). */
function known(title: string, author: string, edition: FakeEdition['edition']): string {
  const isbn = freshIsbn();
  server.editions.set(isbn, { data: { title, authors: [{ name: author }] }, edition });
  return isbn;
}
const inWork = (key: string) => ({ body: { works: [{ key: `/works/${key}` }] } });

/** A seller starts a listing of the ISBN: the book is looked up and stored. */
async function listed(isbn: string) {
  const started = await api(t.app, seller.accessToken).selling.listings.start.mutate({ isbn });
  expect(started.source).toBe('openlibrary');
  return started.listing.book!.id;
}

async function workOf(bookId: string) {
  return db
    .selectFrom('books')
    .innerJoin('works', 'works.id', 'books.work_id')
    .select(['works.id', 'works.open_library_key', 'works.title', 'works.work_key'])
    .where('books.id', '=', bookId)
    .executeTakeFirstOrThrow();
}

describe('a book created from a lookup', () => {
  it('joins its Open Library work, whose other editions join it whatever their titles', async () => {
    const first = await listed(known('The Hobbit', 'J. R. R. Tolkien', inWork('OL27482W')));
    const work = await workOf(first);
    expect(work).toMatchObject({ open_library_key: 'OL27482W', work_key: 'hobbit|tolkien' });
    // A title offline grouping would put apart.
    const other = await listed(
      known('Hobbit, or There and Back Again', 'J.R.R. Tolkien', inWork('OL27482W')),
    );
    expect((await workOf(other)).id).toBe(work.id);
  });

  it('gives the key to the work its title and author give, when that work has none', async () => {
    const offline = await createBook(db, { title: 'Emma', authors: ['Jane Austen'] });
    const before = await workOf(offline);
    expect(before.open_library_key).toBeNull();
    const looked = await listed(known('Emma', 'Jane Austen', inWork('OL66554W')));
    expect(await workOf(looked)).toEqual({ ...before, open_library_key: 'OL66554W' });
  });

  it('keeps two Open Library works of one title and surname apart, offline books joining the first', async () => {
    const first = await listed(known('Collected Poems', 'Ann Smith', inWork('OL100W')));
    const second = await listed(known('Collected Poems', 'Bob Smith', inWork('OL200W')));
    const [a, b] = [await workOf(first), await workOf(second)];
    expect(a.open_library_key).toBe('OL100W');
    expect(b.open_library_key).toBe('OL200W');
    expect(b.id).not.toBe(a.id);
    const offline = await createBook(db, { title: 'Collected Poems', authors: ['C. Smith'] });
    expect((await workOf(offline)).id).toBe(a.id);
  });

  it('without a work key (missing or malformed works, or no edition record) is grouped by title and author', async () => {
    const offline = await createBook(db, { title: 'Middlemarch', authors: ['George Eliot'] });
    const work = await workOf(offline);
    for (const edition of [
      { body: { title: 'no works here' } },
      { body: { works: [{ key: '/authors/OL1A' }] } },
      { raw: 'not json' },
      undefined,
    ]) {
      const looked = await listed(known('Middlemarch', 'George Eliot', edition));
      expect(await workOf(looked)).toEqual(work);
    }
  });

  it('replacing what a seller typed moves the edition to its Open Library work; the emptied work goes', async () => {
    const isbn = freshIsbn();
    const started = await api(t.app, seller.accessToken).selling.listings.start.mutate({ isbn });
    expect(started.source).toBeNull();
    const typed = await api(t.app, seller.accessToken).selling.listings.update.mutate({
      listingId: started.listing.id,
      book: { title: 'A Title Nobody Else Has', authors: ['Some One'] },
    });
    const typedWork = await workOf(typed.book!.id);
    server.editions.set(isbn, {
      data: { title: 'Persuasion', authors: [{ name: 'Jane Austen' }] },
      edition: inWork('OL66555W'),
    });
    // Another seller's listing of the ISBN finds it now: it replaces the typed details.
    const other = await createUser(db, t.services.identity, 'other@works.test');
    const again = await api(t.app, other.accessToken).selling.listings.start.mutate({ isbn });
    expect(again.source).toBe('openlibrary');
    expect(again.listing.book!.id).toBe(typed.book!.id);
    expect(await workOf(typed.book!.id)).toMatchObject({ open_library_key: 'OL66555W', title: 'Persuasion' });
    expect(
      await db.selectFrom('works').select('id').where('id', '=', typedWork.id).executeTakeFirst(),
    ).toBeUndefined();
  });
});

describe('an edition’s series (decision 0089)', () => {
  async function placeOf(bookId: string) {
    return db
      .selectFrom('books')
      .innerJoin('works', 'works.id', 'books.work_id')
      .leftJoin('series', 'series.id', 'works.series_id')
      .select(['series.slug', 'series.name', 'series.open_library_name', 'works.series_position'])
      .where('books.id', '=', bookId)
      .executeTakeFirstOrThrow();
  }
  const withSeries = (key: string, series: unknown) => ({
    body: { works: [{ key: `/works/${key}` }], series },
  });

  it('places the work in the series its edition names, joining it by name from another spelling', async () => {
    const second = await listed(
      known('The Subtle Knife', 'Philip Pullman', withSeries('OL8900001W', ['His Dark Materials -- 2'])),
    );
    expect(await placeOf(second)).toMatchObject({
      slug: 'his-dark-materials',
      name: 'His Dark Materials',
      open_library_name: 'His Dark Materials',
      series_position: '2.0',
    });
    const first = await listed(
      known('Northern Lights', 'Philip Pullman', withSeries('OL8900002W', 'His dark materials ; bk. 1')),
    );
    expect(await placeOf(first)).toMatchObject({ slug: 'his-dark-materials', series_position: '1.0' });
    const half = await listed(
      known('Lyra’s Oxford', 'Philip Pullman', withSeries('OL8900003W', ['His Dark Materials (3.5)'])),
    );
    expect(await placeOf(half)).toMatchObject({ slug: 'his-dark-materials', series_position: '3.5' });
  });

  it('leaves the work in no series when the edition names none, or none it can read', async () => {
    const none = await listed(known('A Book Alone', 'Ann Single', inWork('OL8900004W')));
    expect(await placeOf(none)).toMatchObject({ slug: null, series_position: null });
    const unreadable = await listed(known('Another Alone', 'Ann Single', withSeries('OL8900005W', [42])));
    expect(await placeOf(unreadable)).toMatchObject({ slug: null, series_position: null });
  });
});
