/**
 * Every surface that shows an order agrees with the money definitions (decision 0051):
 * over the demo seed and a generated set of orders (testing/money-orders.ts: every way money moves,
 * through the real services and API), each paid order's buyer paid, refunded and net, the
 * seller's earnings and net, its book count and its title are the same, to the penny, on the
 * buyer's order and list, the seller's sale and list, the staff order, the dispute queue, both CSV
 * exports, the reconciliation, and (summed) the charity dashboard. Each surface is compared with
 * the `order_money` / `order_item_money` views, the one definition; a few orders are also worked
 * out from first principles here, so the views themselves are tested.
 */
import { booksTitle } from '@reshelf/contracts';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/index.ts';
import { runDemoSeed } from '../../seed/demo.ts';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { api } from '../../testing/client.ts';
import { csvCells } from '../../testing/csv.ts';
import { generateMoneyOrders, type MoneyOrders } from '../../testing/money-orders.ts';
import { getOrder, listOrders, listPayouts } from '../orders/order-views.ts';
import { statementFor } from '../payouts/statements.service.ts';
import { reconciliation } from './ledger.ts';

let t: TestApp;
let db: Database;
let made: MoneyOrders;

/** The views' figures for one order: what every surface must show. */
interface Truth {
  id: string;
  reference: string;
  buyerId: string;
  sellerId: string;
  charitySale: boolean;
  status: string;
  paidAt: Date;
  books: number;
  titles: string[];
  title: string;
  buyer: {
    books: number;
    itemsMinor: number;
    bundleDiscountMinor: number;
    discountMinor: number;
    postageMinor: number;
    protectionMinor: number;
    protectionVatMinor: number;
    totalMinor: number;
    refundedMinor: number;
    refundableMinor: number;
    buyerNetMinor: number;
  };
  seller: { earningsMinor: number; takenBackMinor: number; netMinor: number; labelMinor: number };
  platformNetMinor: number;
  items: { id: string; paidMinor: number; refundedMinor: number; position: number }[];
}

let truths: Truth[];

async function loadTruths(): Promise<Truth[]> {
  const { rows } = await sql<{
    order_id: string;
    reference: string;
    buyer_id: string;
    seller_id: string;
    charity_sale: boolean;
    status: string;
    paid_at: Date;
    books: number;
    titles: string[];
    title: string;
    items_minor: number;
    bundle_discount_minor: number;
    discount_minor: number;
    postage_minor: number;
    protection_minor: number;
    protection_vat_minor: number;
    total_minor: number;
    refunded_minor: number;
    refundable_minor: number;
    buyer_net_minor: number;
    seller_earnings_minor: number;
    seller_taken_back_minor: number;
    seller_net_minor: number;
    seller_label_minor: number;
    platform_net_minor: number;
  }>`
    select m.*, o.reference, t.titles, t.title
      from public.order_money m
      join public.orders o on o.id = m.order_id
      join public.order_titles t on t.order_id = m.order_id
     where m.paid_at is not null
     order by m.paid_at`.execute(db);
  const items = await db
    .selectFrom('order_item_money')
    .select(['order_item_id', 'order_id', 'paid_minor', 'refunded_minor', 'position'])
    .orderBy('position')
    .execute();
  return rows.map((row) => ({
    id: row.order_id,
    reference: row.reference,
    buyerId: row.buyer_id,
    sellerId: row.seller_id,
    charitySale: row.charity_sale,
    status: row.status,
    paidAt: row.paid_at,
    books: row.books,
    titles: row.titles,
    title: row.title,
    buyer: {
      books: row.books,
      itemsMinor: row.items_minor,
      bundleDiscountMinor: row.bundle_discount_minor,
      discountMinor: row.discount_minor,
      postageMinor: row.postage_minor,
      protectionMinor: row.protection_minor,
      protectionVatMinor: row.protection_vat_minor,
      totalMinor: row.total_minor,
      refundedMinor: row.refunded_minor,
      refundableMinor: row.refundable_minor,
      buyerNetMinor: row.buyer_net_minor,
    },
    seller: {
      earningsMinor: row.seller_earnings_minor,
      takenBackMinor: row.seller_taken_back_minor,
      netMinor: row.seller_net_minor,
      labelMinor: row.seller_label_minor,
    },
    platformNetMinor: row.platform_net_minor,
    items: items
      .filter((item) => item.order_id === row.order_id)
      .map((item) => ({
        id: item.order_item_id as string,
        paidMinor: item.paid_minor ?? 0,
        refundedMinor: item.refunded_minor ?? 0,
        position: item.position ?? 0,
      })),
  }));
}

