/**
 * /admin/refunds: the refunds ledger. A partial refund an admin makes on /admin/orders and a
 * dispute a moderator resolves with a refund both appear, with the book, the protection part,
 * the reason and who made them; filtered by period and searched by reference; staff only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/index.ts';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { createUser, type TestUser } from '../../testing/auth.ts';
import { api, failure, statusOf } from '../../testing/client.ts';
import { disputedOrder, paidOrder } from '../../testing/orders.ts';

let t: TestApp;
let db: Database;
let moderator: TestUser;
let admin: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  db = t.database.handle.db;
  moderator = await createUser(db, t.services.identity, 'moderator@refunds.test', { roles: ['moderator'] });
  admin = await createUser(db, t.services.identity, 'admin@refunds.test', { roles: ['admin'] });
});

afterAll(async () => {
  await t.close();
});

type Ledger = {
  rows: {
    id: string;
    orderId: string;
    reference: string;
    title: string | null;
    amountMinor: number;
    protectionMinor: number;
    reason: string;
    byEmail: string | null;
    createdAt: string;
  }[];
  count: number;
  totalMinor: number;
  protectionMinor: number;
};

async function ledger(input: Record<string, unknown> = {}): Promise<Ledger> {
  return await api(t.app, moderator.accessToken).commerce.refunds.ledger.query(input);
}

describe('refunds ledger', () => {
  it('is for staff only', async () => {
    expect(await statusOf(api(t.app).commerce.refunds.ledger.query({}))).toBe(401);
    const member = await createUser(db, t.services.identity, 'member@refunds.test');
    expect(await statusOf(api(t.app, member.accessToken).commerce.refunds.ledger.query({}))).toBe(403);
  });

  it('lists an admin’s partial refund and a dispute refund with book, protection part, reason and who', async () => {
    const before = await ledger();
    const partial = await paidOrder(t, 1500, 'Ledger partial');
    await api(t.app, admin.accessToken).commerce.orders.staff.refund.mutate({
      orderId: partial.orderId,
      amountMinor: 300,
      reason: 'Cover creased in the post.',
    });
    const disputed = await disputedOrder(t, 'not_received', 900);
    await api(t.app, moderator.accessToken).commerce.disputes.staff.decide.mutate({
      disputeId: disputed.disputeId,
      decision: 'full_refund',
      note: 'The parcel never arrived: refunded in full.',
    });
    const protection = (
      await db
        .selectFrom('orders')
        .select('buyer_protection_minor')
        .where('id', '=', disputed.orderId)
        .executeTakeFirstOrThrow()
    ).buyer_protection_minor;
    expect(protection).toBeGreaterThan(0);

    const after = await ledger();
    expect(after.count - before.count).toBe(2);
    expect(after.totalMinor - before.totalMinor).toBe(300 + disputed.totalMinor);
    expect(after.protectionMinor - before.protectionMinor).toBe(protection);
    // Newest first: the dispute's refund, then the admin's.
    const [first, second] = after.rows;
    expect(first).toMatchObject({
      orderId: disputed.orderId,
      reference: disputed.reference,
      amountMinor: disputed.totalMinor,
      protectionMinor: protection,
      byEmail: 'moderator@refunds.test',
    });
    expect(first!.title).toMatch(/^Staff order book/);
    expect(second).toMatchObject({
      orderId: partial.orderId,
      reference: partial.reference,
      amountMinor: 300,
      protectionMinor: 0,
      reason: 'Cover creased in the post.',
      byEmail: 'admin@refunds.test',
    });
    expect(second!.title).toMatch(/^Ledger partial/);
  });

  it('searches by reference and filters by period (by refund date, London time)', async () => {
    const order = await paidOrder(t, 1100, 'Ledger period');
    await api(t.app, admin.accessToken).commerce.orders.staff.refund.mutate({
      orderId: order.orderId,
      amountMinor: 'full',
      reason: 'Seller could not find the book.',
    });
    const found = await ledger({ q: order.reference.toLowerCase() });
    expect(found.rows.map((row) => row.orderId)).toEqual([order.orderId]);
    expect(found.totalMinor).toBe(order.totalMinor);
    expect((await ledger({ q: 'no-such-reference' })).count).toBe(0);

    // Move the refund to two years ago: it leaves every period but stays in the whole ledger.
    await db
      .updateTable('refunds')
      .set({ created_at: new Date(Date.now() - 2 * 366 * 24 * 3600 * 1000) })
      .where('order_id', '=', order.orderId)
      .execute();
    for (const period of ['today', 'mtd', 'last30', 'ytd']) {
      expect((await ledger({ q: order.reference, period })).count).toBe(0);
    }
    expect((await ledger({ q: order.reference })).count).toBe(1);
    const today = await ledger({ period: 'today' });
    expect(today.rows.every((row) => row.orderId !== order.orderId)).toBe(true);
    expect(today.count).toBeGreaterThanOrEqual(2);
  });

  it('refuses a period that is not on the list, with a message', async () => {
    const response = await failure(
      api(t.app, moderator.accessToken).commerce.refunds.ledger.query({ period: 'decade' as never }),
    );
    expect(response.status).toBe(400);
    expect(JSON.stringify(response)).toContain('Choose a period from the list');
  });
});
