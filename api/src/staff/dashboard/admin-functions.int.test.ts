/**
 * admin-metrics on fixtures, against hand-computed answers, including midnight and month
 * boundaries in GMT and in BST (Europe/London). admin-cleanup-listings: cleanup.int.test.ts.
 */
import { sql } from 'kysely';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminMetrics } from '../../../../supabase/functions/_shared/admin.ts';
import type { Database } from '../../db/index.ts';
import { poolClient } from '../../platform/server-functions/server-functions.ts';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { createUser } from '../../testing/auth.ts';
import { insertOrderRow } from '../../testing/orders.ts';

let t: TestApp;
let db: Database;
let seller: string;
let buyer: string;
let bookSeq = 0;

async function book(cover: string | null = null): Promise<string> {
  bookSeq += 1;
  const row = await db
    .insertInto('books')
    .values({ title: `Fixture book ${bookSeq}`, authors: ['A. Writer'], cover_url: cover })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

async function listing(
  bookId: string,
  options: { status?: string; photos?: string[]; createdAt?: string; sellerId?: string } = {},
): Promise<string> {
  const row = await db
    .insertInto('listings')
    .values({
      seller_id: options.sellerId ?? seller,
      book_id: bookId,
      slug: `fixture-${Math.random().toString(36).slice(2, 10)}`,
      status: options.status ?? 'active',
      condition: 'good',
      price_minor: 1000,
      parcel_size: 'small',
      photos: JSON.stringify(options.photos ?? ['photo.jpg']),
      published_at: new Date(),
      created_at: options.createdAt ? new Date(options.createdAt) : new Date(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

async function paidOrder(protection: number, paidAt: string, refundedAt?: string): Promise<string> {
  const listingId = await listing(await book(), { status: 'sold' });
  const row = await insertOrderRow(db, {
    buyer_id: buyer,
    seller_id: seller,
    listing_id: listingId,
    status: refundedAt ? 'refunded' : 'paid',
    item_price_minor: 1000,
    postage_minor: 299,
    buyer_protection_minor: protection,
    total_minor: 1299 + protection,
    paid_at: new Date(paidAt),
    refunded_at: refundedAt ? new Date(refundedAt) : null,
  });
  if (refundedAt) {
    // A full refund, buyer protection included, recorded through the payment.
    const payment = await db
      .insertInto('payments')
      .values({
        order_id: row.id,
        provider: 'test',
        provider_ref: `fixture-${row.id}`,
        amount_minor: 1299 + protection,
        status: 'succeeded',
        refunded_minor: 1299 + protection,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('refunds')
      .values({
        order_id: row.id,
        payment_id: payment.id,
        amount_minor: 1299 + protection,
        buyer_protection_minor: protection,
        reason: 'Fixture refund',
        created_at: new Date(refundedAt),
      })
      .execute();
  }
  return row.id;
}

const metricsAt = (period: string, now: string) =>
  adminMetrics(poolClient(t.database.handle.pool), { period }, new Date(now));

beforeAll(async () => {
  t = await createTestApp();
  db = t.database.handle.db;
  seller = (await createUser(db, t.services.identity, 'fixture-seller@example.com')).id;
  buyer = (await createUser(db, t.services.identity, 'fixture-buyer@example.com')).id;
});

afterAll(async () => {
  await t.close();
});

describe('admin-metrics periods (Europe/London)', () => {
  it('computes period starts in BST and GMT', async () => {
    const bounds = async (period: string, now: string) => {
      const { rows } = await sql<{
        starts_at: Date;
      }>`select starts_at from admin_period_bounds(${period}, ${now}::timestamptz)`.execute(db);
      return rows[0]!.starts_at.toISOString();
    };
    // 15 July 2026 is in BST (UTC+1): local midnight is 23:00 UTC the day before.
    expect(await bounds('today', '2026-07-15T12:00:00Z')).toBe('2026-07-14T23:00:00.000Z');
    expect(await bounds('mtd', '2026-07-15T12:00:00Z')).toBe('2026-06-30T23:00:00.000Z');
    expect(await bounds('last30', '2026-07-15T12:00:00Z')).toBe('2026-06-15T23:00:00.000Z');
    expect(await bounds('ytd', '2026-07-15T12:00:00Z')).toBe('2026-01-01T00:00:00.000Z');
    // 15 January is GMT.
    expect(await bounds('today', '2026-01-15T12:00:00Z')).toBe('2026-01-15T00:00:00.000Z');
    expect(await bounds('mtd', '2026-01-15T12:00:00Z')).toBe('2026-01-01T00:00:00.000Z');
    // Just after midnight in BST is still "yesterday" in UTC.
    expect(await bounds('today', '2026-07-14T23:30:00Z')).toBe('2026-07-14T23:00:00.000Z');
    // The month that contains the clocks going back (25 October 2026).
    expect(await bounds('mtd', '2026-10-31T12:00:00Z')).toBe('2026-09-30T23:00:00.000Z');
  });

  it('sums buyer protection paid in each period, less refunds, to the penny', async () => {
    await paidOrder(101, '2026-07-14T22:59:59Z'); // 23:59:59 BST on the 14th: MTD, not today
    await paidOrder(202, '2026-07-14T23:00:00Z'); // 00:00 BST on the 15th: today
    await paidOrder(404, '2026-06-30T22:59:59Z'); // 23:59:59 BST 30 June: last30 and YTD, not MTD
    await paidOrder(808, '2026-06-30T23:00:00Z'); // 00:00 BST 1 July: MTD
    await paidOrder(1616, '2025-12-31T23:59:59Z'); // last year
    await paidOrder(3232, '2026-01-01T00:00:00Z'); // YTD
    await paidOrder(90, '2026-07-02T10:00:00Z', '2026-07-15T09:00:00Z'); // paid MTD, refunded today
    await paidOrder(77, '2026-06-10T10:00:00Z'); // before last30's start (16 June)

    const now = '2026-07-15T12:00:00Z';
    expect((await metricsAt('today', now)).buyer_protection_minor).toBe(202 - 90);
    expect((await metricsAt('mtd', now)).buyer_protection_minor).toBe(101 + 202 + 808 + 90 - 90);
    expect((await metricsAt('last30', now)).buyer_protection_minor).toBe(101 + 202 + 404 + 808 + 90 - 90);
    expect((await metricsAt('ytd', now)).buyer_protection_minor).toBe(
      101 + 202 + 404 + 808 + 3232 + 90 + 77 - 90,
    );
  });

  it('counts open disputes and active listings now', async () => {
    const before = await metricsAt('mtd', '2026-07-15T12:00:00Z');
    await listing(await book());
    await listing(await book(), { status: 'withdrawn' });
    const order = await paidOrder(50, '2026-07-03T10:00:00Z');
    await db
      .insertInto('disputes')
      .values({ order_id: order, opened_by: buyer, kind: 'not_received', reason: 'Nothing came' })
      .execute();
    const after = await metricsAt('mtd', '2026-07-15T12:00:00Z');
    expect(after.active_listings - before.active_listings).toBe(1);
    expect(after.disputes_open - before.disputes_open).toBe(1);
  });

  it('serves the cards to staff through admin.metrics, default MTD, and refuses a bad period', async () => {
    const staff = await createUser(db, t.services.identity, 'metrics-staff@example.com', {
      roles: ['moderator'],
    });
    const auth = { authorization: `Bearer ${staff.accessToken}` };
    const byDefault = await request(t.app.server).get('/trpc/staff.dashboard.metrics').set(auth);
    const mtd = await request(t.app.server)
      .get(`/trpc/staff.dashboard.metrics?input=${encodeURIComponent(JSON.stringify({ period: 'mtd' }))}`)
      .set(auth);
    expect(byDefault.status).toBe(200);
    expect(byDefault.body.result.data).toEqual(mtd.body.result.data);
    const bad = await request(t.app.server)
      .get(`/trpc/staff.dashboard.metrics?input=${encodeURIComponent(JSON.stringify({ period: 'week' }))}`)
      .set(auth);
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toBe('period: Choose today, mtd, last30 or ytd');
  });
});
