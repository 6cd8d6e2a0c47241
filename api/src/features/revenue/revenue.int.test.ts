/**
 * /admin/revenue: buyer protection (net of refunds, by refund date) and postage by period. A
 * dispute resolved with a refund moves money through the payment port and shows here.
 */
import { ADMIN_PERIODS } from '@reshelf/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/index.ts';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { createUser, type TestUser } from '../../testing/auth.ts';
import { trpcQuery } from '../../testing/catalogue.ts';
import { disputedOrder, paidOrder } from '../../testing/orders.ts';
import { asUser, dataOf } from '../../testing/selling.ts';

let t: TestApp;
let db: Database;
let moderator: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  db = t.database.handle.db;
  moderator = await createUser(db, t.services.identity, 'moderator@revenue.test', { roles: ['moderator'] });
});

afterAll(async () => {
  await t.close();
});

type Row = {
  period: string;
  ordersPaid: number;
  protectionNetMinor: number;
  protectionRefundedMinor: number;
  postageMinor: number;
  refundsMinor: number;
};

async function revenue(): Promise<Record<string, Row>> {
  const rows: Row[] = dataOf(await asUser(t.app, moderator.accessToken).query('revenue.byPeriod'));
  return Object.fromEntries(rows.map((row) => [row.period, row]));
}

describe('revenue', () => {
  it('is for staff only', async () => {
    expect((await trpcQuery(t.app, 'revenue.byPeriod')).status).toBe(401);
    const member = await createUser(db, t.services.identity, 'member@revenue.test');
    expect((await asUser(t.app, member.accessToken).query('revenue.byPeriod')).status).toBe(403);
  });

  it('counts buyer protection and postage of paid orders, less refunds, the same as the dashboard', async () => {
    const before = await revenue();
    expect(Object.keys(before)).toEqual([...ADMIN_PERIODS]);
    const order = await paidOrder(t, 1200);
    const paid = await db
      .selectFrom('orders')
      .select(['buyer_protection_minor', 'postage_minor'])
      .where('id', '=', order.orderId)
      .executeTakeFirstOrThrow();
    const after = await revenue();
    for (const period of ADMIN_PERIODS) {
      expect(after[period]!.ordersPaid - before[period]!.ordersPaid).toBe(1);
      expect(after[period]!.protectionNetMinor - before[period]!.protectionNetMinor).toBe(
        paid.buyer_protection_minor,
      );
      expect(after[period]!.postageMinor - before[period]!.postageMinor).toBe(paid.postage_minor);
    }
    const metrics = dataOf(
      await asUser(t.app, moderator.accessToken).query('admin.metrics', { period: 'mtd' }),
    );
    expect(after.mtd!.protectionNetMinor).toBe(metrics.buyer_protection_minor);
  });

  it('a dispute resolved on /admin/disputes with a refund shows here, by the refund date', async () => {
    const order = await disputedOrder(t, 'not_received', 900);
    const before = await revenue();
    const resolved = dataOf(
      await asUser(t.app, moderator.accessToken).mutation('disputes.resolve', {
        disputeId: order.disputeId,
        outcome: 'refund',
        note: 'The parcel never arrived: refunded in full.',
      }),
    );
    expect(resolved.refundedMinor).toBe(order.totalMinor);
    const payment = await db
      .selectFrom('payments')
      .select('refunded_minor')
      .where('id', '=', order.paymentId)
      .executeTakeFirstOrThrow();
    expect(payment.refunded_minor).toBe(order.totalMinor);
    const protection = (
      await db
        .selectFrom('orders')
        .select('buyer_protection_minor')
        .where('id', '=', order.orderId)
        .executeTakeFirstOrThrow()
    ).buyer_protection_minor;
    expect(protection).toBeGreaterThan(0);
    const after = await revenue();
    for (const period of ADMIN_PERIODS) {
      expect(after[period]!.protectionRefundedMinor - before[period]!.protectionRefundedMinor).toBe(
        protection,
      );
      expect(before[period]!.protectionNetMinor - after[period]!.protectionNetMinor).toBe(protection);
      expect(after[period]!.refundsMinor - before[period]!.refundsMinor).toBe(order.totalMinor);
    }
    const metrics = dataOf(
      await asUser(t.app, moderator.accessToken).query('admin.metrics', { period: 'today' }),
    );
    expect(after.today!.protectionNetMinor).toBe(metrics.buyer_protection_minor);
  });
});
