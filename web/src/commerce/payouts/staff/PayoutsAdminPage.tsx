/**
 * /admin/payouts: transfers (one per released sale) and payouts to sellers' banks,
 * searched by seller, state and period; a failed one retried; sellers' payouts held and released
 * with a reason (admins, audited); the HMRC platform report of a year (admins, decision 0047).
 * /admin/payments/reconciliation has the ledger's reconciliation.
 */
import { countOf, formatPence, REPORTING_DATES } from '@reshelf/contracts';
import { keepPreviousData } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { AdminPageFrame, formatDateTime } from '../../../components/staff/AdminPageFrame.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Input, Label } from '../../../components/ui/input.tsx';
import { notify } from '../../../components/ui/notify.ts';
import { TableScroll } from '../../../kit/index.ts';
import { QueryView } from '../../../kit/QueryView.tsx';
import { saveCsv } from '../../../lib/download.ts';
import { trpc } from '../../../lib/trpc.ts';

const STATES = {
  transfers: ['pending', 'paid', 'failed', 'reversed'],
  payouts: ['pending', 'in_transit', 'paid', 'failed', 'canceled'],
} as const;

export function PayoutsAdminPage() {
  const [params, setParams] = useSearchParams();
  const kind = params.get('kind') === 'payouts' ? 'payouts' : 'transfers';
  const seller = params.get('seller') ?? '';
  const status = params.get('status') ?? '';
  const from = params.get('from') ?? '';
  const to = params.get('to') ?? '';
  const set = (patch: Record<string, string>) => {
    const next = new URLSearchParams(params);
    for (const [key, value] of Object.entries(patch)) {
      if (value) next.set(key, value);
      else next.delete(key);
    }
    setParams(next, { replace: true });
  };
  const validStatus = (STATES[kind] as readonly string[]).includes(status) ? status : undefined;
  const search = trpc.commerce.payouts.staff.search.useQuery(
    {
      kind,
      ...(seller ? { seller } : {}),
      ...(validStatus ? { status: validStatus } : {}),
      ...(from ? { from } : {}),
      ...(to ? { to } : {}),
      limit: 100,
    },
    { placeholderData: keepPreviousData },
  );
  const access = trpc.staff.dashboard.access.useQuery();
  const isAdmin = access.data?.isAdmin ?? false;
  const utils = trpc.useUtils();
  const retry = trpc.commerce.payouts.staff.retry.useMutation({
    onSuccess: (report) => {
      notify.success(
        report.waiting > 0
          ? 'Tried again: the seller’s money still waits (see their account or holds)'
          : `Tried again: ${countOf(report.transfers, 'transfer', 'transfers')}, ${countOf(report.payouts, 'payout', 'payouts')} made`,
      );
      void utils.commerce.payouts.staff.invalidate();
    },
    onError: (error) => notify.error(error.message),
  });
  return (
    <AdminPageFrame
      title="Payouts"
      description="Money out to sellers: a transfer to the seller’s payout account for each released sale, then payouts to their bank. Retry a failed one; hold a seller’s payouts with a reason."
      testId="payouts-admin-page"
      actions={
        <Button asChild variant="outline">
          <Link to="/admin/payments/reconciliation">Reconciliation</Link>
        </Button>
      }
    >
      <form
        className="grid gap-3 rounded-xl border border-line bg-paper p-4 sm:grid-cols-5"
        onSubmit={(event) => event.preventDefault()}
        aria-label="Search payouts"
      >
        <div className="flex flex-col gap-1">
          <Label htmlFor="payouts-kind">Show</Label>
          <select
            id="payouts-kind"
            className="h-11 rounded-lg border border-ink/20 bg-white px-2"
            value={kind}
            onChange={(event) => set({ kind: event.target.value, status: '' })}
          >
            <option value="transfers">Transfers</option>
            <option value="payouts">Payouts to banks</option>
          </select>
        </div>
        <div className="flex flex-col gap-1 sm:col-span-2">
          <Label htmlFor="payouts-seller">Seller (email, name) or order reference</Label>
          <Input
            id="payouts-seller"
            defaultValue={seller}
            onChange={(event) => set({ seller: event.target.value })}
          />
        </div>
        <div className="flex flex-col gap-1">
          <Label htmlFor="payouts-status">State</Label>
          <select
            id="payouts-status"
            className="h-11 rounded-lg border border-ink/20 bg-white px-2"
            value={validStatus ?? ''}
            onChange={(event) => set({ status: event.target.value })}
          >
            <option value="">Any</option>
            {STATES[kind].map((state) => (
              <option key={state} value={state}>
                {state.replace('_', ' ')}
              </option>
            ))}
          </select>
        </div>
        <div className="grid grid-cols-2 gap-2">
          <div className="flex flex-col gap-1">
            <Label htmlFor="payouts-from">From</Label>
            <Input
              id="payouts-from"
              type="date"
              value={from}
              onChange={(event) => set({ from: event.target.value })}
            />
          </div>
          <div className="flex flex-col gap-1">
            <Label htmlFor="payouts-to">To</Label>
            <Input
              id="payouts-to"
              type="date"
              value={to}
              onChange={(event) => set({ to: event.target.value })}
            />
          </div>
        </div>
      </form>
      <QueryView
        query={search}
        pending="Loading…"
        empty="Nothing matches."
        isEmpty={(rows) => rows.length === 0}
      >
        {(rows) => (
          <TableScroll label="Money out" className="rounded-xl border border-line bg-paper">
            <table className="w-full min-w-[44rem] text-left text-sm" data-testid="staff-money-out">
              <thead className="border-b border-line text-ink-muted">
                <tr>
                  <th className="px-4 py-3 font-semibold">Made</th>
                  <th className="px-4 py-3 font-semibold">Seller</th>
                  <th className="px-4 py-3 font-semibold">{kind === 'transfers' ? 'Order' : 'Provider'}</th>
                  <th className="px-4 py-3 font-semibold">State</th>
                  <th className="px-4 py-3 text-right font-semibold">Amount</th>
                  <th className="px-4 py-3" />
                </tr>
              </thead>
              <tbody>
                {rows.map((row) => (
                  <tr
                    key={row.id}
                    className="border-b border-line/60 last:border-0"
                    data-testid="staff-money-out-row"
                  >
                    <td className="px-4 py-3 whitespace-nowrap">{formatDateTime(row.createdAt)}</td>
                    <td className="px-4 py-3 break-all">
                      {row.sellerName}
                      <span className="block text-xs text-ink-muted">{row.sellerEmail}</span>
                    </td>
                    <td className="px-4 py-3 font-mono">{row.reference ?? row.providerRef ?? '—'}</td>
                    <td className="px-4 py-3">
                      {row.status.replace('_', ' ')}
                      {row.failure ? (
                        <span className="block text-xs text-destructive">{row.failure}</span>
                      ) : null}
                    </td>
                    <td className="px-4 py-3 text-right tabular-nums">
                      {formatPence(row.amountMinor)}
                      {row.reversedMinor > 0 ? (
                        <span className="block text-xs text-ink-muted">
                          {formatPence(row.reversedMinor)} reversed
                        </span>
                      ) : null}
                    </td>
                    <td className="px-4 py-3 text-right">
                      {row.retryable && isAdmin ? (
                        <Button
                          size="sm"
                          variant="outline"
                          disabled={retry.isPending}
                          onClick={() => retry.mutate({ kind: row.kind, id: row.id })}
                        >
                          Retry
                        </Button>
                      ) : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
      </QueryView>
      <Holds isAdmin={isAdmin} />
      {isAdmin ? <MissingReportingDetails /> : null}
      {isAdmin ? <ReportingFilings /> : null}
      {isAdmin ? <HmrcReport /> : null}
    </AdminPageFrame>
  );
}

function Holds({ isAdmin }: { isAdmin: boolean }) {
  const holds = trpc.commerce.payouts.staff.holds.useQuery();
  const utils = trpc.useUtils();
  const [releasing, setReleasing] = useState<string | null>(null);
  const refresh = () => void utils.commerce.payouts.staff.invalidate();
  const hold = trpc.commerce.payouts.staff.hold.useMutation({ onSuccess: refresh });
  const release = trpc.commerce.payouts.staff.release.useMutation({
    onSuccess: () => {
      setReleasing(null);
      refresh();
    },
  });
  const submitHold = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const target = event.currentTarget;
    hold.mutate(
      { seller: String(form.get('seller') ?? ''), reason: String(form.get('reason') ?? '') },
      { onSuccess: () => target.reset() },
    );
  };
  return (
    <section aria-labelledby="holds-title" className="flex flex-col gap-3">
      <h2 id="holds-title" className="text-xl font-semibold">
        Held sellers
      </h2>
      <QueryView
        query={holds}
        pending="Loading holds…"
        empty="No seller’s payouts are held."
        isEmpty={(rows) => rows.length === 0}
      >
        {(rows) => (
          <ul className="flex flex-col gap-2" data-testid="payout-holds-list">
            {rows.map((row) => (
              <li
                key={row.id}
                className="rounded-xl border border-line bg-paper p-3 text-sm"
                data-kind={row.kind}
              >
                <p>
                  <strong>{row.sellerEmail ?? row.sellerId}</strong> ·{' '}
                  {row.kind === 'reporting'
                    ? 'until their HMRC details are given'
                    : `held by ${row.createdByEmail ?? 'staff'}`}{' '}
                  · {formatDateTime(row.createdAt)}
                </p>
                <p className="text-ink-muted">{row.reason}</p>
                {isAdmin &&
                  (releasing === row.id ? (
                    <form
                      className="mt-2 flex flex-wrap items-end gap-2"
                      onSubmit={(event) => {
                        event.preventDefault();
                        const reason = String(new FormData(event.currentTarget).get('reason') ?? '');
                        release.mutate({ holdId: row.id, reason });
                      }}
                    >
                      <div className="flex min-w-60 flex-1 flex-col gap-1">
                        <Label htmlFor={`release-${row.id}`}>Why release it</Label>
                        <Input id={`release-${row.id}`} name="reason" />
                      </div>
                      <Button type="submit" size="sm" variant="brand" disabled={release.isPending}>
                        Release
                      </Button>
                      {release.error ? (
                        <p role="alert" className="w-full text-destructive">
                          {release.error.message}
                        </p>
                      ) : null}
                    </form>
                  ) : (
                    <Button size="sm" variant="outline" className="mt-2" onClick={() => setReleasing(row.id)}>
                      Release…
                    </Button>
                  ))}
              </li>
            ))}
          </ul>
        )}
      </QueryView>
      {isAdmin && (
        <form
          className="grid gap-2 rounded-xl border border-line bg-paper p-4 sm:grid-cols-[1fr_2fr_auto] sm:items-end"
          onSubmit={submitHold}
        >
          <div className="flex flex-col gap-1">
            <Label htmlFor="hold-seller">Seller’s email</Label>
            <Input id="hold-seller" name="seller" type="email" />
          </div>
          <div className="flex flex-col gap-1">
            <Label htmlFor="hold-reason">Reason</Label>
            <Input id="hold-reason" name="reason" />
          </div>
          <Button type="submit" variant="destructive" disabled={hold.isPending}>
            Hold payouts
          </Button>
          {hold.error ? (
            <p role="alert" className="text-sm text-destructive sm:col-span-3">
              {hold.error.message}
            </p>
          ) : null}
        </form>
      )}
    </section>
  );
}

/** Who is missing what this year: reportable or nearly reportable sellers without their details. */
function MissingReportingDetails() {
  const year = new Date().getFullYear();
  const missing = trpc.commerce.taxReporting.staff.missing.useQuery({ year });
  return (
    <section aria-labelledby="missing-title" className="flex flex-col gap-3" data-testid="reporting-missing">
      <h2 id="missing-title" className="text-xl font-semibold">
        HMRC details missing, {year}
      </h2>
      <p className="text-sm text-ink-muted">
        Sellers past the platform-reporting threshold this year, or close to it, who have not given the
        details the rules require. They must give them by {REPORTING_DATES.collectBy.label}; past the
        threshold, their payouts wait.
      </p>
      <QueryView query={missing} pending="Loading…" empty="Nobody is missing details this year.">
        {(rows) => (
          <div className="overflow-x-auto rounded-xl border border-line bg-paper">
            <table className="w-full text-left text-sm">
              <thead className="text-ink-muted">
                <tr>
                  <th className="px-4 py-2 font-semibold">Seller</th>
                  <th className="px-4 py-2 font-semibold">Where they stand</th>
                  <th className="px-4 py-2 font-semibold">Missing</th>
                  <th className="px-4 py-2 font-semibold">Asked</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((row) => (
                  <tr key={row.sellerId} className="border-t border-line align-top">
                    <td className="px-4 py-2 break-all">{row.email ?? row.name ?? row.sellerId}</td>
                    <td className="px-4 py-2">
                      {row.reportable ? 'Reportable' : 'Close to the threshold'}:{' '}
                      {countOf(row.sales, 'sale', 'sales')}, {formatPence(row.considerationMinor)}
                      {row.payoutsHeld ? ' · payouts held' : ''}
                    </td>
                    <td className="px-4 py-2">{row.missing.join(', ')}</td>
                    <td className="px-4 py-2 whitespace-nowrap">
                      {row.askedAt ? formatDateTime(row.askedAt) : 'Not yet'}
                      {row.heldNoticeAt ? ` · told of the hold ${formatDateTime(row.heldNoticeAt)}` : ''}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </QueryView>
    </section>
  );
}

/**
 * Filing the HMRC platform report (decision 0078): each year's deadlines (details by
 * 31 December, the report and the sellers' copies by 31 January after) with the days left;
 * filing an ended year freezes what was reported and sends each reported seller their copy.
 */
function ReportingFilings() {
  const filings = trpc.commerce.taxReporting.staff.filings.useQuery();
  const utils = trpc.useUtils();
  const file = trpc.commerce.taxReporting.staff.file.useMutation({
    onSuccess: async (filing) => {
      notify.success(
        `${filing.year} filed: ${countOf(filing.sellers ?? 0, 'seller', 'sellers')} sent their copy.`,
      );
      await utils.commerce.taxReporting.staff.filings.invalidate();
    },
    onError: (error) => notify.error(error.message),
  });
  const currentYear = new Date().getFullYear();
  return (
    <section aria-labelledby="filings-title" className="flex flex-col gap-3" data-testid="reporting-filings">
      <h2 id="filings-title" className="text-xl font-semibold">
        Filing the HMRC report
      </h2>
      <p className="text-sm text-ink-muted">
        Sellers give their details by {REPORTING_DATES.collectBy.label}; we report the year to HMRC and send
        each reported seller their copy by {REPORTING_DATES.reportBy.label} after. Filing a year records who
        filed it and freezes what was reported: the sellers' copies read that record.
      </p>
      <QueryView query={filings} pending="Loading…">
        {(rows) => (
          <div className="overflow-x-auto rounded-xl border border-line bg-paper">
            <table className="w-full text-left text-sm">
              <thead className="text-ink-muted">
                <tr>
                  <th className="px-4 py-2 font-semibold">Year</th>
                  <th className="px-4 py-2 font-semibold">Details by</th>
                  <th className="px-4 py-2 font-semibold">Report and copies by</th>
                  <th className="px-4 py-2 font-semibold">Filed</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((row) => (
                  <tr
                    key={row.year}
                    className="border-t border-line align-top"
                    data-testid={`filing-${row.year}`}
                  >
                    <td className="px-4 py-2 font-semibold">{row.year}</td>
                    <td className="px-4 py-2 whitespace-nowrap">{row.collectBy}</td>
                    <td className="px-4 py-2">
                      {row.reportBy}
                      {row.filedAt
                        ? ''
                        : row.daysToReport >= 0
                          ? ` · ${countOf(row.daysToReport, 'day', 'days')} left`
                          : ` · ${countOf(-row.daysToReport, 'day', 'days')} late`}
                    </td>
                    <td className="px-4 py-2">
                      {row.filedAt ? (
                        `${formatDateTime(row.filedAt)} by ${row.filedBy} · ${countOf(row.sellers ?? 0, 'seller', 'sellers')}`
                      ) : row.year < currentYear ? (
                        <Button
                          size="sm"
                          disabled={file.isPending}
                          onClick={() => {
                            if (
                              window.confirm(
                                `File ${row.year}? What is reported is frozen, and every reported seller is sent their copy.`,
                              )
                            ) {
                              file.mutate({ year: row.year });
                            }
                          }}
                        >
                          File {row.year}
                        </Button>
                      ) : (
                        'Not ended yet'
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </QueryView>
    </section>
  );
}

function HmrcReport() {
  const [year, setYear] = useState(new Date().getFullYear() - 1);
  const report = trpc.commerce.taxReporting.staff.report.useQuery({ year });
  const utils = trpc.useUtils();
  return (
    <section aria-labelledby="hmrc-title" className="flex flex-col gap-3">
      <h2 id="hmrc-title" className="text-xl font-semibold">
        HMRC platform report
      </h2>
      <p className="text-sm text-ink-muted">
        Sellers with 30 or more sales, or more than €2,000, in a calendar year, with the details the digital
        platform reporting rules require. Those whose details are missing come first.
      </p>
      <div className="flex flex-wrap items-end gap-2">
        <div className="flex flex-col gap-1">
          <Label htmlFor="hmrc-year">Year</Label>
          <Input
            id="hmrc-year"
            type="number"
            className="w-28"
            value={year}
            onChange={(event) => setYear(Number(event.target.value))}
          />
        </div>
        <Button
          variant="outline"
          onClick={async () => {
            try {
              const file = await utils.commerce.taxReporting.staff.exportCsv.fetch({ year });
              saveCsv(file.filename, file.csv);
            } catch (error) {
              notify.error(error instanceof Error ? error.message : 'The export failed');
            }
          }}
        >
          Export CSV
        </Button>
      </div>
      <QueryView
        query={report}
        pending="Loading the report…"
        empty="No seller passed the threshold that year."
        isEmpty={(data) => data.rows.length === 0}
      >
        {(data) => (
          <ul className="flex flex-col gap-1 text-sm" data-testid="hmrc-report">
            {data.rows.map((row) => (
              <li key={row.sellerId}>
                {row.email ?? row.sellerId}: {countOf(row.totals.sales, 'sale', 'sales')},{' '}
                {formatPence(row.totals.considerationMinor)}
                {row.detailsProvided ? '' : ' · details missing'}
              </li>
            ))}
          </ul>
        )}
      </QueryView>
    </section>
  );
}
