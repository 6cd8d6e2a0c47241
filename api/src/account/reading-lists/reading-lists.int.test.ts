/**
 * Reading lists on the real app and database (decision 0090): the fixture exports matched to the
 * demo catalogue by ISBN and by title and author, previews that write nothing, imports that are
 * whole or nothing, re-imports that add nothing twice, and the exports in both layouts.
 */
import { readFileSync } from 'node:fs';
import {
  GOODREADS_COLUMNS,
  READING_LIST_MESSAGES,
  STORYGRAPH_COLUMNS,
  WANT_LIMITS,
  WANT_MESSAGES,
} from '@reshelf/contracts';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/index.ts';
import { upsertSnapshotBooks } from '../../seed/books.ts';
import { seedReferenceData } from '../../seed/demo.ts';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { createUser, type TestUser, WEB } from '../../testing/auth.ts';
import { createListing } from '../../testing/catalogue.ts';
import { api, failure } from '../../testing/client.ts';
import { csvCells } from '../../testing/csv.ts';
import { createOrder } from '../../testing/selling.ts';

const fixture = (name: string) =>
  readFileSync(new URL(`../../../../tests/fixtures/reading-lists/${name}`, import.meta.url), 'utf8');
const GOODREADS = fixture('goodreads_library_export.csv');
const STORYGRAPH = fixture('storygraph_export.csv');

let t: TestApp;
let db: Database;
let reader: TestUser;
let other: TestUser;
let bookIds: Map<string, string>;

async function counts(userId: string) {
  const count = async (table: 'wants' | 'member_books' | 'reading_list_imports') =>
    Number(
      (
        await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .where('user_id', '=', userId)
          .executeTakeFirstOrThrow()
      ).n,
    );
  return {
    wants: await count('wants'),
    haves: await count('member_books'),
    imports: await count('reading_list_imports'),
  };
}

beforeAll(async () => {
  t = await createTestApp();
  db = t.database.handle.db;
  await seedReferenceData(db);
  bookIds = await upsertSnapshotBooks(db);
  reader = await createUser(db, t.services.identity, 'reader@lists.test');
  other = await createUser(db, t.services.identity, 'other@lists.test');
});

afterAll(async () => {
  await t?.close();
});

describe('preview', () => {
  it('detects Goodreads, counts the shelves and matches each row, writing nothing', async () => {
    const before = await counts(reader.id);
    const preview = await api(t.app, reader.accessToken).account.readingLists.preview.mutate({
      text: GOODREADS,
      fileName: 'goodreads_library_export.csv',
    });
    expect(preview.source).toBe('goodreads');
    expect(preview.shelves.find((shelf) => shelf.name === 'to-read')).toEqual({ name: 'to-read', rows: 17 });
    expect(preview.shelves.find((shelf) => shelf.name === 'owned')).toEqual({ name: 'owned', rows: 6 });
    expect(preview.counts).toEqual({ rows: 30, isbn: 16, titleAuthor: 5, unmatched: 6, errors: 3 });

    const row = (title: string) => preview.rows.find((entry) => entry.title === title)!;
    expect(row('Pride and Prejudice')).toMatchObject({
      match: 'isbn',
      work: { title: 'Pride and Prejudice' },
    });
    // Not this edition's ISBN, but the title (without Goodreads' note) and the author's surname.
    expect(row('Dracula (Penguin Classics)')).toMatchObject({
      match: 'title_author',
      work: { title: 'Dracula' },
    });
    expect(row('The Fellowship of the Ring (The Lord of the Rings, #1)')).toMatchObject({
      match: 'title_author',
      work: { title: 'The Fellowship of the Ring' },
    });
    expect(row('The Hobbit, or There and Back Again')).toMatchObject({
      match: 'title_author',
      work: { title: 'The Hobbit' },
    });
    expect(row('Piranesi')).toMatchObject({
      match: 'unmatched',
      work: null,
      reason: 'No book with ISBN 9781526622426 or this title and author on Reshelf yet.',
    });
    expect(row('')).toMatchObject({ match: 'error', reason: 'Row 17: no title.' });
    expect(await counts(reader.id)).toEqual(before);
  });

  it('detects StoryGraph, an ISBN-10 matching its ISBN-13', async () => {
    const preview = await api(t.app, reader.accessToken).account.readingLists.preview.mutate({
      text: STORYGRAPH,
      fileName: null,
    });
    expect(preview.source).toBe('storygraph');
    expect(preview.rows.find((row) => row.title === 'Wuthering Heights')).toMatchObject({ match: 'isbn' });
    // A StoryGraph id is no ISBN: the title and author find it.
    expect(preview.rows.find((row) => row.title === 'Gone Girl')).toMatchObject({ match: 'title_author' });
    expect(preview.counts.errors).toBe(2);
  });

  it('refuses a file that is not an export, naming what was expected', async () => {
    const refused = await failure(
      api(t.app, reader.accessToken).account.readingLists.preview.mutate({
        text: 'a,b\n1,2\n',
        fileName: 'x.csv',
      }),
    );
    expect(refused.status).toBe(400);
    expect(refused.message).toBe(READING_LIST_MESSAGES.unknownHeader);
  });

  it('is for members signed in', async () => {
    const refused = await failure(
      api(t.app, { headers: WEB }).account.readingLists.preview.mutate({ text: GOODREADS, fileName: null }),
    );
    expect(refused.status).toBe(401);
  });
});

