/**
 * Money out for staff: transfers and payouts searched by seller, state and period;
 * a failed one retried; a seller's payouts held and released with a reason, audited; the
 * reconciliation with imbalances first.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/index.ts';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { createUser, type TestUser } from '../../testing/auth.ts';
import { api, failure, statusOf } from '../../testing/client.ts';
import { paidOrder } from '../../testing/orders.ts';

let t: TestApp;
let db: Database;
let admin: TestUser;
let moderator: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  db = t.database.handle.db;
  admin = await createUser(db, t.services.identity, 'admin@staff-payouts.test', { roles: ['admin'] });
  moderator = await createUser(db, t.services.identity, 'moderator@staff-payouts.test', {
    roles: ['moderator'],
  });
});

afterAll(async () => {
  await t.close();
});

let n = 0;
/** A paid order whose payout was released and transferred (status as given), made at `createdAt`. */
async function transferred(status: 'paid' | 'failed' | 'pending', createdAt = new Date()) {
  n += 1;
  const order = await paidOrder(t, 1000 + n, `Payout book ${n}`);
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
      destination_account_id: `acct_test_${n}`,
      amount_minor: payout.amount_minor,
      idempotency_key: `transfer-test-${order.orderId}`,
      provider_ref: status === 'paid' ? `tr_test_${n}` : null,
      status,
      failure_reason: status === 'failed' ? 'The destination account cannot receive transfers' : null,
      created_at: createdAt,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { ...order, transferId: transfer.id, payoutId: payout.id, amountMinor: payout.amount_minor };
}

