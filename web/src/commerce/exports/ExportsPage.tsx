/**
 * /admin/exports: orders, their books (order items), payouts, listings and revenue as CSV for a period of days (Europe/London,
 * both ends included). The file streams straight from the API as a download; each export is
 * recorded in the audit log.
 */
import { Download } from 'lucide-react';
import { useState } from 'react';
import { AdminPageFrame } from '../../components/staff/AdminPageFrame.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Input, Label } from '../../components/ui/input.tsx';
import { apiUrl } from '../../lib/api.ts';

const KINDS = [
  {
    kind: 'orders',
    label: 'Orders',
    hint: 'Orders paid in the period: amounts, discounts, refunds, buyer and seller.',
  },
  {
    kind: 'order_items',
    label: 'Order items',
    hint: 'The books of those orders, one row each: price, its share of the discounts and protection, refunds.',
  },
  { kind: 'payouts', label: 'Payouts', hint: 'Sellers’ payouts created in the period, held or released.' },
  { kind: 'listings', label: 'Listings', hint: 'Listings published in the period, with their status now.' },
  {
    kind: 'revenue',
    label: 'Revenue',
    hint: 'Each day’s buyer protection, discounts funded and net income, as on the Revenue page, then the total.',
  },
] as const;

const londonDay = (date: Date) => date.toLocaleDateString('en-CA', { timeZone: 'Europe/London' });

/** The calendar month before today's, in London. */
export function lastMonth(now = new Date()): { from: string; to: string } {
  const [year, month] = londonDay(now).split('-').map(Number) as [number, number];
  const first = new Date(Date.UTC(year, month - 2, 1));
  const last = new Date(Date.UTC(year, month - 1, 0));
  return { from: first.toISOString().slice(0, 10), to: last.toISOString().slice(0, 10) };
}

export function ExportsPage() {
  const [period, setPeriod] = useState(lastMonth);
  const valid = Boolean(period.from && period.to && period.from <= period.to);
  const href = (kind: string) => apiUrl(`/api/admin/exports/${kind}.csv?from=${period.from}&to=${period.to}`);

  return (
    <AdminPageFrame
      title="Exports"
      description="Download orders, payouts, listings or revenue as CSV for a period (London days, both ends included). Money is in pounds."
      testId="exports-page"
    >
      <fieldset className="grid gap-3 rounded-xl border border-line bg-paper p-4 sm:grid-cols-[1fr_1fr_auto] sm:items-end">
        <legend className="sr-only">Period</legend>
        <div className="flex flex-col gap-1">
          <Label htmlFor="export-from">From</Label>
          <Input
            id="export-from"
            type="date"
            value={period.from}
            onChange={(event) => setPeriod((p) => ({ ...p, from: event.target.value }))}
          />
        </div>
        <div className="flex flex-col gap-1">
          <Label htmlFor="export-to">To</Label>
          <Input
            id="export-to"
            type="date"
            value={period.to}
            onChange={(event) => setPeriod((p) => ({ ...p, to: event.target.value }))}
          />
        </div>
        <Button variant="ghost" onClick={() => setPeriod(lastMonth())}>
          Last month
        </Button>
      </fieldset>
      {!valid ? (
        <p role="alert" className="text-sm font-semibold text-destructive">
          Choose a start date on or before the end date.
        </p>
      ) : null}
      <ul className="grid gap-4 md:grid-cols-2 xl:grid-cols-4">
        {KINDS.map(({ kind, label, hint }) => (
          <li
            key={kind}
            className="flex flex-col gap-3 rounded-xl border border-line bg-paper p-5 shadow-card"
          >
            <h2 className="text-xl font-semibold">{label}</h2>
            <p className="flex-1 text-sm text-ink-soft">{hint}</p>
            {valid ? (
              <Button asChild variant="brand">
                <a href={href(kind)} download data-testid={`export-${kind}`}>
                  <Download aria-hidden="true" />
                  Download {label.toLowerCase()} CSV
                </a>
              </Button>
            ) : (
              <Button variant="brand" disabled>
                <Download aria-hidden="true" />
                Download {label.toLowerCase()} CSV
              </Button>
            )}
          </li>
        ))}
      </ul>
    </AdminPageFrame>
  );
}