const truthOf = (orderId: string) => {
  const found = truths.find((truth) => truth.id === orderId);
  if (!found) throw new Error(`no paid order ${orderId}`);
  return found;
};

/** A pounds cell of a CSV back in pence. */
const pence = (cell: string | undefined) => Math.round(Number(cell) * 100);

/** The rows of an export over every day with a paid order (at most 366 days a request). */
async function exportRows(kind: 'orders' | 'order_items'): Promise<Record<string, string>[]> {
  const day = (at: Date) => at.toISOString().slice(0, 10);
  const first = truths[0]!.paidAt;
  const rows: Record<string, string>[] = [];
  // A day either side, so a London day boundary cannot drop an order.
  let from = new Date(first.getTime() - 86_400_000);
  const last = new Date(Date.now() + 86_400_000);
  while (from <= last) {
    const to = new Date(Math.min(from.getTime() + 300 * 86_400_000, last.getTime()));
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/admin/exports/${kind}.csv?from=${day(from)}&to=${day(to)}`,
      headers: { authorization: `Bearer ${made.admin.accessToken}` },
    });
    expect(response.statusCode, response.body).toBe(200);
    const [header, ...cells] = csvCells(response.body);
    for (const line of cells) rows.push(Object.fromEntries(header!.map((name, i) => [name, line[i]!])));
    from = new Date(to.getTime() + 86_400_000);
  }
  return rows;
}

beforeAll(async () => {
  t = await createTestApp({ referenceData: false });
  db = t.database.handle.db;
  await runDemoSeed(db, t.services, { origin: t.config.siteOrigin });
  made = await generateMoneyOrders(t, 'consistency');
  truths = await loadTruths();
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('the money definitions themselves', () => {
  it('cover every kind of order: demo and generated, refunded, returned, disputed, released', () => {
    expect(truths.length).toBeGreaterThan(30);
    for (const id of Object.values(made.orders)) expect(truthOf(id)).toBeDefined();
    expect([...new Set(truths.map((truth) => truth.status))]).toEqual(
      expect.arrayContaining(['paid', 'dispatched', 'delivered', 'completed', 'refunded', 'disputed']),
    );
    // Refunds in part, taken back from held and from released earnings.
    expect(
      truths.filter((truth) => truth.buyer.refundedMinor > 0 && truth.status !== 'refunded').length,
    ).toBeGreaterThan(3);
    expect(truths.some((truth) => truth.seller.takenBackMinor > 0 && truth.seller.netMinor > 0)).toBe(true);
  });

  it('agree with the order worked out from first principles', async () => {
    // For a few orders: price − bundle discount − discount + postage + protection; refunds from
    // the refunds table; the seller's share and what was taken back from the payout row.
    for (const key of [
      'welcome20',
      'promotion',
      'basketTier2',
      'offer',
      'perBookRefund',
      'charityWholeReturn',
    ]) {
      const id = made.orders[key]!;
      const truth = truthOf(id);
      const items = await db.selectFrom('order_items').selectAll().where('order_id', '=', id).execute();
      const order = await db.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      const refunds = await db
        .selectFrom('refunds')
        .select('amount_minor')
        .where('order_id', '=', id)
        .execute();
      const payout = await db.selectFrom('payouts').selectAll().where('order_id', '=', id).executeTakeFirst();
      let price = 0;
      let bundle = 0;
      let discount = 0;
      let protection = 0;
      for (const item of items) {
        price += item.price_minor;
        bundle += item.bundle_discount_minor;
        discount += item.discount_minor;
        protection += item.protection_minor;
      }
      let refunded = 0;
      for (const refund of refunds) refunded += refund.amount_minor;
      const total = price - bundle - discount + order.postage_minor + protection;
      expect({ key, books: truth.books, total: truth.buyer.totalMinor }).toEqual({
        key,
        books: items.length,
        total,
      });
      expect(truth.buyer.refundedMinor).toBe(refunded);
      expect(truth.buyer.buyerNetMinor).toBe(total - refunded);
      expect(truth.seller.earningsMinor).toBe(price - bundle + order.postage_minor);
      if (payout) {
        const net = payout.status === 'cancelled' ? 0 : payout.amount_minor - payout.reversed_minor;
        expect(truth.seller.netMinor).toBe(net);
      }
    }
    // The promotion took 15 % off the books after the bundle discount; WELCOME20 is its own figure.
    const promo = truthOf(made.orders.promotion!);
    expect(promo.buyer.discountMinor).toBeGreaterThan(0);
    expect(truthOf(made.orders.repeat!).buyer.discountMinor).toBe(0);
    expect(truthOf(made.orders.basketTier2!).buyer.bundleDiscountMinor).toBe(
      Math.round((333 + 777 + 1001 + 450) * 0.15),
    );
    // The charity's whole return gave back everything but buyer protection: the postage too.
    const back = truthOf(made.orders.charityWholeReturn!);
    expect(back.buyer.refundedMinor).toBe(back.buyer.totalMinor - back.buyer.protectionMinor);
    expect(back.status).toBe('refunded');
  });

  it('title an order as its first book and how many more', () => {
    for (const truth of truths) expect(truth.title).toBe(booksTitle(truth.titles));
    expect(truthOf(made.orders.basketTier1!).title).toMatch(/ and 2 more books$/);
  });
});

describe('every surface agrees with them', () => {
  it('the buyer’s order and their list of orders', async () => {
    for (const buyerId of new Set(truths.map((truth) => truth.buyerId))) {
      const list = await listOrders(db, buyerId, 'buyer', { limit: 1000 });
      for (const truth of truths.filter((one) => one.buyerId === buyerId)) {
        const detail = await getOrder(db, { id: buyerId }, truth.id);
        const summary = list.find((one) => one.id === truth.id);
        for (const view of [detail, summary]) {
          expect({ ref: truth.reference, money: view?.money }).toEqual({
            ref: truth.reference,
            money: truth.buyer,
          });
          expect(view).toMatchObject({
            title: truth.title,
            books: truth.titles,
            itemCount: truth.books,
            totalMinor: truth.buyer.totalMinor,
            itemMinor: truth.buyer.itemsMinor,
            sellerMoney: null,
          });
        }
        expect(detail).toMatchObject({
          refundedMinor: truth.buyer.refundedMinor,
          bundleDiscountMinor: truth.buyer.bundleDiscountMinor,
          postageMinor: truth.buyer.postageMinor,
          protectionMinor: truth.buyer.protectionMinor,
          protectionVatMinor: truth.buyer.protectionVatMinor,
          discountMinor: truth.buyer.discountMinor,
        });
        expect(detail.items.map((item) => item.paidMinor)).toEqual(truth.items.map((item) => item.paidMinor));
        expect(detail.items.map((item) => item.refundedMinor)).toEqual(
          truth.items.map((item) => item.refundedMinor),
        );
      }
    }
  });

  it('the seller’s sale and their list of sales', async () => {
    for (const sellerId of new Set(truths.map((truth) => truth.sellerId))) {
      const list = await listOrders(db, sellerId, 'seller', { limit: 1000 });
      for (const truth of truths.filter((one) => one.sellerId === sellerId)) {
        const detail = await getOrder(db, { id: sellerId }, truth.id);
        const summary = list.find((one) => one.id === truth.id);
        for (const view of [detail, summary]) {
          expect({ ref: truth.reference, money: view?.money, seller: view?.sellerMoney }).toEqual({
            ref: truth.reference,
            money: truth.buyer,
            seller: truth.seller,
          });
          expect(view).toMatchObject({ title: truth.title, itemCount: truth.books });
        }
      }
    }
  });

  it('the staff order', async () => {
    const staff = api(t.app, made.admin.accessToken).commerce.orders.staff;
    for (const truth of truths) {
      const view = await staff.order.query({ orderId: truth.id });
      expect({ ref: truth.reference, money: view.money, seller: view.sellerMoney }).toEqual({
        ref: truth.reference,
        money: truth.buyer,
        seller: truth.seller,
      });
      expect(view).toMatchObject({
        title: truth.title,
        itemCount: truth.books,
        refundedMinor: truth.buyer.refundedMinor,
      });
      expect(view.items.map((item) => item.paidMinor)).toEqual(truth.items.map((item) => item.paidMinor));
    }
  });

  it('the dispute queue', async () => {
    const queue = await api(t.app, made.admin.accessToken).commerce.disputes.staff.queue.query({
      status: 'all',
    });
    const refundable = await db
      .selectFrom('dispute_money')
      .select(['dispute_id', 'refundable_minor'])
      .execute();
    const named = await db.selectFrom('dispute_items').select('dispute_id').distinct().execute();
    for (const decided of Object.values(made.disputes))
      expect(queue.map((row) => row.orderId)).toContain(decided);
    for (const row of queue) {
      const truth = truthOf(row.orderId);
      expect({ ref: truth.reference, total: row.totalMinor, books: row.bookCount }).toEqual({
        ref: truth.reference,
        total: truth.buyer.totalMinor,
        books: truth.books,
      });
      expect(row.refundableMinor).toBe(refundable.find((one) => one.dispute_id === row.id)?.refundable_minor);
      // A report about the whole order is titled as the order; one naming books, by those books.
      if (!named.some((one) => one.dispute_id === row.id)) expect(row.title).toBe(truth.title);
    }
    // What the decided reports gave back is what the order shows refunded.
    for (const row of queue.filter((one) => Object.values(made.disputes).includes(one.orderId))) {
      expect(row.refundedMinor).toBe(truthOf(row.orderId).buyer.refundedMinor);
    }
  });

  it('orders.csv and order_items.csv', async () => {
    const orders = await exportRows('orders');
    expect(orders).toHaveLength(truths.length);
    for (const truth of truths) {
      const row = orders.find((one) => one.reference === truth.reference);
      expect({
        ref: truth.reference,
        books: Number(row?.books),
        title: row?.title,
        items: pence(row?.item_price_gbp),
        bundle: pence(row?.bundle_discount_gbp),
        postage: pence(row?.postage_gbp),
        protection: pence(row?.buyer_protection_gbp),
        vat: pence(row?.buyer_protection_vat_gbp),
        discount: pence(row?.discount_gbp),
        total: pence(row?.total_gbp),
        refunded: pence(row?.refunded_gbp),
      }).toEqual({
        ref: truth.reference,
        books: truth.books,
        // The export lists every book (first first), where pages title the order.
        title: truth.titles.join('; '),
        items: truth.buyer.itemsMinor,
        bundle: truth.buyer.bundleDiscountMinor,
        postage: truth.buyer.postageMinor,
        protection: truth.buyer.protectionMinor,
        vat: truth.buyer.protectionVatMinor,
        discount: truth.buyer.discountMinor,
        total: truth.buyer.totalMinor,
        refunded: truth.buyer.refundedMinor,
      });
    }
    const items = await exportRows('order_items');
    for (const truth of truths) {
      const rows = items
        .filter((one) => one.order_reference === truth.reference)
        .sort((a, b) => Number(a.position) - Number(b.position));
      expect({ ref: truth.reference, paid: rows.map((row) => pence(row.paid_gbp)) }).toEqual({
        ref: truth.reference,
        paid: truth.items.map((item) => item.paidMinor),
      });
      expect(rows.map((row) => pence(row.refunded_gbp))).toEqual(
        truth.items.map((item) => item.refundedMinor),
      );
      expect(rows.map((row) => row.title)).toEqual(truth.titles);
    }
  });

  it('the reconciliation', async () => {
    const result = await reconciliation(db, { limit: 10_000 });
    expect(result.imbalances).toBe(0);
    for (const truth of truths) {
      const row = result.rows.find((one) => one.orderId === truth.id);
      expect({
        ref: truth.reference,
        paid: row?.paidMinor,
        refunded: row?.refundedMinor,
        sellerNet: row?.sellerNetMinor,
        fee: row?.feeMinor,
      }).toEqual({
        ref: truth.reference,
        paid: truth.buyer.totalMinor,
        refunded: truth.buyer.refundedMinor,
        sellerNet: truth.seller.netMinor,
        fee: truth.platformNetMinor,
      });
    }
  });

  it('the charity dashboard: its books sold and earnings are its orders’ books and seller net', async () => {
    const owner = { owner_id: made.charityOwner.id };
    const dashboard = await api(t.app, made.charityOwner.accessToken).charities.dashboard.query();
    const sold = await db
      .selectFrom('sold_books')
      .select(['order_id', 'earnings_minor'])
      .where('charity_id', '=', made.charityId)
      .execute();
    // Orders still standing (a whole order returned is not a sale); each counts its books kept.
    const standing = truths.filter(
      (truth) =>
        truth.charitySale &&
        truth.sellerId === owner.owner_id &&
        !['refunded', 'cancelled'].includes(truth.status),
    );
    expect(new Set(sold.map((one) => one.order_id))).toEqual(new Set(standing.map((truth) => truth.id)));
    let net = 0;
    for (const truth of standing) net += truth.seller.netMinor;
    expect(dashboard.sales).toMatchObject({
      ordersCount: standing.length,
      booksCount: sold.length,
      earningsMinor: net,
    });
  });

  it('the seller’s payouts: each order’s earnings at payment and what is left of them', async () => {
    for (const sellerId of new Set(truths.map((truth) => truth.sellerId))) {
      const view = await listPayouts(db, sellerId);
      for (const truth of truths.filter((one) => one.sellerId === sellerId)) {
        const item = view.items.find((one) => one.orderId === truth.id);
        expect({
          ref: truth.reference,
          amount: item?.amountMinor,
          net: item?.netMinor,
          title: item?.title,
        }).toEqual({
          ref: truth.reference,
          amount: truth.seller.earningsMinor,
          net: truth.seller.netMinor,
          title: truth.title,
        });
      }
    }
  });

  it('the monthly statements: each order’s credits and debits come to the seller’s net, under its title', async () => {
    for (const sellerId of new Set(truths.map((truth) => truth.sellerId))) {
      const latest = await statementFor(db, sellerId, new Date().toISOString().slice(0, 7));
      const entries = [...latest.entries];
      for (const month of latest.months) {
        if (month === latest.month) continue;
        entries.push(...(await statementFor(db, sellerId, month)).entries);
      }
      for (const truth of truths.filter((one) => one.sellerId === sellerId)) {
        const mine = entries.filter(
          (entry) =>
            entry.orderId === truth.id && (entry.kind === 'seller_credit' || entry.kind === 'seller_debit'),
        );
        let net = 0;
        for (const entry of mine) net += entry.amountMinor;
        expect({ ref: truth.reference, net, titles: [...new Set(mine.map((entry) => entry.title))] }).toEqual(
          {
            ref: truth.reference,
            net: truth.seller.netMinor,
            titles: [truth.title],
          },
        );
      }
    }
  });
});
