import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/index.ts';
import { createLocalIdentity } from '../features/auth/identity/local.ts';
import { createDevMailbox } from '../features/mail/mailer.ts';
import { createSecrets } from '../secrets.ts';
import { createTestDatabase, type TestDatabase } from '../testing/db.ts';
import { SNAPSHOT_BOOKS } from './books.ts';
import { runDemoSeed } from './demo.ts';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from './demo-accounts.ts';

let t: TestDatabase;
let db: Database;
let seed: () => ReturnType<typeof runDemoSeed>;

beforeAll(async () => {
  t = await createTestDatabase();
  db = t.handle.db;
  const identity = createLocalIdentity({
    db,
    secrets: createSecrets('s'.repeat(40)),
    mailer: createDevMailbox(db),
  });
  seed = () => runDemoSeed(db, { identity });
});

afterAll(async () => {
  await t.drop();
});

describe('the demo seed', () => {
  it('fills an empty marketplace once', async () => {
    expect((await seed()).ran).toEqual([
      'reference-data',
      'demo-accounts',
      'site-pages',
      'catalogue-demo',
      'demo-reports',
      'seed-openlibrary-recent',
    ]);
    expect((await seed()).ran).toEqual([]);
  });

  it('creates the demo sellers and charity users by the emails other work relies on', async () => {
    const users = await db
      .selectFrom('auth.users')
      .innerJoin('profiles', 'profiles.id', 'auth.users.id')
      .select(['email', 'display_name', 'encrypted_password'])
      .execute();
    const byEmail = new Map(users.map((user) => [user.email, user]));
    expect(byEmail.get('seller@reshelf.test')?.display_name).toBe("Sam's Shelf");
    expect(byEmail.get('charity@reshelf.test')).toBeTruthy();
    // The demo accounts sign in with the demo password; the other demo people cannot sign in.
    const demoEmails = new Set<string>(DEMO_ACCOUNTS.map((account) => account.email));
    expect(
      users.filter((user) => demoEmails.has(user.email ?? '')).every((user) => user.encrypted_password),
    ).toBe(true);
    expect(
      users.filter((user) => !demoEmails.has(user.email ?? '')).every((user) => !user.encrypted_password),
    ).toBe(true);
    expect(DEMO_PASSWORD).toBe('reshelf-demo');
    const charity = await db
      .selectFrom('charities')
      .innerJoin('auth.users', 'auth.users.id', 'charities.owner_id')
      .select(['charities.name', 'charities.status', 'auth.users.email'])
      .where('auth.users.email', '=', 'charity@reshelf.test')
      .executeTakeFirstOrThrow();
    expect(charity).toMatchObject({ name: 'Cherwell Valley Hospice Books', status: 'approved' });
  });

  it('puts every snapshot book on sale in varied conditions, prices and parcel sizes', async () => {
    const books = await db.selectFrom('books').select('isbn13').execute();
    expect(books).toHaveLength(SNAPSHOT_BOOKS.length);
    expect(SNAPSHOT_BOOKS.length).toBeGreaterThanOrEqual(60);
    const listings = await db
      .selectFrom('listings')
      .select(['status', 'condition', 'parcel_size', 'price_minor', 'charity_id'])
      .execute();
    const active = listings.filter((listing) => listing.status === 'active');
    expect(active.length).toBeGreaterThanOrEqual(60);
    expect(new Set(active.map((l) => l.condition)).size).toBe(4);
    expect(new Set(active.map((l) => l.parcel_size)).size).toBe(3);
    expect(new Set(active.map((l) => l.price_minor)).size).toBeGreaterThan(20);
    expect(active.filter((l) => l.charity_id).length).toBeGreaterThan(10);
    expect(listings.filter((l) => l.status === 'sold').length).toBeGreaterThan(0);
  });

  it('leaves signals for trending and staff picks', async () => {
    const [views, wishes, picks, orders] = await Promise.all([
      db.selectFrom('listing_views').select('listing_id').execute(),
      db.selectFrom('wishlist_items').select('listing_id').execute(),
      db.selectFrom('staff_picks').select('listing_id').execute(),
      db
        .selectFrom('orders')
        .select(['status', 'total_minor'])
        // The catalogue's own sales, not the staff seed's orders.
        .where('id', 'not in', db.selectFrom('seed_items').select('row_id').where('kind', '=', 'order'))
        .execute(),
    ]);
    expect(views.length).toBeGreaterThan(100);
    expect(wishes.length).toBeGreaterThan(5);
    expect(picks.length).toBeGreaterThanOrEqual(6);
    expect(orders.length).toBeGreaterThan(0);
    expect(orders.every((order) => order.status === 'completed')).toBe(true);
  });

  it('runs the staff seed once, on the snapshot’s books and the demo people, so the dashboard has numbers', async () => {
    const items = await db
      .selectFrom('seed_items')
      .select(['kind', (eb) => eb.fn.countAll<string>().as('count')])
      .groupBy('kind')
      .execute();
    const byKind = Object.fromEntries(items.map((item) => [item.kind, Number(item.count)]));
    // The books and people were there already: the seed made only listings and orders.
    expect(byKind).toEqual({ listing: 40, sold_listing: 24, order: 24, dispute: 4 });
    const duplicates = await db
      .selectFrom('listings')
      .select(['seller_id', 'book_id'])
      .where('status', '=', 'active')
      .groupBy(['seller_id', 'book_id'])
      .having((eb) => eb.fn.countAll(), '>', 1)
      .execute();
    expect(duplicates).toEqual([]);
  });

  it('leaves a few open reports on demo listings, so /admin/reports has a queue', async () => {
    const reports = await db
      .selectFrom('reports as r')
      .innerJoin('listings as l', 'l.id', 'r.listing_id')
      .innerJoin('auth.users as u', 'u.id', 'l.seller_id')
      .select(['r.status', 'r.listing_id', 'u.email'])
      .execute();
    expect(reports).toHaveLength(3);
    expect(reports.every((report) => report.status === 'open')).toBe(true);
    expect(new Set(reports.map((report) => report.listing_id)).size).toBe(2);
    // Never the demo seller's: browser tests work with those listings.
    expect(reports.every((report) => report.email === 'margaret@reshelf.test')).toBe(true);
  });
});
