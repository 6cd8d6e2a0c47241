/**
 * /admin/analytics: listings published, orders paid and sign-ups by London day (last 30 days)
 * and by month (this calendar year); staff only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/index.ts';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { createUser, type TestUser } from '../../testing/auth.ts';
import { createBook, createListing, createPerson } from '../../testing/catalogue.ts';
import { api, refusal, statusOf } from '../../testing/client.ts';
import { paidOrder } from '../../testing/orders.ts';
import { type AnalyticsSeries, analyticsSeries } from './analytics.service.ts';

let t: TestApp;
let db: Database;
let moderator: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  db = t.database.handle.db;
  moderator = await createUser(db, t.services.identity, 'moderator@analytics.test', { roles: ['moderator'] });
});

afterAll(async () => {
  await t.close();
});

async function series(range: 'daily' | 'monthly'): Promise<AnalyticsSeries> {
  return await api(t.app, moderator.accessToken).staff.analytics.series.query({ range });
}

describe('analytics', () => {
  it('is for staff only and refuses an unknown range', async () => {
    expect(await statusOf(api(t.app).staff.analytics.series.query({ range: 'daily' }))).toBe(401);
    const member = await createUser(db, t.services.identity, 'member@analytics.test');
    expect(
      await statusOf(api(t.app, member.accessToken).staff.analytics.series.query({ range: 'daily' })),
    ).toBe(403);
    const refused = await refusal(
      api(t.app, moderator.accessToken).staff.analytics.series.query({ range: 'weekly' as never }),
    );
    expect(refused.status).toBe(400);
    expect(refused.message).toContain('Choose daily or monthly');
  });

  it('counts today’s new listing, paid order and sign-ups in the last bucket of each range', async () => {
    const daily = await series('daily');
    const monthly = await series('monthly');
    expect(daily.points).toHaveLength(30);
    expect(monthly.points).toHaveLength(12);
    expect(monthly.points[0]!.bucket).toMatch(/^\d{4}-01$/);

    const order = await paidOrder(t, 1300); // a seller and a buyer sign up; their listing; paid
    const dailyAfter = await series('daily');
    const monthlyAfter = await series('monthly');
    const today = dailyAfter.points.at(-1)!;
    const todayBefore = daily.points.at(-1)!;
    expect(today.bucket).toBe(todayBefore.bucket);
    expect(today.signUps - todayBefore.signUps).toBe(2);
    expect(today.listingsPublished - todayBefore.listingsPublished).toBe(1);
    expect(today.ordersPaid - todayBefore.ordersPaid).toBe(1);
    expect(dailyAfter.totals.ordersPaid - daily.totals.ordersPaid).toBe(1);
    const month = monthlyAfter.points.find((point) => point.bucket === today.bucket.slice(0, 7))!;
    const monthBefore = monthly.points.find((point) => point.bucket === today.bucket.slice(0, 7))!;
    expect(month.ordersPaid - monthBefore.ordersPaid).toBe(1);
    expect(month.signUps - monthBefore.signUps).toBe(2);
    expect(order.orderId).toBeTruthy();
  });

  it('buckets by London time, not UTC, and leaves out what falls outside the range', async () => {
    const seller = await createPerson(db, 'london@analytics.test');
    const book = await createBook(db, { title: 'Summer Time' });
    // 23:30 UTC on 14 July is 00:30 on 15 July in London (BST).
    await createListing(db, {
      sellerId: seller,
      bookId: book,
      publishedAt: new Date('2025-07-14T23:30:00Z'),
    });
    // 30 June 23:30 UTC is 1 July in London; 31 Dec 2024 23:30 UTC is still 2024 (GMT).
    await createListing(db, {
      sellerId: seller,
      bookId: book,
      publishedAt: new Date('2025-06-30T23:30:00Z'),
    });
    await createListing(db, {
      sellerId: seller,
      bookId: book,
      publishedAt: new Date('2024-12-31T23:30:00Z'),
    });
    // 31 days before 15 July: outside the last 30 days.
    await createListing(db, {
      sellerId: seller,
      bookId: book,
      publishedAt: new Date('2025-06-14T11:00:00Z'),
    });

    const now = new Date('2025-07-15T12:00:00Z');
    const daily = await analyticsSeries(db, 'daily', now);
    expect(daily.points[0]!.bucket).toBe('2025-06-16');
    expect(daily.points.at(-1)!.bucket).toBe('2025-07-15');
    const published = Object.fromEntries(daily.points.map((p) => [p.bucket, p.listingsPublished]));
    expect(published['2025-07-15']).toBe(1);
    expect(published['2025-07-14']).toBe(0);
    expect(published['2025-07-01']).toBe(1);
    expect(daily.totals.listingsPublished).toBe(2);

    const monthly = await analyticsSeries(db, 'monthly', now);
    expect(monthly.points.map((p) => p.bucket)).toEqual([
      '2025-01',
      '2025-02',
      '2025-03',
      '2025-04',
      '2025-05',
      '2025-06',
      '2025-07',
      '2025-08',
      '2025-09',
      '2025-10',
      '2025-11',
      '2025-12',
    ]);
    const byMonth = Object.fromEntries(monthly.points.map((p) => [p.bucket, p.listingsPublished]));
    expect(byMonth['2025-06']).toBe(1);
    expect(byMonth['2025-07']).toBe(2);
    expect(monthly.totals.listingsPublished).toBe(3);
  });
});
