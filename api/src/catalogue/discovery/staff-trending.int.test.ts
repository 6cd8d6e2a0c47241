/**
 * /admin/trending-books: the computed trending list with pin and hide. A pinned listing leads
 * the public list (discovery.trending) while on sale; a hidden listing's book leaves it, with
 * every copy; each change is audited; staff only; the table drops the public cache.
 */
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/index.ts';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { createUser, type TestUser } from '../../testing/auth.ts';
import { createBook, createListing, createPerson } from '../../testing/catalogue.ts';
import { api, refusal, statusOf } from '../../testing/client.ts';
import { until } from '../../testing/until.ts';
import { MAX_TRENDING_PINS } from './staff-trending.service.ts';

let t: TestApp;
let db: Database;
let moderator: TestUser;
let sellerId: string;

beforeAll(async () => {
  t = await createTestApp();
  db = t.database.handle.db;
  moderator = await createUser(db, t.services.identity, 'moderator@trending.test', { roles: ['moderator'] });
  sellerId = await createPerson(db, 'seller@trending.test', 'Trend Seller');
});

afterAll(async () => {
  await t.close();
});

async function views(listingId: string, count: number) {
  const day = new Date().toISOString().slice(0, 10);
  for (let i = 0; i < count; i++) {
    await db
      .insertInto('listing_views')
      .values({ listing_id: listingId, viewed_on: day, viewer_key: `v-${listingId}-${i}` })
      .execute();
  }
}

async function publicTrending(): Promise<{ id: string; title: string }[]> {
  return await api(t.app).catalogue.discovery.public.trending.query({ limit: 24 });
}

const staff = () => api(t.app, moderator.accessToken);

