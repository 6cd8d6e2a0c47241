/**
 * /admin/revenue: buyer protection (net of refunds, by refund date) and postage by period. A
 * dispute resolved with a refund moves money through the payment port and shows here. The
 * discounts Reshelf funds (WELCOME20 and promo codes: the seller is paid the full price) come
 * off the net, and a full refund gives its discount back; the CSV export has the same figures.
 */
import { ADMIN_PERIODS } from '@reshelf/contracts';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/index.ts';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { createUser, type TestUser } from '../../testing/auth.ts';
import { api, statusOf } from '../../testing/client.ts';
import { disputedOrder, paidOrder } from '../../testing/orders.ts';
import { createPromotion } from '../promotions/promotions.service.ts';

let t: TestApp;
let db: Database;
let moderator: TestUser;
let admin: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  db = t.database.handle.db;
  moderator = await createUser(db, t.services.identity, 'moderator@revenue.test', { roles: ['moderator'] });
  admin = await createUser(db, t.services.identity, 'admin@revenue.test', { roles: ['admin'] });
});

afterAll(async () => {
  await t.close();
});

type Row = {
  period: string;
  startsAt: string;
  endsAt: string;
  ordersPaid: number;
  booksPaid: number;
  protectionChargedMinor: number;
  protectionNetMinor: number;
  protectionRefundedMinor: number;
  discountsGivenMinor: number;
  discountsReturnedMinor: number;
  discountsFundedMinor: number;
  netMinor: number;
  postageMinor: number;
  refundsMinor: number;
};

async function revenue(): Promise<Record<string, Row>> {
  const rows: Row[] = await api(t.app, moderator.accessToken).commerce.revenue.byPeriod.query();
  return Object.fromEntries(rows.map((row) => [row.period, row]));
}

describe('revenue', () => {
  it('is for staff only', async () => {
    expect(await statusOf(api(t.app).commerce.revenue.byPeriod.query())).toBe(401);
    const member = await createUser(db, t.services.identity, 'member@revenue.test');
    expect(await statusOf(api(t.app, member.accessToken).commerce.revenue.byPeriod.query())).toBe(403);
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
    const metrics = await api(t.app, moderator.accessToken).staff.dashboard.metrics.query({ period: 'mtd' });
    expect(after.mtd!.protectionNetMinor).toBe(metrics.buyer_protection_minor);
  });

  it('a dispute resolved on /admin/disputes with a refund shows here, by the refund date', async () => {
    const order = await disputedOrder(t, 'not_received', 900);
    const before = await revenue();
    const resolved = await api(t.app, moderator.accessToken).commerce.disputes.staff.decide.mutate({
      disputeId: order.disputeId,
      decision: 'full_refund',
      note: 'The parcel never arrived: refunded in full.',
    });
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
    const metrics = await api(t.app, moderator.accessToken).staff.dashboard.metrics.query({
      period: 'today',
    });
    expect(after.today!.protectionNetMinor).toBe(metrics.buyer_protection_minor);
  });
});

const londonDay = (iso: string) => new Date(iso).toLocaleDateString('en-CA', { timeZone: 'Europe/London' });

/** The revenue CSV for London days `from` to `to`, as records by its first column. */
async function revenueCsv(from: string, to: string): Promise<Map<string, Record<string, string>>> {
  const response = await request(t.app.server)
    .get(`/api/admin/exports/revenue.csv?from=${from}&to=${to}`)
    .set('authorization', `Bearer ${moderator.accessToken}`);
  expect(response.status).toBe(200);
  const [header, ...lines] = response.text
    .replace(/^\uFEFF/, '')
    .trim()
    .split(/\r?\n/);
  const names = header!.split(',');
  return new Map(
    lines.map((line) => {
      const cells = line.split(',');
      const record = Object.fromEntries(names.map((name, i) => [name, cells[i]!]));
      return [record.day!, record];
    }),
  );
}

const pounds = (minor: number) => (minor / 100).toFixed(2);

