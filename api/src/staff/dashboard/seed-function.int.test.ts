/**
 * seed-openlibrary-recent on a real database: what it creates, that reset removes exactly
 * that, that seeding twice does not duplicate, and that a failure part-way leaves nothing.
 * Starts from a marketplace with no demo people at all (as a hosted project would).
 */
import { buyerProtectionFee, formatPence, type ParcelSize, parcelFor, postageFor } from '@reshelf/contracts';
import { sql } from 'kysely';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminMetrics } from '../../../../supabase/functions/_shared/admin.ts';
import {
  DEMO_SEED_PEOPLE,
  SEED_BOOK_COUNT,
  type SnapshotBook,
  seedOpenLibraryRecent,
} from '../../../../supabase/functions/_shared/seed.ts';
import type { Database } from '../../db/index.ts';
import { poolClient } from '../../platform/server-functions/server-functions.ts';
import { getCommercialSettings } from '../../platform/settings/settings.service.ts';
import { SNAPSHOT_BOOKS } from '../../seed/books.ts';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { createUser, type TestUser } from '../../testing/auth.ts';
import { insertOrderRow } from '../../testing/orders.ts';

let t: TestApp;
let db: Database;
let staff: TestUser;

const TABLES = ['auth.users', 'charities', 'books', 'listings', 'orders', 'disputes', 'seed_items'] as const;
type Table = (typeof TABLES)[number];

/** The ids in every table the seed writes to, so a test can say "exactly as before". */
async function rowIds(): Promise<Record<Table, string[]>> {
  const result = {} as Record<Table, string[]>;
  for (const table of TABLES) {
    const column = table === 'seed_items' ? sql.raw('row_id') : sql.raw('id');
    const { rows } = await sql<{
      id: string;
    }>`select ${column}::text as id from ${sql.table(table)} order by 1`.execute(db);
    result[table] = rows.map((row) => row.id);
  }
  return result;
}

async function counts(): Promise<Record<Table, number>> {
  const ids = await rowIds();
  return Object.fromEntries(TABLES.map((table) => [table, ids[table].length])) as Record<Table, number>;
}

/** Seed, or (admins only) reset what earlier seeds made and seed again. */
function seedCall(reset: boolean) {
  return request(t.app.server)
    .post(reset ? '/trpc/staff.dashboard.resetAndSeed' : '/trpc/staff.dashboard.seed')
    .set('authorization', `Bearer ${staff.accessToken}`)
    .send(reset ? {} : { reset: false });
}

async function seededIds(kind: string): Promise<string[]> {
  const rows = await db
    .selectFrom('seed_items')
    .select(sql<string>`row_id::text`.as('id'))
    .where('kind', '=', kind)
    .execute();
  return rows.map((row) => row.id);
}

beforeAll(async () => {
  t = await createTestApp();
  db = t.database.handle.db;
  staff = await createUser(db, t.services.identity, 'seed-staff@example.com', { roles: ['admin'] });
});

afterAll(async () => {
  await t.close();
});

