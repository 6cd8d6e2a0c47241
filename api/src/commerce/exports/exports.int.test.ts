/** CSV exports: staff only, by period in London days, streamed, formulas neutralised, audited. */
import { parcelFor, postageFor } from '@reshelf/contracts';
import { parse as parseCsv } from 'csv-parse/sync';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/index.ts';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { createUser, type TestUser } from '../../testing/auth.ts';
import { paidBasketOrder } from '../../testing/basket-orders.ts';
import { paidOrder } from '../../testing/orders.ts';
import { refundOrder } from '../orders/staff-orders.service.ts';

let t: TestApp;
let db: Database;
let moderator: TestUser;
let admin: TestUser;
let member: TestUser;
let order: Awaited<ReturnType<typeof paidOrder>>;
const today = new Date().toLocaleDateString('en-CA', { timeZone: 'Europe/London' });

beforeAll(async () => {
  t = await createTestApp();
  db = t.database.handle.db;
  moderator = await createUser(db, t.services.identity, 'moderator@exports.test', { roles: ['moderator'] });
  admin = await createUser(db, t.services.identity, 'admin@exports.test', { roles: ['admin'] });
  member = await createUser(db, t.services.identity, 'member@exports.test');
  order = await paidOrder(t, 1250, '=HYPERLINK("http://evil.test")');
  // The title exactly as someone could type it (the helper numbers its titles).
  await db
    .updateTable('books')
    .set({ title: '=HYPERLINK("http://evil","x")' })
    .where('id', '=', (eb) => eb.selectFrom('listings').select('book_id').where('id', '=', order.listingId))
    .execute();
});

afterAll(async () => {
  await t.close();
});

const download = (file: string, query: string, token?: string) => {
  const call = request(t.app.server).get(`/api/admin/exports/${file}?${query}`);
  return token ? call.set('authorization', `Bearer ${token}`) : call;
};

function parse(text: string): string[][] {
  expect(text.startsWith('\uFEFF')).toBe(true); // spreadsheets then read the file as UTF-8
  expect(text.endsWith('\r\n')).toBe(true);
  return parseCsv(text, { bom: true });
}

