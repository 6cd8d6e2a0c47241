/**
 * PostgreSQL going away, as the app's callers see it (decision 0024): every surface answers
 * 503 with Retry-After (tRPC, /api/v1, the raw routes), nobody is signed out (no 401, no
 * cookie cleared), /healthz keeps answering and /readyz says 503, and the same session works
 * again the moment the database is back, with no restart. The database "goes away" through a
 * TCP proxy that drops every connection and refuses new ones.
 */
import { CLIENT_HEADER } from '@reshelf/contracts';
import type { FastifyInstance } from 'fastify';
import request from 'supertest';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { createDatabase, type DatabaseHandle } from '../db/index.ts';
import { DATABASE_UNAVAILABLE_MESSAGE } from '../errors.ts';
import { createApiToken } from '../platform/identity/api-tokens.ts';
import { createSecrets } from '../secrets.ts';
import { seedReferenceData } from '../seed/demo.ts';
import { createServices } from '../services.ts';
import { createUser, TEST_PASSWORD, type TestUser } from '../testing/auth.ts';
import { createTestDatabase, type TestDatabase } from '../testing/db.ts';
import { type DatabaseProxy, startDatabaseProxy } from '../testing/db-proxy.ts';

let database: TestDatabase;
let proxy: DatabaseProxy;
let handle: DatabaseHandle;
let app: FastifyInstance;
let staff: TestUser;
let apiToken: string;

beforeAll(async () => {
  database = await createTestDatabase();
  await seedReferenceData(database.handle.db);
  proxy = await startDatabaseProxy(database.url);
  handle = createDatabase(proxy.url, { max: 5 });
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATABASE_URL: proxy.url,
    WEB_DIST: 'api/.no-web-dist',
  });
  const secrets = createSecrets('test-secret-that-is-long-enough-for-hkdf-0123456789');
  const services = await createServices(config, handle, secrets);
  app = await buildApp({ config, database: handle, secrets, services });
  await app.ready();
  staff = await createUser(handle.db, services.identity, 'outage-staff@example.com', { roles: ['admin'] });
  apiToken = (
    await createApiToken(handle.db, secrets, staff.id, { name: 'outage', scope: 'read', expiresInDays: 7 })
  ).token;
});

afterEach(() => proxy.restore());

afterAll(async () => {
  await app.close();
  await handle.close();
  await proxy.close();
  await database.drop();
});

const WEB = { [CLIENT_HEADER]: 'web' };

async function browserSignIn() {
  const agent = request.agent(app.server);
  const signedIn = await agent
    .post('/trpc/account.auth.signIn')
    .set(WEB)
    .send({ email: staff.email, password: TEST_PASSWORD });
  expect(signedIn.status).toBe(200);
  const cookies = (signedIn.headers['set-cookie'] as unknown as string[]).map((c) => c.split(';')[0]!);
  return { agent, cookies };
}

function expectUnavailable(response: request.Response) {
  expect(response.status).toBe(503);
  expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
  expect(response.headers['set-cookie']).toBeUndefined();
}

