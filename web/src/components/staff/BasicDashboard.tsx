/**
 * Spec section 2: the staff dashboard's period selector (Today, MTD, Last 30d, YTD; MTD by
 * default; kept in the address as ?period=) and its three cards. The dashboard shows them, and
 * users, orders, payments and logs show the same basic dashboard above their own tables.
 *
 * Errors (spec section 8): a 401 on the metrics alerts "Session expired—please sign in" and goes
 * to /login (the query cache does both, see app/query-client.ts); any other error shows 0.
 */
import {
  ADMIN_PERIOD_LABELS,
  ADMIN_PERIODS,
  type AdminPeriod,
  DEFAULT_ADMIN_PERIOD,
  formatPence,
} from '@reshelf/contracts';
import { keepPreviousData } from '@tanstack/react-query';
import { BookOpen, type LucideIcon, PoundSterling, Scale } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { trpc } from '../../lib/trpc.ts';
import { Skeleton } from '../ui/skeleton.tsx';

export const SESSION_EXPIRED_ALERT = 'Session expired—please sign in';

export function periodFromParam(value: string | null): AdminPeriod {
  return (ADMIN_PERIODS as readonly string[]).includes(value ?? '')
    ? (value as AdminPeriod)
    : DEFAULT_ADMIN_PERIOD;
}

export function useDashboardPeriod(): [AdminPeriod, (period: AdminPeriod) => void] {
  const [params, setParams] = useSearchParams();
  const periodInUrl = periodFromParam(params.get('period'));
  const [period, setPeriod] = useState(periodInUrl);
  useEffect(() => setPeriod(periodInUrl), [periodInUrl]);
  return [
    period,
    (next) => {
      setPeriod(next);
      setParams(
        (current) => {
          const updated = new URLSearchParams(current);
          updated.set('period', next);
          return updated;
        },
        { replace: true },
      );
    },
  ];
}

/**
 * Spec section 2: "users, orders, payments and logs all show the same basic dashboard": the
 * period selector and the three cards, above each page's own table.
 */
export function BasicDashboard() {
  const [period, setPeriod] = useDashboardPeriod();
  return (
    <section aria-label="Basic dashboard" data-testid="basic-dashboard" className="flex flex-col gap-4">
      <div className="flex justify-end">
        <PeriodSelector value={period} onChange={setPeriod} />
      </div>
      <Metrics period={period} />
    </section>
  );
}

export function PeriodSelector({
  value,
  onChange,
}: {
  value: AdminPeriod;
  onChange: (period: AdminPeriod) => void;
}) {
  return (
    <fieldset data-testid="period-selector" className="min-w-0">
      <legend className="sr-only">Period</legend>
      <div className="inline-flex w-full rounded-lg border border-ink/15 bg-paper-deep p-1 sm:w-auto">
        {ADMIN_PERIODS.map((period) => (
          <label
            key={period}
            className="relative flex-1 cursor-pointer rounded-md px-3.5 py-1.5 text-center text-sm font-semibold whitespace-nowrap text-ink-soft transition-colors has-[:checked]:bg-paper has-[:checked]:text-brand has-[:checked]:shadow-card has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand/50 hover:text-ink sm:flex-none"
          >
            <input
              type="radio"
              name="period"
              value={period}
              checked={value === period}
              onChange={() => onChange(period)}
              className="absolute inset-0 size-full cursor-pointer opacity-0"
            />
            {ADMIN_PERIOD_LABELS[period]}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

export function Metrics({ period }: { period: AdminPeriod }) {
  const metrics = trpc.staff.dashboard.metrics.useQuery(
    { period },
    { placeholderData: keepPreviousData, meta: { sessionExpiredAlert: SESSION_EXPIRED_ALERT } },
  );
  // Any error other than an expired session (handled by the query cache): the cards show 0.
  const failed = metrics.isError && !metrics.isFetching;
  const data = failed ? { disputes_open: 0, active_listings: 0, buyer_protection_minor: 0 } : metrics.data;
  const loading = metrics.isPending && !failed;
  const shownPeriod = failed ? period : metrics.isPlaceholderData ? undefined : period;

  return (
    <section aria-labelledby="metrics-title">
      <h2 id="metrics-title" className="sr-only">
        Figures for {ADMIN_PERIOD_LABELS[period]}
      </h2>
      <div
        data-testid="metrics"
        data-period={shownPeriod}
        aria-busy={metrics.isFetching}
        className="grid gap-4 sm:grid-cols-3"
      >
        <MetricCard
          testId="metric-disputes"
          icon={Scale}
          label="Open Disputes"
          hint="Waiting for staff now"
          value={loading || !data ? null : data.disputes_open.toLocaleString('en-GB')}
        />
        <MetricCard
          testId="metric-listings"
          icon={BookOpen}
          label="Active Listings"
          hint="On sale now"
          value={loading || !data ? null : data.active_listings.toLocaleString('en-GB')}
        />
        <MetricCard
          testId="metric-revenue"
          icon={PoundSterling}
          label="Buyer Protection revenue"
          hint={`${ADMIN_PERIOD_LABELS[period]}, less refunds`}
          value={loading || !data ? null : formatPence(data.buyer_protection_minor)}
        />
      </div>
      {failed ? (
        <p className="mt-3 text-sm text-ink-muted" data-testid="metrics-failed">
          We couldn't load the latest figures.{' '}
          <button
            type="button"
            onClick={() => void metrics.refetch()}
            className="cursor-pointer font-semibold text-brand underline-offset-4 hover:underline"
          >
            Try again
          </button>
        </p>
      ) : null}
    </section>
  );
}

function MetricCard({
  testId,
  icon: Icon,
  label,
  hint,
  value,
}: {
  testId: string;
  icon: LucideIcon;
  label: string;
  hint: string;
  value: string | null;
}) {
  return (
    <div data-testid={testId} className="rounded-xl border border-line bg-paper p-5 shadow-card">
      <div className="flex items-start justify-between gap-3">
        <h3 className="font-sans text-sm font-semibold text-ink-muted">{label}</h3>
        <span className="flex size-9 shrink-0 items-center justify-center rounded-full bg-brand-soft text-brand">
          <Icon aria-hidden="true" className="size-4.5" />
        </span>
      </div>
      {value === null ? (
        <Skeleton className="mt-2 h-9 w-24" />
      ) : (
        <p
          className="mt-1 font-serif text-3xl font-semibold tabular-nums text-ink"
          data-testid={`${testId}-value`}
        >
          {value}
        </p>
      )}
      <p className="mt-1 text-xs text-ink-muted">{hint}</p>
    </div>
  );
}

/**
 * Work waiting for staff, beside the spec's three cards (which stay as the spec fixes them,
 * from `staff.dashboard.metrics`): charity applications to review (`charities.waitingCount`).
 */