describe('exports', () => {
  it('orders paid in the period, with money in pounds and the formula neutralised', async () => {
    const response = await download('orders.csv', `from=${today}&to=${today}`, moderator.accessToken);
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="reshelf-orders-${today}-to-${today}.csv"`,
    );
    const [header, ...rows] = parse(response.text);
    expect(header).toContain('reference');
    expect(rows).toHaveLength(1);
    const row = Object.fromEntries(header!.map((name, index) => [name, rows[0]![index]]));
    expect(row).toMatchObject({
      reference: order.reference,
      status: 'paid',
      buyer_email: order.buyer.email,
      item_price_gbp: '12.50',
      total_gbp: (order.totalMinor / 100).toFixed(2),
      refunded_gbp: '0.00',
    });
    expect(row.title).toBe(`'=HYPERLINK("http://evil","x")`);
  });

  it('payouts and listings; an earlier period is empty but for the header', async () => {
    const payouts = parse(
      (await download('payouts.csv', `from=${today}&to=${today}`, moderator.accessToken)).text,
    );
    expect(payouts[1]).toEqual(expect.arrayContaining([order.reference, order.seller.email, 'held']));
    const listings = parse(
      (await download('listings.csv', `from=${today}&to=${today}`, moderator.accessToken)).text,
    );
    expect(listings[0]).toContain('slug');
    expect(listings.length).toBeGreaterThan(1);
    // A listing whose title someone typed as a formula comes out as text.
    const titleAt = listings[0]!.indexOf('title');
    expect(listings.map((row) => row[titleAt])).toContain(`'=HYPERLINK("http://evil","x")`);
    const old = parse(
      (await download('orders.csv', 'from=2020-01-01&to=2020-01-31', moderator.accessToken)).text,
    );
    expect(old).toHaveLength(1);
  });

  it('is for staff only, checks the period and records each export', async () => {
    expect((await download('orders.csv', `from=${today}&to=${today}`)).status).toBe(401);
    const refused = await download('orders.csv', `from=${today}&to=${today}`, member.accessToken);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(
      "You don't have permission to access the admin portal with your current account.",
    );
    const backwards = await download('orders.csv', 'from=2026-02-02&to=2026-02-01', moderator.accessToken);
    expect(backwards.status).toBe(400);
    expect(backwards.body.message).toBe('The start date must be on or before the end date');
    expect(
      (await download('orders.csv', 'from=2024-01-01&to=2025-06-01', moderator.accessToken)).body.message,
    ).toContain('at most 366 days');
    expect((await download('orders.csv', 'from=yesterday&to=today', moderator.accessToken)).status).toBe(400);
    expect((await download('secrets.csv', `from=${today}&to=${today}`, moderator.accessToken)).status).toBe(
      404,
    );
    const audit = await db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', 'like', 'export.%')
      .orderBy('id')
      .execute();
    expect(audit.map((row) => row.action)).toEqual([
      'export.orders',
      'export.payouts',
      'export.listings',
      'export.orders',
    ]);
    expect(audit[0]).toMatchObject({
      actor_email: 'moderator@exports.test',
      details: { from: today, to: today },
    });
  });

  it('payouts say what was taken back; revenue has a row a day and a total, negative amounts as numbers', async () => {
    const late = await paidOrder(t, 2000, 'Paid yesterday');
    // Paid yesterday (London), refunded today: today's protection is negative.
    const yesterday = new Date(Date.now() - 86_400_000).toLocaleDateString('en-CA', {
      timeZone: 'Europe/London',
    });
    await db
      .updateTable('orders')
      .set({ paid_at: new Date(Date.now() - 86_400_000) })
      .where('id', '=', late.orderId)
      .execute();
    const deps = { db, payments: t.services.payments };
    await refundOrder(deps, admin.id, { orderId: late.orderId, amountMinor: 250, reason: 'A torn jacket.' });
    const payouts = parse(
      (await download('payouts.csv', `from=${today}&to=${today}`, moderator.accessToken)).text,
    );
    const header = payouts[0]!;
    expect(header).toEqual([
      'order_reference',
      'seller_email',
      'amount_gbp',
      'reversed_gbp',
      'status',
      'created_at',
      'released_at',
    ]);
    const payout = payouts.find((row) => row[0] === late.reference)!;
    // The seller's payout: the book and its postage (home delivery, the paperback-sized test book).
    const postage = postageFor(
      parcelFor([{ parcelSize: 'small', format: null, pageCount: null }]).band,
      'home',
    );
    expect(payout.slice(2, 5)).toEqual([((2000 + postage) / 100).toFixed(2), '2.50', 'held']);

    await refundOrder(deps, admin.id, { orderId: late.orderId, amountMinor: 'full', reason: 'Lost.' });
    const money = async (orderId: string) =>
      db
        .selectFrom('orders')
        .select(['buyer_protection_minor as protection', 'discount_minor as discount'])
        .where('id', '=', orderId)
        .executeTakeFirstOrThrow();
    const early = await money(order.orderId); // paid today, kept
    const back = await money(late.orderId); // paid yesterday, all refunded today
    const response = await download('revenue.csv', `from=${yesterday}&to=${today}`, moderator.accessToken);
    expect(response.status).toBe(200);
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="reshelf-revenue-${yesterday}-to-${today}.csv"`,
    );
    const [columns, ...rows] = parse(response.text);
    expect(columns).toEqual([
      'day',
      'orders_paid',
      'books_paid',
      'buyer_protection_charged_gbp',
      'buyer_protection_refunded_gbp',
      'buyer_protection_net_gbp',
      'discounts_given_gbp',
      'discounts_returned_gbp',
      'discounts_funded_gbp',
      'net_gbp',
      'postage_gbp',
      'refunds_gbp',
    ]);
    expect(rows.map((row) => row[0])).toEqual([yesterday, today, 'total']);
    const record = (day: string) =>
      Object.fromEntries(columns!.map((name, i) => [name, rows.find((row) => row[0] === day)![i]]));
    const pounds = (minor: number) => (minor / 100).toFixed(2);
    expect(record(yesterday)).toMatchObject({
      orders_paid: '1',
      buyer_protection_charged_gbp: pounds(back.protection),
      buyer_protection_refunded_gbp: '0.00',
      discounts_given_gbp: pounds(back.discount),
      discounts_funded_gbp: pounds(back.discount),
      net_gbp: pounds(back.protection - back.discount),
    });
    // Today: one order kept, and yesterday's order's protection and discount went back.
    expect(back.protection).toBeGreaterThan(early.protection);
    expect(record(today)).toMatchObject({
      orders_paid: '1',
      buyer_protection_charged_gbp: pounds(early.protection),
      buyer_protection_refunded_gbp: pounds(back.protection),
      buyer_protection_net_gbp: pounds(early.protection - back.protection),
      discounts_given_gbp: pounds(early.discount),
      discounts_returned_gbp: pounds(back.discount),
      discounts_funded_gbp: pounds(early.discount - back.discount),
      net_gbp: pounds(early.protection - back.protection - (early.discount - back.discount)),
    });
    // A negative amount is a number, not text with a quote before it.
    expect(record(today)!.buyer_protection_net_gbp).toMatch(/^-\d+\.\d\d$/);
    expect(record('total')).toMatchObject({
      orders_paid: '2',
      net_gbp: pounds(early.protection - early.discount),
    });
  });

  it('records the export against the request it was made in, as staff procedures do', async () => {
    const response = await download('listings.csv', `from=${today}&to=${today}`, admin.accessToken);
    expect(response.status).toBe(200);
    const row = await db
      .selectFrom('audit_log')
      .selectAll()
      .where('request_id', '=', String(response.headers['x-request-id']))
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ action: 'export.listings', actor_email: 'admin@exports.test' });
  });

  it('an order of several books: one orders row listing them, one order_items row per book', async () => {
    const basket = await paidBasketOrder(
      t,
      [
        { price: 349, title: 'Export basket one' },
        { price: 549, title: 'Export basket two' },
        { price: 550, title: 'Export basket three' },
      ],
      { tiers: [[3, 10]] },
    );
    const [header, ...rows] = parse(
      (await download('orders.csv', `from=${today}&to=${today}`, moderator.accessToken)).text,
    );
    const mine = rows
      .map((row) => Object.fromEntries(header!.map((name, index) => [name, row[index]])))
      .filter((row) => row.reference === basket.reference);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({
      title: 'Export basket one; Export basket two; Export basket three',
      books: '3',
      item_price_gbp: '14.48',
      bundle_discount_gbp: '1.45',
      total_gbp: (basket.totalMinor / 100).toFixed(2),
    });
    const itemsCsv = await download('order_items.csv', `from=${today}&to=${today}`, moderator.accessToken);
    expect(itemsCsv.status, itemsCsv.text).toBe(200);
    const [itemHeader, ...itemRows] = parse(itemsCsv.text);
    const items = itemRows
      .map((row) => Object.fromEntries(itemHeader!.map((name, index) => [name, row[index]])))
      .filter((row) => row.order_reference === basket.reference)
      .sort((a, b) => Number(a.position) - Number(b.position));
    expect(items.map((row) => [row.position, row.title, row.price_gbp])).toEqual([
      ['1', 'Export basket one', '3.49'],
      ['2', 'Export basket two', '5.49'],
      ['3', 'Export basket three', '5.50'],
    ]);
    // The books' paid shares add up to the order's total less its postage.
    const placed = await db
      .selectFrom('orders')
      .selectAll()
      .where('id', '=', basket.orderId)
      .executeTakeFirstOrThrow();
    const paidPence = items.reduce((sum, row) => sum + Math.round(Number(row.paid_gbp) * 100), 0);
    expect(paidPence).toBe(placed.total_minor - placed.postage_minor);
    // The one-book order of this suite is one row each way, as before.
    expect(itemRows.some((row) => row[itemHeader!.indexOf('order_reference')] === order.reference)).toBe(
      true,
    );
  });
});
