/**
 * /account/payouts/statement/:month: the seller's statement for a month, ready to
 * print (the site's header and footer are left off paper) or download as CSV.
 */
import { formatPence, statementMonthSchema } from '@reshelf/contracts';
import { Link, useParams } from 'react-router-dom';
import { PageBody, PageHeader } from '../../components/PageHeader.tsx';
import { QueryError } from '../../components/QueryError.tsx';
import { Button } from '../../components/ui/button.tsx';
import { QueryView, TableScroll } from '../../kit/index.ts';
import { saveCsv } from '../../lib/download.ts';
import { usePageMeta } from '../../lib/page-meta.ts';
import { trpc } from '../../lib/trpc.ts';
import { monthName, recentMonths } from './StatementLinks.tsx';

/** What went back, shown negative (and £0.00, not −£0.00, when nothing did). */
const less = (minor: number) => (minor === 0 ? 0 : -minor);

const day = (iso: string) =>
  new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: 'Europe/London' }).format(
    new Date(iso),
  );

export function StatementPage() {
  const params = useParams();
  const parsed = statementMonthSchema.safeParse(params.month);
  const month = parsed.success ? parsed.data : recentMonths()[0]!;
  usePageMeta(`Statement for ${monthName(month)}`);
  const statement = trpc.commerce.payouts.statements.month.useQuery({ month }, { staleTime: 0 });
  const utils = trpc.useUtils();
  return (
    <div className="statement-print">
      <PageHeader
        title={`Statement: ${monthName(month)}`}
        description="Your sales, refunds, transfers, reversals and payouts this month, in UK time."
        crumbs={[
          { to: '/account', label: 'Your account' },
          { to: '/account/payouts', label: 'Your payouts' },
        ]}
      />
      <PageBody>
        <div className="max-w-4xl" data-testid="statement">
          {!parsed.success && (
            <p role="alert" className="mb-4 text-sm text-destructive">
              {parsed.error.issues[0]?.message}. Showing {monthName(month)}.
            </p>
          )}
          <div className="mb-4 flex flex-wrap gap-2 print:hidden">
            <Button variant="outline" size="sm" onClick={() => window.print()}>
              Print
            </Button>
            <Button
              variant="outline"
              size="sm"
              onClick={async () => {
                const file = await utils.commerce.payouts.statements.csv.fetch({ month });
                saveCsv(file.filename, file.csv);
              }}
            >
              Download CSV
            </Button>
            <nav aria-label="Other months" className="flex flex-wrap gap-2 text-sm">
              {recentMonths()
                .slice(0, 6)
                .filter((other) => other !== month)
                .map((other) => (
                  <Link
                    key={other}
                    className="rounded-md px-2 py-1 text-brand hover:underline"
                    to={`../statement/${other}`}
                    relative="path"
                  >
                    {monthName(other)}
                  </Link>
                ))}
            </nav>
          </div>
          <QueryView
            query={statement}
            pending="Loading your statement…"
            error={(_message, retry) => (
              <QueryError what="your statement" onRetry={retry} retrying={statement.isFetching} />
            )}
          >
            {(data) => (
              <>
                <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3" data-testid="statement-totals">
                  <Total label="Earned from sales" value={data.totals.earnedMinor} />
                  <Total label="Refunds taken back" value={less(data.totals.refundedMinor)} />
                  <Total label="Transferred to your account" value={data.totals.transferredMinor} />
                  <Total
                    label="Reversed"
                    value={less(data.totals.reversedMinor)}
                    testId="statement-reversed"
                  />
                  <Total label="Paid to your bank" value={data.totals.paidOutMinor} />
                  <Total label="Payouts returned" value={less(data.totals.failedMinor)} />
                </dl>
                {data.entries.length === 0 ? (
                  <p className="mt-6 rounded-xl border border-dashed border-line p-6 text-ink-muted">
                    Nothing moved in {data.label}.
                  </p>
                ) : (
                  <TableScroll
                    label="Statement entries"
                    className="mt-6 rounded-xl border border-line bg-paper"
                  >
                    <table className="w-full text-left text-sm" data-testid="statement-entries">
                      <thead className="border-b border-line text-ink-muted">
                        <tr>
                          <th className="px-3 py-2 font-semibold">Date</th>
                          <th className="px-3 py-2 font-semibold">What</th>
                          <th className="px-3 py-2 font-semibold">Order</th>
                          <th className="px-3 py-2 text-right font-semibold">Amount</th>
                        </tr>
                      </thead>
                      <tbody>
                        {data.entries.map((entry) => (
                          <tr
                            key={entry.id}
                            className="border-b border-line/60 last:border-0"
                            data-testid="statement-entry"
                            data-kind={entry.kind}
                          >
                            <td className="px-3 py-2 whitespace-nowrap">{day(entry.at)}</td>
                            <td className="px-3 py-2">
                              {entry.label}
                              {entry.memo ? (
                                <span className="block text-xs text-ink-muted">{entry.memo}</span>
                              ) : null}
                            </td>
                            <td className="px-3 py-2 break-all">
                              {entry.reference ? <span className="font-mono">{entry.reference}</span> : null}
                              {entry.title ? (
                                <span className="block text-xs text-ink-muted">{entry.title}</span>
                              ) : null}
                            </td>
                            <td className="px-3 py-2 text-right tabular-nums" data-testid="statement-amount">
                              {formatPence(entry.amountMinor)}
                            </td>
                          </tr>
                        ))}
                      </tbody>
                    </table>
                  </TableScroll>
                )}
              </>
            )}
          </QueryView>
        </div>
      </PageBody>
    </div>
  );
}

function Total({ label, value, testId }: { label: string; value: number; testId?: string }) {
  return (
    <div className="rounded-xl border border-line bg-paper p-3" data-testid={testId}>
      <dt className="text-xs font-semibold text-ink-muted">{label}</dt>
      <dd className="mt-1 font-serif text-xl font-semibold tabular-nums">{formatPence(value)}</dd>
    </div>
  );
}
