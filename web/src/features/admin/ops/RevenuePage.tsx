/**
 * /admin/revenue (staff): buyer protection and postage for each period (today, month to date,
 * last 30 days, year to date; London time). Buyer protection is net of refunds by refund date,
 * as the dashboard's card counts it, so a dispute refunded today lowers today's figure.
 */
import { ADMIN_PERIOD_LABELS, formatPence } from '@reshelf/contracts';
import { apiErrorMessage } from '../../../lib/api-errors.ts';
import { trpc } from '../../../lib/trpc.ts';
import { AdminPageFrame, EmptyState, LoadingLine } from './AdminPageFrame.tsx';

export function RevenuePage() {
  const revenue = trpc.revenue.byPeriod.useQuery();
  return (
    <AdminPageFrame
      title="Revenue"
      description="Buyer protection is Reshelf's income: what paid orders charged, less what was refunded in the same period. Postage is collected for sellers and paid out with their money."
      testId="revenue-page"
    >
      {revenue.isError ? (
        <EmptyState>{apiErrorMessage(revenue.error)}</EmptyState>
      ) : revenue.isPending ? (
        <LoadingLine>Loading revenue…</LoadingLine>
      ) : (
        <div className="overflow-x-auto rounded-xl border border-line bg-paper">
          <table className="w-full min-w-[44rem] text-left text-sm" data-testid="revenue-table">
            <caption className="sr-only">Revenue by period</caption>
            <thead className="border-b border-line text-ink-muted">
              <tr>
                <th className="px-4 py-3 font-semibold">Period</th>
                <th className="px-4 py-3 text-right font-semibold">Orders paid</th>
                <th className="px-4 py-3 text-right font-semibold">Buyer protection charged</th>
                <th className="px-4 py-3 text-right font-semibold">Protection refunded</th>
                <th className="px-4 py-3 text-right font-semibold">Buyer protection (net)</th>
                <th className="px-4 py-3 text-right font-semibold">Postage</th>
                <th className="px-4 py-3 text-right font-semibold">All refunds</th>
              </tr>
            </thead>
            <tbody>
              {revenue.data.map((row) => (
                <tr
                  key={row.period}
                  className="border-b border-line/60 last:border-0"
                  data-testid="revenue-row"
                  data-period={row.period}
                >
                  <th scope="row" className="px-4 py-3 font-semibold">
                    {ADMIN_PERIOD_LABELS[row.period]}
                  </th>
                  <td className="px-4 py-3 text-right tabular-nums">
                    {row.ordersPaid.toLocaleString('en-GB')}
                  </td>
                  <td className="px-4 py-3 text-right tabular-nums">
                    {formatPence(row.protectionChargedMinor)}
                  </td>
                  <td className="px-4 py-3 text-right tabular-nums" data-testid="protection-refunded">
                    {formatPence(row.protectionRefundedMinor)}
                  </td>
                  <td
                    className="px-4 py-3 text-right font-semibold tabular-nums"
                    data-testid="protection-net"
                  >
                    {formatPence(row.protectionNetMinor)}
                  </td>
                  <td className="px-4 py-3 text-right tabular-nums">{formatPence(row.postageMinor)}</td>
                  <td className="px-4 py-3 text-right tabular-nums" data-testid="refunds-total">
                    {formatPence(row.refundsMinor)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </AdminPageFrame>
  );
}
