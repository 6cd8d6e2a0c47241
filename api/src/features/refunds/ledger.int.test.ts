/**
 * The ledger balances over the whole demo seed (issue 24): for every order, paid in = seller net
 * + Reshelf fee + refunds, to the penny, in the ledger and in the tables it is written from.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/index.ts';
import { runDemoSeed } from '../../seed/demo.ts';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { reconciliation } from './ledger.ts';

let t: TestApp;
let db: Database;

beforeAll(async () => {
  t = await createTestApp({ referenceData: false });
  db = t.database.handle.db;
  await runDemoSeed(db, t.services);
});

afterAll(async () => {
  await t.close();
});

describe('the ledger over the demo seed', () => {
  it('balances every order to the penny', async () => {
    const result = await reconciliation(db);
    const orders = await db
      .selectFrom('payments')
      .select(sql<number>`count(distinct order_id)::int`.as('n'))
      .where('status', '=', 'succeeded')
      .executeTakeFirstOrThrow();
    // The seed has paid orders, refunded ones and released ones: the check covers them all.
    expect(orders.n).toBeGreaterThan(5);
    expect(result.orders).toBeGreaterThanOrEqual(orders.n);
    expect(result.rows.filter((row) => row.problems.length > 0)).toEqual([]);
    expect(result.imbalances).toBe(0);
    // Every seeded payment and sale is in the ledger.
    const kinds = await db.selectFrom('ledger_entries').select('kind').distinct().execute();
    expect(kinds.map((row) => row.kind)).toEqual(expect.arrayContaining(['fee', 'payment', 'seller_credit']));
  });

  it('finds an order that does not balance, and puts it first', async () => {
    const victim = await db
      .selectFrom('payouts')
      .select(['id', 'order_id'])
      .where('status', '=', 'released')
      .orderBy('created_at')
      .executeTakeFirstOrThrow();
    // A penny more for the seller than the sale left them, behind the ledger's back.
    await sql`alter table public.payouts disable trigger payouts_ledger`.execute(db);
    await db
      .updateTable('payouts')
      .set({ amount_minor: sql`amount_minor + 1` })
      .where('id', '=', victim.id)
      .execute();
    await sql`alter table public.payouts enable trigger payouts_ledger`.execute(db);
    const result = await reconciliation(db);
    expect(result.imbalances).toBe(1);
    expect(result.rows[0]).toMatchObject({ orderId: victim.order_id, imbalanceMinor: -1 });
    expect(result.rows[0]?.problems.join(' ')).toContain('off by −£0.01');
    expect((await reconciliation(db, { problemsOnly: true })).rows).toHaveLength(1);
  });
});