describe('staff payouts', () => {
  it('is for staff; holding, releasing and retrying for admins', async () => {
    expect(await statusOf(api(t.app).commerce.payouts.staff.search.query({ kind: 'transfers' }))).toBe(401);
    const member = await createUser(db, t.services.identity, 'member@staff-payouts.test');
    expect(
      await statusOf(
        api(t.app, member.accessToken).commerce.payouts.staff.search.query({ kind: 'transfers' }),
      ),
    ).toBe(403);
    expect(await statusOf(api(t.app, moderator.accessToken).commerce.payouts.staff.holds.query())).toBe(200);
    expect(
      await statusOf(
        api(t.app, moderator.accessToken).commerce.payouts.staff.hold.mutate({
          seller: member.email,
          reason: 'Checking',
        }),
      ),
    ).toBe(403);
  });

  it('finds transfers and payouts by seller, state and period', async () => {
    const old = await transferred('paid', new Date(Date.UTC(2026, 0, 10, 12)));
    const failed = await transferred('failed');
    const staff = api(t.app, moderator.accessToken).commerce.payouts.staff;

    const bySeller = await staff.search.query({ kind: 'transfers', seller: failed.seller.email });
    expect(bySeller.map((row) => row.id)).toEqual([failed.transferId]);
    expect(bySeller[0]).toMatchObject({
      kind: 'transfer',
      orderId: failed.orderId,
      reference: failed.reference,
      amountMinor: failed.amountMinor,
      status: 'failed',
      failure: 'The destination account cannot receive transfers',
      retryable: true,
    });
    const byState = await staff.search.query({ kind: 'transfers', status: 'failed', limit: 200 });
    expect(byState.map((row) => row.id)).toContain(failed.transferId);
    expect(byState.map((row) => row.id)).not.toContain(old.transferId);
    const january = await staff.search.query({ kind: 'transfers', from: '2026-01-10', to: '2026-01-10' });
    expect(january.map((row) => row.id)).toEqual([old.transferId]);
    const byReference = await staff.search.query({ kind: 'transfers', seller: old.reference });
    expect(byReference.map((row) => row.id)).toEqual([old.transferId]);

    const payout = await db
      .insertInto('provider_payouts')
      .values({
        seller_id: old.seller.id,
        provider: 'test',
        account_id: 'acct_test_old',
        amount_minor: old.amountMinor,
        idempotency_key: `payout-test-${old.orderId}`,
        status: 'failed',
        failure_code: 'account_closed',
        failure_message: 'The bank account has been closed',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const payouts = await staff.search.query({ kind: 'payouts', seller: old.seller.email, status: 'failed' });
    expect(payouts).toEqual([
      expect.objectContaining({
        id: payout.id,
        kind: 'payout',
        failure: 'account_closed: The bank account has been closed',
        retryable: true,
      }),
    ]);

    const backwards = await failure(
      staff.search.query({ kind: 'payouts', from: '2026-02-01', to: '2026-01-01' }),
    );
    expect(backwards.message).toContain('start is after its end');
    const badDay = await failure(staff.search.query({ kind: 'payouts', from: '1 Jan' }));
    expect(badDay.message).toContain('YYYY-MM-DD');
  });

  it('retries a failed transfer (audited) and refuses one that has not failed', async () => {
    const failed = await transferred('failed');
    const paid = await transferred('paid');
    const staff = api(t.app, admin.accessToken).commerce.payouts.staff;
    const refused = await failure(staff.retry.mutate({ kind: 'transfer', id: paid.transferId }));
    expect(refused.message).toBe('Only a failed transfer can be retried; this one is paid.');

    const report = await staff.retry.mutate({ kind: 'transfer', id: failed.transferId });
    expect(report.sellerId).toBe(failed.seller.id);
    // The seller has no payout account yet: the transfer waits to be made, no longer failed.
    const after = await db
      .selectFrom('transfers')
      .select(['status', 'attempts'])
      .where('id', '=', failed.transferId)
      .executeTakeFirstOrThrow();
    expect(after).toEqual({ status: 'pending', attempts: 0 });
    const audit = await db
      .selectFrom('audit_log')
      .select(['action', 'target_id', 'actor_id'])
      .where('action', '=', 'payouts.retry_transfer')
      .execute();
    expect(audit).toEqual([
      { action: 'payouts.retry_transfer', target_id: failed.transferId, actor_id: admin.id },
    ]);
  });

  it('holds and releases a seller’s payouts with a reason, audited; a reporting hold is listed too', async () => {
    const order = await transferred('paid');
    const staff = api(t.app, admin.accessToken).commerce.payouts.staff;
    const short = await failure(staff.hold.mutate({ seller: order.seller.email, reason: 'no' }));
    expect(short.message).toContain('Write the reason for holding their payouts');
    const unknown = await failure(
      staff.hold.mutate({ seller: 'nobody@nowhere.test', reason: 'Fraud check' }),
    );
    expect(unknown.message).toContain('There is no member nobody@nowhere.test');

    const hold = await staff.hold.mutate({ seller: order.seller.email.toUpperCase(), reason: 'Fraud check' });
    expect(hold).toMatchObject({
      sellerId: order.seller.id,
      kind: 'staff',
      reason: 'Fraud check',
      createdByEmail: admin.email,
    });
    const twice = await failure(staff.hold.mutate({ seller: order.seller.email, reason: 'Again' }));
    expect(twice.message).toContain('already held by staff');
    await db
      .insertInto('payout_holds')
      .values({ seller_id: order.seller.id, kind: 'reporting', reason: 'HMRC details needed' })
      .execute();
    const holds = await staff.holds.query();
    expect(holds.filter((row) => row.sellerId === order.seller.id).map((row) => row.kind)).toEqual([
      'reporting',
      'staff',
    ]);

    const released = await staff.release.mutate({ holdId: hold.id, reason: 'Checked: all fine' });
    expect(released).toEqual({ released: true, stillHeld: true });
    const row = await db
      .selectFrom('payout_holds')
      .select(['released_by', 'release_reason'])
      .where('id', '=', hold.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ released_by: admin.id, release_reason: 'Checked: all fine' });
    const again = await failure(staff.release.mutate({ holdId: hold.id, reason: 'Checked again' }));
    expect(again.message).toContain('already released');
    const audit = await db
      .selectFrom('audit_log')
      .select(['action', 'target_id'])
      .where('target_id', '=', order.seller.id)
      .orderBy('created_at')
      .execute();
    expect(audit.map((entry) => entry.action)).toEqual(['payouts.hold', 'payouts.release_hold']);
  });

  it('reconciles every order, imbalances at the top', async () => {
    const order = await transferred('paid');
    const staff = api(t.app, moderator.accessToken).commerce.payouts.staff;
    const before = await staff.reconciliation.query({});
    const mine = before.rows.find((row) => row.orderId === order.orderId);
    expect(mine).toMatchObject({ imbalanceMinor: 0, problems: [] });
    await db
      .insertInto('ledger_entries')
      .values({
        kind: 'fee',
        amount_minor: 7,
        order_id: order.orderId,
        entry_key: `test-extra-fee-${order.orderId}`,
      })
      .execute();
    const after = await staff.reconciliation.query({});
    expect(after.imbalances).toBe(before.imbalances + 1);
    expect(after.rows[0]!.orderId).toBe(order.orderId);
    expect(after.rows[0]!.imbalanceMinor).toBe(-7);
    expect(after.rows[0]!.problems.join(' ')).toContain('does not balance');
    const only = await staff.reconciliation.query({ problemsOnly: true });
    expect(only.rows.every((row) => row.problems.length > 0)).toBe(true);
  });
});
