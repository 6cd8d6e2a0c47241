/**
 * Series and completing the set (decision 0089), through the real app: a work's series with every
 * volume and its lowest all-in price as the book page shows it; what a member has (bought on
 * Reshelf, any edition, not cancelled; or marked); "I have this"; their series; and "want the
 * rest of this series", made once.
 */
import { completeTheSetLine, SERIES_MESSAGES } from '@reshelf/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/index.ts';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { createUser, type TestUser, WEB } from '../../testing/auth.ts';
import { createBook, createListing, createPerson } from '../../testing/catalogue.ts';
import { api, refusal } from '../../testing/client.ts';
import { insertOrderRow } from '../../testing/orders.ts';
import { placeWorkInSeries, seriesSlugOf } from './series.service.ts';

let t: TestApp;
let db: Database;
let member: TestUser;
let sellerId: string;
/** Work slugs of the test series' volumes, by position. */
const slugs = new Map<number, string>();
/** Book ids of the volumes, by position. */
const books = new Map<number, string>();
let seriesSlug: string;
let loneSlug: string;

async function workOf(bookId: string) {
  return db
    .selectFrom('books')
    .innerJoin('works', 'works.id', 'books.work_id')
    .select(['works.id', 'works.slug'])
    .where('books.id', '=', bookId)
    .executeTakeFirstOrThrow();
}

async function bought(listingId: string, status: 'completed' | 'cancelled' | 'pending_payment') {
  await insertOrderRow(db, {
    buyer_id: member.id,
    seller_id: sellerId,
    listing_id: listingId,
    status,
    item_price_minor: 500,
    total_minor: 500,
  });
}

beforeAll(async () => {
  t = await createTestApp();
  db = t.database.handle.db;
  member = await createUser(db, t.services.identity, 'collector@series.test');
  sellerId = await createPerson(db, 'seller@series.test');
  // The Test Cycle: 1, 2, 2.5 (a novella), 3, 4.
  for (const [position, title] of [
    [1, 'The First Door'],
    [2, 'The Second Door'],
    [2.5, 'A Door Between'],
    [3, 'The Third Door'],
    [4, 'The Last Door'],
  ] as const) {
    const bookId = await createBook(db, { title, authors: ['Seren Cycle'] });
    const work = await workOf(bookId);
    expect(await placeWorkInSeries(db, work.id, { name: 'The Test Cycle', position })).toBe(true);
    slugs.set(position, work.slug);
    books.set(position, bookId);
  }
  seriesSlug = seriesSlugOf('The Test Cycle');
  const lone = await createBook(db, { title: 'A Book On Its Own', authors: ['Seren Cycle'] });
  loneSlug = (await workOf(lone)).slug;
  // Copies on sale of 2.5 and 3 (two of 3); 4 has none.
  await createListing(db, { sellerId, bookId: books.get(2.5)!, price: 450 });
  await createListing(db, { sellerId, bookId: books.get(3)!, price: 799 });
  await createListing(db, { sellerId, bookId: books.get(3)!, price: 650 });
});

afterAll(async () => {
  await t?.close();
});

describe('a work’s series', () => {
  it('lists every volume in order with its copies and lowest all-in price, as the book page prices it', async () => {
    const set = (await api(t.app).catalogue.series.forWork.query({ slug: slugs.get(1)! }))!;
    expect(set.series).toMatchObject({ name: 'The Test Cycle', slug: seriesSlug });
    expect(set.position).toBe(1);
    expect(set.volumes.map((volume) => [volume.position, volume.workSlug, volume.copiesOnSale])).toEqual([
      [1, slugs.get(1), 0],
      [2, slugs.get(2), 0],
      [2.5, slugs.get(2.5), 1],
      [3, slugs.get(3), 2],
      [4, slugs.get(4), 0],
    ]);
    const page = await api(t.app).catalogue.books.public.bySlug.query({ slug: slugs.get(3)! });
    expect(page.lowAllInMinor).not.toBeNull();
    expect(set.volumes.find((volume) => volume.position === 3)!.lowestAllInMinor).toBe(page.lowAllInMinor);
    expect(set.volumes.find((volume) => volume.position === 4)!.lowestAllInMinor).toBeNull();
  });

  it('answers nothing for a book in no series, and refuses an unknown or malformed address', async () => {
    expect(await api(t.app).catalogue.series.forWork.query({ slug: loneSlug })).toBeNull();
    expect(await refusal(api(t.app).catalogue.series.forWork.query({ slug: 'no-such-book' }))).toEqual({
      status: 404,
      message: SERIES_MESSAGES.noBook,
    });
    const bad = await refusal(api(t.app).catalogue.series.forWork.query({ slug: 'Not A Slug!' }));
    expect(bad.status).toBe(400);
    expect(bad.message).toContain('That isn’t a book’s address.');
  });

  it('joins a series by its name whatever its “the”, and keeps a work’s first placing', async () => {
    const bookId = await createBook(db, { title: 'The Fifth Door', authors: ['Seren Cycle'] });
    const work = await workOf(bookId);
    expect(await placeWorkInSeries(db, work.id, { name: 'Test Cycle', position: 5 })).toBe(true);
    expect(await placeWorkInSeries(db, work.id, { name: 'Another Series', position: 1 })).toBe(false);
    const set = (await api(t.app).catalogue.series.forWork.query({ slug: work.slug }))!;
    expect([set.series.slug, set.position]).toEqual([seriesSlug, 5]);
    await db.deleteFrom('books').where('id', '=', bookId).execute();
  });
});

