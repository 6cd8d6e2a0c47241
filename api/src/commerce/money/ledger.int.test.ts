/**
 * The ledger balances over the whole demo seed: for every order, paid in = seller net
 * + Reshelf fee + refunds, to the penny, in the ledger and in the tables it is written from. The
 * seed's money out (seed/demo-money-out.ts) gives it a full refund before release, a partial
 * refund after release (a transfer reversal), a debt netted from the next payout and a failed
 * payout paid again, so the check covers refunds and reversals too.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/index.ts';
import { runDemoSeed } from '../../seed/demo.ts';
import { DEMO_MONEY_OUT, demoMoneyOutSlugs } from '../../seed/demo-money-out.ts';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { reconciliation } from './ledger.ts';

let t: TestApp;
let db: Database;

beforeAll(async () => {
  t = await createTestApp({ referenceData: false });
  db = t.database.handle.db;
  await runDemoSeed(db, t.services, { origin: t.config.siteOrigin });
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

  it('covers refunds and reversals: the seed refunds, reverses and retries through the app’s services', async () => {
    const slugs = demoMoneyOutSlugs();
    const sales = await db
      .selectFrom('orders as o')
      .innerJoin('order_items as first_item', (join) =>
        join.onRef('first_item.order_id', '=', 'o.id').on('first_item.position', '=', 1),
      )
      .innerJoin('listings as l', 'l.id', 'first_item.listing_id')
      .innerJoin('auth.users as s', 's.id', 'o.seller_id')
      .leftJoin('payouts as p', 'p.order_id', 'o.id')
      .leftJoin('transfers as t', 't.order_id', 'o.id')
      .select([
        'l.slug',
        's.email',
        'o.id',
        'o.status',
        'p.status as payout',
        'p.amount_minor as payout_minor',
        'p.reversed_minor',
        't.status as transfer',
        't.amount_minor as transferred',
        't.reversed_minor as transfer_reversed',
      ])
      .where('l.slug', 'in', Object.values(slugs))
      .execute();
    const sale = (key: keyof typeof slugs) => {
      const found = sales.find((row) => row.slug === slugs[key]);
      if (!found) throw new Error(`the seed has no ${key} sale (${slugs[key]})`);
      return found;
    };
    const refunds = await db
      .selectFrom('refunds as r')
      .innerJoin('auth.users as u', 'u.id', 'r.created_by')
      .select(['r.order_id', 'r.amount_minor', 'r.provider_ref', 'u.email'])
      .where(
        'r.order_id',
        'in',
        sales.map((row) => row.id),
      )
      .execute();

    // A full refund before release: the order is refunded, the held payout cancelled, nothing sent.
    const before = sale('refundedBeforeRelease');
    expect(before).toMatchObject({
      email: DEMO_MONEY_OUT.refundsSeller,
      status: 'refunded',
      payout: 'cancelled',
      transfer: null,
    });
    expect(refunds.filter((r) => r.order_id === before.id)).toEqual([
      expect.objectContaining({ email: DEMO_MONEY_OUT.staff, provider_ref: expect.stringMatching(/^tr_/) }),
    ]);

    // A partial refund after release: taken back from the transfer already made (a reversal).
    const after = sale('reversedAfterRelease');
    const part = DEMO_MONEY_OUT.partialRefundMinor;
    expect(after).toMatchObject({ status: 'completed', payout: 'released', reversed_minor: part });
    expect(after).toMatchObject({ transfer: 'paid', transfer_reversed: part });
    expect(refunds.filter((r) => r.order_id === after.id).map((r) => r.amount_minor)).toEqual([part]);
    const reversals = await db
      .selectFrom('transfer_reversals as r')
      .innerJoin('transfers as t', 't.id', 'r.transfer_id')
      .select(['r.amount_minor', 'r.refund_id'])
      .where('t.order_id', '=', after.id)
      .execute();
    expect(reversals).toEqual([{ amount_minor: part, refund_id: expect.any(String) }]);

    // Paid out before that refund, the seller owed it back: their next payout was that much less.
    const next = sale('nettedFromNextPayout');
    expect(next).toMatchObject({ status: 'completed', transfer: 'paid' });
    // Each payout carries the transfers released before it (Tom's other demo sales too); the
    // second is that much less what he owed.
    const tomsPayouts = await db
      .selectFrom('provider_payouts as pp')
      .innerJoin('auth.users as u', 'u.id', 'pp.seller_id')
      .innerJoin('provider_payout_transfers as ppt', 'ppt.provider_payout_id', 'pp.id')
      .innerJoin('transfers as t', 't.id', 'ppt.transfer_id')
      .select((eb) => [
        'pp.amount_minor',
        'pp.status',
        eb.fn.agg<string[]>('array_agg', ['t.order_id']).as('orders'),
        eb.fn.sum<string>('ppt.amount_minor').as('carried'),
      ])
      .where('u.email', '=', DEMO_MONEY_OUT.refundsSeller)
      .groupBy(['pp.id', 'pp.amount_minor', 'pp.status', 'pp.created_at'])
      .orderBy('pp.created_at')
      .execute();
    expect(tomsPayouts).toHaveLength(2);
    const [first, second] = tomsPayouts;
    expect(first).toMatchObject({ status: 'paid', amount_minor: Number(first?.carried) });
    expect(first?.orders).toContain(after.id);
    expect(second).toMatchObject({ status: 'paid', amount_minor: Number(second?.carried) - part });
    expect(second?.orders).toContain(next.id);

    // A failed payout, back in the seller's balance, paid again once their bank details changed.
    const failed = sale('payoutFailedThenPaid');
    expect(failed).toMatchObject({ email: DEMO_MONEY_OUT.failedPayoutSeller, transfer: 'paid' });
    const priyasPayouts = await db
      .selectFrom('provider_payouts as pp')
      .innerJoin('auth.users as u', 'u.id', 'pp.seller_id')
      .innerJoin('provider_payout_transfers as ppt', 'ppt.provider_payout_id', 'pp.id')
      .innerJoin('transfers as t', 't.id', 'ppt.transfer_id')
      .select((eb) => [
        'pp.amount_minor',
        'pp.status',
        'pp.failure_code',
        eb.fn.agg<string[]>('array_agg', ['t.order_id']).as('orders'),
      ])
      .where('u.email', '=', DEMO_MONEY_OUT.failedPayoutSeller)
      .groupBy(['pp.id', 'pp.amount_minor', 'pp.status', 'pp.failure_code', 'pp.created_at'])
      .orderBy('pp.created_at')
      .execute();
    // The same money both times (her other demo sales with it).
    expect(priyasPayouts).toMatchObject([
      { status: 'failed', failure_code: 'account_closed' },
      { amount_minor: priyasPayouts[0]?.amount_minor, status: 'paid', failure_code: null },
    ]);
    expect(priyasPayouts[0]?.orders).toContain(failed.id);

    // Every kind of movement is in the ledger, and every one of these orders balances.
    const kinds = await db.selectFrom('ledger_entries').select('kind').distinct().execute();
    expect(kinds.map((row) => row.kind)).toEqual(
      expect.arrayContaining([
        'payment',
        'refund',
        'seller_credit',
        'seller_debit',
        'fee',
        'transfer',
        'transfer_reversal',
        'payout',
        'payout_failed',
      ]),
    );
    const result = await reconciliation(db);
    for (const row of sales) {
      expect(result.rows.find((r) => r.orderId === row.id)?.problems).toEqual([]);
    }
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
