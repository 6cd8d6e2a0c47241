/**
 * The REST adapter's own behaviour: query text read as numbers and yes/no without touching
 * the shared schemas (tRPC still refuses text where it wants a number), the one error shape
 * for invalid input, unknown paths and unreadable bodies, and the served document.
 */
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/app.ts';
import { createUser } from '../testing/auth.ts';

let t: TestApp;
let staffToken: string;

beforeAll(async () => {
  t = await createTestApp();
  await t.services.functions.seedOpenLibraryRecent({ reset: false }, {});
  staffToken = (
    await createUser(t.database.handle.db, t.services.identity, 'rest-staff@example.com', {
      roles: ['admin'],
    })
  ).accessToken;
});

afterAll(async () => {
  await t.close();
});

describe('REST adapter', () => {
  it('reads numbers and true/false from the query string', async () => {
    const page = await request(t.app.server).get('/api/v1/listings?pageSize=5&page=2');
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ page: 2, pageSize: 5 });
    expect(page.body.items).toHaveLength(5);

    const all = await request(t.app.server).get('/api/v1/listings?pageSize=48');
    const charities = await request(t.app.server).get('/api/v1/listings?pageSize=48&charityOnly=true');
    const notOnly = await request(t.app.server).get('/api/v1/listings?pageSize=48&charityOnly=false');
    expect(charities.body.items.length).toBeGreaterThan(0);
    expect(charities.body.items.every((item: { charity: unknown }) => item.charity !== null)).toBe(true);
    expect(charities.body.total).toBeLessThan(all.body.total);
    // "false" means false, not a non-empty string.
    expect(notOnly.body.total).toBe(all.body.total);
  });

  it('searches and browses books: GET /books/search with words, filters read from the query string', async () => {
    const browse = await request(t.app.server).get('/api/v1/books/search?pageSize=5&group=work');
    expect(browse.status).toBe(200);
    expect(browse.body).toMatchObject({ pageSize: 5, group: 'work', query: null, correctedQuery: null });
    expect(browse.body.items.length).toBeGreaterThan(0);
    expect(browse.body.items.every((item: { editionId: unknown }) => item.editionId === null)).toBe(true);
    const title = browse.body.items[0].title as string;
    const search = await request(t.app.server).get(
      `/api/v1/books/search?q=${encodeURIComponent(title)}&exact=true&maxPrice=-1`,
    );
    expect(search.status).toBe(400);
    expect(search.body.issues.map((issue: { path: string }) => issue.path)).toContain('maxPrice');
    const found = await request(t.app.server).get(
      `/api/v1/books/search?q=${encodeURIComponent(title)}&exact=true`,
    );
    expect(found.status).toBe(200);
    expect(found.body.items.map((item: { title: string }) => item.title)).toContain(title);
    expect(found.body.correctedQuery).toBeNull();
  });

  it('leaves the shared schemas alone: tRPC still refuses text for a number', async () => {
    await request(t.app.server).get('/api/v1/listings?page=1');
    const trpc = await request(t.app.server).get(
      `/trpc/catalogue.listings.browse?input=${encodeURIComponent(JSON.stringify({ page: '2' }))}`,
    );
    expect(trpc.status).toBe(400);
  });

  it('answers invalid input with the fields and their messages', async () => {
    const response = await request(t.app.server).get('/api/v1/listings?page=zero&minPrice=500&maxPrice=100');
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('BAD_REQUEST');
    expect(response.body.issues.map((issue: { path: string }) => issue.path)).toContain('page');
    expect(response.body.message).toMatch(/^page: /);
    const missing = await request(t.app.server).get('/api/v1/listings/search');
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ code: 'BAD_REQUEST', issues: [{ path: 'q' }] });
  });

  it('answers a missing listing, an unknown path and an unreadable body in the same shape', async () => {
    const listing = await request(t.app.server).get('/api/v1/listings/no-such-book');
    expect(listing.status).toBe(404);
    expect(Object.keys(listing.body).sort()).toEqual(['code', 'message']);
    const path = await request(t.app.server).get('/api/v1/nothing-here');
    expect(path.status).toBe(404);
    expect(path.body).toEqual({
      code: 'NOT_FOUND',
      message: 'There is no GET /api/v1/nothing-here. The operations are listed in /api/v1/openapi.json.',
    });
    const body = await request(t.app.server)
      .post('/api/v1/admin/seed')
      .set('authorization', `Bearer ${staffToken}`)
      .set('content-type', 'application/json')
      .send('{"reset": tru');
    expect(body.status).toBe(400);
    expect(body.body.code).toBe('BAD_REQUEST');
    const wrongType = await request(t.app.server)
      .post('/api/v1/admin/seed')
      .set('authorization', `Bearer ${staffToken}`)
      .send({ reset: 'yes' });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.issues).toEqual([{ path: 'reset', message: 'reset must be true or false' }]);
  });

  it('serves the document with this site as its first server', async () => {
    const response = await request(t.app.server).get('/api/v1/openapi.json');
    expect(response.status).toBe(200);
    expect(response.body.openapi).toBe('3.1.0');
    expect(response.body.servers[0]).toEqual({ url: '/api/v1', description: 'This site' });
    const docs = await request(t.app.server).get('/api/docs');
    expect(docs.text).toContain('/api/docs/assets/swagger-ui-bundle.js');
    const asset = await request(t.app.server).get('/api/docs/assets/swagger-ui-bundle.js');
    expect(asset.status).toBe(200);
    expect((await request(t.app.server).get('/api/docs/assets/package.json')).status).toBe(404);
  });
});