describe('discounts Reshelf funds', () => {
  it('WELCOME20 and promo-code discounts come off net income; a full refund gives its discount back; the CSV says the same', async () => {
    const before = await revenue();

    // A first order: WELCOME20, applied by the server.
    const welcome = await paidOrder(t, 2000, 'Welcome gift book');
    // The same buyer again (no longer a first order) with a promo code.
    const code = `REV${Date.now().toString(36).toUpperCase()}`.slice(0, 20);
    await createPromotion(db, admin.id, {
      code,
      kind: 'fixed',
      percentOff: null,
      amountOffMinor: 350,
      minItemMinor: null,
      startsAt: new Date(Date.now() - 3_600_000).toISOString(),
      endsAt: new Date(Date.now() + 86_400_000).toISOString(),
      totalLimit: null,
      perBuyerLimit: 1,
    });
    const promo = await paidOrder(t, 1500, 'Promo code book', { buyer: welcome.buyer, promoCode: code });
    // Another first order, then refunded in full by staff: the seller is paid nothing, so its
    // discount is no longer funded.
    const refunded = await paidOrder(t, 1800, 'Refunded gift book');
    // A partial refund comes out of the seller's payout: the discount stays funded.
    const admins = api(t.app, admin.accessToken);
    await admins.commerce.orders.staff.refund.mutate({
      orderId: promo.orderId,
      amountMinor: 100,
      reason: 'A corner was bent in the post.',
    });
    await admins.commerce.orders.staff.refund.mutate({
      orderId: refunded.orderId,
      amountMinor: 'full',
      reason: 'The buyer changed their mind before dispatch.',
    });

    const orders = await db
      .selectFrom('orders')
      .select(['id', 'buyer_protection_minor', 'discount_minor', 'discount_code', 'postage_minor', 'status'])
      .where('id', 'in', [welcome.orderId, promo.orderId, refunded.orderId])
      .execute();
    const byId = new Map(orders.map((order) => [order.id, order]));
    const a = byId.get(welcome.orderId)!;
    const b = byId.get(promo.orderId)!;
    const c = byId.get(refunded.orderId)!;
    expect([a.discount_code, a.discount_minor]).toEqual(['WELCOME20', 400]);
    expect([b.discount_code, b.discount_minor]).toEqual([code, 350]);
    expect([c.discount_code, c.discount_minor, c.status]).toEqual(['WELCOME20', 360, 'refunded']);
    // Reshelf funds them: each seller's payout is the full item price and postage.
    const payouts = await db
      .selectFrom('payouts')
      .select(['order_id', 'amount_minor'])
      .where('order_id', 'in', [welcome.orderId, promo.orderId])
      .execute();
    expect(Object.fromEntries(payouts.map((p) => [p.order_id, p.amount_minor]))).toEqual({
      [welcome.orderId]: 2000 + a.postage_minor,
      [promo.orderId]: 1500 + b.postage_minor,
    });

    const charged = a.buyer_protection_minor + b.buyer_protection_minor + c.buyer_protection_minor;
    const protectionRefunded = c.buyer_protection_minor;
    const given = a.discount_minor + b.discount_minor + c.discount_minor;
    const returned = c.discount_minor;
    const after = await revenue();
    for (const period of ADMIN_PERIODS) {
      const was = before[period]!;
      const now = after[period]!;
      const delta = (key: keyof Row) => (now[key] as number) - (was[key] as number);
      expect(delta('ordersPaid'), period).toBe(3);
      expect(delta('protectionChargedMinor'), period).toBe(charged);
      expect(delta('protectionRefundedMinor'), period).toBe(protectionRefunded);
      expect(delta('discountsGivenMinor'), period).toBe(given);
      expect(delta('discountsReturnedMinor'), period).toBe(returned);
      expect(delta('discountsFundedMinor'), period).toBe(a.discount_minor + b.discount_minor);
      expect(delta('netMinor'), period).toBe(charged - protectionRefunded - (given - returned));
      expect(delta('refundsMinor'), period).toBe(100 + refunded.totalMinor);
      // net = buyer protection (net of its refunds) − discounts funded, in every period.
      expect(now.netMinor).toBe(now.protectionNetMinor - now.discountsFundedMinor);
      expect(now.discountsFundedMinor).toBe(now.discountsGivenMinor - now.discountsReturnedMinor);
    }
    // The dashboard's Buyer Protection card keeps its meaning: protection net of refunds only.
    const metrics = await api(t.app, moderator.accessToken).staff.dashboard.metrics.query({ period: 'mtd' });
    expect(metrics.buyer_protection_minor).toBe(after.mtd!.protectionNetMinor);

    // The CSV for each period's London days has the page's figures in its total row.
    for (const period of ADMIN_PERIODS) {
      const row = after[period]!;
      const csv = await revenueCsv(londonDay(row.startsAt), londonDay(row.endsAt));
      expect(csv.get('total'), period).toEqual({
        day: 'total',
        orders_paid: String(row.ordersPaid),
        books_paid: String(row.booksPaid),
        buyer_protection_charged_gbp: pounds(row.protectionChargedMinor),
        buyer_protection_refunded_gbp: pounds(row.protectionRefundedMinor),
        buyer_protection_net_gbp: pounds(row.protectionNetMinor),
        discounts_given_gbp: pounds(row.discountsGivenMinor),
        discounts_returned_gbp: pounds(row.discountsReturnedMinor),
        discounts_funded_gbp: pounds(row.discountsFundedMinor),
        net_gbp: pounds(row.netMinor),
        postage_gbp: pounds(row.postageMinor),
        refunds_gbp: pounds(row.refundsMinor),
      });
    }
    // Today's line is today's row; the days of a longer period add up to its total.
    const today = londonDay(after.today!.endsAt);
    const mtd = await revenueCsv(londonDay(after.mtd!.startsAt), today);
    expect(mtd.get(today)!.net_gbp).toBe(pounds(after.today!.netMinor));
    const days = [...mtd.values()].filter((record) => record.day !== 'total');
    expect(days.length).toBe(Number(today.slice(8, 10)));
    const sum = (key: string) =>
      pounds(days.reduce((total, record) => total + Math.round(Number(record[key]) * 100), 0));
    expect(sum('net_gbp')).toBe(mtd.get('total')!.net_gbp);
    expect(sum('discounts_funded_gbp')).toBe(mtd.get('total')!.discounts_funded_gbp);
  });
});