describe('import', () => {
  it('refuses a file with bad rows the member has not agreed to skip, writing nothing', async () => {
    const before = await counts(reader.id);
    const refused = await failure(
      api(t.app, reader.accessToken).account.readingLists.import.mutate({
        text: GOODREADS,
        fileName: 'goodreads_library_export.csv',
        wantShelves: ['to-read'],
        haveShelves: [],
      }),
    );
    expect(refused.status).toBe(400);
    expect(refused.message).toBe(READING_LIST_MESSAGES.badRowsNotConfirmed);
    expect(await counts(reader.id)).toEqual(before);
  });

  it('refuses a shelf the file does not have', async () => {
    const refused = await failure(
      api(t.app, reader.accessToken).account.readingLists.import.mutate({
        text: GOODREADS,
        fileName: null,
        wantShelves: ['wishlist'],
        skipBadRows: true,
      }),
    );
    expect(refused.message).toBe(`“wishlist”: ${READING_LIST_MESSAGES.unknownShelf}`);
  });

  it('rolls everything back when a write fails in the middle', async () => {
    const before = await counts(reader.id);
    await sql`
      create function pg_temp_fail_member_books() returns trigger language plpgsql as $$
      begin raise exception 'member_books failed'; end $$;
      create trigger fail_member_books before insert on public.member_books
        for each row execute function pg_temp_fail_member_books();
    `.execute(db);
    try {
      const refused = await failure(
        api(t.app, reader.accessToken).account.readingLists.import.mutate({
          text: GOODREADS,
          fileName: null,
          wantShelves: ['to-read'],
          haveShelves: ['owned'],
          skipBadRows: true,
        }),
      );
      expect(refused.status).toBe(500);
    } finally {
      await sql`drop trigger fail_member_books on public.member_books; drop function pg_temp_fail_member_books();`.execute(
        db,
      );
    }
    // The import's record and its wants were written before the failing books: none are left.
    expect(await counts(reader.id)).toEqual(before);
  });

  it('makes the chosen shelves wants and books the member has, in one import with its report', async () => {
    const done = await api(t.app, reader.accessToken).account.readingLists.import.mutate({
      text: GOODREADS,
      fileName: 'goodreads_library_export.csv',
      wantShelves: ['to-read'],
      haveShelves: ['owned'],
      skipBadRows: true,
    });
    expect(done.source).toBe('goodreads');
    // to-read rows that matched: Emma, Persuasion, Dracula, Fellowship, Wolf Hall, Name of the
    // Wind, Middlemarch, Caterpillar, Matilda, Normal People, Frankenstein.
    expect(done.added).toEqual({ wants: 11, haves: 6 });
    const wants = await db
      .selectFrom('wants as w')
      .innerJoin('works as k', 'k.id', 'w.work_id')
      .select(['k.title', 'w.kind', 'w.source', 'w.shelf', 'w.import_id'])
      .where('w.user_id', '=', reader.id)
      .execute();
    expect(wants).toHaveLength(11);
    expect(
      wants.every(
        (want) => want.kind === 'work' && want.source === 'goodreads' && want.import_id === done.id,
      ),
    ).toBe(true);
    expect(wants.map((want) => want.title)).toContain('Dracula');
    expect(wants.find((want) => want.title === 'Emma')!.shelf).toBe('to-read');
    const haves = await db.selectFrom('member_books').selectAll().where('user_id', '=', reader.id).execute();
    expect(haves).toHaveLength(6);
    expect(haves.every((have) => have.shelf === 'owned' && have.import_id === done.id)).toBe(true);

    const row = (title: string) => done.rows.find((entry) => entry.title === title)!;
    expect(row('Emma').outcomes).toEqual(['want']);
    expect(row('Pride and Prejudice').outcomes).toEqual(['have']);
    expect(row('Nineteen Eighty-Four').outcomes).toEqual(['not_chosen']);
    expect(row('Piranesi').outcomes).toEqual(['skipped']);

    const listed = await api(t.app, reader.accessToken).account.readingLists.list.query();
    expect(listed.map((entry) => entry.id)).toContain(done.id);
    const got = await api(t.app, reader.accessToken).account.readingLists.get.query({ id: done.id });
    expect(got.rows).toEqual(done.rows);
    expect(
      (await failure(api(t.app, other.accessToken).account.readingLists.get.query({ id: done.id }))).status,
    ).toBe(404);
  });

  it('adds nothing twice when the same file is imported again', async () => {
    const before = await counts(reader.id);
    const again = await api(t.app, reader.accessToken).account.readingLists.import.mutate({
      text: GOODREADS,
      fileName: 'goodreads_library_export.csv',
      wantShelves: ['to-read'],
      haveShelves: ['owned'],
      skipBadRows: true,
    });
    expect(again.added).toEqual({ wants: 0, haves: 0 });
    expect(again.rows.find((row) => row.title === 'Emma')!.outcomes).toEqual(['already_wanted']);
    expect(await counts(reader.id)).toEqual({ ...before, imports: before.imports + 1 });
  });

  it(`refuses the whole import past ${WANT_LIMITS.maxWants} wants`, async () => {
    const full = await createUser(db, t.services.identity, 'full@lists.test');
    await sql`
      with made as (
        insert into public.works (slug, title, authors, work_key)
        select 'lists-full-' || g, 'Full ' || g, '{}', 'lists full ' || g || '|'
        from generate_series(1, ${WANT_LIMITS.maxWants}) g
        returning id
      )
      insert into public.wants (user_id, kind, work_id) select ${full.id}, 'work', id from made
    `.execute(db);
    const before = await counts(full.id);
    const refused = await failure(
      api(t.app, full.accessToken).account.readingLists.import.mutate({
        text: STORYGRAPH,
        fileName: null,
        wantShelves: ['to-read'],
        skipBadRows: true,
      }),
    );
    expect(refused.message).toBe(WANT_MESSAGES.tooMany);
    expect(await counts(full.id)).toEqual(before);
  });
});

