/**
 * HTTP caching of public answers (decision 0042): ETag, Cache-Control and 304 on public GETs,
 * on /trpc and /api/v1, with the in-process cache off (as in tests) and on; private answers stay
 * no-store. And the in-process cache dropping only what a change touches.
 */
import { sql } from 'kysely';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedSitePages } from '../seed/site-pages.ts';
import { createTestApp, type TestApp } from '../testing/app.ts';
import { createUser } from '../testing/auth.ts';
import { createBook, createListing, createPerson, rawTrpcQuery } from '../testing/catalogue.ts';
import { until } from '../testing/until.ts';
import { PUBLIC_CACHE_CONTROL, PUBLIC_CDN_CACHE_CONTROL } from './public-answers.ts';

let off: TestApp;
let on: TestApp;

beforeAll(async () => {
  [off, on] = await Promise.all([createTestApp(), createTestApp({ env: { PUBLIC_CACHE_SECONDS: '60' } })]);
  await seedSitePages(on.database.handle.db);
});

afterAll(async () => {
  await Promise.all([off?.close(), on?.close()]);
});

describe.each([
  ['off', () => off],
  ['on', () => on],
])('public GETs with the in-process cache %s', (_, app) => {
  for (const url of [
    '/trpc/catalogue.taxonomy.public.categories',
    '/api/v1/categories',
    '/trpc/catalogue.taxonomy.public.genres,catalogue.taxonomy.public.categories?batch=1&input=%7B%7D',
  ]) {
    it(`carry an ETag and Cache-Control, and answer 304 to If-None-Match: ${url}`, async () => {
      const first = await request(app().app.server).get(url);
      expect(first.status).toBe(200);
      expect(first.headers.etag).toMatch(/^W\/"[\w-]+"$/);
      expect(first.headers['cache-control']).toBe(PUBLIC_CACHE_CONTROL);
      expect(first.headers['cdn-cache-control']).toBe(PUBLIC_CDN_CACHE_CONTROL);
      expect(first.body).toBeTruthy();

      const again = await request(app().app.server).get(url).set('if-none-match', first.headers.etag!);
      expect(again.status).toBe(304);
      expect(again.text ?? '').toBe('');
      expect(again.headers.etag).toBe(first.headers.etag);
      expect(again.headers['cache-control']).toBe(PUBLIC_CACHE_CONTROL);

      const other = await request(app().app.server).get(url).set('if-none-match', 'W/"something-else"');
      expect(other.status).toBe(200);
      expect(other.body).toEqual(first.body);
      expect(other.headers.etag).toBe(first.headers.etag);
    });
  }

  it('keep private and failed answers out of shared caches', async () => {
    const user = await createUser(
      app().database.handle.db,
      app().services.identity,
      `etag-${Math.random().toString(36).slice(2)}@example.com`,
    );
    const me = await request(app().app.server)
      .get('/trpc/account.auth.me')
      .set('authorization', `Bearer ${user.accessToken}`);
    expect(me.status).toBe(200);
    expect(me.headers.etag).toBeUndefined();
    expect(me.headers['cache-control']).toBe('no-store');
    const missing = await rawTrpcQuery(app().app, 'platform.pages.bySlug', { slug: 'no-such-page' });
    expect(missing.status).toBe(404);
    expect(missing.headers.etag).toBeUndefined();
    expect(missing.headers['cache-control']).toBeUndefined();
  });
});

describe('the in-process cache', () => {
  const get = (url: string) => request(on.app.server).get(url);
  const detailUrl = (slug: string) =>
    `/trpc/catalogue.listings.bySlug?input=${encodeURIComponent(JSON.stringify({ slug }))}`;
  const browseUrl = (category: string) =>
    `/trpc/catalogue.listings.browse?input=${encodeURIComponent(JSON.stringify({ category }))}`;
  const hit = async (url: string) => (await get(url)).headers['x-cache'] === 'HIT';
  /**
   * Waits until the app has handled the notifications of every change made so far: they reach
   * it in commit order, so once it has handled one sent now, it has handled all before it.
   */
  const notificationsHandled = async () => {
    // A change of no seller: it drops only `lists`, which none of the answers below is.
    const barrier = `profiles:${JSON.stringify({ sellers: [], barrier: Math.random() })}`;
    await sql`select pg_notify('reshelf_catalogue', ${barrier})`.execute(on.database.handle.db);
    await until(async () => on.app.publicCache?.lastNotification === barrier, 'the barrier notification');
  };

  it('drops only the answers a change of a listing touches', async () => {
    const db = on.database.handle.db;
    const alice = await createPerson(db, 'alice-keys@reshelf.test', 'Alice Keys');
    const bob = await createPerson(db, 'bob-keys@reshelf.test', 'Bob Keys');
    const novel = await createBook(db, { title: 'A Keyed Novel', category: 'fiction' });
    const cookbook = await createBook(db, { title: 'A Keyed Cookbook', category: 'cookery' });
    const changed = await createListing(db, { sellerId: alice, bookId: novel, price: 700 });
    const sameSeller = await createListing(db, { sellerId: alice, bookId: cookbook, price: 800 });
    const untouched = await createListing(db, { sellerId: bob, bookId: cookbook, price: 900 });
    const kept = [
      detailUrl(untouched.slug),
      browseUrl('cookery'),
      '/trpc/catalogue.taxonomy.public.categories',
      '/trpc/platform.pages.bySlug?input=%7B%22slug%22%3A%22faq%22%7D',
    ];
    const dropped = [detailUrl(changed.slug), detailUrl(sameSeller.slug), browseUrl('fiction')];
    await notificationsHandled();
    for (const url of [...kept, ...dropped]) await until(() => hit(url), `a hit for ${url}`);

    await db.updateTable('listings').set({ price_minor: 650 }).where('id', '=', changed.id).execute();

    await notificationsHandled();
    // The change is seen, and the rest of the cache stands.
    expect((await get(detailUrl(changed.slug))).body.result.data.price.itemMinor).toBe(650);
    for (const url of kept) expect((await get(url)).headers['x-cache'], url).toBe('HIT');
    // The seller's other listing (its page counts the seller's listings) and the category's page.
    expect((await get(detailUrl(sameSeller.slug))).headers['x-cache']).toBe('MISS');
    expect((await get(browseUrl('fiction'))).headers['x-cache']).toBe('MISS');
  });

  it('drops everything on a change it cannot narrow (a category, a setting)', async () => {
    const url = '/trpc/catalogue.taxonomy.public.genres';
    await notificationsHandled();
    await until(() => hit(url), 'a hit');
    await on.database.handle.db
      .updateTable('settings')
      .set({ updated_at: new Date() })
      .where('key', '=', 'postage_bands')
      .execute();
    await notificationsHandled();
    expect((await get(url)).headers['x-cache']).toBe('MISS');
  });
});
