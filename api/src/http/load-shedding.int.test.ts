/**
 * Load shedding (decision 0024): an instance whose database pool queue is full, or whose event
 * loop lags, answers new requests 503 with Retry-After at once, in the shape each caller reads,
 * and keeps /healthz and /readyz answering.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { createDatabase, type DatabaseHandle } from '../db/index.ts';
import { OVERLOADED_MESSAGE, OVERLOADED_RETRY_AFTER_SECONDS } from '../errors.ts';
import { createSecrets } from '../secrets.ts';
import { seedReferenceData } from '../seed/demo.ts';
import { createTestDatabase, type TestDatabase } from '../testing/db.ts';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
  await seedReferenceData(database.handle.db);
});

afterAll(async () => {
  await database.drop();
});

async function appOn(handle: DatabaseHandle, env: NodeJS.ProcessEnv = {}): Promise<FastifyInstance> {
  const app = await buildApp({
    config: loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATABASE_URL: database.url,
      WEB_DIST: 'api/.no-web-dist',
      ...env,
    }),
    database: handle,
    secrets: createSecrets('x'.repeat(32)),
  });
  await app.ready();
  // The mail sender drains the outbox once it starts listening: let it finish, so the pool the
  // test fills holds only the test's own work.
  await app.mail.idle();
  return app;
}

function expectShed(response: request.Response) {
  expect(response.status).toBe(503);
  expect(response.headers['retry-after']).toBe(String(OVERLOADED_RETRY_AFTER_SECONDS));
}

/** A built web (the shell, a file under /assets, one at its root) and a stored listing photo. */
function webAndStorage() {
  const web = mkdtempSync(path.join(tmpdir(), 'reshelf-web-'));
  mkdirSync(path.join(web, 'assets'));
  writeFileSync(path.join(web, 'index.html'), '<!doctype html><div id="root"></div>');
  writeFileSync(path.join(web, 'assets', 'index-abc123.css'), 'body{color:black}');
  writeFileSync(path.join(web, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  writeFileSync(path.join(web, 'apple-touch-icon.png'), 'png');
  const data = mkdtempSync(path.join(tmpdir(), 'reshelf-data-'));
  mkdirSync(path.join(data, 'storage', 'listings', 'l1', 'p1'), { recursive: true });
  writeFileSync(path.join(data, 'storage', 'listings', 'l1', 'p1', '400.webp'), 'webp');
  return {
    env: { WEB_DIST: web, DATA_DIR: data },
    remove: () => {
      rmSync(web, { recursive: true, force: true });
      rmSync(data, { recursive: true, force: true });
    },
  };
}

/** What a phone loading /trending fetched besides the page and the API: never shed. */
async function expectFilesServed(app: FastifyInstance) {
  for (const [url, body] of [
    ['/assets/index-abc123.css', 'body{color:black}'],
    ['/favicon.svg', '<svg xmlns="http://www.w3.org/2000/svg"/>'],
    ['/apple-touch-icon.png', 'png'],
    ['/storage/listings/l1/p1/400.webp', 'webp'],
  ] as const) {
    const response = await request(app.server).get(url);
    expect(response.status, url).toBe(200);
    const text = Buffer.isBuffer(response.body) ? response.body.toString() : response.text;
    expect(text, url).toBe(body);
  }
}

describe('a full database pool queue', () => {
  it('sheds new requests at once in each surface’s error shape, and takes them again when it drains', async () => {
    const handle = createDatabase(database.url, { max: 1, maxWaiting: 1 });
    const files = webAndStorage();
    const app = await appOn(handle, files.env);
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    try {
      const holder = handle.db.connection().execute(async (connection) => {
        await sql`select 1`.execute(connection);
        await held;
      });
      const queued = sql`select 1`.execute(handle.db);
      await vi.waitFor(() => expect(handle.saturated()).toBe(true));

      const one = await request(app.server).get('/trpc/catalogue.taxonomy.public.categories');
      expectShed(one);
      expect(one.body.error).toMatchObject({
        message: OVERLOADED_MESSAGE,
        data: { code: 'SERVICE_UNAVAILABLE', httpStatus: 503 },
      });
      const batch = await request(app.server).get(
        '/trpc/catalogue.taxonomy.public.categories,catalogue.taxonomy.public.genres?batch=1&input={}',
      );
      expectShed(batch);
      expect(batch.body.map((entry: { error: { data: { code: string } } }) => entry.error.data.code)).toEqual(
        ['SERVICE_UNAVAILABLE', 'SERVICE_UNAVAILABLE'],
      );
      const rest = await request(app.server).get('/api/v1/categories');
      expectShed(rest);
      expect(rest.body).toEqual({ code: 'SERVICE_UNAVAILABLE', message: OVERLOADED_MESSAGE });

      expect((await request(app.server).get('/healthz')).status).toBe(200);
      // The web's files and stored photos need no database: served.
      await expectFilesServed(app);
      // Ready: PostgreSQL answers (over the probe's own connection), however busy this pool is.
      expect((await request(app.server).get('/readyz')).body).toEqual({ status: 'ready', database: true });

      release();
      await holder;
      await queued;
      expect((await request(app.server).get('/trpc/catalogue.taxonomy.public.categories')).status).toBe(200);
    } finally {
      release();
      await app.close();
      await handle.close();
      files.remove();
    }
  });
});

describe('a lagging event loop', () => {
  it('is not judged during the start-up grace: a fresh instance takes its first requests', async () => {
    const handle = createDatabase(database.url, { max: 2 });
    // Start-up lag: the loop is blocked while the app is built and right after.
    const app = await appOn(handle, { MAX_EVENT_LOOP_DELAY_MS: '10' });
    const until = Date.now() + 400;
    while (Date.now() < until) {
      /* busy */
    }
    try {
      await vi.waitFor(() => expect(app.isUnderPressure()).toBe(true), { timeout: 5_000, interval: 10 });
      expect((await request(app.server).get('/trpc/catalogue.taxonomy.public.categories')).status).toBe(200);
    } finally {
      await app.close();
      await handle.close();
    }
  });

  it('sheds with 503 and Retry-After while the loop lags, but never /healthz or /readyz', async () => {
    const handle = createDatabase(database.url, { max: 2 });
    const app = await appOn(handle, { MAX_EVENT_LOOP_DELAY_MS: '10' });
    // Keep the loop busy: 100 ms of synchronous work every 120 ms.
    const hog = setInterval(() => {
      const until = Date.now() + 100;
      while (Date.now() < until) {
        /* busy */
      }
    }, 120);
    try {
      // (Once its start-up grace is over: a fresh instance does not count its own start as load.)
      await vi.waitFor(
        async () => expectShed(await request(app.server).get('/trpc/catalogue.taxonomy.public.categories')),
        {
          timeout: 15_000,
          interval: 50,
        },
      );
      expect(app.isUnderPressure()).toBe(true);
      expect((await request(app.server).get('/healthz')).status).toBe(200);
      expect((await request(app.server).get('/readyz')).status).toBe(200);
    } finally {
      clearInterval(hog);
    }
    try {
      await vi.waitFor(() => expect(app.isUnderPressure()).toBe(false), { timeout: 10_000, interval: 20 });
      expect((await request(app.server).get('/trpc/catalogue.taxonomy.public.categories')).status).toBe(200);
    } finally {
      await app.close();
      await handle.close();
    }
  });
  it('still serves the web’s own files and stored photos, and shows a person’s browser a page that tries again', async () => {
    const files = webAndStorage();
    const handle = createDatabase(database.url, { max: 2 });
    const app = await appOn(handle, { MAX_EVENT_LOOP_DELAY_MS: '10', ...files.env });
    const hog = setInterval(() => {
      const until = Date.now() + 100;
      while (Date.now() < until) {
        /* busy */
      }
    }, 120);
    try {
      await vi.waitFor(
        async () => expectShed(await request(app.server).get('/trpc/catalogue.taxonomy.public.categories')),
        { timeout: 15_000, interval: 50 },
      );
      // The styles, icons and cover photos of a page the browser already has: served.
      await expectFilesServed(app);
      // A page: a short page saying so, not JSON, that asks again by itself.
      const page = await request(app.server).get('/search?q=dune').set('accept', 'text/html,*/*');
      expectShed(page);
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(page.text).toContain(OVERLOADED_MESSAGE);
      expect(page.text).toContain(`<meta http-equiv="refresh" content="${OVERLOADED_RETRY_AFTER_SECONDS}">`);
      // The API keeps its own shape, whatever the client accepts.
      const api = await request(app.server)
        .get('/trpc/catalogue.taxonomy.public.categories')
        .set('accept', 'text/html,*/*');
      expectShed(api);
      expect(api.body.error.data.code).toBe('SERVICE_UNAVAILABLE');
    } finally {
      clearInterval(hog);
      await app.close();
      await handle.close();
      files.remove();
    }
  });
});