describe('what a member has of it', () => {
  it('counts what they bought (any edition, not cancelled, paid) and what they marked', async () => {
    const client = api(t.app, member.accessToken);
    expect(await client.catalogue.series.member.holdings.query({ seriesSlug })).toEqual({
      have: [],
      bought: [],
      restWantId: null,
    });
    // Volume 1 bought, in another edition of the work; volume 2 marked on its book page.
    const otherEdition = await createBook(db, { title: 'The First Door', authors: ['Seren Cycle'] });
    expect((await workOf(otherEdition)).slug).toBe(slugs.get(1));
    const sold = await createListing(db, { sellerId, bookId: otherEdition, status: 'sold' });
    await bought(sold.id, 'completed');
    await client.catalogue.series.member.setHave.mutate({ slug: slugs.get(2)!, have: true });
    // Volume 4: an order cancelled, and one never paid, are not books they have.
    const cancelled = await createListing(db, { sellerId, bookId: books.get(4)!, status: 'withdrawn' });
    await bought(cancelled.id, 'cancelled');
    const unpaid = await createListing(db, { sellerId, bookId: books.get(4)!, status: 'reserved' });
    await bought(unpaid.id, 'pending_payment');

    const holdings = await client.catalogue.series.member.holdings.query({ seriesSlug });
    expect(holdings.have).toEqual([slugs.get(1), slugs.get(2)]);
    expect(holdings.bought).toEqual([slugs.get(1)]);

    const set = (await api(t.app).catalogue.series.forWork.query({ slug: slugs.get(1)! }))!;
    const line = completeTheSetLine(
      set.volumes.map((volume) => ({ ...volume, have: holdings.have.includes(volume.workSlug) })),
    );
    expect(line).toMatch(/^You have 1 and 2: 2\.5 and 3 are on sale from £\d+\.\d\d; 4 isn’t on sale yet$/);

    const mine = await client.catalogue.series.member.list.query();
    expect(mine.map((entry) => [entry.series.slug, entry.have.sort(), entry.volumes.length])).toEqual([
      [seriesSlug, [slugs.get(1), slugs.get(2)].sort(), 5],
    ]);
  });

  it('“I don’t have this” takes back a mark; signed out, the member’s parts are refused', async () => {
    const client = api(t.app, member.accessToken);
    await client.catalogue.series.member.setHave.mutate({ slug: slugs.get(2)!, have: false });
    expect((await client.catalogue.series.member.holdings.query({ seriesSlug })).have).toEqual([
      slugs.get(1),
    ]);
    await client.catalogue.series.member.setHave.mutate({ slug: slugs.get(2)!, have: true });
    expect((await refusal(api(t.app).catalogue.series.member.holdings.query({ seriesSlug }))).status).toBe(
      401,
    );
    // Mutations as the web client sends them (without its header, any mutation is refused first).
    const anonymous = api(t.app, { headers: WEB });
    expect(
      (await refusal(anonymous.catalogue.series.member.setHave.mutate({ slug: slugs.get(2)!, have: true })))
        .status,
    ).toBe(401);
  });

  it('wants the rest of the series once, however often asked (through the wants service)', async () => {
    const client = api(t.app, member.accessToken);
    const series = await db
      .selectFrom('series')
      .select('id')
      .where('slug', '=', seriesSlug)
      .executeTakeFirstOrThrow();
    const first = await client.community.wants.add.mutate({
      target: { kind: 'series', seriesId: series.id },
    });
    const again = await client.community.wants.add.mutate({
      target: { kind: 'series', seriesId: series.id },
    });
    expect(again.id).toBe(first.id);
    const wants = await db.selectFrom('wants').selectAll().where('user_id', '=', member.id).execute();
    expect(wants).toHaveLength(1);
    expect(wants[0]).toMatchObject({
      kind: 'series',
      work_id: null,
      max_all_in_minor: null,
      alerts: 'instant',
    });
    expect((await client.catalogue.series.member.holdings.query({ seriesSlug })).restWantId).toBe(first.id);
  });
});
