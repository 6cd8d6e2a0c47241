/**
 * The staff dashboard (spec section 2, "Admin dashboard content"): the period selector (Today,
 * MTD, Last 30d, YTD; MTD by default; kept in the address as ?period=), the three cards, the
 * work waiting for staff (charity applications), quick links, and Demo Data Management. Periods are worked out by the server in Europe/London time.
 *
 * Errors (spec section 8): a 401 on the metrics alerts "Session expired—please sign in" and goes
 * to /login (the query cache does both, see app/query-client.ts); any other error shows 0.
 */
import {
  ADMIN_PERIOD_LABELS,
  ADMIN_PERIODS,
  type AdminPeriod,
  CLEANUP_RESTORE_DAYS,
  DEFAULT_ADMIN_PERIOD,
  formatPence,
  SEED_BOOK_COUNT,
} from '@reshelf/contracts';
import { keepPreviousData } from '@tanstack/react-query';
import {
  BookOpen,
  ChartColumn,
  Database,
  Eraser,
  HeartHandshake,
  LoaderCircle,
  type LucideIcon,
  PoundSterling,
  RotateCcw,
  Scale,
  Sparkles,
} from 'lucide-react';
import { type ReactNode, useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { Button } from '../../components/ui/button.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { toast } from '../../components/ui/use-toast.ts';
import { apiErrorMessage } from '../../lib/api-errors.ts';
import { usePageMeta } from '../../lib/page-meta.ts';
import { trpc } from '../../lib/trpc.ts';
import { cn } from '../../lib/utils.ts';
import { CleanupDialog } from './CleanupDialog.tsx';

export const SESSION_EXPIRED_ALERT = 'Session expired—please sign in';

export function periodFromParam(value: string | null): AdminPeriod {
  return (ADMIN_PERIODS as readonly string[]).includes(value ?? '')
    ? (value as AdminPeriod)
    : DEFAULT_ADMIN_PERIOD;
}

function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

export function seedSummary(result: { listings: number; orders: number }): string {
  if (result.listings === 0 && result.orders === 0) {
    return 'The demo data was already in place: 0 listings and 0 orders added.';
  }
  return `${plural(result.listings, 'listing', 'listings')} and ${plural(result.orders, 'order', 'orders')} added.`;
}

export function cleanupSummary(result: {
  duplicates_removed: number;
  no_image_removed: number;
  total_deleted: number;
}): string {
  const removed = `Removed ${plural(result.duplicates_removed, 'duplicate', 'duplicates')} and ${plural(result.no_image_removed, 'listing', 'listings')} without an image: ${result.total_deleted} in total.`;
  return result.total_deleted > 0
    ? `${removed} Staff can restore them from Listings for ${CLEANUP_RESTORE_DAYS} days.`
    : removed;
}

/** The period in the address (?period=), shown at once when chosen; the address follows. */
function useDashboardPeriod(): [AdminPeriod, (period: AdminPeriod) => void] {
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

export function DashboardPage() {
  usePageMeta('Staff dashboard');
  const [period, setPeriod] = useDashboardPeriod();

  return (
    <div
      className="mx-auto flex w-full max-w-6xl flex-col gap-8 px-4 py-6 sm:px-6 md:py-8 lg:px-8"
      data-testid="staff-dashboard"
    >
      <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <p className="text-sm font-semibold uppercase tracking-widest text-brand">Reshelf staff</p>
          <h1 className="mt-1 text-3xl font-semibold sm:text-4xl">Dashboard</h1>
        </div>
        <PeriodSelector value={period} onChange={setPeriod} />
      </div>

      <Metrics period={period} />

      <WaitingForStaff />

      <section aria-labelledby="quick-links-title">
        <h2 id="quick-links-title" className="text-xl font-semibold">
          Quick links
        </h2>
        <div className="mt-3 grid grid-cols-2 gap-3 sm:flex sm:flex-wrap">
          <QuickLink to="/admin/disputes" icon={Scale} label="Go to Disputes" />
          <QuickLink to="/admin/listings" icon={BookOpen} label="View Listings" />
          <QuickLink to="/admin/revenue" icon={PoundSterling} label="Revenue" />
          <QuickLink to="/admin/analytics" icon={ChartColumn} label="Analytics" />
        </div>
      </section>

      <DemoDataManagement />
    </div>
  );
}

function PeriodSelector({
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

function Metrics({ period }: { period: AdminPeriod }) {
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
function WaitingForStaff() {
  const charities = trpc.charities.waitingCount.useQuery(undefined, { staleTime: 30_000 });
  const waiting = charities.data?.waiting;
  const label =
    waiting === undefined ? 'Charity applications waiting' : `Charity applications waiting: ${waiting}`;
  return (
    <section aria-labelledby="waiting-title" className="-mt-4">
      <h2 id="waiting-title" className="sr-only">
        Waiting for staff
      </h2>
      <div className="grid gap-4 sm:grid-cols-3">
        <Link
          to="/admin/charities"
          aria-label={label}
          data-testid="charity-applications-waiting"
          data-waiting={waiting}
          className="group flex items-center gap-4 rounded-xl border border-line bg-paper p-4 shadow-card transition-colors hover:border-brand/40"
        >
          <span className="flex size-9 shrink-0 items-center justify-center rounded-full bg-brand-soft text-brand">
            <HeartHandshake aria-hidden="true" className="size-4.5" />
          </span>
          <span className="min-w-0 flex-1">
            <span className="block text-sm font-semibold text-ink-muted">Charity applications waiting</span>
            <span className="block text-xs text-ink-muted group-hover:text-brand">Review them</span>
          </span>
          {waiting === undefined ? (
            charities.isError ? (
              <span className="text-sm text-ink-muted">–</span>
            ) : (
              <Skeleton className="h-8 w-10" />
            )
          ) : (
            <span
              className="font-serif text-3xl font-semibold tabular-nums text-ink"
              data-testid="charity-applications-waiting-value"
            >
              {waiting.toLocaleString('en-GB')}
            </span>
          )}
        </Link>
      </div>
    </section>
  );
}

function QuickLink({ to, icon: Icon, label }: { to: string; icon: LucideIcon; label: string }) {
  return (
    <Button asChild variant="outline" className="justify-start">
      <Link to={to}>
        <Icon aria-hidden="true" />
        {label}
      </Link>
    </Button>
  );
}

function DemoDataManagement() {
  const utils = trpc.useUtils();
  const refresh = () => void utils.staff.dashboard.metrics.invalidate();

  const onSeedError = (error: unknown) =>
    toast({ variant: 'destructive', title: 'Seeding failed', description: apiErrorMessage(error) });
  const seed = trpc.staff.dashboard.seed.useMutation({
    onSuccess: (result) => toast({ title: 'Seeded demo data', description: seedSummary(result) }),
    onError: onSeedError,
    onSettled: refresh,
  });
  const resetAndSeed = trpc.staff.dashboard.seed.useMutation({
    onSuccess: (result) => toast({ title: 'Reset and seeded', description: seedSummary(result) }),
    onError: onSeedError,
    onSettled: refresh,
  });
  const access = trpc.staff.dashboard.access.useQuery();
  const [cleanupOpen, setCleanupOpen] = useState(false);
  const cleanup = trpc.staff.dashboard.cleanupListings.useMutation({
    onSuccess: (result) => toast({ title: 'Cleanup complete', description: cleanupSummary(result) }),
    onError: (error) =>
      toast({ variant: 'destructive', title: 'Cleanup failed', description: apiErrorMessage(error) }),
    onSettled: () => {
      setCleanupOpen(false);
      refresh();
      void utils.staff.dashboard.cleanupPreview.invalidate();
    },
  });

  return (
    <section
      aria-labelledby="demo-data-title"
      data-testid="demo-data"
      className="rounded-xl border border-line bg-paper p-5 shadow-card sm:p-6"
    >
      <h2 id="demo-data-title" className="flex items-center gap-2.5 text-xl font-semibold">
        <span className="flex size-9 items-center justify-center rounded-full bg-brand-soft text-brand">
          <Database aria-hidden="true" className="size-4.5" />
        </span>
        Demo Data Management
      </h2>
      <ul className="mt-3 flex max-w-3xl flex-col gap-1.5 text-sm text-ink-muted">
        <li>
          <strong className="text-ink">Seed</strong> puts {SEED_BOOK_COUNT} real books on sale from the demo
          sellers and charities, with orders across the periods (some disputed). Seeding again adds only what
          has gone.
        </li>
        <li>
          <strong className="text-ink">Reset and Seed</strong> first removes everything an earlier seed made,
          and nothing else.
        </li>
        <li>
          <strong className="text-ink">Cleanup</strong> takes off sale duplicate listings (one seller's copies
          of a book in the same condition, at the same price: the oldest stays) and listings with no photo and
          no cover image. It shows what would go before anything happens; staff can restore them for{' '}
          {CLEANUP_RESTORE_DAYS} days. Admins run it.
        </li>
      </ul>
      <div className="mt-5 flex flex-col gap-3 sm:flex-row sm:flex-wrap">
        <RunButton
          variant="brand"
          icon={Sparkles}
          running={seed.isPending}
          onClick={() => seed.mutate({ reset: false })}
        >
          Seed 40 books + orders
        </RunButton>
        <RunButton
          variant="outline"
          icon={RotateCcw}
          running={resetAndSeed.isPending}
          onClick={() => resetAndSeed.mutate({ reset: true })}
        >
          Reset and Seed
        </RunButton>
        <RunButton
          variant="outline"
          icon={Eraser}
          running={cleanup.isPending}
          onClick={() => setCleanupOpen(true)}
        >
          Cleanup duplicates
        </RunButton>
      </div>
      <CleanupDialog
        open={cleanupOpen}
        onOpenChange={setCleanupOpen}
        isAdmin={access.data?.isAdmin ?? false}
        running={cleanup.isPending}
        onConfirm={(digest) => cleanup.mutate({ expected: digest })}
      />
    </section>
  );
}

function RunButton({
  variant,
  icon: Icon,
  running,
  onClick,
  children,
}: {
  variant: 'brand' | 'outline';
  icon: LucideIcon;
  running: boolean;
  onClick: () => void;
  children: ReactNode;
}) {
  return (
    <Button
      variant={variant}
      disabled={running}
      aria-busy={running}
      onClick={onClick}
      className={cn('w-full sm:w-auto')}
    >
      {running ? (
        <LoaderCircle aria-hidden="true" className="motion-safe:animate-spin" />
      ) : (
        <Icon aria-hidden="true" />
      )}
      {children}
    </Button>
  );
}
