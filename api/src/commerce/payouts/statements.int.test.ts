/**
 * The seller's monthly statement: the month's sales, refunds, transfers, reversals
 * and payouts from the ledger, signed as the seller sees them, with totals and as CSV; only the
 * seller's own, only that month.
 */
import { STATEMENT_CSV_COLUMNS } from '@reshelf/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/index.ts';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { createUser, TEST_PASSWORD } from '../../testing/auth.ts';
import { api, failure, statusOf } from '../../testing/client.ts';
import { paidOrder } from '../../testing/orders.ts';

let t: TestApp;
let db: Database;

beforeAll(async () => {
  t = await createTestApp();
  db = t.database.handle.db;
});

afterAll(async () => {
  await t.close();
});

const thisMonth = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'Europe/London',
  year: 'numeric',
  month: '2-digit',
})
  .format(new Date())
  .slice(0, 7);

async function signIn(email: string) {
  await t.services.identity.ensureUser({ email, password: TEST_PASSWORD, displayName: 'Member' });
  return t.services.identity.signIn(email, TEST_PASSWORD, {});
}

describe('monthly statement', () => {
  it('lists the month’s sale, transfer, reversal after a refund, and a failed payout, with totals and CSV', async () => {
    const order = await paidOrder(t, 1500, 'Statement book');
    const payout = await db
      .updateTable('payouts')
      .set({ status: 'released', released_at: new Date() })
      .where('order_id', '=', order.orderId)
      .returning(['id', 'amount_minor'])
      .executeTakeFirstOrThrow();
    const transfer = await db
      .insertInto('transfers')
      .values({
        payout_id: payout.id,
        order_id: order.orderId,
        seller_id: order.seller.id,
        payment_id: order.paymentId,
        provider: 'test',
        destination_account_id: 'acct_statement',
        amount_minor: payout.amount_minor,
        idempotency_key: `statement-${order.orderId}`,
        provider_ref: 'tr_statement',
        status: 'paid',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    // A refund of £5 after release: taken from the seller's payout and reversed from the transfer.
    await db.updateTable('payouts').set({ reversed_minor: 500 }).where('id', '=', payout.id).execute();
    await db
      .insertInto('transfer_reversals')
      .values({ transfer_id: transfer.id, amount_minor: 500, idempotency_key: `reversal-${transfer.id}` })
      .execute();
    const bank = await db
      .insertInto('provider_payouts')
      .values({
        seller_id: order.seller.id,
        provider: 'test',
        account_id: 'acct_statement',
        amount_minor: payout.amount_minor - 500,
        idempotency_key: `payout-${transfer.id}`,
        status: 'pending',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .updateTable('provider_payouts')
      .set({
        status: 'failed',
        failure_code: 'account_closed',
        failure_message: 'The bank account is closed',
      })
      .where('id', '=', bank.id)
      .execute();

    const session = await signIn(order.seller.email);
    const me = api(t.app, session.accessToken).commerce.payouts.statements;
    const statement = await me.month.query({ month: thisMonth });
    const net = payout.amount_minor;
    expect(statement.entries.map((entry) => [entry.kind, entry.amountMinor])).toEqual([
      ['seller_credit', net],
      ['transfer', net],
      ['seller_debit', -500],
      ['transfer_reversal', -500],
      ['payout', net - 500],
      ['payout_failed', -(net - 500)],
    ]);
    expect(statement.entries[0]).toMatchObject({ label: 'Sale', reference: order.reference });
    expect(statement.entries[0]!.title).toContain('Statement book');
    expect(statement.entries[3]!.label).toBe('Reversal');
    expect(statement.entries[5]!.memo).toBe('The bank account is closed');
    expect(statement.totals).toEqual({
      earnedMinor: net,
      refundedMinor: 500,
      transferredMinor: net,
      reversedMinor: 500,
      paidOutMinor: net - 500,
      failedMinor: net - 500,
    });
    expect(statement.months).toEqual([thisMonth]);

    const csv = await me.csv.query({ month: thisMonth });
    expect(csv.filename).toBe(`reshelf-statement-${thisMonth}.csv`);
    const lines = csv.csv.trim().split('\r\n');
    expect(lines[0]).toBe(STATEMENT_CSV_COLUMNS.join(','));
    expect(lines).toHaveLength(7);
    expect(lines[4]).toContain(`Reversal,${order.reference}`);
    expect(lines[4]).toMatch(/,-5\.00,$/);

    // Another month is empty; the buyer sees nothing of the seller's.
    const other = await me.month.query({ month: '2020-01' });
    expect(other.entries).toEqual([]);
    expect(other.label).toBe('January 2020');
    const buyer = await signIn(order.buyer.email);
    const theirs = await api(t.app, buyer.accessToken).commerce.payouts.statements.month.query({
      month: thisMonth,
    });
    expect(theirs.entries).toEqual([]);
  });

  it('needs a signed-in member and a month as YYYY-MM', async () => {
    expect(await statusOf(api(t.app).commerce.payouts.statements.month.query({ month: thisMonth }))).toBe(
      401,
    );
    const member = await createUser(db, t.services.identity, 'member@statements.test');
    const bad = await failure(
      api(t.app, member.accessToken).commerce.payouts.statements.month.query({ month: '2026-13' }),
    );
    expect(bad.message).toContain('Choose a month as YYYY-MM');
  });
});
