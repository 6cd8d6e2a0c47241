/**
 * The staff dashboard in hosted mode (BACKEND=supabase) against a local Supabase stand-in
 * (testing/fake-supabase.ts): the BFF invokes the functions through supabase-js with the
 * service key as `apikey` and the caller's token as the bearer; the relay runs the real shared
 * function logic on the test database. Each of spec §8's failure kinds maps to its status, and
 * the seed makes its demo people through Auth's admin API, never rows Auth cannot read.
 */
import { sql } from 'kysely';
import request from 'supertest';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { adminMetrics } from '../../../../supabase/functions/_shared/admin.ts';
import { createEdgeFunctions } from '../../platform/server-functions/edge-functions.ts';
import { poolClient } from '../../platform/server-functions/server-functions.ts';
import { SNAPSHOT_BOOKS } from '../../seed/books.ts';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { createUser, type TestUser } from '../../testing/auth.ts';
import {
  AUTH_STRING_COLUMNS,
  type FakeSupabase,
  hostedEnv,
  startFakeSupabase,
} from '../../testing/fake-supabase.ts';

let t: TestApp;
let fake: FakeSupabase;
let admin: TestUser;
let moderator: TestUser;

beforeAll(async () => {
  t = await createTestApp({
    env: async (database) => {
      fake = await startFakeSupabase({ databaseUrl: database.url, snapshot: SNAPSHOT_BOOKS });
      return hostedEnv(fake);
    },
  });
  admin = await createUser(t.database.handle.db, t.services.identity, 'hosted-admin@example.com', {
    roles: ['admin'],
  });
  moderator = await createUser(t.database.handle.db, t.services.identity, 'hosted-mod@example.com', {
    roles: ['moderator'],
  });
});

afterAll(async () => {
  await t?.close();
  await fake?.close();
});

beforeEach(() => {
  fake.heal();
});

const call = (method: 'get' | 'post', path: string, token: string) =>
  request(t.app.server)[method](`/trpc/${path}`).set('authorization', `Bearer ${token}`);

/** Auth's own list of users, as the dashboard and the admin API read them. */
const listUsers = () =>
  fetch(`${fake.url}/auth/v1/admin/users?page=1&per_page=1000`, {
    headers: { apikey: fake.serviceKey, authorization: `Bearer ${fake.serviceKey}` },
  });

