/**
 * Catalogue poisoning (decision 0061). The probe: seller A listed an ISBN the
 * catalogue lacked with a hostile title; seller B's listing of the same ISBN then came
 * pre-filled with A's title, and B could not change it. Now what a seller types makes an
 * unverified book: nobody else is handed it as fact, later sellers may correct it, a lookup
 * that finds the book replaces it, and staff confirm it.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/index.ts';
import type { BookLookupPort, ExternalBook } from '../../platform/book-lookup/book-lookup.ts';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { createUser, type TestUser } from '../../testing/auth.ts';
import type { RouterInputs } from '../../testing/client.ts';
import { api, refusal } from '../../testing/client.ts';

const HOSTILE_TITLE = 'FREE MONEY — pay by bank transfer to 12-34-56, see evil.example';
const found = new Map<string, ExternalBook>();
const lookup: BookLookupPort = {
  kind: 'openlibrary',
  lookup: async (isbn) => found.get(isbn) ?? null,
  find: async (isbn) => {
    const book = found.get(isbn);
    return book ? { status: 'found', book } : { status: 'not_found' };
  },
};

let t: TestApp;
let db: Database;
let a: TestUser;
let b: TestUser;
let c: TestUser;
let moderator: TestUser;
let isbnCounter = 0;

/** A valid ISBN-13 no one has used in this test yet. */
function freshIsbn(): string {
  isbnCounter += 1;
  const body = `978000${String(isbnCounter).padStart(6, '0')}`;
  const sum = [...body].reduce((total, digit, index) => total + Number(digit) * (index % 2 ? 3 : 1), 0);
  return `${body}${(10 - (sum % 10)) % 10}`;
}

beforeAll(async () => {
  t = await createTestApp({ services: (defaults) => ({ ...defaults, bookLookup: lookup }) });
  db = t.database.handle.db;
  a = await createUser(db, t.services.identity, 'seller-a@books.test');
  b = await createUser(db, t.services.identity, 'seller-b@books.test');
  c = await createUser(db, t.services.identity, 'seller-c@books.test');
  moderator = await createUser(db, t.services.identity, 'moderator@books.test', { roles: ['moderator'] });
});

afterAll(async () => {
  await t?.close();
});

const start = (user: TestUser, isbn: string) =>
  api(t.app, user.accessToken).selling.listings.start.mutate({ isbn });
const update = (user: TestUser, input: RouterInputs['selling']['listings']['update']) =>
  api(t.app, user.accessToken).selling.listings.update.mutate(input);
const verificationOf = async (isbn: string) =>
  (await db.selectFrom('books').select('verification').where('isbn13', '=', isbn).executeTakeFirstOrThrow())
    .verification;

/** Seller A lists an ISBN nobody knows, with the details they type. */
async function typedBy(user: TestUser, isbn: string, title: string) {
  const started = await start(user, isbn);
  expect(started.source).toBeNull();
  const typed = await update(user, { listingId: started.listing.id, book: { title, authors: ['Anyone'] } });
  return typed;
}

describe('a book a seller typed', () => {
  it('is not handed to the next seller as fact, who may correct it (the probe)', async () => {
    const isbn = freshIsbn();
    const first = await typedBy(a, isbn, HOSTILE_TITLE);
    expect(first.book).toMatchObject({ title: HOSTILE_TITLE, editable: true });
    expect(await verificationOf(isbn)).toBeNull();

    // B starts from the same ISBN: nothing pre-filled from A's words.
    const second = await start(b, isbn);
    expect(second.source).toBeNull();
    expect(second.listing.book).toBeNull();
    expect(second.listing.missing).toContain('details');
    // B types what their copy says; it corrects the book, which stays unverified.
    const corrected = await update(b, {
      listingId: second.listing.id,
      book: { title: 'The Real Title', authors: ['A. Writer'] },
    });
    expect(corrected.book).toMatchObject({ title: 'The Real Title', editable: true });
    expect(corrected.book!.id).toBe(first.book!.id);
    expect(await verificationOf(isbn)).toBeNull();
    // A sees the correction on their listing too, and may correct it again.
    const again = await api(t.app, a.accessToken).selling.listings.get.query({ listingId: first.id });
    expect(again.book).toMatchObject({ title: 'The Real Title', editable: true });
  });

  it('gives way to what a lookup finds, which is verified and pre-filled from then on', async () => {
    const isbn = freshIsbn();
    const typed = await typedBy(a, isbn, HOSTILE_TITLE);
    found.set(isbn, {
      title: 'Found Title',
      subtitle: null,
      authors: ['Found Author'],
      publisher: 'Found Press',
      publishedYear: 2001,
      pageCount: 200,
      coverUrl: null,
      workKey: null,
    });
    const later = await start(b, isbn);
    expect(later.source).toBe('openlibrary');
    expect(later.listing.book).toMatchObject({ id: typed.book!.id, title: 'Found Title', editable: false });
    expect(await verificationOf(isbn)).toBe('lookup');
    // No seller changes a verified book: not B, not A who typed it first.
    for (const [user, listingId] of [
      [b, later.listing.id],
      [a, typed.id],
    ] as const) {
      const refused = await refusal(
        update(user, { listingId, book: { title: 'Mine now', authors: ['Me'] } }),
      );
      expect(refused.status).toBe(400);
    }
    expect((await start(c, isbn)).listing.book).toMatchObject({ title: 'Found Title' });
  });

  it('waits on /admin/books for staff, whose confirmation verifies it', async () => {
    const isbn = freshIsbn();
    const typed = await typedBy(a, isbn, 'Needs Checking');
    const staff = api(t.app, moderator.accessToken).catalogue.books.staff;
    const waiting = await staff.search.query({ unverified: true });
    expect(waiting.find((book) => book.id === typed.book!.id)).toMatchObject({
      verified: false,
      addedBy: 'seller-a@books.test',
    });
    const all = await staff.search.query({ q: 'Needs Checking' });
    expect(all.map((book) => book.id)).toContain(typed.book!.id);

    await staff.confirm.mutate({ bookId: typed.book!.id });
    expect(await verificationOf(isbn)).toBe('staff');
    expect((await staff.search.query({ unverified: true })).map((book) => book.id)).not.toContain(
      typed.book!.id,
    );
    const audit = await db
      .selectFrom('audit_log')
      .select('action')
      .where('target_id', '=', typed.book!.id)
      .execute();
    expect(audit.map((row) => row.action)).toContain('book.confirm');
    // Confirmed: pre-filled for the next seller, and nobody's to change but staff's.
    const next = await start(c, isbn);
    expect(next.source).toBe('catalogue');
    expect(next.listing.book).toMatchObject({ title: 'Needs Checking', editable: false });
    // Staff correcting a book's details verifies it too.
    const other = await typedBy(b, freshIsbn(), 'Typo Titel');
    await staff.update.mutate({
      bookId: other.book!.id,
      title: 'Typo Title',
      authors: ['Anyone'],
      description: null,
      category: null,
    });
    expect(
      (
        await db
          .selectFrom('books')
          .select('verification')
          .where('id', '=', other.book!.id)
          .executeTakeFirstOrThrow()
      ).verification,
    ).toBe('staff');
  });
});
