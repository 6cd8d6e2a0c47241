import { NOTIFICATION_KINDS } from '@reshelf/contracts';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../testing/db.ts';
import { insertOrderRow } from '../testing/orders.ts';
import type { Database } from './index.ts';

let testDb: TestDatabase;
let db: Database;

async function createUser(email: string): Promise<string> {
  const row = await db.insertInto('auth.users').values({ email }).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

async function createBook(isbn13: string): Promise<string> {
  const row = await db
    .insertInto('books')
    .values({ isbn13, title: `Book ${isbn13}`, authors: ['A. Writer'] })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

async function createListing(sellerId: string, bookId: string, slug: string, price = 500): Promise<string> {
  const row = await db
    .insertInto('listings')
    .values({
      seller_id: sellerId,
      book_id: bookId,
      slug,
      status: 'active',
      condition: 'good',
      price_minor: price,
      parcel_size: 'small',
      published_at: new Date(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

beforeAll(async () => {
  testDb = await createTestDatabase();
  db = testDb.handle.db;
});

afterAll(async () => {
  await testDb.drop();
});

describe('schema', () => {
  it('runs on the PostgreSQL major this run asked for (18, or 17 as hosted Supabase)', async () => {
    const { rows } = await sql<{ major: number }>`
      select current_setting('server_version_num')::int / 10000 as major`.execute(db);
    expect(rows).toEqual([{ major: inject('pgMajor') }]);
  });

  it('enables row-level security on every table in public', async () => {
    const { rows } = await sql<{ relname: string; relrowsecurity: boolean }>`
      select c.relname, c.relrowsecurity from pg_class c
      join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind in ('r', 'p') order by 1`.execute(db);
    expect(rows.length).toBeGreaterThanOrEqual(10);
    expect(rows.filter((row) => !row.relrowsecurity).map((row) => row.relname)).toEqual([]);
  });

  it('has the core tables of the domain model', async () => {
    const { rows } = await sql<{ table_name: string }>`
      select table_name from information_schema.tables where table_schema = 'public'`.execute(db);
    const names = rows.map((row) => row.table_name);
    for (const table of [
      'profiles',
      'user_roles',
      'admin_users',
      'categories',
      'genres',
      'books',
      'listings',
      'orders',
      'disputes',
    ]) {
      expect(names).toContain(table);
    }
  });

  it('keeps money as pence greater than zero and at most £10,000', async () => {
    const seller = await createUser('money@reshelf.test');
    const book = await createBook('9780141439518');
    await expect(createListing(seller, book, 'zero-price', 0)).rejects.toThrow(/price_minor/);
    await expect(createListing(seller, book, 'too-dear', 1_000_001)).rejects.toThrow(/price_minor/);
    await expect(createListing(seller, book, 'just-right', 1_000_000)).resolves.toBeTruthy();
  });

  it('constrains statuses, conditions and slugs', async () => {
    const seller = await createUser('status@reshelf.test');
    const book = await createBook('9780099590088');
    await createListing(seller, book, 'unique-slug');
    await expect(createListing(seller, book, 'unique-slug')).rejects.toThrow(/listings_slug_key/);
    await expect(createListing(seller, book, 'Bad Slug')).rejects.toThrow(/listings_slug_check/);
    const complete = {
      seller_id: seller,
      book_id: book,
      condition: 'good',
      price_minor: 100,
      parcel_size: 'small',
    } as const;
    await expect(
      db
        .insertInto('listings')
        .values({ ...complete, slug: 'lost-status', status: 'lost' })
        .execute(),
    ).rejects.toThrow(/listings_status_check/);
    await expect(
      db
        .insertInto('listings')
        .values({ ...complete, slug: 'mint', status: 'active', condition: 'mint' })
        .execute(),
    ).rejects.toThrow(/listings_condition_check/);
    // A draft may be incomplete; an active listing may not.
    await expect(db.insertInto('listings').values({ seller_id: seller }).execute()).resolves.toBeTruthy();
    await expect(
      db.insertInto('listings').values({ seller_id: seller, status: 'active', book_id: book }).execute(),
    ).rejects.toThrow(/listings_complete_unless_draft/);
  });

  it('takes every notification kind the contracts name, and no other', async () => {
    // Features built side by side each rewrote this check with the kinds they knew of; the last
    // migration to run must still name them all.
    const { rows } = await sql<{ definition: string }>`
      select pg_get_constraintdef(oid) as definition from pg_constraint
       where conname = 'notifications_kind_check' and conrelid = 'public.notifications'::regclass`.execute(
      db,
    );
    const allowed = [...(rows[0]?.definition ?? '').matchAll(/'([a-z_]+)'::text/g)].map((match) => match[1]);
    expect(allowed.sort()).toEqual([...NOTIFICATION_KINDS].sort());
  });

  it('allows one live order per listing and totals that add up', async () => {
    const seller = await createUser('seller-o@reshelf.test');
    const buyer = await createUser('buyer-o@reshelf.test');
    const other = await createUser('other-o@reshelf.test');
    const listing = await createListing(seller, await createBook('9780007525546'), 'one-order');
    const order = (buyerId: string, status = 'paid') =>
      insertOrderRow(db, {
        buyer_id: buyerId,
        seller_id: seller,
        listing_id: listing,
        status,
        item_price_minor: 500,
        postage_minor: 299,
        buyer_protection_minor: 95,
        total_minor: 894,
      });
    await order(buyer);
    await expect(order(other)).rejects.toThrow(/order_items_one_live_per_listing/);
    await expect(order(other, 'cancelled')).resolves.toBeTruthy();
    await expect(
      insertOrderRow(db, {
        buyer_id: other,
        seller_id: seller,
        listing_id: listing,
        status: 'cancelled',
        item_price_minor: 500,
        total_minor: 1,
      }),
    ).rejects.toThrow(/orders_total_adds_up/);
    await expect(order(seller, 'cancelled')).rejects.toThrow(/orders_buyer_is_not_seller/);
  });

  it('stores roles in any case but once per user, lower-cased', async () => {
    const user = await createUser('roles@reshelf.test');
    await db.insertInto('user_roles').values({ user_id: user, role: 'ADMIN' }).execute();
    await expect(
      db.insertInto('user_roles').values({ user_id: user, role: 'admin' }).execute(),
    ).rejects.toThrow(/user_roles_user_role_key/);
    await expect(
      db.insertInto('admin_users').values({ user_id: user, admin_role: 'overlord' }).execute(),
    ).rejects.toThrow(/admin_users_admin_role_check/);
  });

  it('answers auth.uid() from the JWT claims as Supabase does', async () => {
    const user = await createUser('uid@reshelf.test');
    const result = await db.transaction().execute(async (trx) => {
      await sql`select set_config('request.jwt.claims', ${JSON.stringify({ sub: user, role: 'authenticated' })}, true)`.execute(
        trx,
      );
      return sql<{ uid: string; role: string }>`select auth.uid() as uid, auth.role() as role`.execute(trx);
    });
    expect(result.rows[0]).toEqual({ uid: user, role: 'authenticated' });
  });
});
