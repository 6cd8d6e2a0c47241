/**
 * The covers backfill against real PostgreSQL, with the Open Library adapter on a fake fetch
 * (never the network): which books count as missing a cover; a run's outcomes (found, not
 * found, malformed, timeout, no ISBN) and counts, the https cover stored on the book; one run
 * at a time; offline, a run checks for real and finds nothing; through the router, staff read
 * and only admins start a run, audited.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/index.ts';
import { createOfflineBookLookup, createOpenLibraryLookup } from '../../platform/book-lookup/book-lookup.ts';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { createUser, type TestUser } from '../../testing/auth.ts';
import { createBook, createListing, createPerson } from '../../testing/catalogue.ts';
import { api, refusal, statusOf } from '../../testing/client.ts';
import { rejects } from '../../testing/errors.ts';
import {
  ALREADY_RUNNING,
  type BackfillDeps,
  getRun,
  listMissingCovers,
  startCoverBackfill,
} from './covers-backfill.service.ts';

const ISBN = {
  found: '9780141439518',
  notFound: '9780000000002',
  malformed: '9780000000019',
  slow: '9780000000026',
  insecure: '9780000000033',
  router: '9780000000040',
};
const COVER = 'https://covers.openlibrary.org/b/id/1-L.jpg';

/** Open Library as the adapter sees it: one answer per ISBN; the slow one never answers. */
const asked: string[] = [];
const fakeFetch = ((input: string | URL | Request, init?: RequestInit) => {
  const isbn = /ISBN%3A(\d+)/.exec(String(input))?.[1] ?? '';
  asked.push(isbn);
  const key = `ISBN:${isbn}`;
  const json = (body: unknown) => Promise.resolve(new Response(JSON.stringify(body), { status: 200 }));
  switch (isbn) {
    case ISBN.found:
    case ISBN.router:
      return json({ [key]: { title: 'Pride and Prejudice', cover: { large: COVER } } });
    case ISBN.malformed:
      return json({ [key]: { title: '', authors: 'not a list' } });
    case ISBN.insecure:
      return json({ [key]: { title: 'Emma', cover: { large: 'http://insecure.example/x.jpg' } } });
    case ISBN.slow:
      return new Promise((_resolve, reject) => {
        init?.signal?.addEventListener('abort', () => reject(init.signal?.reason));
      });
    default:
      return json({});
  }
}) as typeof fetch;
const openLibrary = createOpenLibraryLookup({ fetch: fakeFetch, timeoutMs: 100 });

let t: TestApp;
let db: Database;
let deps: BackfillDeps;
let admin: TestUser;
let moderator: TestUser;
let member: TestUser;
let sellerId: string;
const ids: Record<string, string> = {};

async function bookWithListing(
  name: string,
  isbn13: string | null,
  listing: { status?: 'active' | 'draft' | 'sold'; photos?: boolean } = {},
) {
  const id = await createBook(db, { title: name, isbn13 });
  const made = await createListing(db, { sellerId, bookId: id, status: listing.status ?? 'active' });
  if (listing.photos) {
    await db
      .updateTable('listings')
      .set({ photos: JSON.stringify(['https://photos.example/1.jpg']) })
      .where('id', '=', made.id)
      .execute();
  }
  ids[name] = id;
  return id;
}

async function cover(bookId: string) {
  return (await db.selectFrom('books').select('cover_url').where('id', '=', bookId).executeTakeFirstOrThrow())
    .cover_url;
}

beforeAll(async () => {
  t = await createTestApp({ services: (defaults) => ({ ...defaults, bookLookup: openLibrary }) });
  db = t.database.handle.db;
  deps = { db, bookLookup: openLibrary };
  admin = await createUser(db, t.services.identity, 'admin@covers.test', { roles: ['admin'] });
  moderator = await createUser(db, t.services.identity, 'moderator@covers.test', { roles: ['moderator'] });
  member = await createUser(db, t.services.identity, 'member@covers.test');
  sellerId = await createPerson(db, 'seller@covers.test');
});

afterAll(async () => {
  await t.close();
});