describe('while PostgreSQL is down', () => {
  it('a signed-in browser gets 503 with Retry-After, keeps its cookies, and carries on afterwards', async () => {
    const { agent } = await browserSignIn();
    proxy.cut();
    const me = await agent.get('/trpc/account.auth.me').set(WEB);
    expectUnavailable(me);
    expect(me.body.error.message).toBe(DATABASE_UNAVAILABLE_MESSAGE);
    expect(me.body.error.data.code).toBe('SERVICE_UNAVAILABLE');
    expectUnavailable(await agent.get('/trpc/account.notifications.unreadCount').set(WEB));
    expectUnavailable(await agent.post('/trpc/account.notifications.markRead').set(WEB).send({ ids: 'all' }));
    // A batch answers each call with the same 503.
    const batch = await agent
      .get('/trpc/account.auth.me,account.notifications.unreadCount?batch=1&input={}')
      .set(WEB);
    expectUnavailable(batch);

    proxy.restore();
    const back = await agent.get('/trpc/account.auth.me').set(WEB);
    expect(back.status).toBe(200);
    expect(back.body.result.data.user.email).toBe(staff.email);
  });

  it('an expired access cookie is not a reason to sign out: the refresh waits for the database', async () => {
    const { cookies } = await browserSignIn();
    const refreshOnly = cookies.filter((cookie) => cookie.startsWith('reshelf_rt='));
    proxy.cut();
    const during = await request(app.server)
      .get('/trpc/account.notifications.unreadCount')
      .set(WEB)
      .set('cookie', refreshOnly.join('; '));
    expectUnavailable(during);

    proxy.restore();
    const after = await request(app.server)
      .get('/trpc/account.notifications.unreadCount')
      .set(WEB)
      .set('cookie', refreshOnly.join('; '));
    expect(after.status).toBe(200);
    // The same refresh token was still good: it was renewed, not refused.
    expect((after.headers['set-cookie'] as unknown as string[]).join(';')).toMatch(/reshelf_at=[^;]+/);
  });

  it('bearer sessions and API tokens get 503 on /trpc and /api/v1 alike', async () => {
    proxy.cut();
    expectUnavailable(
      await request(app.server)
        .get('/trpc/account.notifications.unreadCount')
        .set('authorization', `Bearer ${staff.accessToken}`),
    );
    const rest = await request(app.server)
      .get('/api/v1/me/listings')
      .set('authorization', `Bearer ${staff.accessToken}`);
    expectUnavailable(rest);
    expect(rest.body).toEqual({ code: 'SERVICE_UNAVAILABLE', message: DATABASE_UNAVAILABLE_MESSAGE });
    expectUnavailable(
      await request(app.server).get('/api/v1/me/listings').set('authorization', `Bearer ${apiToken}`),
    );
    expectUnavailable(await request(app.server).get('/api/v1/categories'));
    expectUnavailable(await request(app.server).get('/trpc/catalogue.taxonomy.public.categories'));

    proxy.restore();
    const back = await request(app.server)
      .get('/api/v1/me/listings')
      .set('authorization', `Bearer ${apiToken}`);
    expect(back.status).toBe(200);
  });

  it('the raw routes answer 503 too: uploads, exports, the payment page', async () => {
    proxy.cut();
    const upload = await request(app.server)
      .post('/api/uploads/listing-photo?listingId=00000000-0000-4000-8000-000000000000')
      .set('authorization', `Bearer ${staff.accessToken}`)
      .attach('photo', Buffer.from('not really a photo'), 'photo.jpg');
    expectUnavailable(upload);
    expectUnavailable(
      await request(app.server)
        .get('/api/admin/exports/orders.csv?from=2026-01-01&to=2026-01-31')
        .set('authorization', `Bearer ${staff.accessToken}`),
    );
    expectUnavailable(await request(app.server).get('/payments/test/pay_nothing'));
  });

  it('keeps /healthz answering and says 503 on /readyz until the database is back', async () => {
    proxy.cut();
    expect((await request(app.server).get('/healthz')).status).toBe(200);
    const ready = await request(app.server).get('/readyz');
    expect(ready.status).toBe(503);
    expect(ready.body).toEqual({ status: 'unavailable', database: false });
    proxy.restore();
    expect((await request(app.server).get('/readyz')).status).toBe(200);
  });

  it('a forged or unknown credential is still a 401 while the database is up', async () => {
    const forged = await request(app.server)
      .get('/trpc/account.notifications.unreadCount')
      .set('authorization', `Bearer ${staff.accessToken.slice(0, -4)}AAAA`);
    expect(forged.status).toBe(401);
    const unknownRefresh = await request(app.server)
      .get('/trpc/account.notifications.unreadCount')
      .set(WEB)
      .set('cookie', 'reshelf_rt=not-a-real-refresh-token-at-all');
    expect(unknownRefresh.status).toBe(401);
    expect((unknownRefresh.headers['set-cookie'] as unknown as string[]).join(';')).toMatch(/reshelf_rt=;/);
  });
});
