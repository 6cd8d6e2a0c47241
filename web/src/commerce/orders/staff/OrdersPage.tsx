/**
 * /admin/orders (staff): the shared basic dashboard, then orders found by reference, email and
 * status, kept in the address. Choosing one opens its order (orders/OrderSheet.tsx): the
 * timeline of events, the money, the dispute, and the refund.
 */
import { formatPence } from '@reshelf/contracts';
import { keepPreviousData } from '@tanstack/react-query';
import { AdminPageFrame, formatDateTime } from '../../../components/staff/AdminPageFrame.tsx';
import { BasicDashboard } from '../../../components/staff/BasicDashboard.tsx';
import { QueryView } from '../../../kit/QueryView.tsx';
import { trpc } from '../../../lib/trpc.ts';
import { OrderStatusBadge } from '../OrderParts.tsx';
import { Filters, ORDER_STATUSES, pick, useOrderFilters } from './filters.tsx';
import { OrderSheet } from './OrderSheet.tsx';

export function OrdersPage() {
  const filters = useOrderFilters();
  const { q, order } = filters.values;
  const status = pick(ORDER_STATUSES, filters.values.status);
  const orders = trpc.commerce.orders.staff.search.useQuery(
    { ...(q ? { q } : {}), ...(status ? { status } : {}), limit: 50 },
    { placeholderData: keepPreviousData },
  );
  return (
    <AdminPageFrame
      title="Orders"
      description="Find an order by reference or by the buyer's or seller's email, read its events, and refund it."
      testId="orders-page"
    >
      <BasicDashboard />
      <Filters filters={filters} statuses={ORDER_STATUSES} label="Reference or email" />
      <QueryView query={orders} pending="Loading orders…" empty="No orders match.">
        {(data) => (
          <ul className="flex flex-col gap-2" data-testid="staff-orders">
            {data.map((row) => (
              <li key={row.id}>
                <button
                  type="button"
                  data-testid="staff-order"
                  onClick={() => filters.set({ order: row.id })}
                  className="flex w-full cursor-pointer flex-col gap-1 rounded-xl border border-line bg-paper p-3 text-left hover:border-brand/50 sm:flex-row sm:items-center sm:justify-between"
                >
                  <span className="min-w-0">
                    <span className="font-mono font-semibold">{row.reference}</span>{' '}
                    <span className="text-ink-soft">{row.title ?? ''}</span>
                    <span className="block text-sm text-ink-muted break-all">
                      {row.buyerEmail} → {row.sellerEmail} · {formatDateTime(row.createdAt)}
                    </span>
                  </span>
                  <span className="flex shrink-0 items-center gap-2 tabular-nums">
                    {formatPence(row.totalMinor)}
                    {row.refundedMinor > 0 ? (
                      <span className="text-sm text-ink-muted">
                        ({formatPence(row.refundedMinor)} refunded)
                      </span>
                    ) : null}
                    <OrderStatusBadge status={row.status} />
                  </span>
                </button>
              </li>
            ))}
          </ul>
        )}
      </QueryView>
      <OrderSheet orderId={order ?? null} onClose={() => filters.set({ order: undefined })} />
    </AdminPageFrame>
  );
}
