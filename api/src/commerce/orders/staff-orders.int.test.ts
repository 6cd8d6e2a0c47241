/** /admin/orders and /admin/payments: staff search; admins refund in full or in part, audited. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/index.ts';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { createUser, type TestUser } from '../../testing/auth.ts';
import { api, refusal, statusOf } from '../../testing/client.ts';
import { completedOrder, paidOrder } from '../../testing/orders.ts';
import { listPayouts } from './order-views.ts';

let t: TestApp;
let db: Database;
let admin: TestUser;
let moderator: TestUser;
let order: Awaited<ReturnType<typeof paidOrder>>;

beforeAll(async () => {
  t = await createTestApp();
  db = t.database.handle.db;
  admin = await createUser(db, t.services.identity, 'admin@orders-staff.test', { roles: ['admin'] });
  moderator = await createUser(db, t.services.identity, 'moderator@orders-staff.test', {
    roles: ['moderator'],
  });
  order = await paidOrder(t, 1000);
});

afterAll(async () => {
  await t.close();
});

describe('staff orders and payments', () => {
  it('staff find orders and payments by reference, email and status; others may not', async () => {
    const as = api(t.app, moderator.accessToken);
    const byRef = await as.commerce.orders.staff.search.query({ q: order.reference.toLowerCase() });
    expect(byRef).toEqual([
      expect.objectContaining({
        id: order.orderId,
        status: 'paid',
        buyerEmail: order.buyer.email,
        refundedMinor: 0,
      }),
    ]);
    expect((await as.commerce.orders.staff.search.query({ q: order.seller.email })).map((r) => r.id)).toEqual(
      [order.orderId],
    );
    expect(await as.commerce.orders.staff.search.query({ q: order.reference, status: 'refunded' })).toEqual(
      [],
    );
    const payments = await as.commerce.orders.staff.payments.query({
      q: order.buyer.email,
      status: 'succeeded',
    });
    expect(payments).toEqual([
      expect.objectContaining({ orderId: order.orderId, amountMinor: order.totalMinor, refundedMinor: 0 }),
    ]);
    expect(await statusOf(api(t.app, admin.accessToken).commerce.orders.staff.search.query({}))).toBe(200);
    expect(await statusOf(api(t.app).commerce.orders.staff.search.query({}))).toBe(401);
  });

  it('moderators cannot refund', async () => {
    expect(
      await refusal(
        api(t.app, moderator.accessToken).commerce.orders.staff.refund.mutate({
          orderId: order.orderId,
          amountMinor: 'full',
          reason: 'Goodwill',
        }),
      ),
    ).toEqual({ status: 403, message: 'Access denied: admin role required' });
  });

  it('a partial refund goes through the payment port; the order keeps its state; the log records it', async () => {
    const as = api(t.app, admin.accessToken);
    expect(
      await refusal(
        as.commerce.orders.staff.refund.mutate({
          orderId: order.orderId,
          amountMinor: 100_000,
          reason: 'Too much',
        }),
      ),
    ).toEqual({
      status: 400,
      message: `At most £${(order.totalMinor / 100).toFixed(2)} can still be refunded on this order.`,
    });
    const partial = await as.commerce.orders.staff.refund.mutate({
      orderId: order.orderId,
      amountMinor: 250,
      reason: 'Cover was creased',
    });
    expect(partial).toEqual({ refundedMinor: 250, status: 'paid', sellerDeductedMinor: 250 });
    const payment = await db
      .selectFrom('payments')
      .selectAll()
      .where('id', '=', order.paymentId)
      .executeTakeFirstOrThrow();
    expect(payment.refunded_minor).toBe(250);
    const refund = await db
      .selectFrom('refunds')
      .selectAll()
      .where('order_id', '=', order.orderId)
      .executeTakeFirstOrThrow();
    expect(refund).toMatchObject({ amount_minor: 250, buyer_protection_minor: 0, created_by: admin.id });
    expect(refund.provider_ref).toMatch(/^tr_/);
    const events = (await as.commerce.orders.staff.order.query({ orderId: order.orderId })).events;
    expect(events.at(-1)).toMatchObject({
      note: 'Partial refund of £2.50 (£2.50 from the seller’s payout): Cover was creased',
    });
    // The seller's part comes out of their payout, still held until the order completes.
    const payout = await db
      .selectFrom('payouts')
      .select(['status', 'amount_minor', 'reversed_minor'])
      .where('order_id', '=', order.orderId)
      .executeTakeFirstOrThrow();
    expect(payout).toMatchObject({ status: 'held', reversed_minor: 250 });
    const sellerView = await listPayouts(db, order.seller.id);
    expect(sellerView.heldMinor).toBe(payout.amount_minor - 250);
  });

  it('a full refund returns the rest, protection included: the order is refunded and the payout cancelled', async () => {
    const as = api(t.app, admin.accessToken);
    const full = await as.commerce.orders.staff.refund.mutate({
      orderId: order.orderId,
      amountMinor: 'full',
      reason: 'Lost in post',
    });
    const before = await db
      .selectFrom('payouts')
      .select(['amount_minor', 'reversed_minor'])
      .where('order_id', '=', order.orderId)
      .executeTakeFirstOrThrow();
    expect(full).toEqual({
      refundedMinor: order.totalMinor,
      status: 'refunded',
      sellerDeductedMinor: before.amount_minor - before.reversed_minor,
    });
    const refunds = await db
      .selectFrom('refunds')
      .selectAll()
      .where('order_id', '=', order.orderId)
      .orderBy('created_at')
      .execute();
    const protection = await db
      .selectFrom('orders')
      .select('buyer_protection_minor')
      .where('id', '=', order.orderId)
      .executeTakeFirstOrThrow();
    expect(refunds.map((r) => r.buyer_protection_minor)).toEqual([0, protection.buyer_protection_minor]);
    const payout = await db
      .selectFrom('payouts')
      .select('status')
      .where('order_id', '=', order.orderId)
      .executeTakeFirst();
    expect(payout?.status).toBe('cancelled');
    const audit = await db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'order.refund')
      .orderBy('id')
      .execute();
    expect(audit.map((row) => (row.details as { full: boolean }).full)).toEqual([false, true]);
    expect(audit[1]).toMatchObject({ actor_email: admin.email, target_id: order.orderId });
    expect(
      await refusal(
        as.commerce.orders.staff.refund.mutate({
          orderId: order.orderId,
          amountMinor: 'full',
          reason: 'Again',
        }),
      ),
    ).toEqual({ status: 409, message: 'This order is already refunded: nothing is left to refund.' });
  });

  it('a refund after completion takes the released payout back from the seller, and both are emailed', async () => {
    const done = await completedOrder(t, 1200);
    const payoutOf = () =>
      db
        .selectFrom('payouts')
        .select(['status', 'amount_minor', 'reversed_minor', 'reversed_at'])
        .where('order_id', '=', done.orderId)
        .executeTakeFirstOrThrow();
    expect((await payoutOf()).status).toBe('released');
    const as = api(t.app, admin.accessToken);
    const part = await as.commerce.orders.staff.refund.mutate({
      orderId: done.orderId,
      amountMinor: 300,
      reason: 'Water damage',
    });
    expect(part).toMatchObject({ status: 'completed', sellerDeductedMinor: 300 });
    expect(await payoutOf()).toMatchObject({ status: 'released', reversed_minor: 300 });

    const rest = await as.commerce.orders.staff.refund.mutate({
      orderId: done.orderId,
      amountMinor: 'full',
      reason: 'Unreadable',
    });
    const payout = await payoutOf();
    expect(rest).toMatchObject({ status: 'refunded', sellerDeductedMinor: payout.amount_minor - 300 });
    expect(payout).toMatchObject({ status: 'released', reversed_minor: payout.amount_minor });
    expect(payout.reversed_at).not.toBeNull();

    const ledger = await listPayouts(db, done.seller.id);
    expect(ledger.items.find((item) => item.orderId === done.orderId)).toMatchObject({
      status: 'released',
      reversedMinor: payout.amount_minor,
    });
    expect(ledger.releasedMinor).toBe(0);

    const mail = await db
      .selectFrom('email_outbox')
      .select(['to_address', 'subject', 'text_body'])
      .where('template', 'in', ['order.staff_refund', 'order.staff_refund_seller'])
      .where('to_address', 'in', [done.buyer.email, done.seller.email])
      .orderBy('created_at')
      .execute();
    expect(mail.map((m) => [m.to_address, m.subject])).toEqual([
      [done.buyer.email, expect.stringMatching(/^Refund of £3\.00: /)],
      [done.seller.email, `Refund on ${done.reference}: £3.00 from your payout`],
      [done.buyer.email, expect.stringMatching(/^Refund of £\d+\.\d\d: /)],
      [
        done.seller.email,
        expect.stringMatching(new RegExp(`^Refund on ${done.reference}: £\\d+\\.\\d\\d from your payout$`)),
      ],
    ]);
    expect(mail[0]!.text_body).toContain('Why: Water damage');
  });
});
