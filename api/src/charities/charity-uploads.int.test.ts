/**
 * The charity upload routes check access exactly as an authed procedure does (http/access.ts):
 * a suspended account is refused at once, whatever token it still holds (these routes
 * skipped the suspension check the tRPC context and the listing photo route make). Run against
 * the hosted sign-in service's stand-in, whose access tokens stay valid until they expire: only
 * the suspension check turns a suspended account away.
 */
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/index.ts';
import { SUSPENDED_MESSAGE } from '../platform/identity/resolve-auth.ts';
import { SNAPSHOT_BOOKS } from '../seed/books.ts';
import { createTestApp, type TestApp } from '../testing/app.ts';
import { createUser, type TestUser } from '../testing/auth.ts';
import { type FakeSupabase, hostedEnv, startFakeSupabase } from '../testing/fake-supabase.ts';
import { photo } from '../testing/selling.ts';

let t: TestApp;
let fake: FakeSupabase;
let db: Database;
let suspended: TestUser;

beforeAll(async () => {
  t = await createTestApp({
    env: async (database) => {
      fake = await startFakeSupabase({ databaseUrl: database.url, snapshot: SNAPSHOT_BOOKS });
      return hostedEnv(fake);
    },
  });
  db = t.database.handle.db;
  suspended = await createUser(db, t.services.identity, 'suspended@charity-uploads.test');
  await db
    .updateTable('auth.users')
    .set({ banned_until: new Date('9999-12-31T00:00:00Z') })
    .where('id', '=', suspended.id)
    .execute();
  // The token still verifies: the hosted service does not end it early.
  expect(await t.services.identity.verify(suspended.accessToken)).not.toBeNull();
});

afterAll(async () => {
  await t?.close();
  await fake?.close();
});

describe('charity uploads', () => {
  it('refuse a suspended account its logo upload', async () => {
    const response = await request(t.app.server)
      .post('/api/uploads/charity-logo')
      .set('authorization', `Bearer ${suspended.accessToken}`)
      .attach('logo', await photo(), { filename: 'logo.png', contentType: 'image/png' });
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ error: 'Unauthorized', message: SUSPENDED_MESSAGE });
  });

  it('refuse a suspended account a bulk-listing CSV, importing nothing', async () => {
    const response = await request(t.app.server)
      .post('/api/uploads/charity-listings')
      .set('authorization', `Bearer ${suspended.accessToken}`)
      .attach('file', Buffer.from('isbn,price\n9780141439518,5.00\n', 'utf8'), {
        filename: 'books.csv',
        contentType: 'text/csv',
      });
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ error: 'Unauthorized', message: SUSPENDED_MESSAGE });
    const imports = await db
      .selectFrom('charity_imports')
      .select('id')
      .where('created_by', '=', suspended.id)
      .execute();
    expect(imports).toEqual([]);
  });
});
