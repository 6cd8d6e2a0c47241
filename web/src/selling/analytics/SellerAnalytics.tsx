import {
  ANALYTICS_PERIODS,
  type AnalyticsPeriod,
  formatPence,
  poundsValue,
  type SellerAnalytics,
} from '@reshelf/contracts';
import { Lightbulb } from 'lucide-react';
import { Link } from 'react-router-dom';
import {
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { QueryError } from '../../components/QueryError.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { ChartArea, TableScroll } from '../../kit/index.ts';
import { trpc } from '../../lib/trpc.ts';
import { cn } from '../../lib/utils.ts';

export const PERIOD_LABELS: Record<AnalyticsPeriod, string> = {
  '7d': '7 days',
  '30d': '30 days',
  '12m': '12 months',
};

const sectionClass = 'rounded-2xl border border-line bg-paper p-5 shadow-card sm:p-6';
const DAY = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });
const MONTH = new Intl.DateTimeFormat('en-GB', { month: 'short', year: '2-digit', timeZone: 'UTC' });

/** A bucket as people read it: "3 Nov" for a day, "Nov 26" for a month. */
export function bucketLabel(bucket: string): string {
  return bucket.length === 7
    ? MONTH.format(new Date(`${bucket}-01T00:00:00Z`))
    : DAY.format(new Date(`${bucket}T00:00:00Z`));
}

export function PeriodPicker({
  period,
  onChange,
}: {
  period: AnalyticsPeriod;
  onChange: (period: AnalyticsPeriod) => void;
}) {
  return (
    <fieldset className="flex flex-wrap items-center gap-2" data-testid="analytics-period">
      <legend className="sr-only">Period</legend>
      {ANALYTICS_PERIODS.map((value) => (
        <label
          key={value}
          className="inline-flex min-h-11 cursor-pointer items-center rounded-full border border-ink/20 bg-white px-4 text-sm font-semibold text-ink-soft has-checked:border-brand has-checked:bg-brand has-checked:text-brand-foreground has-focus-visible:outline-2 has-focus-visible:outline-offset-2 has-focus-visible:outline-brand"
        >
          <input
            type="radio"
            name="analytics-period"
            value={value}
            checked={period === value}
            onChange={() => onChange(value)}
            className="sr-only"
          />
          Last {PERIOD_LABELS[value]}
        </label>
      ))}
    </fieldset>
  );
}

/**
 * The figures of a seller's books (scope "seller") or of their charity's (scope "charity"): the
 * period's totals, charts of views and sales and of revenue (each with a table for screen
 * readers), and the per-listing table with suggestions.
 */
export function SellerAnalyticsPanel({
  scope,
  period,
}: {
  scope: 'seller' | 'charity';
  period: AnalyticsPeriod;
}) {
  const mine = trpc.selling.analytics.mine.useQuery({ period }, { enabled: scope === 'seller' });
  const charity = trpc.selling.analytics.charity.useQuery({ period }, { enabled: scope === 'charity' });
  const query = scope === 'seller' ? mine : charity;
  if (query.isPending) {
    return (
      <div className="flex flex-col gap-4" role="status" aria-busy="true" aria-label="Loading your figures">
        <Skeleton className="h-28 rounded-2xl" />
        <Skeleton className="h-72 rounded-2xl" />
      </div>
    );
  }
  if (query.isError) {
    return <QueryError what="your figures" onRetry={() => query.refetch()} retrying={query.isFetching} />;
  }
  return <Figures data={query.data} />;
}

function Figures({ data }: { data: SellerAnalytics }) {
  const { totals } = data;
  const label = PERIOD_LABELS[data.period];
  return (
    <div className="flex flex-col gap-6" data-testid="seller-analytics">
      <section
        aria-label={`The last ${label} at a glance`}
        className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4"
      >
        <Stat label="Listing views" value={String(totals.views)} testId="stat-views" />
        <Stat label="Wishlist saves" value={String(totals.wishlists)} testId="stat-wishlists" />
        <Stat
          label="Offers"
          value={String(totals.offersReceived)}
          note={`${totals.offersAccepted} accepted`}
          testId="stat-offers"
        />
        <Stat label="Sales" value={String(totals.sales)} testId="stat-sales" />
        <Stat
          label="Revenue"
          value={formatPence(totals.revenueNetMinor)}
          note="what you’re owed, after refunds"
          testId="stat-revenue"
        />
        <Stat
          label="Conversion"
          value={totals.conversionPercent === null ? '–' : `${totals.conversionPercent}%`}
          note="sales per 100 views"
          testId="stat-conversion"
        />
        <Stat
          label="Days to sell"
          value={totals.averageDaysToSell === null ? '–' : String(totals.averageDaysToSell)}
          note="on average, from listing to sale"
          testId="stat-days-to-sell"
        />
      </section>
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
        <ActivityChart data={data} />
        <RevenueChart data={data} />
      </div>
      <ListingsTable data={data} />
    </div>
  );
}

