/**
 * /account/payouts: "Get paid" (the seller's payout account at the payment provider),
 * the payouts to their bank, monthly statements, the details HMRC reporting needs (decision
 * 0047), and the sales ledger: each sale's item price and postage is held from payment until the
 * buyer confirms (or 2 days after delivery), then released and sent to the seller's account.
 */
import { type EarningsState, formatPence } from '@reshelf/contracts';
import { Wallet } from 'lucide-react';
import { Link } from 'react-router-dom';
import { PageBody, PageHeader } from '../../components/PageHeader.tsx';
import { QueryError } from '../../components/QueryError.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { QueryView } from '../../kit/index.ts';
import { formatDay } from '../../lib/dates.ts';
import { usePageMeta } from '../../lib/page-meta.ts';
import { trpc } from '../../lib/trpc.ts';
import { cn } from '../../lib/utils.ts';
import { TaxDetails } from '../tax-reporting/TaxDetails.tsx';
import { BankPayouts } from './BankPayouts.tsx';
import { GetPaidCard } from './GetPaidCard.tsx';
import { StatementLinks } from './StatementLinks.tsx';

/** The earnings states' labels and tones (the words for each line come from the server: stateText). */
const STATE: Record<EarningsState, { label: string; tone: string }> = {
  held: { label: 'Held', tone: 'bg-accent/25 text-accent-foreground' },
  on_hold: { label: 'On hold', tone: 'bg-accent/25 text-accent-foreground' },
  waiting: { label: 'Waiting for you', tone: 'bg-destructive/10 text-destructive' },
  released: { label: 'Released', tone: 'bg-moss-soft text-moss' },
  sent: { label: 'Sent', tone: 'bg-moss-soft text-moss' },
  taken_back: { label: 'Refunded', tone: 'bg-paper-deep text-ink-muted' },
};

export function PayoutsPage() {
  usePageMeta('Your payouts');
  const payouts = trpc.commerce.orders.member.payouts.useQuery({}, { staleTime: 0 });
  const account = trpc.commerce.payouts.member.account.useQuery(undefined, { staleTime: 0 });
  const list = trpc.commerce.payouts.member.list.useQuery(undefined, { staleTime: 0 });
  const reporting = trpc.commerce.taxReporting.member.status.useQuery({}, { staleTime: 0 });
  return (
    <div>
      <PageHeader
        title="Your payouts"
        description="What your sales have earned. We hold each payment until the buyer confirms everything is OK (or 2 days after delivery; a charity sale until its 14-day return window closes), then release it to you."
        crumbs={[
          { to: '/account', label: 'Your account' },
          { to: '/account/sales', label: 'Your sales' },
        ]}
      />
      <PageBody>
        <div className="max-w-4xl">
          {account.data ? <GetPaidCard account={account.data} /> : null}
          {account.error ? (
            <QueryError
              what="your payout account"
              onRetry={() => void account.refetch()}
              retrying={account.isFetching}
            />
          ) : null}
          <div className="mt-6" />
          <QueryView
            query={payouts}
            pending={
              <div
                role="status"
                aria-busy="true"
                aria-label="Loading your payouts"
                className="flex flex-col gap-4"
              >
                <div className="grid gap-4 sm:grid-cols-2">
                  <Skeleton className="h-28 rounded-xl" />
                  <Skeleton className="h-28 rounded-xl" />
                </div>
                <Skeleton className="h-48 w-full rounded-xl" />
              </div>
            }
            error={(_message, retry) => (
              <QueryError what="your payouts" onRetry={retry} retrying={payouts.isFetching} />
            )}
          >
            {(data) => (
              <>
                <div className="grid gap-4 sm:grid-cols-2">
                  {data.waitingMinor > 0 ? (
                    <Total
                      label="Released, waiting for you"
                      hint="Set up payouts (Get paid, above) and it goes to your account"
                      value={data.waitingMinor}
                      testId="payouts-waiting"
                    />
                  ) : (
                    <Total
                      label="Released"
                      hint="Sent, or on its way, to your payout account"
                      value={data.sentMinor}
                      testId="payouts-released"
                    />
                  )}
                  <Total
                    label="Held"
                    hint="Until buyers confirm, a return window closes, or a problem is sorted out"
                    value={data.heldMinor}
                    testId="payouts-held"
                  />
                </div>
                {data.items.length === 0 ? (
                  <div className="mt-6 flex flex-col items-start gap-4 rounded-xl border border-dashed border-line p-6 text-ink-muted">
                    <Wallet aria-hidden="true" className="size-6 text-brand" />
                    <p>No payouts yet. When one of your books sells, its payment appears here.</p>
                    <Button asChild variant="brand">
                      <Link to="/sell/new">List a book</Link>
                    </Button>
                  </div>
                ) : (
                  <section aria-labelledby="ledger-title" className="mt-8">
                    <h2 id="ledger-title" className="text-xl font-semibold">
                      Ledger
                    </h2>
                    <ul className="mt-3 flex flex-col gap-2" data-testid="payouts-ledger">
                      {data.items.map((item) => (
                        <li key={item.id} data-testid="payout-row" data-status={item.status}>
                          <Link
                            to={`/account/sales/${item.orderId}`}
                            className="grid grid-cols-[minmax(0,1fr)_auto] gap-x-4 gap-y-1 rounded-xl border border-line bg-paper p-4 shadow-card transition-colors hover:border-ink/25"
                          >
                            <p className="min-w-0 font-semibold break-words text-ink">{item.title}</p>
                            <p className="text-right font-semibold tabular-nums" data-testid="payout-amount">
                              {formatPence(item.netMinor)}
                              {item.reversedMinor > 0 && item.status !== 'cancelled' ? (
                                <span
                                  className="block text-xs font-normal text-ink-muted"
                                  data-testid="payout-reversed"
                                >
                                  {formatPence(item.amountMinor)} less {formatPence(item.reversedMinor)}{' '}
                                  refunded
                                </span>
                              ) : null}
                            </p>
                            <p className="min-w-0 text-sm text-ink-muted">
                              {item.reference} · sold {formatDay(item.createdAt)} · {item.stateText}
                            </p>
                            <p className="text-right">
                              <span
                                className={cn(
                                  'inline-block rounded-full px-2.5 py-0.5 text-xs font-semibold',
                                  STATE[item.state].tone,
                                )}
                                data-testid="payout-status"
                                data-state={item.state}
                              >
                                {STATE[item.state].label}
                              </span>
                            </p>
                          </Link>
                        </li>
                      ))}
                    </ul>
                  </section>
                )}
              </>
            )}
          </QueryView>
          {list.data ? <BankPayouts list={list.data} /> : null}
          <StatementLinks />
          {reporting.data ? <TaxDetails status={reporting.data} /> : null}
        </div>
      </PageBody>
    </div>
  );
}

function Total({
  label,
  hint,
  value,
  testId,
}: {
  label: string;
  hint: string;
  value: number;
  testId: string;
}) {
  return (
    <div className="rounded-xl border border-line bg-paper p-5 shadow-card" data-testid={testId}>
      <h3 className="font-sans text-sm font-semibold text-ink-muted">{label}</h3>
      <p
        className="mt-1 font-serif text-3xl font-semibold tabular-nums text-ink"
        data-testid={`${testId}-value`}
      >
        {formatPence(value)}
      </p>
      <p className="mt-1 text-xs text-ink-muted">{hint}</p>
    </div>
  );
}
