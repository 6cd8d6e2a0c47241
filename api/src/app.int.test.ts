import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { createDatabase } from './db/index.ts';
import { createSecrets } from './secrets.ts';
import { createTestApp, type TestApp } from './testing/app.ts';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});

afterAll(async () => {
  await t.close();
});

describe('health', () => {
  it('answers /healthz while the process is up', async () => {
    const response = await request(t.app.server).get('/healthz');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'ok' });
  });

  it('answers /readyz 200 when the database answers', async () => {
    const response = await request(t.app.server).get('/readyz');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'ready', database: true });
  });

  it('answers /readyz 503 when the database does not', async () => {
    // A port nothing listens on: the pool cannot connect.
    const unreachable = createDatabase('postgres://postgres:x@127.0.0.1:1/none');
    const app = await buildApp({
      config: loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', WEB_DIST: 'api/.no-web-dist' }),
      database: unreachable,
      secrets: createSecrets('x'.repeat(32)),
    });
    await app.ready();
    try {
      const response = await request(app.server).get('/readyz');
      expect(response.status).toBe(503);
      expect(response.body).toEqual({ status: 'unavailable', database: false });
    } finally {
      await app.close();
      await unreachable.close();
    }
  });
});

describe('tRPC', () => {
  it('serves the categories from the database', async () => {
    const response = await request(t.app.server).get('/trpc/catalogue.taxonomy.public.categories');
    expect(response.status).toBe(200);
    const categories = response.body.result.data as { slug: string; name: string }[];
    expect(categories.length).toBeGreaterThanOrEqual(10);
    expect(categories[0]).toMatchObject({ slug: 'fiction', name: 'Fiction' });
    expect(categories.map((category) => category.slug)).toContain('cookery');
  });

  it('reflects a change to the database at once', async () => {
    await t.database.handle.db
      .insertInto('categories')
      .values({ slug: 'maps-atlases', name: 'Maps & Atlases', position: 99 })
      .execute();
    const response = await request(t.app.server).get('/trpc/catalogue.taxonomy.public.categories');
    expect(response.body.result.data.at(-1)).toMatchObject({ slug: 'maps-atlases', name: 'Maps & Atlases' });
  });

  it('answers batched calls (long procedure paths in one segment)', async () => {
    const response = await request(t.app.server)
      .get('/trpc/catalogue.taxonomy.public.categories,catalogue.taxonomy.public.genres')
      .query({ batch: '1', input: JSON.stringify({}) });
    expect(response.status).toBe(200);
    expect(response.body).toHaveLength(2);
    expect(response.body[1].result.data.length).toBeGreaterThan(5);
  });

  it('answers an unknown procedure with a 404 in tRPC shape', async () => {
    const response = await request(t.app.server).get('/trpc/catalogue.nothing');
    expect(response.status).toBe(404);
    expect(response.body.error.data.code).toBe('NOT_FOUND');
  });
});

describe('HTTP behaviour', () => {
  it('echoes a request id, and makes one when none is sent', async () => {
    const given = await request(t.app.server).get('/healthz').set('x-request-id', 'abc-123');
    expect(given.headers['x-request-id']).toBe('abc-123');
    const made = await request(t.app.server).get('/healthz');
    expect(made.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers unknown API paths with a JSON 404', async () => {
    const response = await request(t.app.server).get('/api/nothing');
    expect(response.status).toBe(404);
    expect(response.body.message).toBe('No route for GET /api/nothing');
    // The REST API answers in its own error shape (openapi/README.md).
    const rest = await request(t.app.server).get('/api/v1/nothing');
    expect(rest.status).toBe(404);
    expect(rest.body).toEqual({
      code: 'NOT_FOUND',
      message: 'There is no GET /api/v1/nothing. The operations are listed in /api/v1/openapi.json.',
    });
  });

  it('keeps credentials out of the logs', async () => {
    // Not a probe: a good probe's line is at debug but for the first of each minute (decision 0070).
    await request(t.app.server)
      .get('/api/nothing?token=supersecret-token-value&page=2')
      .set('authorization', 'Bearer eyJ.secret.jwt')
      .set('cookie', 'sb-access-token=cookie-secret-value');
    const text = t.logs.join('\n');
    // The path alone: no query string reaches a log line (decision 0025).
    expect(text).toContain('"url":"/api/nothing"');
    expect(text).not.toContain('page=2');
    expect(text).not.toContain('supersecret-token-value');
    expect(text).not.toContain('eyJ.secret.jwt');
    expect(text).not.toContain('cookie-secret-value');
    // Every request line carries its request id.
    const lines = t.logs.map((line) => JSON.parse(line) as { reqId?: string; msg: string });
    const requestLines = lines.filter((line) => line.msg === 'request');
    expect(requestLines.length).toBeGreaterThan(0);
    expect(requestLines.every((line) => line.reqId)).toBe(true);
  });
});