describe('covers backfill: the service', () => {
  it('lists books whose open listings have no image, and looks each up once, reporting every outcome', async () => {
    const found = await bookWithListing('A Found Cover', ISBN.found);
    await bookWithListing('B Not Found', ISBN.notFound);
    await bookWithListing('C Malformed', ISBN.malformed);
    await bookWithListing('D Slow', ISBN.slow, { status: 'draft' });
    await bookWithListing('E Insecure', ISBN.insecure);
    await bookWithListing('F No Isbn', null);
    // Not missing: a photo of its own, only a sold listing, or a cover already.
    await bookWithListing('G Has Photo', null, { photos: true });
    await bookWithListing('H Sold', null, { status: 'sold' });
    const hasCover = await bookWithListing('I Has Cover', null);
    await db.updateTable('books').set({ cover_url: COVER }).where('id', '=', hasCover).execute();

    const before = await listMissingCovers(db);
    expect(before.total).toBe(6);
    expect(before.books.map((book) => book.title)).toEqual([
      'A Found Cover',
      'B Not Found',
      'C Malformed',
      'D Slow',
      'E Insecure',
      'F No Isbn',
    ]);
    expect(before.books[0]).toMatchObject({ isbn13: ISBN.found, listings: 1, lastCheck: null });

    const { runId, requested, finished } = await startCoverBackfill(deps, admin.id, {});
    expect(requested).toBe(6);
    await finished;
    const run = await getRun(db, runId);
    expect(run).toMatchObject({
      status: 'finished',
      lookup: 'openlibrary',
      selection: 'all',
      startedBy: 'admin@covers.test',
      requested: 6,
      checked: 6,
      found: 1,
      notFound: 2,
      noIsbn: 1,
      errors: 2,
    });
    expect(run.items.map((item) => [item.title, item.outcome, item.coverUrl, item.detail])).toEqual([
      ['A Found Cover', 'found', COVER, null],
      ['B Not Found', 'not_found', null, null],
      ['C Malformed', 'error', null, 'Open Library’s record for this ISBN was malformed'],
      ['D Slow', 'error', null, 'No answer from Open Library within 0.1 s'],
      ['E Insecure', 'not_found', null, 'The book is known, but without a cover'],
      ['F No Isbn', 'no_isbn', null, null],
    ]);
    expect(asked).toEqual([ISBN.found, ISBN.notFound, ISBN.malformed, ISBN.slow, ISBN.insecure]);
    expect(await cover(found)).toBe(COVER);

    // The found one has its cover now; the rest come back checked, to be tried again later.
    const after = await listMissingCovers(db);
    expect(after.total).toBe(5);
    expect(after.books.find((book) => book.title === 'B Not Found')?.lastCheck?.outcome).toBe('not_found');
    const audit = await db
      .selectFrom('audit_log')
      .select(['actor_id', 'details'])
      .where('action', '=', 'covers_backfill.run')
      .where('target_id', '=', runId)
      .executeTakeFirstOrThrow();
    expect(audit).toEqual({
      actor_id: admin.id,
      details: { lookup: 'openlibrary', selection: 'all', books: 6 },
    });
  });

  it('allows one run at a time, and says so', async () => {
    const first = await startCoverBackfill(deps, admin.id, { bookIds: [ids['D Slow']!] });
    await rejects(startCoverBackfill(deps, admin.id, {}), 'CONFLICT', /A backfill is already running/);
    await first.finished;
    expect((await getRun(db, first.runId)).status).toBe('finished');
    // A run a stopped server left behind does not block for ever.
    await db
      .insertInto('cover_backfill_runs')
      .values({
        lookup: 'openlibrary',
        selection: 'all',
        requested: 1,
        started_at: new Date(Date.now() - 60 * 60 * 1000),
      })
      .execute();
    const next = await startCoverBackfill(deps, admin.id, { bookIds: [ids['B Not Found']!] });
    await next.finished;
    const stale = await db
      .selectFrom('cover_backfill_runs')
      .select(['status', 'error'])
      .where('requested', '=', 1)
      .where('started_by', 'is', null)
      .executeTakeFirstOrThrow();
    expect(stale).toEqual({ status: 'failed', error: 'Interrupted: the server stopped during the run' });
    expect(ALREADY_RUNNING).toMatch(/^A backfill is already running/);
  });

  it('offline, a run checks the chosen books for real and finds nothing', async () => {
    const chosen = [ids['B Not Found']!, ids['F No Isbn']!, ids['A Found Cover']!];
    const { runId, requested, finished } = await startCoverBackfill(
      { db, bookLookup: createOfflineBookLookup() },
      admin.id,
      { bookIds: chosen },
    );
    // The book that has its cover now is left out.
    expect(requested).toBe(2);
    await finished;
    expect(await getRun(db, runId)).toMatchObject({
      lookup: 'offline',
      selection: 'chosen',
      checked: 2,
      found: 0,
      notFound: 1,
      noIsbn: 1,
      errors: 0,
      status: 'finished',
    });
    await rejects(
      startCoverBackfill(deps, admin.id, { bookIds: [ids['A Found Cover']!] }),
      'PRECONDITION_FAILED',
      /None of the chosen books is missing a cover/,
    );
  });
});

describe('covers backfill: the router', () => {
  it('staff read the page; only admins start a run, which the page then follows to its report', async () => {
    const bookId = await bookWithListing('J Router Book', ISBN.router);
    const asMember = api(t.app, member.accessToken);
    expect(await statusOf(asMember.catalogue.books.covers.overview.query())).toBe(403);
    expect(await statusOf(asMember.catalogue.books.covers.start.mutate({}))).toBe(403);

    const asModerator = api(t.app, moderator.accessToken);
    const overview = await asModerator.catalogue.books.covers.overview.query();
    expect(overview).toMatchObject({ lookup: 'openlibrary', maxPerRun: 50 });
    expect(overview.books.map((book) => book.id)).toContain(bookId);
    expect(overview.runs.length).toBeGreaterThanOrEqual(3);
    expect(await refusal(asModerator.catalogue.books.covers.start.mutate({ bookIds: [bookId] }))).toEqual({
      status: 403,
      message: 'Access denied: admin role required',
    });
    expect(
      (await refusal(api(t.app, admin.accessToken).catalogue.books.covers.start.mutate({ bookIds: [] })))
        .message,
    ).toContain('Choose at least one book');

    const asAdmin = api(t.app, admin.accessToken);
    const { runId, requested } = await asAdmin.catalogue.books.covers.start.mutate({ bookIds: [bookId] });
    expect(requested).toBe(1);
    // The lookups go on after the answer: wait for exactly that work, however long it takes.
    await t.app.background.settled();
    const report = await asModerator.catalogue.books.covers.run.query({ runId });
    expect(report).toMatchObject({
      status: 'finished',
      checked: 1,
      found: 1,
      startedBy: 'admin@covers.test',
    });
    expect(report.items).toEqual([expect.objectContaining({ bookId, outcome: 'found', coverUrl: COVER })]);
    expect(await cover(bookId)).toBe(COVER);
    expect(
      await db
        .selectFrom('audit_log')
        .select('actor_id')
        .where('action', '=', 'covers_backfill.run')
        .where('target_id', '=', runId)
        .executeTakeFirst(),
    ).toEqual({ actor_id: admin.id });
  });
});
