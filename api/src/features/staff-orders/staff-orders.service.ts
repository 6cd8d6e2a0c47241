/**
 * Orders and payments for staff (/admin/orders, /admin/payments): search by reference, buyer
 * or seller email and status; refund an order in full or in part through the payment port
 * (`refundPayment` of the checkout feature), admins only, audited in the refund's transaction.
 *
 * What a refund means for the order: the whole of what is left → the order is `refunded` and
 * the seller's held payout cancelled (as a dispute refund does); a part → the order keeps its
 * state and its timeline gets a note. Buyer protection counts as refunded (for revenue) only
 * with a full refund: a partial refund gives back the book's price or postage first.
 *
 * What it means for the seller (decision 0022): the refund comes out of their payout. A full
 * refund takes back all of it — a held payout is cancelled, a released one reversed (a debt
 * against the seller); a part takes back up to the part, held or released
 * (`payouts.reversed_minor`). Both people's emails are queued in the refund's transaction.
 */
import { sql, type Transaction } from 'kysely';
import type { DB } from '../../db/database.generated.ts';
import type { Database } from '../../db/index.ts';
import { escapeLike } from '../../db/search.ts';
import { AppError } from '../../errors.ts';
import type { PaymentProvider } from '../../platform/payments/port.ts';
import { recordAudit } from '../audit/audit.service.ts';
import { recordEvent, refundWithin } from '../checkout/checkout.service.ts';
import { type OrderMailDeps, queueStaffRefundMail } from '../orders/order-mail.ts';

export const ORDER_STATUSES = [
  'pending_payment',
  'paid',
  'dispatched',
  'delivered',
  'disputed',
  'completed',
  'cancelled',
  'refunded',
] as const;
export const PAYMENT_STATUSES = ['pending', 'succeeded', 'failed', 'abandoned'] as const;

export interface StaffOrderRow {
  id: string;
  reference: string;
  status: string;
  title: string | null;
  buyerEmail: string | null;
  sellerEmail: string | null;
  totalMinor: number;
  refundedMinor: number;
  createdAt: string;
}

export interface StaffPaymentRow {
  id: string;
  orderId: string;
  reference: string;
  provider: string;
  providerRef: string;
  status: string;
  amountMinor: number;
  refundedMinor: number;
  buyerEmail: string | null;
  createdAt: string;
}

export async function searchOrders(
  db: Database,
  filter: { q?: string; status?: string; limit: number },
): Promise<StaffOrderRow[]> {
  let query = db
    .selectFrom('orders as o')
    .leftJoin('listings as l', 'l.id', 'o.listing_id')
    .leftJoin('books as b', 'b.id', 'l.book_id')
    .leftJoin('auth.users as bu', 'bu.id', 'o.buyer_id')
    .leftJoin('auth.users as su', 'su.id', 'o.seller_id')
    .select([
      'o.id',
      'o.reference',
      'o.status',
      'b.title',
      'bu.email as buyer_email',
      'su.email as seller_email',
      'o.total_minor',
      'o.created_at',
      sql<number>`coalesce((select sum(r.amount_minor) from public.refunds r where r.order_id = o.id), 0)::int`.as(
        'refunded_minor',
      ),
    ]);
  if (filter.q) {
    const pattern = `%${escapeLike(filter.q)}%`;
    query = query.where((eb) =>
      eb.or([
        eb('o.reference', 'ilike', pattern),
        eb('bu.email', 'ilike', pattern),
        eb('su.email', 'ilike', pattern),
      ]),
    );
  }
  if (filter.status) query = query.where('o.status', '=', filter.status);
  const rows = await query.orderBy('o.created_at', 'desc').orderBy('o.id').limit(filter.limit).execute();
  return rows.map((row) => ({
    id: row.id,
    reference: row.reference,
    status: row.status,
    title: row.title,
    buyerEmail: row.buyer_email ?? null,
    sellerEmail: row.seller_email ?? null,
    totalMinor: row.total_minor,
    refundedMinor: row.refunded_minor,
    createdAt: row.created_at.toISOString(),
  }));
}

export async function searchPayments(
  db: Database,
  filter: { q?: string; status?: string; limit: number },
): Promise<StaffPaymentRow[]> {
  let query = db
    .selectFrom('payments as p')
    .innerJoin('orders as o', 'o.id', 'p.order_id')
    .leftJoin('auth.users as bu', 'bu.id', 'o.buyer_id')
    .select([
      'p.id',
      'p.order_id',
      'o.reference',
      'p.provider',
      'p.provider_ref',
      'p.status',
      'p.amount_minor',
      'p.refunded_minor',
      'bu.email as buyer_email',
      'p.created_at',
    ]);
  if (filter.q) {
    const pattern = `%${escapeLike(filter.q)}%`;
    query = query.where((eb) =>
      eb.or([
        eb('o.reference', 'ilike', pattern),
        eb('bu.email', 'ilike', pattern),
        eb('p.provider_ref', 'ilike', pattern),
      ]),
    );
  }
  if (filter.status) query = query.where('p.status', '=', filter.status);
  const rows = await query.orderBy('p.created_at', 'desc').orderBy('p.id').limit(filter.limit).execute();
  return rows.map((row) => ({
    id: row.id,
    orderId: row.order_id,
    reference: row.reference,
    provider: row.provider,
    providerRef: row.provider_ref,
    status: row.status,
    amountMinor: row.amount_minor,
    refundedMinor: row.refunded_minor,
    buyerEmail: row.buyer_email ?? null,
    createdAt: row.created_at.toISOString(),
  }));
}

