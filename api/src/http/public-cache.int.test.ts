/**
 * The public catalogue cache in the real app: hits and misses, what is never cached, and
 * invalidation by the database's change notifications (from any writer).
 */
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/app.ts';
import { createUser } from '../testing/auth.ts';
import { until } from '../testing/until.ts';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ env: { PUBLIC_CACHE_SECONDS: '60' } });
});

afterAll(async () => {
  await t.close();
});

const get = (url: string) => request(t.app.server).get(url);

describe('public cache', () => {
  it('answers a repeated public read from the cache', async () => {
    const first = await get('/trpc/catalogue.taxonomy.public.categories');
    expect(first.status).toBe(200);
    expect(first.headers['x-cache']).toBe('MISS');
    await until(
      async () => (await get('/trpc/catalogue.taxonomy.public.categories')).headers['x-cache'] === 'HIT',
      'a hit',
    );
    const hit = await get('/trpc/catalogue.taxonomy.public.categories');
    expect(hit.body).toEqual(first.body);
    expect(hit.headers['content-type']).toMatch(/application\/json/);
  });

  it('drops everything when the catalogue changes, whoever changes it', async () => {
    await until(
      async () => (await get('/trpc/catalogue.taxonomy.public.categories')).headers['x-cache'] === 'HIT',
      'a hit',
    );
    // A write straight to the database (another instance, a script): NOTIFY reaches us.
    await t.database.handle.db
      .insertInto('categories')
      .values({ slug: 'folklore', name: 'Folklore & Myth', position: 50 })
      .execute();
    await until(async () => {
      const response = await get('/trpc/catalogue.taxonomy.public.categories');
      return response.body.result.data.some((category: { slug: string }) => category.slug === 'folklore');
    }, 'the new category');
  });

  it('never caches errors, signed-in reads, mutations or mixed batches', async () => {
    const missing = '/trpc/platform.pages.bySlug?input=%7B%22slug%22%3A%22no-such-page%22%7D';
    expect((await get(missing)).status).toBe(404);
    expect((await get(missing)).headers['x-cache']).toBe('MISS');

    const user = await createUser(t.database.handle.db, t.services.identity, 'cache-user@example.com');
    for (let i = 0; i < 3; i++) {
      const me = await get('/trpc/account.auth.me').set('authorization', `Bearer ${user.accessToken}`);
      expect(me.headers['x-cache']).toBeUndefined();
      expect(me.body.result.data.user.email).toBe('cache-user@example.com');
    }
    const mixed = await get(
      '/trpc/catalogue.taxonomy.public.categories,account.auth.me?batch=1&input=%7B%7D',
    );
    expect(mixed.headers['x-cache']).toBeUndefined();
  });
});
