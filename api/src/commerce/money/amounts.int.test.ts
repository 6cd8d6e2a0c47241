/**
 * The TypeScript amounts (amounts.ts) equal the SQL money definitions (order_item_money,
 * order_money) for the same rows, over the demo seed and the generated orders of
 * testing/money-orders.ts (refunds in part and per book, returns, reports, released and reversed
 * earnings): the two sides of decision 0051 cannot drift apart.
 */
import { vatOfInclusive } from '@reshelf/contracts';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/index.ts';
import { runDemoSeed } from '../../seed/demo.ts';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { generateMoneyOrders } from '../../testing/money-orders.ts';
import {
  earningsLeft,
  itemAmounts,
  leftOnPayment,
  orderTotal,
  owedBack,
  sellerEarnings,
  sellerPartOf,
  sum,
} from './amounts.ts';

let t: TestApp;
let db: Database;

beforeAll(async () => {
  t = await createTestApp({ referenceData: false });
  db = t.database.handle.db;
  await runDemoSeed(db, t.services, { origin: t.config.siteOrigin });
  await generateMoneyOrders(t, 'amounts');
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('the TypeScript amounts equal the SQL views', () => {
  it('for every book: itemAmounts, owedBack and sellerPartOf against order_item_money', async () => {
    const items = await db
      .selectFrom('order_items as i')
      .innerJoin('order_item_money as m', 'm.order_item_id', 'i.id')
      .select([
        'i.id',
        'i.price_minor',
        'i.bundle_discount_minor',
        'i.discount_minor',
        'i.protection_minor',
        'i.refunded_minor',
        'm.seller_share_minor',
        'm.goods_minor',
        'm.paid_minor',
        'm.refundable_minor',
        'm.returned',
        'm.seller_taken_back_minor',
      ])
      .execute();
    const parts = await db
      .selectFrom('refund_items')
      .select(['order_item_id', 'amount_minor', 'protection_minor', 'discount_minor'])
      .execute();
    expect(items.length).toBeGreaterThan(50);
    expect(parts.length).toBeGreaterThan(3);
    expect(items.some((item) => item.returned)).toBe(true);
    expect(items.some((item) => item.refunded_minor > 0 && !item.returned)).toBe(true);
    for (const item of items) {
      const amounts = itemAmounts(item);
      expect({ id: item.id, ...amounts }).toEqual({
        id: item.id,
        sellerShareMinor: item.seller_share_minor,
        goodsMinor: item.goods_minor,
        paidMinor: item.paid_minor,
        refundableMinor: item.refundable_minor,
        returned: item.returned,
      });
      // What is left to give back, all of it: the view's refundable.
      expect(owedBack(item, false)).toBe(item.refundable_minor);
      // What refunds took back from the seller: each part less its protection, plus its discount
      // (never more than the book's seller share).
      const taken = sum(parts.filter((part) => part.order_item_id === item.id).map(sellerPartOf));
      expect(Math.min(amounts.sellerShareMinor, taken)).toBe(item.seller_taken_back_minor);
    }
  });

  it('for every order: orderTotal, sellerEarnings, leftOnPayment and earningsLeft against order_money', async () => {
    const orders = await db
      .selectFrom('orders as o')
      .innerJoin('order_money as m', 'm.order_id', 'o.id')
      .leftJoin('payouts as p', 'p.order_id', 'o.id')
      .select([
        'o.id',
        'o.item_price_minor',
        'o.bundle_discount_minor',
        'o.discount_minor',
        'o.postage_minor',
        'o.buyer_protection_minor',
        'o.paid_at',
        'm.total_minor',
        'm.seller_earnings_minor',
        'm.refundable_minor',
        'm.seller_net_minor',
        'p.amount_minor as payout_minor',
        'p.reversed_minor as payout_reversed_minor',
        'p.status as payout_status',
      ])
      .execute();
    const payments = await db
      .selectFrom('payments')
      .select(['order_id', 'amount_minor', 'refunded_minor'])
      .where('status', '=', 'succeeded')
      .execute();
    expect(orders.filter((order) => order.payout_status === 'cancelled').length).toBeGreaterThan(0);
    expect(orders.filter((order) => (order.payout_reversed_minor ?? 0) > 0).length).toBeGreaterThan(0);
    for (const order of orders) {
      const parts = {
        itemsMinor: order.item_price_minor,
        bundleDiscountMinor: order.bundle_discount_minor,
        discountMinor: order.discount_minor,
        postageMinor: order.postage_minor,
        protectionMinor: order.buyer_protection_minor,
      };
      expect({ id: order.id, total: orderTotal(parts), earnings: sellerEarnings(parts) }).toEqual({
        id: order.id,
        total: order.total_minor,
        earnings: order.seller_earnings_minor,
      });
      const paid = payments.filter((payment) => payment.order_id === order.id);
      expect(sum(paid.map(leftOnPayment))).toBe(order.refundable_minor);
      if (order.paid_at && order.payout_status) {
        expect(
          earningsLeft({
            amount_minor: order.payout_minor ?? 0,
            reversed_minor: order.payout_reversed_minor ?? 0,
            status: order.payout_status,
          }),
        ).toBe(order.seller_net_minor);
      }
    }
  });

  it('the VAT within an inclusive amount: vatOfInclusive and vat_of_inclusive, and every order’s protection VAT', async () => {
    const amounts = [...Array.from({ length: 400 }, (_, i) => i), 599, 1234, 99_999];
    const { rows } = await sql<{ gross: number; vat: number }>`
      select g as gross, public.vat_of_inclusive(g) as vat from unnest(${amounts}::int[]) g`.execute(db);
    expect(rows.map((row) => [row.gross, row.vat])).toEqual(
      amounts.map((gross) => [gross, vatOfInclusive(gross)]),
    );
    // Every order, seeded or bought, carries the VAT within its protection (seeded ones said 0).
    const orders = await db
      .selectFrom('orders')
      .select(['reference', 'buyer_protection_minor', 'buyer_protection_vat_minor'])
      .execute();
    expect(orders.length).toBeGreaterThan(20);
    expect(
      orders.filter(
        (order) => order.buyer_protection_vat_minor !== vatOfInclusive(order.buyer_protection_minor),
      ),
    ).toEqual([]);
  });
});
