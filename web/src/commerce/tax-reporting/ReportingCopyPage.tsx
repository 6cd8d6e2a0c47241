/**
 * /account/payouts/reporting/:year: the seller's own copy of what Reshelf reported to HMRC for a
 * filed year (decision 0078), read from the snapshot taken when staff filed it: per quarter, the
 * sales, what they were paid and Reshelf's fees; the details reported (NI number or UTR masked).
 */
import { countOf, formatPence, reportingFileInputSchema } from '@reshelf/contracts';
import { useParams } from 'react-router-dom';
import { PageBody, PageHeader } from '../../components/PageHeader.tsx';
import { Button } from '../../components/ui/button.tsx';
import { QueryView } from '../../kit/index.ts';
import { usePageMeta } from '../../lib/page-meta.ts';
import { trpc } from '../../lib/trpc.ts';

export function ReportingCopyPage() {
  const params = useParams();
  const parsed = reportingFileInputSchema.safeParse({ year: Number(params.year) });
  const year = parsed.success ? parsed.data.year : new Date().getFullYear() - 1;
  usePageMeta(`What we reported to HMRC for ${year}`);
  const copy = trpc.commerce.taxReporting.member.copy.useQuery({ year }, { retry: false });
  return (
    <>
      <PageHeader
        title={`What we reported to HMRC for ${year}`}
        description="Your copy of the platform report: the same figures and details HMRC got from us."
        crumbs={[
          { to: '/account', label: 'Your account' },
          { to: '/account/payouts', label: 'Your payouts' },
        ]}
      />
      <PageBody>
        <div className="max-w-3xl" data-testid="reporting-copy">
          {!parsed.success && (
            <p role="alert" className="mb-4 text-sm text-destructive">
              {parsed.error.issues[0]?.message}. Showing {year}.
            </p>
          )}
          <QueryView query={copy} pending="Loading your copy…">
            {(data) => (
              <div className="flex flex-col gap-6">
                <p className="text-sm text-ink-muted">
                  Reported on{' '}
                  {new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeZone: 'Europe/London' }).format(
                    new Date(data.filedAt),
                  )}
                  . We keep this record until the end of {data.keptUntilYear}. If anything is wrong, tell us
                  through Contact us and we will correct it with HMRC.
                </p>
                <section aria-labelledby="copy-details-title">
                  <h2 id="copy-details-title" className="text-lg font-semibold">
                    The details we reported
                  </h2>
                  <dl className="mt-2 grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1 text-sm">
                    <dt className="text-ink-muted">Name</dt>
                    <dd>{data.name}</dd>
                    {data.dateOfBirth ? (
                      <>
                        <dt className="text-ink-muted">Date of birth</dt>
                        <dd>{data.dateOfBirth}</dd>
                      </>
                    ) : null}
                    {data.businessRegistrationNumber ? (
                      <>
                        <dt className="text-ink-muted">Registration number</dt>
                        <dd>{data.businessRegistrationNumber}</dd>
                      </>
                    ) : null}
                    <dt className="text-ink-muted">Address</dt>
                    <dd>{data.address || 'Not given'}</dd>
                    <dt className="text-ink-muted">Tax reference</dt>
                    <dd>{data.taxReference ?? 'Not given'}</dd>
                    {data.financialAccountIdentifier ? (
                      <>
                        <dt className="text-ink-muted">Payout account</dt>
                        <dd className="break-all">{data.financialAccountIdentifier}</dd>
                      </>
                    ) : null}
                  </dl>
                </section>
                <section aria-labelledby="copy-figures-title">
                  <h2 id="copy-figures-title" className="text-lg font-semibold">
                    Your sales, by quarter
                  </h2>
                  <div className="mt-2 overflow-x-auto rounded-xl border border-line bg-paper">
                    <table className="w-full text-left text-sm">
                      <thead className="text-ink-muted">
                        <tr>
                          <th scope="col" className="px-4 py-2 font-semibold">
                            Quarter
                          </th>
                          <th scope="col" className="px-4 py-2 font-semibold">
                            Sales
                          </th>
                          <th scope="col" className="px-4 py-2 font-semibold">
                            What you were paid
                          </th>
                          <th scope="col" className="px-4 py-2 font-semibold">
                            Our fees
                          </th>
                        </tr>
                      </thead>
                      <tbody>
                        {data.quarters.map((q) => (
                          <tr key={q.quarter} className="border-t border-line">
                            <th scope="row" className="px-4 py-2 font-normal">
                              Q{q.quarter}
                            </th>
                            <td className="px-4 py-2">{q.sales}</td>
                            <td className="px-4 py-2">{formatPence(q.considerationMinor)}</td>
                            <td className="px-4 py-2">{formatPence(q.feesMinor)}</td>
                          </tr>
                        ))}
                        <tr className="border-t border-line font-semibold" data-testid="reporting-copy-total">
                          <th scope="row" className="px-4 py-2">
                            {data.year}
                          </th>
                          <td className="px-4 py-2">{countOf(data.totalSales, 'sale', 'sales')}</td>
                          <td className="px-4 py-2">{formatPence(data.totalConsiderationMinor)}</td>
                          <td className="px-4 py-2">{formatPence(data.totalFeesMinor)}</td>
                        </tr>
                      </tbody>
                    </table>
                  </div>
                </section>
                <div className="print:hidden">
                  <Button variant="outline" size="sm" onClick={() => window.print()}>
                    Print
                  </Button>
                </div>
              </div>
            )}
          </QueryView>
        </div>
      </PageBody>
    </>
  );
}
