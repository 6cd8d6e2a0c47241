/**
 * /admin/payments (staff): the shared basic dashboard, then payments found by order reference,
 * buyer email or provider reference and status, kept in the address. Choosing one opens its
 * order (orders/OrderSheet.tsx), where it can be refunded.
 */
import { formatPence } from '@reshelf/contracts';
import { keepPreviousData } from '@tanstack/react-query';
import { AdminPageFrame, formatDateTime } from '../../components/staff/AdminPageFrame.tsx';
import { BasicDashboard } from '../../components/staff/BasicDashboard.tsx';
import { TableScroll } from '../../kit/index.ts';
import { QueryView } from '../../kit/QueryView.tsx';
import { trpc } from '../../lib/trpc.ts';
import { Filters, PAYMENT_STATUSES, pick, useOrderFilters } from '../orders/staff/filters.tsx';
import { OrderSheet } from '../orders/staff/OrderSheet.tsx';

export function PaymentsPage() {
  const filters = useOrderFilters();
  const { q, order } = filters.values;
  const status = pick(PAYMENT_STATUSES, filters.values.status);
  const payments = trpc.commerce.orders.staff.payments.useQuery(
    { ...(q ? { q } : {}), ...(status ? { status } : {}), limit: 50 },
    { placeholderData: keepPreviousData },
  );
  return (
    <AdminPageFrame
      title="Payments"
      description="Every payment taken through the provider, with what has been refunded. Open one to see its order and refund it."
      testId="payments-page"
    >
      <BasicDashboard />
      <Filters
        filters={filters}
        statuses={PAYMENT_STATUSES}
        label="Order reference, buyer email or provider reference"
      />
      <QueryView query={payments} pending="Loading payments…" empty="No payments match.">
        {(data) => (
          <TableScroll label="Payments" className="rounded-xl border border-line bg-paper">
            <table className="w-full min-w-[40rem] text-left text-sm" data-testid="staff-payments">
              <thead className="border-b border-line text-ink-muted">
                <tr>
                  <th className="px-4 py-3 font-semibold">Taken</th>
                  <th className="px-4 py-3 font-semibold">Order</th>
                  <th className="px-4 py-3 font-semibold">Buyer</th>
                  <th className="px-4 py-3 font-semibold">Status</th>
                  <th className="px-4 py-3 text-right font-semibold">Amount</th>
                  <th className="px-4 py-3 text-right font-semibold">Refunded</th>
                </tr>
              </thead>
              <tbody>
                {data.map((row) => (
                  <tr
                    key={row.id}
                    className="border-b border-line/60 last:border-0"
                    data-testid="staff-payment"
                  >
                    <td className="px-4 py-3 whitespace-nowrap">{formatDateTime(row.createdAt)}</td>
                    <td className="px-4 py-3">
                      <button
                        type="button"
                        className="cursor-pointer font-mono font-semibold text-brand hover:underline"
                        onClick={() => filters.set({ order: row.orderId })}
                      >
                        {row.reference}
                      </button>
                      <span className="block text-xs text-ink-muted">
                        {row.provider} {row.providerRef}
                      </span>
                    </td>
                    <td className="px-4 py-3 break-all">{row.buyerEmail}</td>
                    <td className="px-4 py-3">{row.status}</td>
                    <td className="px-4 py-3 text-right tabular-nums">{formatPence(row.amountMinor)}</td>
                    <td className="px-4 py-3 text-right tabular-nums">{formatPence(row.refundedMinor)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
      </QueryView>
      <OrderSheet orderId={order ?? null} onClose={() => filters.set({ order: undefined })} />
    </AdminPageFrame>
  );
}
