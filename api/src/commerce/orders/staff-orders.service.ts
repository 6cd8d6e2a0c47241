/**
 * Orders and payments for staff (/admin/orders, /admin/payments): search by reference, buyer
 * or seller email and status; refund an order in full or in part through the refund command
 * (refunds/refund.ts), admins only, audited in the refund's transaction; a full refund moves the
 * order through the orders state machine (orders/order-machine.ts). The payments search
 * (/admin/payments) is in the money module, refunds/payments.service.ts, re-exported here.
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
import { booksTitle } from '@reshelf/contracts';
import { sql, type Transaction } from 'kysely';
import type { DB } from '../../db/database.generated.ts';
import type { Database } from '../../db/index.ts';
import { escapeLike } from '../../db/search.ts';
import { AppError } from '../../errors.ts';
import { recordAudit } from '../../platform/audit/audit.service.ts';
import type { PaymentProvider } from '../../platform/payments/port.ts';
import { refund, refundedOnOrder } from '../money/refund.ts';
import { lockOrderRow, noteOnOrder, transition } from './order-machine.ts';
import { type OrderMailDeps, queueStaffRefundMail } from './order-mail.ts';

// The payments ledger lives with the money, in the refunds feature (decision 0038).
export { PAYMENT_STATUSES, type StaffPaymentRow, searchPayments } from '../payments/payments.service.ts';
export { ORDER_STATUSES } from './order-machine.ts';

export interface StaffOrderBook {
  /** The order item. */
  id: string;
  title: string;
  priceMinor: number;
  /** What the buyer paid for it, postage aside (price − discount shares + protection share). */
  paidMinor: number;
  refundedMinor: number;
}

export interface StaffOrderRow {
  id: string;
  reference: string;
  status: string;
  title: string | null;
  bookCount: number;
  books: StaffOrderBook[];
  buyerEmail: string | null;
  sellerEmail: string | null;
  totalMinor: number;
  refundedMinor: number;
  createdAt: string;
}

export async function searchOrders(
  db: Database,
  filter: { q?: string; status?: string; limit: number },
): Promise<StaffOrderRow[]> {
  let query = db
    .selectFrom('orders as o')
    .leftJoin('auth.users as bu', 'bu.id', 'o.buyer_id')
    .leftJoin('auth.users as su', 'su.id', 'o.seller_id')
    .select([
      'o.id',
      'o.reference',
      'o.status',
      // Every book of the order, first first.
      sql<StaffOrderBook[]>`coalesce((
        select json_agg(json_build_object(
                 'id', i.order_item_id, 'title', b.title, 'priceMinor', i.price_minor,
                 'paidMinor', i.paid_minor, 'refundedMinor', i.refunded_minor) order by i.position)
        from public.order_item_money i
        join public.listings l on l.id = i.listing_id join public.books b on b.id = l.book_id
        where i.order_id = o.id), '[]'::json)`.as('books'),
      'bu.email as buyer_email',
      'su.email as seller_email',
      'o.total_minor',
      'o.created_at',
      sql<number>`(select m.refunded_minor from public.order_money m where m.order_id = o.id)`.as(
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
        // Any of the order's books by title.
        eb.exists(
          eb
            .selectFrom('order_items as i')
            .innerJoin('listings as l', 'l.id', 'i.listing_id')
            .innerJoin('books as b', 'b.id', 'l.book_id')
            .select('i.id')
            .whereRef('i.order_id', '=', 'o.id')
            .where('b.title', 'ilike', pattern),
        ),
      ]),
    );
  }
  if (filter.status) query = query.where('o.status', '=', filter.status);
  const rows = await query.orderBy('o.created_at', 'desc').orderBy('o.id').limit(filter.limit).execute();
  return rows.map((row) => ({
    id: row.id,
    reference: row.reference,
    status: row.status,
    title: row.books.length === 0 ? null : booksTitle(row.books.map((book) => book.title)),
    bookCount: row.books.length,
    books: row.books,
    buyerEmail: row.buyer_email ?? null,
    sellerEmail: row.seller_email ?? null,
    totalMinor: row.total_minor,
    refundedMinor: row.refunded_minor,
    createdAt: row.created_at.toISOString(),
  }));
}

const CLOSED = ['pending_payment', 'cancelled', 'refunded'];

export async function refundOrder(
  deps: { db: Database; payments: PaymentProvider; mail?: OrderMailDeps },
  staffId: string,
  input: {
    orderId: string;
    amountMinor: number | 'full' | 'items';
    itemIds?: string[] | undefined;
    reason: string;
  },
): Promise<{ refundedMinor: number; status: string; sellerDeductedMinor: number }> {
  const result = await deps.db.transaction().execute(async (trx: Transaction<DB>) => {
    const order = await lockOrderRow(trx, input.orderId);
    if (!order) throw new AppError('NOT_FOUND', 'There is no such order. Search again.');
    if (CLOSED.includes(order.status)) {
      throw new AppError(
        'CONFLICT',
        order.status === 'pending_payment'
          ? 'This order has not been paid, so there is nothing to refund.'
          : `This order is already ${order.status}: nothing is left to refund.`,
      );
    }
    const actor = { id: staffId, kind: 'staff' as const };
    // The refund command: the payment port, the ledger and the seller's payout (decision 0022).
    const {
      refundId,
      amountMinor: amount,
      full,
      sellerDeductedMinor,
    } = await refund(
      trx,
      deps.payments,
      order,
      input.amountMinor === 'items' ? { items: input.itemIds ?? [] } : input.amountMinor,
      input.reason,
      actor,
      {
        noPayment: 'This order has no completed payment, so there is nothing to refund.',
      },
    );
    const pounds = (pence: number) => `£${(pence / 100).toFixed(2)}`;
    const money = pounds(amount);
    const fromSeller = sellerDeductedMinor
      ? ` (${pounds(sellerDeductedMinor)} from the seller’s payout)`
      : '';
    let status = order.status;
    if (full) {
      ({
        order: { status },
      } = await transition(
        trx,
        order,
        'refunded',
        actor,
        `Refunded ${money} by staff${fromSeller}: ${input.reason}`,
      ));
    } else {
      await noteOnOrder(trx, order.id, actor, `Partial refund of ${money}${fromSeller}: ${input.reason}`);
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
    if (deps.mail) {
      await queueStaffRefundMail(trx, deps.mail, order.id, {
        amountMinor: amount,
        full,
        reason: input.reason,
        sellerDeductedMinor,
      });
    }
    return { refundedMinor: await refundedOnOrder(trx, order.id), status, sellerDeductedMinor };
  });
  return {
    refundedMinor: result.refundedMinor,
    status: result.status,
    sellerDeductedMinor: result.sellerDeductedMinor,
  };
}