describe('export', () => {
  it('writes wants as to-read and purchases as read, in the Goodreads and StoryGraph layouts', async () => {
    const seller = await createUser(db, t.services.identity, 'seller@lists.test');
    const listing = await createListing(db, {
      sellerId: seller.id,
      bookId: bookIds.get('9780099429791')!,
      status: 'sold',
    });
    const orderId = await createOrder(db, {
      listingId: listing.id,
      buyerId: reader.id,
      sellerId: seller.id,
      status: 'delivered',
    });
    await db
      .updateTable('orders')
      .set({ delivered_at: new Date('2026-11-02T10:00:00Z') })
      .where('id', '=', orderId)
      .execute();

    const goodreads = await api(t.app, reader.accessToken).account.readingLists.export.query({
      format: 'goodreads',
    });
    const rows = csvCells(goodreads.csv);
    expect(rows[0]).toEqual([...GOODREADS_COLUMNS]);
    const at = (row: string[], column: (typeof GOODREADS_COLUMNS)[number]) =>
      row[GOODREADS_COLUMNS.indexOf(column)];
    const emma = rows.find((row) => at(row, 'Title') === 'Emma')!;
    expect(at(emma, 'Exclusive Shelf')).toBe('to-read');
    expect(at(emma, 'ISBN13')).toBe('="9780141439587"');
    expect(at(emma, 'ISBN')).toBe('="0141439580"');
    const atonement = rows.find((row) => at(row, 'Title') === 'Atonement')!;
    expect(at(atonement, 'Exclusive Shelf')).toBe('read');
    expect(at(atonement, 'Date Read')).toBe('2026/11/02');
    expect(goodreads.rows).toBe(12);

    const storygraph = await api(t.app, reader.accessToken).account.readingLists.export.query({
      format: 'storygraph',
    });
    const story = csvCells(storygraph.csv);
    expect(story[0]).toEqual([...STORYGRAPH_COLUMNS]);
    const read = story.find((row) => row[0] === 'Atonement')!;
    expect(read[STORYGRAPH_COLUMNS.indexOf('Read Status')]).toBe('read');
    expect(read[STORYGRAPH_COLUMNS.indexOf('ISBN/UID')]).toBe('9780099429791');
  });

  it('reads back in as the same wants: an export imported again adds nothing', async () => {
    const before = await counts(reader.id);
    const { csv } = await api(t.app, reader.accessToken).account.readingLists.export.query({
      format: 'goodreads',
    });
    const again = await api(t.app, reader.accessToken).account.readingLists.import.mutate({
      text: csv,
      fileName: 'reshelf_goodreads_export.csv',
      wantShelves: ['to-read'],
    });
    expect(again.counts).toMatchObject({ rows: 12, isbn: 12, errors: 0 });
    expect(again.added.wants).toBe(0);
    expect((await counts(reader.id)).wants).toBe(before.wants);
  });
});