const CLOSED = ['pending_payment', 'cancelled', 'refunded'];

/**
 * Takes the seller's part of a refund back from their payout, in the refund's transaction;
 * answers how much was taken.
 */
async function takeFromPayout(trx: Transaction<DB>, orderId: string, amount: number, full: boolean) {
  const payout = await trx
    .selectFrom('payouts')
    .select(['id', 'status', 'amount_minor', 'reversed_minor'])
    .where('order_id', '=', orderId)
    .forUpdate()
    .executeTakeFirst();
  if (!payout || payout.status === 'cancelled') return 0;
  const remaining = payout.amount_minor - payout.reversed_minor;
  const part = full ? remaining : Math.min(amount, remaining);
  if (part <= 0) return 0;
  if (full && payout.status === 'held') {
    await trx.updateTable('payouts').set({ status: 'cancelled' }).where('id', '=', payout.id).execute();
  } else {
    await trx
      .updateTable('payouts')
      .set({ reversed_minor: payout.reversed_minor + part, reversed_at: new Date() })
      .where('id', '=', payout.id)
      .execute();
  }
  return part;
}

export async function refundOrder(
  deps: { db: Database; payments: PaymentProvider; mail?: OrderMailDeps },
  staffId: string,
  input: { orderId: string; amountMinor: number | 'full'; reason: string },
): Promise<{ refundedMinor: number; status: string; sellerDeductedMinor: number }> {
  const result = await deps.db.transaction().execute(async (trx: Transaction<DB>) => {
    const order = await trx
      .selectFrom('orders')
      .select(['id', 'reference', 'status', 'buyer_protection_minor'])
      .where('id', '=', input.orderId)
      .forUpdate()
      .executeTakeFirst();
    if (!order) throw new AppError('NOT_FOUND', 'There is no such order. Search again.');
    if (CLOSED.includes(order.status)) {
      throw new AppError(
        'CONFLICT',
        order.status === 'pending_payment'
          ? 'This order has not been paid, so there is nothing to refund.'
          : `This order is already ${order.status}: nothing is left to refund.`,
      );
    }
    const payment = await trx
      .selectFrom('payments')
      .select(['id', 'amount_minor', 'refunded_minor'])
      .where('order_id', '=', order.id)
      .where('status', '=', 'succeeded')
      .orderBy('created_at', 'desc')
      .executeTakeFirst();
    if (!payment) {
      throw new AppError(
        'PRECONDITION_FAILED',
        'This order has no completed payment, so there is nothing to refund.',
      );
    }
    const left = payment.amount_minor - payment.refunded_minor;
    const amount = input.amountMinor === 'full' ? left : input.amountMinor;
    if (amount <= 0 || left <= 0) {
      throw new AppError('CONFLICT', 'Nothing is left to refund on this order.');
    }
    if (amount > left) {
      throw new AppError(
        'BAD_INPUT',
        `At most £${(left / 100).toFixed(2)} can still be refunded on this order.`,
      );
    }
    const full = amount === left;
    const protectionRefunded = await trx
      .selectFrom('refunds')
      .select(sql<number>`coalesce(sum(buyer_protection_minor), 0)::int`.as('total'))
      .where('order_id', '=', order.id)
      .executeTakeFirstOrThrow();
    const actor = { id: staffId, kind: 'staff' as const };
    const { refundId } = await refundWithin(trx, deps.payments, {
      orderId: order.id,
      paymentId: payment.id,
      amountMinor: amount,
      protectionMinor: full ? Math.max(0, order.buyer_protection_minor - protectionRefunded.total) : 0,
      reason: input.reason,
      actor,
    });
    const pounds = (pence: number) => `£${(pence / 100).toFixed(2)}`;
    const money = pounds(amount);
    const sellerDeductedMinor = await takeFromPayout(trx, order.id, amount, full);
    const fromSeller = sellerDeductedMinor
      ? ` (${pounds(sellerDeductedMinor)} from the seller’s payout)`
      : '';
    let status = order.status;
    if (full) {
      status = 'refunded';
      await trx
        .updateTable('orders')
        .set({ status, refunded_at: new Date(), updated_at: new Date() })
        .where('id', '=', order.id)
        .execute();
      await recordEvent(
        trx,
        order.id,
        order.status,
        status,
        actor,
        `Refunded ${money} by staff${fromSeller}: ${input.reason}`,
      );
    } else {
      await recordEvent(
        trx,
        order.id,
        order.status,
        order.status,
        actor,
        `Partial refund of ${money}${fromSeller}: ${input.reason}`,
      );
    }
    await recordAudit(trx, {
      actorId: staffId,
      action: 'order.refund',
      targetType: 'order',
      targetId: order.id,
      details: {
        reference: order.reference,
        amountMinor: amount,
        full,
        reason: input.reason,
        refundId,
        sellerDeductedMinor,
      },
    });
    const total = await trx
      .selectFrom('refunds')
      .select(sql<number>`coalesce(sum(amount_minor), 0)::int`.as('total'))
      .where('order_id', '=', order.id)
      .executeTakeFirstOrThrow();
    if (deps.mail) {
      await queueStaffRefundMail(trx, deps.mail, order.id, {
        amountMinor: amount,
        full,
        reason: input.reason,
        sellerDeductedMinor,
      });
    }
    return { refundedMinor: total.total, status, sellerDeductedMinor };
  });
  return {
    refundedMinor: result.refundedMinor,
    status: result.status,
    sellerDeductedMinor: result.sellerDeductedMinor,
  };
}