async function auditActions(listingId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('audit_log')
    .select('action')
    .where('target_id', '=', listingId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map((row) => row.action);
}

describe('trending books for staff', () => {
  it('is for staff only', async () => {
    expect(await statusOf(api(t.app).catalogue.discovery.trending.board.query())).toBe(401);
    const member = await createUser(db, t.services.identity, 'member@trending.test');
    expect(await statusOf(api(t.app, member.accessToken).catalogue.discovery.trending.board.query())).toBe(
      403,
    );
    const listing = await createListing(db, {
      sellerId,
      bookId: await createBook(db, { title: 'Not Yours' }),
    });
    const refused = api(t.app, member.accessToken).catalogue.discovery.trending.set.mutate({
      listingId: listing.id,
      mode: 'pin',
    });
    expect(await statusOf(refused)).toBe(403);
    expect(await db.selectFrom('trending_overrides').selectAll().execute()).toEqual([]);
  });

  it('pins a listing to the top and hides a book with all its copies; the public list follows', async () => {
    const hot = await createListing(db, { sellerId, bookId: await createBook(db, { title: 'Hot Book' }) });
    const warmBook = await createBook(db, { title: 'Warm Book' });
    const warm = await createListing(db, { sellerId, bookId: warmBook, price: 500 });
    const warmCopy = await createListing(db, { sellerId, bookId: warmBook, price: 900 });
    const quiet = await createListing(db, {
      sellerId,
      bookId: await createBook(db, { title: 'Quiet Book' }),
    });
    await views(hot.id, 9);
    await views(warm.id, 5);
    await views(warmCopy.id, 1);
    await views(quiet.id, 1);
    expect((await publicTrending()).map((card) => card.title).slice(0, 3)).toEqual([
      'Hot Book',
      'Warm Book',
      'Quiet Book',
    ]);

    await staff().catalogue.discovery.trending.set.mutate({ listingId: quiet.id, mode: 'pin' });
    expect((await publicTrending()).map((card) => card.title).slice(0, 3)).toEqual([
      'Quiet Book',
      'Hot Book',
      'Warm Book',
    ]);

    // Hiding the cheaper copy hides the book: the dearer copy does not take its place.
    await staff().catalogue.discovery.trending.set.mutate({ listingId: warm.id, mode: 'hide' });
    const after = await publicTrending();
    expect(after.map((card) => card.title).slice(0, 2)).toEqual(['Quiet Book', 'Hot Book']);
    expect(after.map((card) => card.id)).not.toContain(warmCopy.id);
    expect(after.map((card) => card.id)).not.toContain(warm.id);

    const board = await staff().catalogue.discovery.trending.board.query();
    expect(board.list[0]).toMatchObject({ id: quiet.id, title: 'Quiet Book', pinned: true });
    expect(board.list[1]).toMatchObject({ id: hot.id, pinned: false });
    expect(board.overrides).toEqual([
      expect.objectContaining({ listingId: quiet.id, mode: 'pin', setBy: 'moderator@trending.test' }),
      expect.objectContaining({ listingId: warm.id, mode: 'hide', title: 'Warm Book' }),
    ]);

    // A pinned listing that sells leaves the top; unhiding brings the book back.
    await db.updateTable('listings').set({ status: 'sold' }).where('id', '=', quiet.id).execute();
    expect((await publicTrending())[0]!.title).toBe('Hot Book');
    await staff().catalogue.discovery.trending.clear.mutate({ listingId: warm.id });
    expect((await publicTrending()).map((card) => card.title).slice(0, 2)).toEqual(['Hot Book', 'Warm Book']);

    expect(await auditActions(quiet.id)).toEqual(['trending.pin']);
    expect(await auditActions(warm.id)).toEqual(['trending.hide', 'trending.unhide']);
    await db.deleteFrom('trending_overrides').execute();
  });

  it('refuses to pin what is not on sale, twice, or beyond the limit, with messages', async () => {
    const sold = await createListing(db, {
      sellerId,
      bookId: await createBook(db, { title: 'Gone Book' }),
      status: 'sold',
    });
    expect(
      await refusal(staff().catalogue.discovery.trending.set.mutate({ listingId: sold.id, mode: 'pin' })),
    ).toEqual({
      status: 412,
      message: 'Only a listing on sale can be pinned to trending.',
    });
    const ids: string[] = [];
    for (let i = 0; i < MAX_TRENDING_PINS; i++) {
      const listing = await createListing(db, {
        sellerId,
        bookId: await createBook(db, { title: `Pin ${i}` }),
      });
      await staff().catalogue.discovery.trending.set.mutate({ listingId: listing.id, mode: 'pin' });
      ids.push(listing.id);
    }
    expect(
      await refusal(staff().catalogue.discovery.trending.set.mutate({ listingId: ids[0]!, mode: 'pin' })),
    ).toEqual({
      status: 409,
      message: 'That listing is already pinned.',
    });
    const extra = await createListing(db, {
      sellerId,
      bookId: await createBook(db, { title: 'One Too Many' }),
    });
    const refused = await refusal(
      staff().catalogue.discovery.trending.set.mutate({ listingId: extra.id, mode: 'pin' }),
    );
    expect(refused.message).toBe(
      `At most ${MAX_TRENDING_PINS} listings can be pinned to trending. Unpin one first.`,
    );
    expect(await auditActions(extra.id)).toEqual([]);
    expect(
      (await refusal(staff().catalogue.discovery.trending.clear.mutate({ listingId: extra.id }))).message,
    ).toBe('That listing is neither pinned nor hidden any more. Refresh the page.');
    // The list shown publicly starts with the pins, in the order they were made.
    expect((await publicTrending()).slice(0, MAX_TRENDING_PINS).map((card) => card.id)).toEqual(ids);
    await db.deleteFrom('trending_overrides').execute();
  });

  it('drops the public cache on a change, like any catalogue change (decision 0008)', async () => {
    const cached = await createTestApp({ env: { PUBLIC_CACHE_SECONDS: '60' } });
    try {
      const cdb = cached.database.handle.db;
      const curator = await createUser(cdb, cached.services.identity, 'curator@trending.test', {
        roles: ['moderator'],
      });
      const seller = await createPerson(cdb, 'cache-seller@trending.test');
      const top = await createListing(cdb, {
        sellerId: seller,
        bookId: await createBook(cdb, { title: 'Top' }),
      });
      const low = await createListing(cdb, {
        sellerId: seller,
        bookId: await createBook(cdb, { title: 'Low' }),
      });
      const day = new Date().toISOString().slice(0, 10);
      for (const [id, count] of [
        [top.id, 3],
        [low.id, 1],
      ] as const) {
        for (let i = 0; i < count; i++) {
          await cdb
            .insertInto('listing_views')
            .values({ listing_id: id, viewed_on: day, viewer_key: `visitor-${id}-${i}` })
            .execute();
        }
      }
      const url = `/trpc/catalogue.discovery.public.trending?input=${encodeURIComponent(JSON.stringify({ limit: 5 }))}`;
      const first = await request(cached.app.server).get(url);
      expect(first.body.result.data.map((card: { id: string }) => card.id)).toEqual([top.id, low.id]);
      // The cache keeps an answer just after sending it.
      await until(
        async () => (await request(cached.app.server).get(url)).headers['x-cache'] === 'HIT',
        'a hit',
      );
      await api(cached.app, curator.accessToken).catalogue.discovery.trending.set.mutate({
        listingId: low.id,
        mode: 'pin',
      });
      // The change reaches the cache as a database NOTIFY, a moment after the answer.
      let ids: string[] = [];
      await until(async () => {
        ids = (await request(cached.app.server).get(url)).body.result.data.map(
          (card: { id: string }) => card.id,
        );
        return ids[0] === low.id;
      }, 'the pinned listing first');
      expect(ids).toEqual([low.id, top.id]);
    } finally {
      await cached.close();
    }
  });
});