function Stat({
  label,
  value,
  note,
  testId,
}: {
  label: string;
  value: string;
  note?: string;
  testId: string;
}) {
  return (
    <div className={cn(sectionClass, 'p-4 sm:p-5')} data-testid={testId}>
      <p className="text-sm font-semibold text-ink-muted">{label}</p>
      <p className="mt-1 font-serif text-2xl font-semibold sm:text-3xl">{value}</p>
      {note ? <p className="mt-1 text-xs text-ink-muted sm:text-sm">{note}</p> : null}
    </div>
  );
}

function ActivityChart({ data }: { data: SellerAnalytics }) {
  const points = data.points.map((point) => ({ ...point, label: bucketLabel(point.bucket) }));
  return (
    <section aria-labelledby="activity-chart-title" className={cn(sectionClass, 'relative min-w-0')}>
      <h2 id="activity-chart-title" className="text-xl font-semibold">
        Views, saves and sales
      </h2>
      <ChartArea className="mt-4 h-64" data-testid="activity-chart">
        <ResponsiveContainer width="100%" height="100%">
          <LineChart data={points} margin={{ top: 8, right: 8, left: 0, bottom: 0 }}>
            <CartesianGrid strokeDasharray="3 3" stroke="var(--color-line)" vertical={false} />
            <XAxis dataKey="label" tick={{ fontSize: 12 }} interval="preserveStartEnd" minTickGap={16} />
            <YAxis tick={{ fontSize: 12 }} allowDecimals={false} width={36} />
            <Tooltip />
            <Legend wrapperStyle={{ fontSize: 12 }} />
            <Line
              type="monotone"
              dataKey="views"
              name="Views"
              stroke="var(--color-brand)"
              strokeWidth={2}
              dot={false}
              isAnimationActive={false}
            />
            <Line
              type="monotone"
              dataKey="wishlists"
              name="Saves"
              stroke="var(--color-moss)"
              strokeWidth={2}
              dot={false}
              isAnimationActive={false}
            />
            <Line
              type="monotone"
              dataKey="sales"
              name="Sales"
              stroke="var(--color-ink)"
              strokeWidth={2}
              dot={false}
              isAnimationActive={false}
            />
          </LineChart>
        </ResponsiveContainer>
      </ChartArea>
      <div className="sr-only">
        <table>
          <caption>
            Views, wishlist saves, offers and sales by {data.period === '12m' ? 'month' : 'day'}
          </caption>
          <thead>
            <tr>
              <th scope="col">{data.period === '12m' ? 'Month' : 'Day'}</th>
              <th scope="col">Views</th>
              <th scope="col">Saves</th>
              <th scope="col">Offers</th>
              <th scope="col">Sales</th>
            </tr>
          </thead>
          <tbody>
            {points.map((point) => (
              <tr key={point.bucket}>
                <th scope="row">{point.label}</th>
                <td>{point.views}</td>
                <td>{point.wishlists}</td>
                <td>{point.offersReceived}</td>
                <td>{point.sales}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

function RevenueChart({ data }: { data: SellerAnalytics }) {
  const points = data.points.map((point) => ({
    label: bucketLabel(point.bucket),
    bucket: point.bucket,
    pounds: poundsValue(point.revenueNetMinor),
    minor: point.revenueNetMinor,
  }));
  return (
    <section aria-labelledby="revenue-chart-title" className={cn(sectionClass, 'relative min-w-0')}>
      <h2 id="revenue-chart-title" className="text-xl font-semibold">
        Revenue
      </h2>
      <ChartArea className="mt-4 h-64" data-testid="revenue-chart">
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={points} margin={{ top: 8, right: 8, left: 0, bottom: 0 }}>
            <CartesianGrid strokeDasharray="3 3" stroke="var(--color-line)" vertical={false} />
            <XAxis dataKey="label" tick={{ fontSize: 12 }} interval="preserveStartEnd" minTickGap={16} />
            <YAxis tick={{ fontSize: 12 }} tickFormatter={(v: number) => `£${v}`} width={48} />
            <Tooltip
              formatter={(value) => [formatPence(Math.round(Number(value) * 100)), 'Revenue']}
              cursor={{ fill: 'var(--color-paper-deep)' }}
            />
            <Bar dataKey="pounds" fill="var(--color-moss)" radius={[4, 4, 0, 0]} isAnimationActive={false} />
          </BarChart>
        </ResponsiveContainer>
      </ChartArea>
      <div className="sr-only">
        <table>
          <caption>Revenue by {data.period === '12m' ? 'month' : 'day'}</caption>
          <tbody>
            {points.map((point) => (
              <tr key={point.bucket}>
                <th scope="row">{point.label}</th>
                <td>{formatPence(point.minor)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

const STATUS: Record<string, string> = {
  active: 'On sale',
  reserved: 'Reserved',
  sold: 'Sold',
  withdrawn: 'Withdrawn',
  removed: 'Removed',
};

function ListingsTable({ data }: { data: SellerAnalytics }) {
  return (
    <section aria-labelledby="listing-figures-title" className={cn(sectionClass, 'relative min-w-0')}>
      <h2 id="listing-figures-title" className="text-xl font-semibold">
        Your listings
      </h2>
      <p className="mt-1 text-sm text-ink-muted">
        Books on sale, and those sold in the last {PERIOD_LABELS[data.period]}: views, saves and offers in the
        period.
      </p>
      {data.listings.length === 0 ? (
        <p className="mt-4 text-ink-muted">No books on sale or sold in this period yet.</p>
      ) : (
        <TableScroll label="Figures by listing" className="mt-4">
          <table className="w-full min-w-[36rem] text-left text-sm" data-testid="listing-figures">
            <thead className="border-b border-line text-ink-muted">
              <tr>
                <th scope="col" className="py-2 pr-3 font-semibold">
                  Book
                </th>
                <th scope="col" className="py-2 pr-3 text-right font-semibold">
                  Views
                </th>
                <th scope="col" className="py-2 pr-3 text-right font-semibold">
                  Saves
                </th>
                <th scope="col" className="py-2 pr-3 text-right font-semibold">
                  Offers
                </th>
                <th scope="col" className="py-2 text-right font-semibold">
                  Days listed
                </th>
              </tr>
            </thead>
            <tbody>
              {data.listings.map((listing) => (
                <tr key={listing.id} className="border-b border-line/60 align-top last:border-0">
                  <th scope="row" className="py-3 pr-3 font-normal">
                    {listing.slug && listing.status === 'active' ? (
                      <Link
                        to={`/listing/${listing.slug}`}
                        className="font-semibold text-ink underline-offset-4 hover:underline"
                      >
                        {listing.title}
                      </Link>
                    ) : (
                      <span className="font-semibold">{listing.title}</span>
                    )}
                    <span className="ml-2 text-xs text-ink-muted">
                      {STATUS[listing.status] ?? listing.status}
                      {listing.priceMinor !== null ? ` · ${formatPence(listing.priceMinor)}` : ''}
                    </span>
                    {listing.suggestion ? (
                      <p
                        className="mt-1 flex items-start gap-1.5 text-sm text-ink-soft"
                        data-testid="suggestion"
                      >
                        <Lightbulb aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-brand" />
                        {listing.suggestion}
                      </p>
                    ) : null}
                  </th>
                  <td className="py-3 pr-3 text-right tabular-nums">{listing.views}</td>
                  <td className="py-3 pr-3 text-right tabular-nums">{listing.wishlists}</td>
                  <td className="py-3 pr-3 text-right tabular-nums">{listing.offers}</td>
                  <td className="py-3 text-right tabular-nums">{listing.daysListed ?? '–'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </section>
  );
}