describe('hosted server functions through supabase-js', () => {
  it('invokes admin-metrics with the service key as apikey and the caller’s token as bearer', async () => {
    fake.requests.length = 0;
    const answer = await call(
      'get',
      'staff.dashboard.metrics?input=%7B%22period%22%3A%22ytd%22%7D',
      admin.accessToken,
    );
    expect(answer.status).toBe(200);
    expect(answer.body.result.data).toEqual(
      await adminMetrics(poolClient(t.database.handle.pool), { period: 'ytd' }),
    );
    const sent = fake.requests.filter((entry) => entry.service === 'functions');
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ method: 'POST', url: '/functions/v1/admin-metrics' });
    expect(sent[0]!.headers.apikey).toBe(fake.serviceKey);
    expect(sent[0]!.headers.authorization).toBe(`Bearer ${admin.accessToken}`);
    expect(sent[0]!.headers['content-type']).toBe('application/json');
    expect(JSON.parse(sent[0]!.body)).toEqual({ period: 'ytd' });
  });

  it('seeds with the demo people made through Auth’s admin API: Auth still reads every user', async () => {
    fake.requests.length = 0;
    const seeded = await call('post', 'staff.dashboard.seed', admin.accessToken).send({ reset: false });
    expect(seeded.status).toBe(200);
    expect(seeded.body.result.data).toEqual({ listings: 40, orders: 24 });
    const creates = fake.requests.filter(
      (entry) => entry.method === 'POST' && entry.url === '/auth/v1/admin/users',
    );
    expect(creates.map((entry) => JSON.parse(entry.body).email).sort()).toEqual(
      [
        'attic@reshelf.test',
        'bookworm@reshelf.test',
        'charity@reshelf.test',
        'leith@reshelf.test',
        'margaret@reshelf.test',
        'pennine@reshelf.test',
        'priya@reshelf.test',
        'reader@reshelf.test',
        'seller@reshelf.test',
        'tom@reshelf.test',
      ].sort(),
    );
    const nulls = await sql<{ count: string }>`
      select count(*)::text as count from auth.users
      where ${sql.raw(AUTH_STRING_COLUMNS.map((column) => `${column} is null`).join(' or '))}`.execute(
      t.database.handle.db,
    );
    expect(nulls.rows[0]!.count).toBe('0');
    const listed = await listUsers();
    expect(listed.status).toBe(200);
    expect(((await listed.json()) as { users: unknown[] }).users.length).toBeGreaterThanOrEqual(12);
    // The people are recorded as the seed's own.
    const recorded = await t.database.handle.db
      .selectFrom('seed_items')
      .select('row_id')
      .where('kind', '=', 'user')
      .execute();
    expect(recorded).toHaveLength(10);

    // Reset and seed keeps them: Auth's users are not written by SQL on the way.
    const before = await t.database.handle.db.selectFrom('auth.users').select('id').orderBy('id').execute();
    fake.requests.length = 0;
    const reset = await call('post', 'staff.dashboard.resetAndSeed', admin.accessToken).send({});
    expect(reset.body.result.data).toEqual({ listings: 40, orders: 24 });
    expect(fake.requests.filter((entry) => entry.url.startsWith('/auth/v1/admin/users'))).toEqual([]);
    expect(await t.database.handle.db.selectFrom('auth.users').select('id').orderBy('id').execute()).toEqual(
      before,
    );
    expect((await listUsers()).status).toBe(200);
  });

  it('runs the clean-up preview and the run, and keeps 409 for a stale preview', async () => {
    const preview = await call('get', 'staff.dashboard.cleanupPreview', admin.accessToken);
    expect(preview.status).toBe(200);
    const stale = await call('post', 'staff.dashboard.cleanupListings', admin.accessToken).send({
      expected: '0'.repeat(32),
    });
    expect(stale.status).toBe(409);
    const run = await call('post', 'staff.dashboard.cleanupListings', admin.accessToken).send({
      expected: preview.body.result.data.digest,
    });
    expect(run.status).toBe(200);
    expect(run.body.result.data.total_deleted).toBe(preview.body.result.data.total_deleted);
  });

  it('keeps a 403 from the function with its message (a moderator running the clean-up)', async () => {
    const answer = await call('post', 'staff.dashboard.cleanupListings', moderator.accessToken).send({});
    // The BFF refuses first (admins only); the function refuses the same way when asked directly.
    expect(answer.status).toBe(403);
    const direct = createEdgeFunctions({ url: fake.url, serviceRoleKey: fake.serviceKey });
    await expect(
      direct.adminCleanupListings({ dryRun: false }, { accessToken: moderator.accessToken }),
    ).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });

  it('failed to send → 503 with Retry-After', async () => {
    fake.fail('functions', 'down');
    const answer = await call('get', 'staff.dashboard.metrics', admin.accessToken);
    expect(answer.status).toBe(503);
    expect(answer.headers['retry-after']).toBe('5');
    expect(answer.body.error.message).toBe(
      'Could not reach the admin-metrics function. Please try again in a moment.',
    );
  });

  it('a relay error (x-relay-error: true) → 502', async () => {
    fake.fail('functions', 'relay');
    const answer = await call('get', 'staff.dashboard.metrics', admin.accessToken);
    expect(answer.status).toBe(502);
    expect(answer.body.error.message).toBe(
      'The admin-metrics function could not be reached (relay error). Please try again.',
    );
  });

  it('a non-2xx answer: 500 → 502, and an expired token → 401 "Session expired—please sign in"', async () => {
    fake.fail('functions', 'error');
    const failed = await call('post', 'staff.dashboard.seed', admin.accessToken).send({ reset: false });
    expect(failed.status).toBe(502);
    expect(failed.body.error.message).toBe(
      'seed-openlibrary-recent failed (HTTP 500): seed-openlibrary-recent failed',
    );
    fake.heal();
    // The BFF checked the token a moment ago; by the time the function sees it, it has expired.
    expect((await call('get', 'staff.dashboard.metrics', admin.accessToken)).status).toBe(200);
    fake.advanceClock(2 * 3600);
    try {
      const expired = await call('get', 'staff.dashboard.metrics', admin.accessToken);
      expect(expired.status).toBe(401);
      expect(expired.body.error.message).toBe('Session expired—please sign in');
    } finally {
      fake.advanceClock(-2 * 3600);
    }
  });

  it('works with the legacy JWT keys too', async () => {
    const legacy = await startFakeSupabase({
      databaseUrl: t.database.url,
      snapshot: SNAPSHOT_BOOKS,
      keys: 'legacy',
    });
    try {
      expect(legacy.serviceKey.startsWith('eyJ')).toBe(true);
      const functions = createEdgeFunctions({ url: legacy.url, serviceRoleKey: legacy.serviceKey });
      const token = await legacy.accessToken(admin.id);
      expect(await functions.adminMetrics({ period: 'mtd' }, { accessToken: token })).toEqual(
        await adminMetrics(poolClient(t.database.handle.pool), { period: 'mtd' }),
      );
      const sent = legacy.requests.find((entry) => entry.service === 'functions');
      expect(sent?.headers.apikey).toBe(legacy.serviceKey);
      expect(sent?.headers.authorization).toBe(`Bearer ${token}`);
    } finally {
      await legacy.close();
    }
  });
});
