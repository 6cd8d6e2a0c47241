/**
 * /admin/refunds (staff): the refunds ledger — each refund's order (linked to it on
 * /admin/orders), book, amount, the buyer protection part, reason, who made it and when, newest
 * first, with totals for what matches. Filter by the dashboard's periods (by refund date, London
 * time) and search by order reference; both kept in the address. Refunds themselves are made
 * on /admin/orders and the dispute queues.
 */
import { ADMIN_PERIOD_LABELS, ADMIN_PERIODS, type AdminPeriod, formatPence } from '@reshelf/contracts';
import { keepPreviousData } from '@tanstack/react-query';
import { Search } from 'lucide-react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router-dom';
import { z } from 'zod';
import { AdminPageFrame, EmptyState, formatDateTime } from '../../components/staff/AdminPageFrame.tsx';
import { Button } from '../../components/ui/button.tsx';
import { fieldClasses, Input, Label } from '../../components/ui/input.tsx';
import { TableScroll } from '../../kit/index.ts';
import { QueryView } from '../../kit/QueryView.tsx';
import { useFilterParams } from '../../kit/useFilterParams.ts';
import { trpc } from '../../lib/trpc.ts';

const filterSchema = z.object({
  q: z.string().default(''),
  period: z.enum(ADMIN_PERIODS).optional(),
});

export function RefundsPage() {
  const filters = useFilterParams(filterSchema);
  const { q, period } = filters.values;
  const form = useForm({ values: { q } });
  const ledger = trpc.commerce.refunds.ledger.useQuery(
    { ...(q ? { q } : {}), ...(period ? { period } : {}), limit: 100 },
    { placeholderData: keepPreviousData },
  );
  const submit = form.handleSubmit((draft) => filters.set({ q: draft.q.trim() }));

  return (
    <AdminPageFrame
      title="Refunds"
      description="Every refund made to a buyer: from an order, a payment or a resolved dispute. Buyer protection refunded comes off Reshelf's revenue in the period it was refunded."
      testId="refunds-page"
    >
      <form
        onSubmit={submit}
        className="grid gap-3 rounded-xl border border-line bg-paper p-4 sm:grid-cols-[1fr_2fr_auto] sm:items-end"
      >
        <div className="flex flex-col gap-1">
          <Label htmlFor="refunds-period">Period</Label>
          <select
            id="refunds-period"
            value={period ?? ''}
            onChange={(event) =>
              filters.set({ period: (event.target.value || undefined) as AdminPeriod | undefined })
            }
            className={`${fieldClasses} h-11`}
          >
            <option value="">All time</option>
            {ADMIN_PERIODS.map((value) => (
              <option key={value} value={value}>
                {ADMIN_PERIOD_LABELS[value]}
              </option>
            ))}
          </select>
        </div>
        <div className="flex flex-col gap-1">
          <Label htmlFor="refunds-q">Order reference</Label>
          <Input id="refunds-q" {...form.register('q')} />
        </div>
        <Button type="submit">
          <Search aria-hidden="true" />
          Search
        </Button>
      </form>

      <QueryView
        query={ledger}
        pending="Loading refunds…"
        isEmpty={(data) => data.count === 0}
        empty={<EmptyState testId="refunds-empty">No refunds match.</EmptyState>}
      >
        {(data) => (
          <>
            <dl
              className="grid grid-cols-3 gap-3 rounded-xl border border-line bg-paper p-4 text-sm"
              data-testid="refunds-totals"
            >
              <div>
                <dt className="text-ink-muted">Refunds</dt>
                <dd className="text-lg font-semibold tabular-nums" data-testid="refunds-count">
                  {data.count.toLocaleString('en-GB')}
                </dd>
              </div>
              <div>
                <dt className="text-ink-muted">Refunded</dt>
                <dd className="text-lg font-semibold tabular-nums" data-testid="refunds-sum">
                  {formatPence(data.totalMinor)}
                </dd>
              </div>
              <div>
                <dt className="text-ink-muted">Of it buyer protection</dt>
                <dd className="text-lg font-semibold tabular-nums" data-testid="refunds-protection">
                  {formatPence(data.protectionMinor)}
                </dd>
              </div>
            </dl>
            <TableScroll label="Refunds" className="rounded-xl border border-line bg-paper">
              <table className="w-full min-w-[52rem] text-left text-sm" data-testid="refunds-table">
                <caption className="sr-only">Refunds, newest first</caption>
                <thead className="border-b border-line text-ink-muted">
                  <tr>
                    <th className="px-4 py-3 font-semibold">When</th>
                    <th className="px-4 py-3 font-semibold">Order</th>
                    <th className="px-4 py-3 font-semibold">Book</th>
                    <th className="px-4 py-3 text-right font-semibold">Amount</th>
                    <th className="px-4 py-3 text-right font-semibold">Buyer protection</th>
                    <th className="px-4 py-3 font-semibold">Reason</th>
                    <th className="px-4 py-3 font-semibold">By</th>
                  </tr>
                </thead>
                <tbody>
                  {data.rows.map((row) => (
                    <tr
                      key={row.id}
                      className="border-b border-line/60 align-top last:border-0"
                      data-testid="refund-row"
                      data-reference={row.reference}
                    >
                      <td className="px-4 py-3 whitespace-nowrap">{formatDateTime(row.createdAt)}</td>
                      <td className="px-4 py-3">
                        <Link
                          to={`/admin/orders?${new URLSearchParams({ q: row.reference, order: row.orderId })}`}
                          className="font-mono font-semibold text-brand hover:underline"
                        >
                          {row.reference}
                        </Link>
                      </td>
                      <td className="px-4 py-3">{row.title ?? '—'}</td>
                      <td className="px-4 py-3 text-right tabular-nums" data-testid="refund-amount">
                        {formatPence(row.amountMinor)}
                      </td>
                      <td className="px-4 py-3 text-right tabular-nums" data-testid="refund-protection">
                        {formatPence(row.protectionMinor)}
                      </td>
                      <td className="px-4 py-3" data-testid="refund-reason">
                        {row.reason}
                      </td>
                      <td className="px-4 py-3 break-all" data-testid="refund-by">
                        {row.byEmail ?? 'Reshelf (automatic)'}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableScroll>
            {data.count > data.rows.length ? (
              <p className="text-sm text-ink-muted">
                Showing the newest {data.rows.length} of {data.count}. Narrow the period or search by
                reference to find older ones.
              </p>
            ) : null}
          </>
        )}
      </QueryView>
    </AdminPageFrame>
  );
}
