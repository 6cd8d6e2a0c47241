/**
 * The payments ledger (/admin/payments): every payment attempt with its provider reference,
 * status, amount and how much of it was refunded, searched by order reference, buyer email or
 * provider reference. Beside the refund command (refund.ts) and the refunds ledger
 * (refunds.service.ts): the money module (decision 0038).
 */

import type { Database } from '../../db/index.ts';
import { escapeLike } from '../../db/search.ts';

export const PAYMENT_STATUSES = ['pending', 'succeeded', 'failed', 'abandoned'] as const;

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
