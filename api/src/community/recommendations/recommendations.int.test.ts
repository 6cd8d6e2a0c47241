/**
 * Recommendations through the real app and database: the cold start, onboarding's genres and
 * authors, the wishlist, views and "readers who bought this also bought", each explained; never
 * the member's own listings, a book they bought or one already on their wishlist; computed into
 * the per-member table, on first reading and then by the job.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase } from '../../db/index.ts';
import { runJob } from '../../jobs.ts';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { createUser, type TestUser, WEB } from '../../testing/auth.ts';
import { createBook, createListing, createPerson } from '../../testing/catalogue.ts';
import { api, refusal } from '../../testing/client.ts';
import { insertOrderRow } from '../../testing/orders.ts';
import { computeRecommendations, dueMembers, memberRecommendations } from './recommendations.service.ts';

let t: TestApp;
let sellerId: string;
const db = () => t.database.handle.db;
let n = 0;

beforeAll(async () => {
  t = await createTestApp();
  sellerId = await createPerson(db(), 'seller@recs.test');
});

afterAll(async () => {
  await t.close();
});

async function member(label: string): Promise<TestUser> {
  n += 1;
  return createUser(db(), t.services.identity, `${label}-${n}@recs.test`);
}

async function book(title: string, authors = ['Someone Else'], genres: string[] = [], seller = sellerId) {
  const bookId = await createBook(db(), { title, authors, genres });
  const listing = await createListing(db(), { sellerId: seller, bookId, price: 700 });
  return { bookId, ...listing };
}

async function bought(buyerId: string, listing: { id: string }) {
  const row = await db()
    .selectFrom('listings')
    .select(['seller_id', 'price_minor'])
    .where('id', '=', listing.id)
    .executeTakeFirstOrThrow();
  await insertOrderRow(db(), {
    buyer_id: buyerId,
    seller_id: row.seller_id,
    listing_id: listing.id,
    status: 'paid',
    item_price_minor: row.price_minor!,
    total_minor: row.price_minor!,
    paid_at: new Date(Date.now() - 60_000),
  });
  await db().updateTable('listings').set({ status: 'sold' }).where('id', '=', listing.id).execute();
}

const recommendations = (user: TestUser) =>
  api(t.app, user.accessToken).community.recommendations.list.query({ limit: 48 });
const explained = (items: Awaited<ReturnType<typeof recommendations>>['items']) =>
  Object.fromEntries(items.map((item) => [item.title, [item.reason, item.because]]));

describe('recommendations', () => {
  it('start cold with staff picks and trending books, never the member’s own listings', async () => {
    const reader = await member('cold');
    const picked = await book('A Staff Favourite');
    await db().insertInto('staff_picks').values({ listing_id: picked.id, position: 1 }).execute();
    const popular = await book('Everyone Is Reading It');
    await db()
      .insertInto('listing_views')
      .values(['a', 'b', 'c'].map((v) => ({ listing_id: popular.id, viewer_key: `viewer-key-${v}` })))
      .execute();
    const mine = await book('My Own Copy', ['Someone Else'], [], reader.id);
    await db().insertInto('staff_picks').values({ listing_id: mine.id, position: 2 }).execute();

    const answer = await recommendations(reader);
    expect(answer.coldStart).toBe(true);
    const why = explained(answer.items);
    expect(why['A Staff Favourite']).toEqual(['staff_pick', null]);
    expect(why['Everyone Is Reading It']).toEqual(['trending', null]);
    expect(why['My Own Copy']).toBeUndefined();
    // Kept in the member's table.
    const rows = await db()
      .selectFrom('member_recommendations')
      .selectAll()
      .where('user_id', '=', reader.id)
      .execute();
    expect(rows.length).toBe(answer.items.length);
  });

  it('follow onboarding’s genres and authors, recomputed as soon as they change', async () => {
    const reader = await member('onboarded');
    await book('A Dark Dark Wood', ['Ruth Ware'], ['cosy-crime']);
    await book('The Long Way', ['Becky Chambers']);
    const calls = api(t.app, { token: reader.accessToken, headers: WEB });
    const before = explained((await recommendations(reader)).items);
    expect(before['The Long Way']).toBeUndefined();

    const genre = await db()
      .selectFrom('genres')
      .select(['id', 'name'])
      .where('slug', '=', 'cosy-crime')
      .executeTakeFirstOrThrow();
    await calls.account.member.completeOnboarding.mutate({
      genreIds: [genre.id],
      authors: ['becky chambers'],
    });
    expect((await calls.account.member.profile.query()).favouriteAuthors).toEqual(['Becky Chambers']);
    const answer = await recommendations(reader);
    expect(answer.coldStart).toBe(false);
    const why = explained(answer.items);
    expect(why['A Dark Dark Wood']).toEqual(['genre', genre.name]);
    expect(why['The Long Way']).toEqual(['author', 'Becky Chambers']);
  });

  it('are computed for a member who likes an author of over a thousand books', async () => {
    // The 1,075th book with one explanation would rank at 0.5 to the 1,074th: below what a
    // float8 holds, which PostgreSQL refuses as an underflow rather than rounding to 0.
    const reader = await member('prolific');
    const author = 'Prolific Penwright';
    const copies = 1100;
    await db().insertInto('profile_authors').values({ user_id: reader.id, author }).execute();
    for (let i = 0; i < copies; i += 50) {
      await Promise.all(
        Array.from({ length: Math.min(50, copies - i) }, (_, j) => book(`Penwright ${i + j + 1}`, [author])),
      );
    }
    const answer = await recommendations(reader);
    const byAuthor = Object.values(explained(answer.items)).filter(
      ([reason, because]) => reason === 'author' && because === author,
    );
    expect(byAuthor.length).toBeGreaterThan(0);
  });

  it('explain by the wishlist and views; never a wishlisted listing or a book bought', async () => {
    const reader = await member('wisher');
    const hobbit = await book('The Hobbit', ['J. R. R. Tolkien']);
    const rings = await book('The Fellowship of the Ring', ['J. R. R. Tolkien']);
    const viewed = await book('Mort', ['Terry Pratchett']);
    await book('Guards! Guards!', ['Terry Pratchett']);
    await api(t.app, { token: reader.accessToken, headers: WEB }).catalogue.wishlist.toggle.mutate({
      listingId: hobbit.id,
      wished: true,
    });
    await db()
      .insertInto('listing_views')
      .values({ listing_id: viewed.id, viewer_key: 'member-key-wisher', viewer_id: reader.id })
      .execute();
    await bought(reader.id, rings);
    const why = explained((await recommendations(reader)).items);
    expect(why['The Hobbit']).toBeUndefined();
    expect(why['The Fellowship of the Ring']).toBeUndefined();
    expect(why['Guards! Guards!']).toEqual(['view', 'Mort']);
    // Tolkien's other book was bought, so wishlisting The Hobbit recommends nothing else of his;
    // a new one comes with the next run.
    const two = await book('The Two Towers', ['J. R. R. Tolkien']);
    await computeRecommendations(db(), reader.id);
    const again = explained((await recommendations(reader)).items);
    expect(again['The Two Towers']).toEqual(['wishlist', 'The Hobbit']);
    expect(two.id).toBeTruthy();
  });

  it('say what readers who bought the same book also bought', async () => {
    const reader = await member('buyer');
    const others = [await member('other'), await member('other')];
    const dune = await book('Dune', ['Frank Herbert']);
    const foundation = await book('Foundation', ['Isaac Asimov']);
    for (const other of others) {
      // Other copies of the same two books.
      await bought(other.id, await createListing(db(), { sellerId, bookId: dune.bookId }));
      await bought(other.id, await createListing(db(), { sellerId, bookId: foundation.bookId }));
    }
    await bought(reader.id, dune);
    const items = (await recommendations(reader)).items;
    const why = explained(items);
    expect(why.Dune).toBeUndefined();
    expect(why.Foundation).toEqual(['co_purchase', 'Dune']);
    expect(items.find((item) => item.title === 'Foundation')?.id).toBe(foundation.id);
  });

  it('are refreshed by the job for members whose signals changed', async () => {
    const reader = await member('job');
    await recommendations(reader);
    await t.app.listingViews.flush();
    expect(await dueMembers(db())).not.toContain(reader.id);
    const seen = await book('Wolf Hall', ['Hilary Mantel']);
    await book('Bring Up the Bodies', ['Hilary Mantel']);
    await api(t.app, {
      token: reader.accessToken,
      headers: { ...WEB, 'user-agent': 'Mozilla/5.0 Test' },
    }).catalogue.listings.recordView.mutate({ listingId: seen.id });
    await t.app.listingViews.flush();
    expect(await dueMembers(db())).toContain(reader.id);
    const moved = await runJob(
      {
        db: db(),
        payments: t.services.payments,
        mailer: t.services.mailer,
        storage: t.services.storage,
        origin: 'http://shop.test',
      },
      'recommendations.refresh',
    );
    expect(moved).toBeGreaterThanOrEqual(1);
    expect(await dueMembers(db())).not.toContain(reader.id);
    expect(explained((await recommendations(reader)).items)['Bring Up the Bodies']).toEqual([
      'view',
      'Wolf Hall',
    ]);
  });

  it('are the member’s own: signed out is refused, and bad input named', async () => {
    expect(await refusal(api(t.app).community.recommendations.list.query({ limit: 5 }))).toMatchObject({
      status: 401,
    });
    const reader = await member('input');
    expect(
      await refusal(api(t.app, reader.accessToken).community.recommendations.list.query({ limit: 500 })),
    ).toMatchObject({
      status: 400,
      message: 'limit: Ask for at most 48',
    });
  });

  it('are read in one statement while current, and computed only when missing or stale', async () => {
    const reader = await member('reads');
    await book('A Quiet Read', ['Someone Else'], ['cosy-crime']);
    // The statements the service sends, as the app's own connection sends them.
    const sent: string[] = [];
    const counted = createDatabase(t.database.appUrl, {
      max: 1,
      log: (event) => {
        if (event.level === 'query') sent.push(event.query.sql);
      },
    });
    try {
      const first = await memberRecommendations(counted.db, reader.id, 24);
      expect(sent.some((text) => text.includes('insert into public.member_recommendations'))).toBe(true);
      sent.length = 0;
      const again = await memberRecommendations(counted.db, reader.id, 24);
      expect(sent).toHaveLength(1);
      expect(again.items).toEqual(first.items);
      expect(again.computedAt).toBe(first.computedAt);
      // Onboarding changed since: computed again on this read, then read.
      await db()
        .updateTable('profiles')
        .set({ updated_at: sql<Date>`now()` })
        .where('id', '=', reader.id)
        .execute();
      sent.length = 0;
      await memberRecommendations(counted.db, reader.id, 24);
      expect(sent.some((text) => text.includes('insert into public.member_recommendations'))).toBe(true);
    } finally {
      await counted.close();
    }
  });
});
