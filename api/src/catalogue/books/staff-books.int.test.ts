/**
 * /admin/books: catalogue records. Staff find and correct books (listings follow the category);
 * admins merge a duplicate into the book to keep — listings and genres move, missing details are
 * taken over, the duplicate goes — in one transaction; every change is audited.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/index.ts';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { createUser, type TestUser } from '../../testing/auth.ts';
import { createBook, createListing, createPerson } from '../../testing/catalogue.ts';
import { api, refusal, statusOf } from '../../testing/client.ts';

let t: TestApp;
let db: Database;
let moderator: TestUser;
let admin: TestUser;
let sellerId: string;

beforeAll(async () => {
  t = await createTestApp();
  db = t.database.handle.db;
  moderator = await createUser(db, t.services.identity, 'moderator@books.test', { roles: ['moderator'] });
  admin = await createUser(db, t.services.identity, 'admin@books.test', { roles: ['admin'] });
  sellerId = await createPerson(db, 'seller@books.test');
});

afterAll(async () => {
  await t.close();
});

async function actions(targetId: string): Promise<string[]> {
  const rows = await db.selectFrom('audit_log').select('action').where('target_id', '=', targetId).execute();
  return rows.map((row) => row.action);
}

describe('books for staff', () => {
  it('search and edit are for staff; merging is for admins', async () => {
    expect(await statusOf(api(t.app).catalogue.books.staff.search.query({}))).toBe(401);
    const member = await createUser(db, t.services.identity, 'member@books.test');
    expect(await statusOf(api(t.app, member.accessToken).catalogue.books.staff.search.query({}))).toBe(403);
    const a = await createBook(db, { title: 'Access A' });
    const b = await createBook(db, { title: 'Access B' });
    const refused = await refusal(
      api(t.app, moderator.accessToken).catalogue.books.staff.merge.mutate({ duplicateId: a, keepId: b }),
    );
    expect(refused).toEqual({ status: 403, message: 'Access denied: admin role required' });
    expect(await db.selectFrom('books').select('id').where('id', '=', a).executeTakeFirst()).toBeTruthy();
  });

  it('finds books by title, author or ISBN and corrects one; its listings follow the category', async () => {
    const bookId = await createBook(db, {
      title: 'Teh Hobbit',
      authors: ['J R R Tolkein'],
      isbn13: '9780261102217',
      category: 'fiction',
    });
    const listing = await createListing(db, { sellerId, bookId });
    const staff = api(t.app, moderator.accessToken);
    for (const q of ['teh hob', 'tolkein', '978-0-261-10221-7']) {
      const found = await staff.catalogue.books.staff.search.query({ q });
      expect(found.map((row) => row.id)).toContain(bookId);
    }
    await staff.catalogue.books.staff.update.mutate({
      bookId,
      title: 'The Hobbit',
      authors: ['J. R. R. Tolkien'],
      description: 'There and back again.',
      category: 'history',
    });
    const [row] = await staff.catalogue.books.staff.search.query({ q: '9780261102217' });
    expect(row).toMatchObject({
      id: bookId,
      title: 'The Hobbit',
      authors: ['J. R. R. Tolkien'],
      description: 'There and back again.',
      category: 'history',
      listings: 1,
    });
    const history = await db
      .selectFrom('categories')
      .select('id')
      .where('slug', '=', 'history')
      .executeTakeFirstOrThrow();
    const moved = await db
      .selectFrom('listings')
      .select('category_id')
      .where('id', '=', listing.id)
      .executeTakeFirstOrThrow();
    expect(moved.category_id).toBe(history.id);
    expect(await actions(bookId)).toEqual(['book.edit']);

    const bad = await refusal(
      staff.catalogue.books.staff.update.mutate({
        bookId,
        title: ' ',
        authors: [],
        description: null,
        category: null,
      }),
    );
    expect(bad.status).toBe(400);
    expect(bad.message).toContain('Give the book a title');
    const unknown = await refusal(
      staff.catalogue.books.staff.update.mutate({
        bookId,
        title: 'The Hobbit',
        authors: [],
        description: null,
        category: 'no-such-category',
      }),
    );
    expect(unknown).toEqual({ status: 400, message: 'Choose a category from the list.' });
    expect(
      (await db.selectFrom('books').select('title').where('id', '=', bookId).executeTakeFirstOrThrow()).title,
    ).toBe('The Hobbit');
  });

  it('merges a duplicate into the kept book: listings and genres move, missing details are taken, it goes', async () => {
    const keep = await createBook(db, { title: 'Emma', authors: ['Jane Austen'], genres: ['cosy-crime'] });
    const duplicate = await createBook(db, {
      title: 'Emma (duplicate)',
      authors: ['Austen, Jane'],
      isbn13: '9780141439587',
      description: 'Handsome, clever and rich.',
      genres: ['horror'],
    });
    const first = await createListing(db, { sellerId, bookId: duplicate });
    const second = await createListing(db, { sellerId, bookId: duplicate, status: 'sold' });
    const own = await createListing(db, { sellerId, bookId: keep });

    const result = await api(t.app, admin.accessToken).catalogue.books.staff.merge.mutate({
      duplicateId: duplicate,
      keepId: keep,
    });
    expect(result).toEqual({ listingsMoved: 2 });
    const listings = await db
      .selectFrom('listings')
      .select(['id', 'book_id'])
      .where('id', 'in', [first.id, second.id, own.id])
      .execute();
    expect(listings.every((row) => row.book_id === keep)).toBe(true);
    expect(
      await db.selectFrom('books').select('id').where('id', '=', duplicate).executeTakeFirst(),
    ).toBeUndefined();
    const kept = await db
      .selectFrom('books')
      .select(['title', 'isbn13', 'description'])
      .where('id', '=', keep)
      .executeTakeFirstOrThrow();
    expect(kept).toEqual({
      title: 'Emma',
      isbn13: '9780141439587',
      description: 'Handsome, clever and rich.',
    });
    const genres = await db
      .selectFrom('book_genres as bg')
      .innerJoin('genres as g', 'g.id', 'bg.genre_id')
      .select('g.slug')
      .where('bg.book_id', '=', keep)
      .orderBy('g.slug')
      .execute();
    expect(genres.map((g) => g.slug)).toEqual(['cosy-crime', 'horror']);
    expect(await actions(keep)).toEqual(['book.merge']);
  });

  it('refuses to merge a book into itself or a book that is gone, and changes nothing', async () => {
    const book = await createBook(db, { title: 'Only Once' });
    const listing = await createListing(db, { sellerId, bookId: book });
    const self = await refusal(
      api(t.app, admin.accessToken).catalogue.books.staff.merge.mutate({
        duplicateId: book,
        keepId: book,
      }),
    );
    expect(self).toEqual({
      status: 400,
      message: 'Choose two different books: a duplicate and the book to keep.',
    });
    const gone = await refusal(
      api(t.app, admin.accessToken).catalogue.books.staff.merge.mutate({
        duplicateId: book,
        keepId: '00000000-0000-4000-8000-000000000000',
      }),
    );
    expect(gone).toEqual({ status: 404, message: 'One of those books no longer exists. Search again.' });
    expect(
      (
        await db
          .selectFrom('listings')
          .select('book_id')
          .where('id', '=', listing.id)
          .executeTakeFirstOrThrow()
      ).book_id,
    ).toBe(book);
    expect(await actions(book)).toEqual([]);
  });
});
