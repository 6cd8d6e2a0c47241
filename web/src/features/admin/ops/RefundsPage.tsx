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
import { type FormEvent, useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { Button } from '../../../components/ui/button.tsx';
import { fieldClasses, Input, Label } from '../../../components/ui/input.tsx';
import { apiErrorMessage } from '../../../lib/api-errors.ts';
import { trpc } from '../../../lib/trpc.ts';
import { AdminPageFrame, EmptyState, formatDateTime, LoadingLine } from './AdminPageFrame.tsx';

function asPeriod(value: string | null): AdminPeriod | undefined {
  return (ADMIN_PERIODS as readonly string[]).includes(value ?? '') ? (value as AdminPeriod) : undefined;
}

export function RefundsPage() {
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const period = asPeriod(params.get('period'));
  const [draft, setDraft] = useState(q);
  useEffect(() => setDraft(q), [q]);
  const ledger = trpc.money.refunds.ledger.useQuery(
    { ...(q ? { q } : {}), ...(period ? { period } : {}), limit: 100 },
    { placeholderData: keepPreviousData },
  );

  function update(key: string, value: string | null) {
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value) next.set(key, value);
        else next.delete(key);
        return next;
      },
      { replace: true },
    );
  }
  function submit(event: FormEvent) {
    event.preventDefault();
    update('q', draft.trim() || null);
  }

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
            onChange={(event) => update('period', event.target.value || null)}
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
          <Input id="refunds-q" value={draft} onChange={(event) => setDraft(event.target.value)} />
        </div>
        <Button type="submit">
          <Search aria-hidden="true" />
          Search
        </Button>
      </form>

      {ledger.isError ? (
        <EmptyState>{apiErrorMessage(ledger.error)}</EmptyState>
      ) : ledger.isPending ? (
        <LoadingLine>Loading refunds…</LoadingLine>
      ) : ledger.data.count === 0 ? (
        <EmptyState testId="refunds-empty">No refunds match.</EmptyState>
      ) : (
        <>
          <dl
            className="grid grid-cols-3 gap-3 rounded-xl border border-line bg-paper p-4 text-sm"
            data-testid="refunds-totals"
          >
            <div>
              <dt className="text-ink-muted">Refunds</dt>
              <dd className="text-lg font-semibold tabular-nums" data-testid="refunds-count">
                {ledger.data.count.toLocaleString('en-GB')}
              </dd>
            </div>
            <div>
              <dt className="text-ink-muted">Refunded</dt>
              <dd className="text-lg font-semibold tabular-nums" data-testid="refunds-sum">
                {formatPence(ledger.data.totalMinor)}
              </dd>
            </div>
            <div>
              <dt className="text-ink-muted">Of it buyer protection</dt>
              <dd className="text-lg font-semibold tabular-nums" data-testid="refunds-protection">
                {formatPence(ledger.data.protectionMinor)}
              </dd>
            </div>
          </dl>
          <div className="overflow-x-auto rounded-xl border border-line bg-paper">
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
                {ledger.data.rows.map((row) => (
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
          </div>
          {ledger.data.count > ledger.data.rows.length ? (
            <p className="text-sm text-ink-muted">
              Showing the newest {ledger.data.rows.length} of {ledger.data.count}. Narrow the period or search
              by reference to find older ones.
            </p>
          ) : null}
        </>
      )}
    </AdminPageFrame>
  );
}
