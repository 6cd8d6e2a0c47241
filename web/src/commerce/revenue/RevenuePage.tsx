/**
 * /admin/revenue (staff): Reshelf's income for each period (today, month to date, last 30
 * days, year to date; London time). Buyer protection is net of refunds by refund date, as the
 * dashboard's card counts it; the discounts Reshelf funds (WELCOME20 and promo codes: the
 * seller is still paid the full price) come off it to give net income. Each period's figures
 * download as CSV from the revenue export, which runs the same query
 * (api/src/commerce/revenue/revenue.service.ts has the definitions).
 */
import { ADMIN_PERIOD_LABELS, formatPence } from '@reshelf/contracts';
import { Download } from 'lucide-react';
import { AdminPageFrame } from '../../components/staff/AdminPageFrame.tsx';
import { TableScroll } from '../../kit/index.ts';
import { QueryView } from '../../kit/QueryView.tsx';
import { apiUrl } from '../../lib/api.ts';
import { trpc } from '../../lib/trpc.ts';

const londonDay = (iso: string) => new Date(iso).toLocaleDateString('en-CA', { timeZone: 'Europe/London' });

/** The revenue CSV for a period's London days: its total row is the period's row here. */
export function revenueCsvUrl(row: { startsAt: string; endsAt: string }): string {
  return apiUrl(`/api/admin/exports/revenue.csv?from=${londonDay(row.startsAt)}&to=${londonDay(row.endsAt)}`);
}

const cell = 'px-3 py-3 text-right tabular-nums';
const head = 'px-3 py-3 text-right font-semibold';

export function RevenuePage() {
  const revenue = trpc.commerce.revenue.byPeriod.useQuery();
  return (
    <AdminPageFrame
      title="Revenue"
      description="Reshelf's income is the buyer-protection fee, less what was refunded and the discounts Reshelf pays for (WELCOME20 and promo codes: sellers still get their full price). Postage is collected for sellers and paid out with their money."
      testId="revenue-page"
    >
      <QueryView query={revenue} pending="Loading revenue…">
        {(data) => (
          <>
            <TableScroll label="Revenue by period" className="rounded-xl border border-line bg-paper">
              <table className="w-full min-w-[54rem] text-left text-sm" data-testid="revenue-table">
                <caption className="sr-only">Revenue by period</caption>
                <thead className="border-b border-line text-ink-muted">
                  <tr>
                    <th className="sticky left-0 bg-paper px-3 py-3 font-semibold">Period</th>
                    <th className={head}>Orders paid</th>
                    <th className={head}>Buyer protection charged</th>
                    <th className={head}>Protection refunded</th>
                    <th className={head}>Buyer protection (net)</th>
                    <th className={head}>Discounts funded</th>
                    <th className={`${head} text-ink`}>Net income</th>
                    <th className={head}>Postage</th>
                    <th className={head}>All refunds</th>
                  </tr>
                </thead>
                <tbody>
                  {data.map((row) => (
                    <tr
                      key={row.period}
                      className="border-b border-line/60 last:border-0"
                      data-testid="revenue-row"
                      data-period={row.period}
                    >
                      <th scope="row" className="sticky left-0 bg-paper px-3 py-3 align-top font-semibold">
                        <span className="block whitespace-nowrap">{ADMIN_PERIOD_LABELS[row.period]}</span>
                        <a
                          href={revenueCsvUrl(row)}
                          download
                          data-testid="revenue-csv"
                          aria-label={`Download ${ADMIN_PERIOD_LABELS[row.period]} revenue as CSV`}
                          className="mt-0.5 inline-flex items-center gap-1 text-xs font-semibold text-brand underline-offset-4 hover:underline"
                        >
                          <Download aria-hidden="true" className="size-3.5" />
                          CSV
                        </a>
                      </th>
                      <td className={cell}>{row.ordersPaid.toLocaleString('en-GB')}</td>
                      <td className={cell} data-testid="protection-charged">
                        {formatPence(row.protectionChargedMinor)}
                      </td>
                      <td className={cell} data-testid="protection-refunded">
                        {formatPence(row.protectionRefundedMinor)}
                      </td>
                      <td className={cell} data-testid="protection-net">
                        {formatPence(row.protectionNetMinor)}
                      </td>
                      <td
                        className={cell}
                        data-testid="discounts-funded"
                        title={`${formatPence(row.discountsGivenMinor)} given on orders paid, ${formatPence(row.discountsReturnedMinor)} back with full refunds`}
                      >
                        {formatPence(row.discountsFundedMinor)}
                      </td>
                      <td className={`${cell} font-semibold text-ink`} data-testid="net-income">
                        {formatPence(row.netMinor)}
                      </td>
                      <td className={cell}>{formatPence(row.postageMinor)}</td>
                      <td className={cell} data-testid="refunds-total">
                        {formatPence(row.refundsMinor)}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableScroll>
            <dl
              className="grid max-w-3xl gap-3 rounded-xl border border-line bg-paper p-4 text-sm text-ink-soft sm:p-5"
              data-testid="revenue-net-line"
            >
              <div>
                <dt className="font-semibold text-ink">Net income</dt>
                <dd>= buyer protection charged − protection refunded − discounts funded.</dd>
              </div>
              <div>
                <dt className="font-semibold text-ink">Discounts funded</dt>
                <dd>
                  WELCOME20 and promo-code discounts on orders paid in the period, less the discounts of
                  orders refunded in full in it (their seller is paid nothing, so Reshelf pays nothing towards
                  the discount).
                </dd>
              </div>
              <div>
                <dt className="font-semibold text-ink">Refunds</dt>
                <dd>
                  Counted on the day they were made, so a refund can take a period below zero. Buyer
                  protection (net) is the dashboard’s Buyer Protection card.
                </dd>
              </div>
            </dl>
          </>
        )}
      </QueryView>
    </AdminPageFrame>
  );
}
