/**
 * The seller's payouts to their bank: each with its state (pending, in transit, paid,
 * failed with the reason and what to do) and, opened, the sales it carried with their fees,
 * refunds and reversals. Below: transfers in their payout account not yet paid out.
 */
import {
  countOf,
  formatPence,
  type PayoutSummary,
  type PayoutsList,
  PROVIDER_PAYOUT_STATUS_LABELS,
} from '@reshelf/contracts';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { formatDay } from '../../lib/dates.ts';
import { trpc } from '../../lib/trpc.ts';
import { cn } from '../../lib/utils.ts';

const TONE: Record<PayoutSummary['status'], string> = {
  pending: 'bg-accent/25 text-accent-foreground',
  in_transit: 'bg-accent/25 text-accent-foreground',
  paid: 'bg-moss-soft text-moss',
  failed: 'bg-destructive/10 text-destructive',
  canceled: 'bg-paper-deep text-ink-muted',
};

export function BankPayouts({ list }: { list: PayoutsList }) {
  return (
    <section aria-labelledby="bank-payouts-title" className="mt-8">
      <h2 id="bank-payouts-title" className="text-xl font-semibold">
        Payouts to your bank
      </h2>
      {list.payouts.length === 0 ? (
        <p className="mt-2 text-ink-muted" data-testid="bank-payouts-empty">
          None yet. When a buyer confirms their book arrived, we pay you here.
        </p>
      ) : (
        <ul className="mt-3 flex flex-col gap-2" data-testid="bank-payouts">
          {list.payouts.map((payout) => (
            <BankPayout key={payout.id} payout={payout} />
          ))}
        </ul>
      )}
      {list.transfers.length > 0 && (
        <div className="mt-4">
          <h3 className="text-base font-semibold">In your payout account, not yet paid to your bank</h3>
          <ul className="mt-2 flex flex-col gap-1 text-sm" data-testid="unpaid-transfers">
            {list.transfers.map((transfer) => (
              <li key={transfer.id} className="flex justify-between gap-3" data-status={transfer.status}>
                <Link
                  className="font-mono text-brand hover:underline"
                  to={`/account/sales/${transfer.orderId}`}
                >
                  {transfer.reference}
                </Link>
                <span className="tabular-nums">
                  {formatPence(transfer.netMinor)}
                  {transfer.status === 'failed' && transfer.failureReason
                    ? ` · failed: ${transfer.failureReason}`
                    : ''}
                </span>
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}

function BankPayout({ payout }: { payout: PayoutSummary }) {
  const [open, setOpen] = useState(false);
  const detail = trpc.commerce.payouts.member.get.useQuery({ payoutId: payout.id }, { enabled: open });
  return (
    <li
      className="rounded-xl border border-line bg-paper p-4 shadow-card"
      data-testid="bank-payout"
      data-status={payout.status}
    >
      <div className="grid grid-cols-[minmax(0,1fr)_auto] gap-x-4 gap-y-1">
        <p className="font-semibold tabular-nums" data-testid="bank-payout-amount">
          {formatPence(payout.amountMinor)}
        </p>
        <p className="text-right">
          <span
            className={cn(
              'inline-block rounded-full px-2.5 py-0.5 text-xs font-semibold',
              TONE[payout.status],
            )}
            data-testid="bank-payout-status"
          >
            {PROVIDER_PAYOUT_STATUS_LABELS[payout.status]}
          </span>
        </p>
        <p className="text-sm text-ink-muted">
          {countOf(payout.orderCount, 'sale', 'sales')} · sent {formatDay(payout.createdAt)}
          {payout.paidAt
            ? ` · arrived ${formatDay(payout.paidAt)}`
            : payout.arrivalDate && payout.status !== 'failed'
              ? ` · expected ${formatDay(payout.arrivalDate)}`
              : ''}
        </p>
        <button
          type="button"
          className="cursor-pointer text-right text-sm font-semibold text-brand hover:underline"
          aria-expanded={open}
          onClick={() => setOpen((value) => !value)}
        >
          {open ? 'Hide details' : 'Details'}
        </button>
      </div>
      {payout.status === 'failed' && (
        <div
          className="mt-2 rounded-lg bg-destructive/10 px-3 py-2 text-sm"
          data-testid="bank-payout-failure"
        >
          <p>
            <strong>Why it failed:</strong> {payout.failureMessage ?? 'Your bank returned it.'}
          </p>
          {payout.whatToDo && (
            <p>
              <strong>What to do:</strong> {payout.whatToDo}
            </p>
          )}
        </div>
      )}
      {open && (
        <div className="mt-3 overflow-x-auto" data-testid="bank-payout-detail">
          {detail.isPending ? (
            <p className="text-sm text-ink-muted">Loading…</p>
          ) : detail.error ? (
            <p role="alert" className="text-sm text-destructive">
              {detail.error.message}
            </p>
          ) : (
            <>
              <table className="w-full min-w-[32rem] text-left text-sm">
                <thead className="text-ink-muted">
                  <tr>
                    <th className="py-1 pr-3 font-semibold">Order</th>
                    <th className="py-1 pr-3 text-right font-semibold">Your sale</th>
                    <th className="py-1 pr-3 text-right font-semibold">Refunded</th>
                    <th className="py-1 pr-3 text-right font-semibold">Reversed</th>
                    <th className="py-1 text-right font-semibold">In this payout</th>
                  </tr>
                </thead>
                <tbody>
                  {detail.data.lines.map((line) => (
                    <tr key={line.transferId} className="border-t border-line/60">
                      <td className="py-1 pr-3">
                        <Link
                          className="font-mono text-brand hover:underline"
                          to={`/account/sales/${line.orderId}`}
                        >
                          {line.reference}
                        </Link>{' '}
                        {line.title}
                      </td>
                      <td className="py-1 pr-3 text-right tabular-nums">{formatPence(line.saleMinor)}</td>
                      <td className="py-1 pr-3 text-right tabular-nums">{formatPence(line.refundedMinor)}</td>
                      <td className="py-1 pr-3 text-right tabular-nums">{formatPence(line.reversedMinor)}</td>
                      <td className="py-1 text-right tabular-nums">{formatPence(line.amountMinor)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
              <p className="mt-2 text-xs text-ink-muted">
                Your sale is the books’ price and postage. Reshelf charges sellers no fee: buyers pay for
                buyer protection.
              </p>
            </>
          )}
        </div>
      )}
    </li>
  );
}