describe('seed-openlibrary-recent', () => {
  it('a failure late in the seed leaves nothing behind, not even the people it created', async () => {
    const before = await rowIds();
    // The very last thing the seed writes is the record of its 24th order: fail there.
    await sql`
      create function public.test_fail_last_order() returns trigger language plpgsql as $$
      begin
        raise exception 'forced failure on the last order';
      end;
      $$`.execute(db);
    await sql`
      create trigger fail_last_order before insert on public.seed_items for each row
      when (new.kind = 'order' and new.slot = 24) execute function public.test_fail_last_order()`.execute(db);
    try {
      await expect(
        seedOpenLibraryRecent(
          poolClient(t.database.handle.pool),
          { reset: false },
          { snapshot: SNAPSHOT_BOOKS },
        ),
      ).rejects.toThrow(/forced failure on the last order/);
    } finally {
      await sql`drop trigger fail_last_order on public.seed_items`.execute(db);
      await sql`drop function public.test_fail_last_order()`.execute(db);
    }
    expect(await rowIds()).toEqual(before);
  });

  it('a bad book record fails the whole seed', async () => {
    const before = await rowIds();
    const bad: SnapshotBook[] = SNAPSHOT_BOOKS.slice(0, SEED_BOOK_COUNT).map((book, index) =>
      index === SEED_BOOK_COUNT - 1 ? { ...book, isbn13: '9781111111111', title: 'x'.repeat(301) } : book,
    );
    await expect(
      seedOpenLibraryRecent(poolClient(t.database.handle.pool), {}, { snapshot: bad }),
    ).rejects.toThrow(/books_title_check/);
    expect(await rowIds()).toEqual(before);
  });

  it('puts 40 real books on sale and 24 orders across the periods, creating the demo people it needs', async () => {
    const before = await counts();
    const response = await seedCall(false);
    expect(response.status).toBe(200);
    expect(response.body.result.data).toEqual({ listings: 40, orders: 24 });
    const after = await counts();
    const people =
      DEMO_SEED_PEOPLE.sellers.length + DEMO_SEED_PEOPLE.charities.length + DEMO_SEED_PEOPLE.buyers.length;
    expect(after['auth.users'] - before['auth.users']).toBe(people);
    expect(after.charities - before.charities).toBe(3);
    expect(after.books - before.books).toBe(40);
    expect(after.listings - before.listings).toBe(40 + 24);
    expect(after.orders - before.orders).toBe(24);
    expect(after.disputes - before.disputes).toBe(4);

    // The books are the snapshot's first 40, with title, authors and ISBN.
    const onSale = await db
      .selectFrom('listings as l')
      .innerJoin('books as b', 'b.id', 'l.book_id')
      .innerJoin('auth.users as u', 'u.id', 'l.seller_id')
      .select(['b.isbn13', 'b.title', 'b.authors', 'l.status', 'l.charity_id', 'u.email', 'l.slug'])
      .where('l.id', 'in', await seededIds('listing'))
      .execute();
    expect(onSale).toHaveLength(40);
    expect(new Set(onSale.map((row) => row.isbn13))).toEqual(
      new Set(SNAPSHOT_BOOKS.slice(0, 40).map((book) => book.isbn13)),
    );
    expect(onSale.every((row) => row.status === 'active' && row.authors.length > 0)).toBe(true);
    expect(onSale.every((row) => /^[a-z0-9]+(-[a-z0-9]+)*$/.test(row.slug ?? ''))).toBe(true);
    // From demo sellers and demo charities.
    const sellerEmails = new Set<string>([
      ...DEMO_SEED_PEOPLE.sellers.map((p) => p.email),
      ...DEMO_SEED_PEOPLE.charities.map((p) => p.email),
    ]);
    expect(onSale.every((row) => sellerEmails.has(row.email ?? ''))).toBe(true);
    expect(onSale.filter((row) => row.charity_id).length).toBeGreaterThanOrEqual(10);

    // Orders: demo buyers, sold listings, fees as checkout charges them, open disputes.
    const settings = await getCommercialSettings(db);
    const orders = await db
      .selectFrom('orders as o')
      .innerJoin('order_items as first_item', (join) =>
        join.onRef('first_item.order_id', '=', 'o.id').on('first_item.position', '=', 1),
      )
      .innerJoin('listings as l', 'l.id', 'first_item.listing_id')
      .innerJoin('auth.users as b', 'b.id', 'o.buyer_id')
      .innerJoin('books as bk', 'bk.id', 'l.book_id')
      .select([
        'o.id',
        'o.status',
        'o.item_price_minor',
        'o.postage_minor',
        'o.buyer_protection_minor',
        'o.total_minor',
        'o.paid_at',
        'o.dispatched_at',
        'o.delivered_at',
        'o.completed_at',
        'l.status as listing_status',
        'l.parcel_size',
        'l.format',
        'bk.page_count',
        'b.email as buyer',
      ])
      .where('o.id', 'in', await seededIds('order'))
      .execute();
    const buyers = new Set<string>(DEMO_SEED_PEOPLE.buyers.map((p) => p.email));
    for (const order of orders) {
      expect(buyers.has(order.buyer ?? '')).toBe(true);
      expect(order.listing_status).toBe('sold');
      expect(order.buyer_protection_minor).toBe(
        buyerProtectionFee(order.item_price_minor, settings.buyerProtection),
      );
      // The rule checkout prices with (home delivery, the book alone), which the SQL seed mirrors.
      const band = parcelFor([
        { parcelSize: order.parcel_size as ParcelSize, format: order.format, pageCount: order.page_count },
      ]).band;
      expect(order.postage_minor).toBe(postageFor(band, 'home', settings.postageRates));
      const now = Date.now();
      for (const at of [order.paid_at, order.dispatched_at, order.delivered_at, order.completed_at]) {
        if (at) expect(at.getTime()).toBeLessThanOrEqual(now);
      }
    }
    const statuses = orders.map((order) => order.status);
    expect(statuses.filter((status) => status === 'disputed')).toHaveLength(4);
    expect(statuses).toContain('paid');
    const open = await db
      .selectFrom('disputes')
      .select(['status', 'order_id'])
      .where('id', 'in', await seededIds('dispute'))
      .execute();
    expect(open.map((dispute) => dispute.status)).toEqual(['open', 'open', 'open', 'open']);

    // Every card shows something in every period.
    for (const period of ['today', 'mtd', 'last30', 'ytd'] as const) {
      const metrics = await adminMetrics(poolClient(t.database.handle.pool), { period });
      expect(metrics.disputes_open).toBe(4);
      expect(metrics.active_listings).toBeGreaterThanOrEqual(40);
      expect(metrics.buyer_protection_minor, period).toBeGreaterThan(0);
    }
  });

  it('seeding again without reset finds its listings and orders and adds nothing', async () => {
    const before = await rowIds();
    const again = await seedCall(false);
    expect(again.body.result.data).toEqual({ listings: 0, orders: 0 });
    expect(await rowIds()).toEqual(before);
  });

  it('refills only what has gone (say, a listing clean-up removed)', async () => {
    const [gone] = await seededIds('listing');
    await db.deleteFrom('listings').where('id', '=', gone!).execute();
    const refill = await seedCall(false);
    expect(refill.body.result.data).toEqual({ listings: 1, orders: 0 });
    expect(await seededIds('listing')).toHaveLength(40);
  });

  it('reset removes exactly what the seed made, keeping what others made and a real order on a demo listing', async () => {
    const clean = await seedCall(true);
    expect(clean.body.result.data).toEqual({ listings: 40, orders: 24 });
    expect(await seededIds('listing')).toHaveLength(40);

    // Someone else's listing of a seeded book, and a real purchase of a seeded listing.
    const seller = await createUser(db, t.services.identity, 'real-seller@example.com');
    const buyer = await createUser(db, t.services.identity, 'real-buyer@example.com');
    const someBook = await db
      .selectFrom('books')
      .select('id')
      .where('id', 'in', await seededIds('book'))
      .limit(1)
      .executeTakeFirstOrThrow();
    const ownListing = await db
      .insertInto('listings')
      .values({
        seller_id: seller.id,
        book_id: someBook.id,
        slug: 'real-sellers-copy',
        status: 'active',
        condition: 'good',
        price_minor: 450,
        parcel_size: 'small',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const [bought] = await seededIds('listing');
    const boughtListing = await db
      .selectFrom('listings')
      .select(['seller_id', 'price_minor', 'book_id', 'charity_id'])
      .where('id', '=', bought!)
      .executeTakeFirstOrThrow();
    await db.updateTable('listings').set({ status: 'sold' }).where('id', '=', bought!).execute();
    const realOrder = await insertOrderRow(db, {
      buyer_id: buyer.id,
      seller_id: boughtListing.seller_id,
      listing_id: bought!,
      status: 'paid',
      item_price_minor: boughtListing.price_minor!,
      total_minor: boughtListing.price_minor!,
      paid_at: new Date(),
    });

    const before = await rowIds();
    const seeded: Record<Table, string[]> = {
      'auth.users': await seededIds('user'),
      charities: await seededIds('charity'),
      books: await seededIds('book'),
      listings: [...(await seededIds('listing')), ...(await seededIds('sold_listing'))],
      orders: await seededIds('order'),
      disputes: await seededIds('dispute'),
      seed_items: [],
    };
    const { rows } = await sql<{ listings: number; orders: number }>`
      select * from public.seed_openlibrary_reset()`.execute(db);
    expect(rows[0]).toEqual({ listings: 39, orders: 24 });

    // The bought listing stays (a real order refers to it), and so do what it needs: its
    // seller, its charity, its book, and the book under the other seller's copy. Everything
    // else the seed made goes; nothing else changes.
    const kept = new Set(
      [
        bought!,
        boughtListing.book_id!,
        boughtListing.seller_id,
        boughtListing.charity_id,
        someBook.id,
      ].filter((id): id is string => id !== null),
    );
    const after = await rowIds();
    for (const table of TABLES.filter((name) => name !== 'seed_items')) {
      const removed = seeded[table].filter((id) => !kept.has(id));
      expect(after[table], table).toEqual(before[table].filter((id) => !removed.includes(id)));
    }
    expect(after.orders).toContain(realOrder.id);
    expect(after.listings).toContain(ownListing.id);
    // What stays is still recorded, so a later reset can remove it once it is free.
    expect(await seededIds('listing')).toEqual([bought!]);
    expect(await seededIds('order')).toEqual([]);
  });

  it('reset and seed starts again cleanly: the same counts, never more', async () => {
    await db
      .deleteFrom('orders')
      .where(
        'id',
        'in',
        db
          .selectFrom('order_items')
          .select('order_id')
          .where('listing_id', 'in', await seededIds('listing')),
      )
      .execute();
    const first = await seedCall(true);
    expect(first.body.result.data).toEqual({ listings: 40, orders: 24 });
    const countsAfterFirst = await counts();
    const second = await seedCall(true);
    expect(second.body.result.data).toEqual({ listings: 40, orders: 24 });
    expect(await counts()).toEqual(countsAfterFirst);
    expect(await seededIds('listing')).toHaveLength(40);
    expect(await seededIds('order')).toHaveLength(24);
  });

  it('gives each seeded order its payment and payout, which go with it on reset', async () => {
    const orders = await seededIds('order');
    expect(orders).toHaveLength(24);
    const payments = await db
      .selectFrom('payments as p')
      .innerJoin('orders as o', 'o.id', 'p.order_id')
      .select(['p.status', 'p.amount_minor', 'o.total_minor'])
      .where('p.order_id', 'in', orders)
      .execute();
    expect(payments).toHaveLength(24);
    expect(payments.every((row) => row.status === 'succeeded' && row.amount_minor === row.total_minor)).toBe(
      true,
    );
    const payouts = await db
      .selectFrom('payouts as p')
      .innerJoin('orders as o', 'o.id', 'p.order_id')
      .select(['p.status as payout', 'o.status as order'])
      .where('p.order_id', 'in', orders)
      .execute();
    expect(payouts).toHaveLength(24);
    for (const row of payouts) expect(row.payout).toBe(row.order === 'completed' ? 'released' : 'held');
    await sql`select public.seed_openlibrary_reset()`.execute(db);
    const left = await db.selectFrom('payments').select('id').where('order_id', 'in', orders).execute();
    expect(left).toEqual([]);
    expect(await seededIds('order')).toEqual([]);
    expect((await seedCall(false)).body.result.data).toEqual({ listings: 40, orders: 24 });
  });

  it('spreads the orders so each period has its own revenue (Europe/London, in BST)', async () => {
    const now = new Date('2026-07-15T12:00:00Z');
    const pool = poolClient(t.database.handle.pool);
    // Remove the seed made by the API call, then seed as of a fixed clock.
    await sql`select public.seed_openlibrary_reset()`.execute(db);
    const before = await Promise.all(
      (['today', 'mtd', 'last30', 'ytd'] as const).map((period) => adminMetrics(pool, { period }, now)),
    );
    expect(await seedOpenLibraryRecent(pool, { reset: false }, { snapshot: SNAPSHOT_BOOKS, now })).toEqual({
      listings: 40,
      orders: 24,
    });
    const orders = await db
      .selectFrom('orders')
      .select(['paid_at', 'buyer_protection_minor'])
      .where('id', 'in', await seededIds('order'))
      .execute();
    // Period starts for 15 July 2026, 13:00 BST, worked out by hand.
    const starts = {
      today: '2026-07-14T23:00:00Z',
      mtd: '2026-06-30T23:00:00Z',
      last30: '2026-06-15T23:00:00Z',
      ytd: '2026-01-01T00:00:00Z',
    };
    for (const [index, period] of (['today', 'mtd', 'last30', 'ytd'] as const).entries()) {
      const inPeriod = orders.filter(
        (order) => order.paid_at! >= new Date(starts[period]) && order.paid_at! < now,
      );
      const expected = inPeriod.reduce((sum, order) => sum + order.buyer_protection_minor, 0);
      const metrics = await adminMetrics(pool, { period }, now);
      expect(metrics.buyer_protection_minor - before[index]!.buyer_protection_minor, period).toBe(expected);
      expect(formatPence(expected)).toMatch(/^£\d+\.\d\d$/);
    }
    const inToday = orders.filter((order) => order.paid_at! >= new Date(starts.today)).length;
    const inMtd = orders.filter((order) => order.paid_at! >= new Date(starts.mtd)).length;
    const inLast30 = orders.filter((order) => order.paid_at! >= new Date(starts.last30)).length;
    expect(inToday).toBeGreaterThanOrEqual(4);
    expect(inMtd).toBeGreaterThanOrEqual(10);
    expect(inLast30).toBeGreaterThan(inMtd);
    expect(orders.every((order) => order.paid_at! >= new Date(starts.ytd) && order.paid_at! < now)).toBe(
      true,
    );
  });

  it('resets only for an admin who has seen what it removes, counted by the server', async () => {
    await seedCall(false);
    const moderator = await createUser(db, t.services.identity, 'seed-moderator@example.com', {
      roles: ['moderator'],
    });
    const as = (token: string) => ({
      preview: () =>
        request(t.app.server)
          .get('/trpc/staff.dashboard.resetPreview')
          .set('authorization', `Bearer ${token}`),
      reset: (body: object) =>
        request(t.app.server)
          .post('/trpc/staff.dashboard.resetAndSeed')
          .set('authorization', `Bearer ${token}`)
          .send(body),
    });
    // Moderators may look: what a reset removes, as the reset counts it.
    const preview = await as(moderator.accessToken).preview();
    expect(preview.status).toBe(200);
    const seen = preview.body.result.data;
    expect(seen).toEqual({
      listings: (await seededIds('listing')).length,
      soldListings: (await seededIds('sold_listing')).length,
      orders: (await seededIds('order')).length,
      disputes: (await seededIds('dispute')).length,
      digest: expect.stringMatching(/^[0-9a-f]{32}$/),
    });
    expect(seen.listings).toBeGreaterThan(0);
    const before = await rowIds();

    // Only an admin resets; the seed procedure no longer does.
    expect((await as(moderator.accessToken).reset({ expected: seen.digest })).status).toBe(403);
    const viaSeed = await request(t.app.server)
      .post('/trpc/staff.dashboard.seed')
      .set('authorization', `Bearer ${staff.accessToken}`)
      .send({ reset: true });
    expect(viaSeed.status).toBe(400);
    expect(viaSeed.body.error.message).toMatch(/Reset and Seed/);
    // What the admin saw is what goes: after a change, nothing happens.
    const stale = await as(staff.accessToken).reset({ expected: '0'.repeat(32) });
    expect(stale.status).toBe(409);
    expect(await rowIds()).toEqual(before);

    const done = await as(staff.accessToken).reset({ expected: seen.digest });
    expect(done.status).toBe(200);
    expect(done.body.result.data).toEqual({ listings: 40, orders: 24 });
    const [audit] = await db
      .selectFrom('audit_log')
      .select(['action', 'details'])
      .where('action', '=', 'admin.resetAndSeed')
      .orderBy('id', 'desc')
      .execute();
    expect(audit?.details).toMatchObject({
      removed: { listings: seen.listings, soldListings: seen.soldListings, orders: seen.orders },
      added: { listings: 40, orders: 24 },
    });
  });

  it('refuses bad input and non-staff callers', async () => {
    const bad = await request(t.app.server)
      .post('/trpc/staff.dashboard.seed')
      .set('authorization', `Bearer ${staff.accessToken}`)
      .send({ reset: 'yes' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toBe('reset: reset must be true or false');
    const buyer = await createUser(db, t.services.identity, 'seed-buyer@example.com');
    const forbidden = await request(t.app.server)
      .post('/trpc/staff.dashboard.seed')
      .set('authorization', `Bearer ${buyer.accessToken}`)
      .send({ reset: false });
    expect(forbidden.status).toBe(403);
  });
});

describe('staff.dashboard.search', () => {
  const search = (q: string, token = staff.accessToken) =>
    request(t.app.server)
      .get(`/trpc/staff.dashboard.search?input=${encodeURIComponent(JSON.stringify({ q }))}`)
      .set('authorization', `Bearer ${token}`);

  it('finds people by email or name, listings by title or slug, orders by reference', async () => {
    const byEmail = await search('reader@reshelf');
    expect(byEmail.status).toBe(200);
    expect(byEmail.body.result.data.users).toEqual([
      expect.objectContaining({ email: 'reader@reshelf.test', displayName: 'Alex Morgan' }),
    ]);
    const byName = await search('whitfield');
    expect(byName.body.result.data.users.map((u: { email: string }) => u.email)).toEqual([
      'bookworm@reshelf.test',
    ]);

    const byTitle = await search('PRIDE and préjudice');
    const titles = byTitle.body.result.data.listings.map((l: { title: string }) => l.title);
    expect(titles.length).toBeGreaterThan(0);
    expect(titles.every((title: string) => title === 'Pride and Prejudice')).toBe(true);
    // Which copy is which: the seller (or charity) and the price.
    for (const listing of byTitle.body.result.data.listings) {
      expect(listing.sellerName).not.toBe('');
      expect(listing.priceMinor).toBeGreaterThan(0);
    }
    const slug = byTitle.body.result.data.listings[0].slug;
    const bySlug = await search(slug);
    expect(bySlug.body.result.data.listings.map((l: { slug: string }) => l.slug)).toEqual([slug]);

    const order = await db
      .selectFrom('orders')
      .select(['reference', 'total_minor'])
      .where('id', 'in', await seededIds('order'))
      .executeTakeFirstOrThrow();
    const byReference = await search(order.reference.toLowerCase());
    expect(byReference.body.result.data.orders).toEqual([
      expect.objectContaining({ reference: order.reference, totalMinor: order.total_minor }),
    ]);
  });

  it('takes % and _ literally, needs 2 characters and is for staff only', async () => {
    const wildcard = await search('%%');
    expect(wildcard.status).toBe(200);
    expect(wildcard.body.result.data).toEqual({ users: [], listings: [], orders: [] });
    const short = await search('a');
    expect(short.status).toBe(400);
    expect(short.body.error.message).toBe('q: Type at least 2 characters to search');
    const buyer = await createUser(db, t.services.identity, 'search-buyer@example.com');
    expect((await search('reader', buyer.accessToken)).status).toBe(403);
  });
});
