import { ANALYTICS_PERIODS, type AnalyticsPeriod } from '@reshelf/contracts';
import { useSearchParams } from 'react-router-dom';
import { PageBody, PageHeader } from '../../components/PageHeader.tsx';
import { usePageMeta } from '../../lib/page-meta.ts';
import { PeriodPicker, SellerAnalyticsPanel } from './SellerAnalytics.tsx';

/** The period in the URL (?period=7d|30d|12m), 30 days when absent or unknown. */
export function usePeriod(): [AnalyticsPeriod, (period: AnalyticsPeriod) => void] {
  const [params, setParams] = useSearchParams();
  const asked = params.get('period');
  const period = (ANALYTICS_PERIODS as readonly string[]).includes(asked ?? '')
    ? (asked as AnalyticsPeriod)
    : '30d';
  return [
    period,
    (next) =>
      setParams(
        (current) => {
          current.set('period', next);
          return current;
        },
        { replace: true },
      ),
  ];
}

/** /account/analytics (signed in): how the member's books are doing. */
export function SellerAnalyticsPage() {
  usePageMeta('Your seller analytics');
  const [period, setPeriod] = usePeriod();
  return (
    <div>
      <PageHeader
        title="Your seller analytics"
        description="How your books are doing: views, saves, offers and sales, with a suggestion where a listing could do better."
        crumbs={[{ to: '/account', label: 'Your account' }]}
      >
        <div className="mt-6">
          <PeriodPicker period={period} onChange={setPeriod} />
        </div>
      </PageHeader>
      <PageBody>
        <SellerAnalyticsPanel scope="seller" period={period} />
      </PageBody>
    </div>
  );
}
