import { useId } from 'react';
import { useSearchParams } from 'react-router-dom';
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { AdminPageFrame } from '../../components/staff/AdminPageFrame.tsx';
import { Button } from '../../components/ui/button.tsx';
import { ChartArea } from '../../kit/ChartArea.tsx';
import { QueryView } from '../../kit/QueryView.tsx';
import { trpc } from '../../lib/trpc.ts';

type Range = 'daily' | 'monthly';
type Metric = 'listingsPublished' | 'ordersPaid' | 'signUps';

const METRICS: { key: Metric; title: string; colour: string }[] = [
  { key: 'listingsPublished', title: 'Listings published', colour: 'var(--color-brand)' },
  { key: 'ordersPaid', title: 'Orders paid', colour: 'var(--color-moss)' },
  { key: 'signUps', title: 'Sign-ups', colour: 'var(--color-ink-soft)' },
];

const DAY = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });
const MONTH = new Intl.DateTimeFormat('en-GB', { month: 'short', timeZone: 'UTC' });

function label(bucket: string): string {
  return bucket.length === 7
    ? MONTH.format(new Date(`${bucket}-01T00:00:00Z`))
    : DAY.format(new Date(`${bucket}T00:00:00Z`));
}

export function AnalyticsPage() {
  const [params, setParams] = useSearchParams();
  const range: Range = params.get('range') === 'monthly' ? 'monthly' : 'daily';
  const series = trpc.staff.analytics.series.useQuery({ range });
  const choose = (next: Range) =>
    setParams(
      (current) => {
        const copy = new URLSearchParams(current);
        if (next === 'monthly') copy.set('range', 'monthly');
        else copy.delete('range');
        return copy;
      },
      { replace: true },
    );

  return (
    <AdminPageFrame
      title="Analytics"
      description="How the marketplace is growing: listings published, orders paid and people signing up, in London time."
      testId="analytics-page"
      actions={
        <fieldset className="flex gap-2">
          <legend className="sr-only">Range</legend>
          <Button
            variant={range === 'daily' ? 'default' : 'outline'}
            aria-pressed={range === 'daily'}
            onClick={() => choose('daily')}
          >
            Last 30 days
          </Button>
          <Button
            variant={range === 'monthly' ? 'default' : 'outline'}
            aria-pressed={range === 'monthly'}
            onClick={() => choose('monthly')}
          >
            This year by month
          </Button>
        </fieldset>
      }
    >
      <QueryView query={series} pending="Loading analytics…">
        {(data) => (
          <div className="grid gap-4 lg:grid-cols-2" data-testid="analytics-charts" data-range={data.range}>
            {METRICS.map((metric) => (
              <MetricChart
                key={metric.key}
                metric={metric}
                total={data.totals[metric.key]}
                data={data.points.map((point) => ({
                  bucket: point.bucket,
                  label: label(point.bucket),
                  value: point[metric.key],
                }))}
              />
            ))}
          </div>
        )}
      </QueryView>
    </AdminPageFrame>
  );
}

function MetricChart({
  metric,
  total,
  data,
}: {
  metric: (typeof METRICS)[number];
  total: number;
  data: { bucket: string; label: string; value: number }[];
}) {
  const id = useId();
  return (
    <section
      aria-labelledby={id}
      className="rounded-xl border border-line bg-paper p-4"
      data-testid="analytics-chart"
      data-metric={metric.key}
    >
      <div className="flex items-baseline justify-between gap-2">
        <h2 id={id} className="text-lg font-semibold">
          {metric.title}
        </h2>
        <p className="text-2xl font-semibold tabular-nums" data-testid="analytics-total">
          {total.toLocaleString('en-GB')}
        </p>
      </div>
      <ChartArea className="mt-3 h-56">
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={data} margin={{ top: 8, right: 8, left: 0, bottom: 0 }}>
            <CartesianGrid strokeDasharray="3 3" stroke="var(--color-line)" vertical={false} />
            <XAxis dataKey="label" tick={{ fontSize: 12 }} interval="preserveStartEnd" />
            <YAxis tick={{ fontSize: 12 }} allowDecimals={false} width={36} />
            <Tooltip formatter={(value) => [Number(value).toLocaleString('en-GB'), metric.title]} />
            <Bar dataKey="value" fill={metric.colour} radius={[4, 4, 0, 0]} isAnimationActive={false} />
          </BarChart>
        </ResponsiveContainer>
      </ChartArea>
      <table className="sr-only">
        <caption>
          {metric.title} by {data[0]?.bucket.length === 7 ? 'month' : 'day'}
        </caption>
        <tbody>
          {data.map((point) => (
            <tr key={point.bucket} data-testid="analytics-point" data-bucket={point.bucket}>
              <th scope="row">{point.label}</th>
              <td>{point.value}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
