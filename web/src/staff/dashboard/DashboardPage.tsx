import { BookOpen, ChartColumn, HeartHandshake, type LucideIcon, PoundSterling, Scale } from 'lucide-react';
import { Link } from 'react-router-dom';
import { Metrics, PeriodSelector, useDashboardPeriod } from '../../components/staff/BasicDashboard.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { usePageMeta } from '../../lib/page-meta.ts';
import { trpc } from '../../lib/trpc.ts';
import { DemoDataManagement } from './DemoDataManagement.tsx';
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

function WaitingForStaff() {
  const charities = trpc.charities.waitingCount.useQuery(undefined, { staleTime: 30_000 });
  const waiting = charities.data?.waiting;
  return (
    <section aria-labelledby="waiting-title" className="-mt-4">
      <h2 id="waiting-title" className="sr-only">
        Waiting for staff
      </h2>
      <div className="grid gap-4 sm:grid-cols-3">
        <Link
          to="/admin/charities"
          data-testid="charity-applications-waiting"
          data-waiting={waiting}
          className="group flex items-center gap-4 rounded-xl border border-line bg-paper p-4 shadow-card transition-colors hover:border-brand/40"
        >
          <span className="flex size-9 shrink-0 items-center justify-center rounded-full bg-brand-soft text-brand">
            <HeartHandshake aria-hidden="true" className="size-4.5" />
          </span>
          <span className="min-w-0 flex-1">
            <span className="block text-sm font-semibold text-ink-muted">
              Charity applications waiting<span className="sr-only">:</span>
            </span>
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
