/**
 * /admin/payments/reconciliation: for every order, paid in = seller net + Reshelf fee
 * + refunds, to the penny, from the tables and the one ledger; any imbalance at the top.
 */
import { countOf, formatPence, plural } from '@reshelf/contracts';
import { useState } from 'react';
import { AdminPageFrame } from '../../components/staff/AdminPageFrame.tsx';
import { TableScroll } from '../../kit/index.ts';
import { QueryView } from '../../kit/QueryView.tsx';
import { trpc } from '../../lib/trpc.ts';
import { cn } from '../../lib/utils.ts';

export function ReconciliationPage() {
  const [problemsOnly, setProblemsOnly] = useState(false);
  const result = trpc.commerce.payouts.staff.reconciliation.useQuery({ problemsOnly });
  return (
    <AdminPageFrame
      title="Reconciliation"
      description="For every order: paid in = seller net + Reshelf fee + refunds, to the penny, in the tables and in the ledger. Any order that does not balance is at the top."
      testId="reconciliation-page"
    >
      <label className="flex items-center gap-2 text-sm">
        <input
          type="checkbox"
          checked={problemsOnly}
          onChange={(event) => setProblemsOnly(event.target.checked)}
        />
        Only orders that do not balance
      </label>
      <QueryView query={result} pending="Reconciling…">
        {(data) => (
          <>
            <p
              role="status"
              className={cn(
                'rounded-lg px-3 py-2 text-sm font-semibold',
                data.imbalances > 0 ? 'bg-destructive/10 text-destructive' : 'bg-moss-soft text-moss',
              )}
              data-testid="reconciliation-summary"
            >
              {data.imbalances > 0
                ? `${data.imbalances} of ${countOf(data.orders, 'order', 'orders')} ${plural(data.imbalances, 'does', 'do')} not balance`
                : plural(data.orders, 'The order balances', `All ${data.orders} orders balance`)}
            </p>
            <TableScroll label="Reconciliation" className="rounded-xl border border-line bg-paper">
              <table className="w-full min-w-[44rem] text-left text-sm" data-testid="reconciliation">
                <thead className="border-b border-line text-ink-muted">
                  <tr>
                    <th className="px-3 py-2 font-semibold">Order</th>
                    <th className="px-3 py-2 text-right font-semibold">Paid in</th>
                    <th className="px-3 py-2 text-right font-semibold">Seller net</th>
                    <th className="px-3 py-2 text-right font-semibold">Reshelf fee</th>
                    <th className="px-3 py-2 text-right font-semibold">Refunds</th>
                    <th className="px-3 py-2 text-right font-semibold">Labels</th>
                    <th className="px-3 py-2 text-right font-semibold">Off by</th>
                  </tr>
                </thead>
                <tbody>
                  {data.rows.map((row) => (
                    <tr
                      key={row.orderId}
                      className={cn(
                        'border-b border-line/60 last:border-0',
                        row.problems.length > 0 && 'bg-destructive/5',
                      )}
                      data-testid="reconciliation-row"
                      data-balanced={row.problems.length === 0}
                    >
                      <td className="px-3 py-2 font-mono">
                        {row.reference}
                        {row.problems.map((problem) => (
                          <span key={problem} className="block font-sans text-xs text-destructive">
                            {problem}
                          </span>
                        ))}
                      </td>
                      <td className="px-3 py-2 text-right tabular-nums">{formatPence(row.paidMinor)}</td>
                      <td className="px-3 py-2 text-right tabular-nums">{formatPence(row.sellerNetMinor)}</td>
                      <td className="px-3 py-2 text-right tabular-nums">{formatPence(row.feeMinor)}</td>
                      <td className="px-3 py-2 text-right tabular-nums">{formatPence(row.refundedMinor)}</td>
                      <td className="px-3 py-2 text-right tabular-nums">{formatPence(row.labelsMinor)}</td>
                      <td className="px-3 py-2 text-right tabular-nums">{formatPence(row.imbalanceMinor)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableScroll>
          </>
        )}
      </QueryView>
    </AdminPageFrame>
  );
}
