/**
 * /charity/dashboard: a charity's home. Without a charity: invitations to accept, or the way
 * to apply. While pending or rejected: where the application stands. Once approved: sales,
 * listings by status, payouts, top categories and months (Recharts), returns to answer, Gift
 * Aid per donor with its exports, the team, and recent bulk uploads.
 */
import type { AnalyticsPeriod } from '@reshelf/contracts';
import {
  BULK_ROW_STATUS_LABELS,
  type CharityDashboard,
  countOf,
  formatPence,
  type MyCharity,
  poundsValue,
  type ReturnRequest,
  SELLER_RETURN_STATUS_LABELS,
  taxYearLabel,
  taxYearOf,
} from '@reshelf/contracts';
import { Download, FileSpreadsheet, HeartHandshake, PackagePlus, UserPlus } from 'lucide-react';
import { useId, useState } from 'react';
import { Link } from 'react-router-dom';
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { BundleTiersSection, ReturnAnswer } from '../commerce/index.ts';
import { PageBody, PageHeader } from '../components/PageHeader.tsx';
import { PageSkeleton } from '../components/placeholders.tsx';
import { QueryError } from '../components/QueryError.tsx';
import { Alert } from '../components/ui/alert.tsx';
import { Button } from '../components/ui/button.tsx';
import { Input } from '../components/ui/input.tsx';
import { notify } from '../components/ui/notify.ts';
import { Skeleton } from '../components/ui/skeleton.tsx';
import { apiErrorMessage } from '../lib/api-errors.ts';
import { saveCsv } from '../lib/download.ts';
import { usePageMeta } from '../lib/page-meta.ts';
import { trpc } from '../lib/trpc.ts';
import { PeriodPicker, SellerAnalyticsPanel } from '../selling/index.ts';

const linkClass = 'font-semibold text-brand underline-offset-4 hover:underline';
const sectionClass = 'rounded-2xl border border-line bg-paper p-5 shadow-card sm:p-6';

const MONTH = new Intl.DateTimeFormat('en-GB', { month: 'short', timeZone: 'UTC' });
const DAY = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric' });

export function CharityDashboardPage() {
  usePageMeta('Charity dashboard');
  const mine = trpc.charities.mine.useQuery();
  if (mine.isPending) return <PageSkeleton />;
  if (mine.isError) {
    return (
      <PageBody>
        <QueryError what="your charity" onRetry={() => mine.refetch()} retrying={mine.isFetching} />
      </PageBody>
    );
  }
  const charity = mine.data;
  if (!charity) return <NoCharity />;
  return (
    <>
      <PageHeader
        title={charity.name}
        crumbs={[{ to: '/charity', label: 'Charities' }]}
        description={
          <span className="flex flex-wrap items-center gap-3 text-base">
            <span>Registered charity {charity.registeredNumber}</span>
            <span
              className="rounded-full bg-paper-edge px-2.5 py-0.5 text-xs font-semibold text-ink-soft"
              data-testid="charity-status"
            >
              {charity.status === 'approved'
                ? 'Approved'
                : charity.status === 'pending'
                  ? 'Waiting for approval'
                  : 'Not approved'}
            </span>
            {charity.status === 'approved' ? (
              <Link to={`/charity/${charity.slug}`} className={linkClass}>
                Your public page
              </Link>
            ) : null}
          </span>
        }
      >
        {charity.status === 'approved' ? (
          <div className="mt-6 flex flex-col gap-3 sm:flex-row">
            <Button asChild variant="brand" size="lg">
              <Link to="/charity/sell">
                <PackagePlus aria-hidden="true" />
                Sell a book
              </Link>
            </Button>
            <Button asChild variant="outline" size="lg">
              <Link to="/charity/bulk-listing">
                <FileSpreadsheet aria-hidden="true" />
                Bulk-list from a CSV
              </Link>
            </Button>
          </div>
        ) : null}
      </PageHeader>
      <PageBody className="flex flex-col gap-8">
        {charity.status === 'pending' ? (
          <Alert title="Your application is with our team">
            We check every charity against its register, usually within two working days, and email you either
            way. You can invite your shop’s staff meanwhile.
          </Alert>
        ) : charity.status === 'rejected' ? (
          <Alert tone="error" title="Your application was not approved">
            {charity.rejectionReason}{' '}
            <Link to="/charity/signup" className={linkClass}>
              Apply again
            </Link>
          </Alert>
        ) : (
          <ApprovedDashboard />
        )}
        <TeamSection charity={charity} />
      </PageBody>
    </>
  );
}

function NoCharity() {
  const utils = trpc.useUtils();
  const invitations = trpc.charities.invitations.useQuery();
  const accept = trpc.charities.acceptInvitation.useMutation({
    onSuccess: (charity) => {
      utils.charities.mine.setData(undefined, charity);
      void utils.charities.invalidate();
      notify.success(`You now sell for ${charity?.name}.`);
    },
  });
  return (
    <>
      <PageHeader title="Charity dashboard" crumbs={[{ to: '/charity', label: 'Charities' }]} />
      <PageBody className="flex max-w-3xl flex-col gap-6">
        {invitations.data?.length ? (
          <section aria-labelledby="invitations-title" className={sectionClass}>
            <h2 id="invitations-title" className="text-xl font-semibold">
              You’re invited
            </h2>
            <ul className="mt-4 flex flex-col gap-3">
              {invitations.data.map((invitation) => (
                <li key={invitation.id} className="flex flex-wrap items-center justify-between gap-3">
                  <span>
                    <strong>{invitation.charityName}</strong>
                    {invitation.invitedBy ? ` (from ${invitation.invitedBy})` : ''}
                  </span>
                  <Button
                    variant="brand"
                    disabled={accept.isPending}
                    onClick={() => accept.mutate({ invitationId: invitation.id })}
                  >
                    Accept and join
                  </Button>
                </li>
              ))}
            </ul>
            {accept.error ? (
              <Alert tone="error" className="mt-4">
                {apiErrorMessage(accept.error)}
              </Alert>
            ) : null}
          </section>
        ) : null}
        <section className={sectionClass}>
          <HeartHandshake aria-hidden="true" className="size-8 text-moss" />
          <h2 className="mt-3 text-xl font-semibold">Sell for a charity</h2>
          <p className="mt-2 text-ink-muted">
            Registered charities sell donated books on Reshelf. Apply for yours, or ask your charity’s owner
            on Reshelf to invite you with this account’s email address.
          </p>
          <Button asChild variant="brand" className="mt-4">
            <Link to="/charity/signup">Register your charity</Link>
          </Button>
        </section>
      </PageBody>
    </>
  );
}

function ApprovedDashboard() {
  const dashboard = trpc.charities.dashboard.useQuery();
  if (dashboard.isPending) return <Skeleton className="h-72 rounded-2xl" />;
  if (dashboard.isError) {
    return (
      <QueryError what="your figures" onRetry={() => dashboard.refetch()} retrying={dashboard.isFetching} />
    );
  }
  const data = dashboard.data;
  return (
    <>
      <section
        aria-label="At a glance"
        className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4"
        data-testid="charity-stats"
      >
        <Stat
          label="Books sold"
          value={String(data.sales.booksCount)}
          note={`${countOf(data.sales.ordersCount, 'order', 'orders')}, ${formatPence(data.sales.earningsMinor)} raised`}
        />
        <Stat
          label="Last 30 days"
          value={formatPence(data.sales.last30Minor)}
          note={`${countOf(data.sales.last30Books, 'book', 'books')} in ${countOf(data.sales.last30Count, 'order', 'orders')}`}
        />
        <Stat
          label="Payouts"
          value={formatPence(data.payouts.releasedMinor)}
          note={`${formatPence(data.payouts.heldMinor)} held until buyers have their books`}
        />
        <Stat label="Returns to answer" value={String(data.openReturns)} note="within 14 days of delivery" />
      </section>
      <div className="grid gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <SalesChart monthly={data.monthly} />
        <ListingsChart listings={data.listingsByStatus} />
      </div>
      <CharityAnalytics />
      <TopCategories categories={data.topCategories} />
      <BundleTiersSection owner="charity" className="" />
      <ReturnsSection />
      <GiftAidSection />
      <RecentImports />
    </>
  );
}

function Stat({ label, value, note }: { label: string; value: string; note: string }) {
  return (
    <div className={sectionClass}>
      <p className="text-sm font-semibold text-ink-muted">{label}</p>
      <p className="mt-1 font-serif text-3xl font-semibold">{value}</p>
      <p className="mt-1 text-sm text-ink-muted">{note}</p>
    </div>
  );
}

function SalesChart({ monthly }: { monthly: CharityDashboard['monthly'] }) {
  const data = monthly.map((m) => ({
    month: MONTH.format(new Date(`${m.month}-01T00:00:00Z`)),
    pounds: poundsValue(m.earningsMinor),
    orders: m.orders,
  }));
  return (
    <section aria-labelledby="sales-chart-title" className={sectionClass}>
      <h2 id="sales-chart-title" className="text-xl font-semibold">
        Sales over the last 12 months
      </h2>
      <div className="mt-4 h-64" data-testid="sales-chart">
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={data} margin={{ top: 8, right: 8, left: 0, bottom: 0 }}>
            <CartesianGrid strokeDasharray="3 3" stroke="var(--color-line)" vertical={false} />
            <XAxis dataKey="month" tick={{ fontSize: 12 }} interval="preserveStartEnd" />
            <YAxis tick={{ fontSize: 12 }} tickFormatter={(v: number) => `£${v}`} width={48} />
            <Tooltip
              formatter={(value) => [formatPence(Math.round(Number(value) * 100)), 'Raised']}
              cursor={{ fill: 'var(--color-paper-deep)' }}
            />
            <Bar dataKey="pounds" fill="var(--color-moss)" radius={[4, 4, 0, 0]} isAnimationActive={false} />
          </BarChart>
        </ResponsiveContainer>
      </div>
      <table className="sr-only">
        <caption>Sales by month</caption>
        <tbody>
          {data.map((m) => (
            <tr key={m.month}>
              <th>{m.month}</th>
              <td>{countOf(m.orders, 'sale', 'sales')}</td>
              <td>£{m.pounds.toFixed(2)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

const STATUS_LABELS: Record<string, string> = {
  draft: 'Drafts',
  active: 'On sale',
  reserved: 'Reserved',
  sold: 'Sold',
  refunded: 'Sold, then refunded',
  withdrawn: 'Withdrawn',
  removed: 'Removed',
};

function ListingsChart({ listings }: { listings: CharityDashboard['listingsByStatus'] }) {
  const data = listings.map((l) => ({ status: STATUS_LABELS[l.status] ?? l.status, count: l.count }));
  return (
    <section aria-labelledby="listings-chart-title" className={sectionClass}>
      <h2 id="listings-chart-title" className="text-xl font-semibold">
        Listings by status
      </h2>
      {data.length === 0 ? (
        <p className="mt-4 text-ink-muted">No listings yet.</p>
      ) : (
        <>
          <div className="mt-4 h-48" data-testid="listings-chart">
            <ResponsiveContainer width="100%" height="100%">
              <BarChart data={data} layout="vertical" margin={{ top: 0, right: 16, left: 8, bottom: 0 }}>
                <XAxis type="number" allowDecimals={false} tick={{ fontSize: 12 }} />
                <YAxis type="category" dataKey="status" tick={{ fontSize: 12 }} width={80} />
                <Tooltip cursor={{ fill: 'var(--color-paper-deep)' }} />
                <Bar
                  dataKey="count"
                  fill="var(--color-brand)"
                  radius={[0, 4, 4, 0]}
                  isAnimationActive={false}
                />
              </BarChart>
            </ResponsiveContainer>
          </div>
          <ul className="mt-3 flex flex-wrap gap-x-4 gap-y-1 text-sm" data-testid="listings-by-status">
            {data.map((l) => (
              <li key={l.status}>
                {l.status}: <strong>{l.count}</strong>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

function TopCategories({ categories }: { categories: CharityDashboard['topCategories'] }) {
  return (
    <section aria-labelledby="categories-title" className={sectionClass}>
      <h2 id="categories-title" className="text-xl font-semibold">
        Top categories
      </h2>
      {categories.length === 0 ? (
        <p className="mt-3 text-ink-muted">
          Your best-selling categories will show here after your first sales.
        </p>
      ) : (
        <table className="mt-3 w-full text-left text-sm">
          <thead>
            <tr className="border-b border-line text-ink-muted">
              <th className="py-2 font-semibold">Category</th>
              <th className="py-2 text-right font-semibold">Sold</th>
              <th className="py-2 text-right font-semibold">Raised</th>
            </tr>
          </thead>
          <tbody>
            {categories.map((c) => (
              <tr key={c.name} className="border-b border-line/60">
                <td className="py-2">{c.name}</td>
                <td className="py-2 text-right">{c.sold}</td>
                <td className="py-2 text-right">{formatPence(c.earningsMinor)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

// Returns ------------------------------------------------------------------------------------

function ReturnsSection() {
  const returns = trpc.charities.returns.useQuery();
  return (
    <section id="returns" aria-labelledby="returns-title" className={sectionClass}>
      <h2 id="returns-title" className="text-xl font-semibold">
        Returns
      </h2>
      <p className="mt-1 text-sm text-ink-muted">
        Buyers may return a book within 14 days of delivery. Accept to send them your address; mark the book
        received when it is back, and they are refunded the book and its postage.
      </p>
      {returns.isPending ? (
        <Skeleton className="mt-4 h-20" />
      ) : returns.isError ? (
        <QueryError what="returns" onRetry={() => returns.refetch()} retrying={returns.isFetching} />
      ) : returns.data.length === 0 ? (
        <p className="mt-4 text-ink-muted">No returns. </p>
      ) : (
        <ul className="mt-4 flex flex-col gap-3" data-testid="returns-list">
          {returns.data.map((item) => (
            <ReturnItem key={item.id} item={item} />
          ))}
        </ul>
      )}
    </section>
  );
}

function ReturnItem({ item }: { item: ReturnRequest }) {
  const utils = trpc.useUtils();
  const done = () => {
    void utils.charities.returns.invalidate();
    void utils.charities.dashboard.invalidate();
  };
  const accept = trpc.charities.acceptReturn.useMutation({ onSuccess: done });
  const decline = trpc.charities.declineReturn.useMutation({ onSuccess: done });
  const receive = trpc.charities.receiveReturn.useMutation({
    onSuccess: (r) => {
      done();
      notify.success(`Refunded ${formatPence(r.refundMinor ?? 0)} to the buyer.`);
    },
  });
  return (
    <li className="rounded-xl border border-line p-4" data-testid="return-item">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <p className="font-semibold">
          {item.title} <span className="font-normal text-ink-muted">({item.orderReference})</span>
        </p>
        <span className="text-sm font-semibold text-moss">{SELLER_RETURN_STATUS_LABELS[item.status]}</span>
      </div>
      <p className="mt-1 text-sm text-ink-soft">
        {item.buyerName ?? 'The buyer'} asked on {DAY.format(new Date(item.createdAt))}: “{item.reason}”
      </p>
      {item.declineReason ? (
        <p className="mt-1 text-sm text-ink-muted">You declined: “{item.declineReason}”</p>
      ) : null}
      {item.returnTrackingRef ? (
        <p className="mt-1 text-sm text-ink-soft" data-testid="return-item-tracking">
          Posted back with {item.returnCarrier}, tracking {item.returnTrackingRef}
        </p>
      ) : item.status === 'accepted' ? (
        <p className="mt-1 text-sm text-ink-muted">Waiting for the buyer to post it back</p>
      ) : null}
      {item.refundMinor ? (
        <p className="mt-1 text-sm text-ink-muted">Refunded {formatPence(item.refundMinor)}</p>
      ) : null}
      <ReturnAnswer
        item={item}
        asksAddress={false}
        accept={accept}
        decline={decline}
        receive={receive}
        size="sm"
      />
    </li>
  );
}

// Gift Aid ---------------------------------------------------------------------------------------

function GiftAidSection() {
  const [taxYear, setTaxYear] = useState(() => taxYearOf(new Date()));
  const summary = trpc.charities.giftAid.useQuery({ taxYear });
  const utils = trpc.useUtils();
  const [exporting, setExporting] = useState<string | null>(null);
  const id = useId();
  const exportCsv = async (detail: 'donors' | 'items') => {
    setExporting(detail);
    try {
      const file = await utils.charities.giftAidCsv.fetch({ taxYear, detail });
      saveCsv(file.fileName, file.csv);
    } catch (error) {
      notify.error(apiErrorMessage(error));
    } finally {
      setExporting(null);
    }
  };
  const years = summary.data?.years ?? [taxYear];
  return (
    <section id="gift-aid" aria-labelledby="gift-aid-title" className={sectionClass}>
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h2 id="gift-aid-title" className="text-xl font-semibold">
            Retail Gift Aid
          </h2>
          <p className="mt-1 text-sm text-ink-muted">
            Proceeds of donated books with a donor reference, per donor, in a UK tax year (6 April to 5
            April).
          </p>
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor={`${id}-year`} className="text-sm font-semibold">
            Tax year
          </label>
          <select
            id={`${id}-year`}
            className="h-10 rounded-lg border border-ink/20 bg-white px-3"
            value={taxYear}
            onChange={(event) => setTaxYear(Number(event.target.value))}
          >
            {[...new Set([...years, taxYear])]
              .sort((a, b) => b - a)
              .map((year) => (
                <option key={year} value={year}>
                  {taxYearLabel(year)}
                </option>
              ))}
          </select>
        </div>
      </div>
      {summary.isPending ? (
        <Skeleton className="mt-4 h-24" />
      ) : summary.isError ? (
        <QueryError what="Gift Aid" onRetry={() => summary.refetch()} retrying={summary.isFetching} />
      ) : summary.data.donors.length === 0 ? (
        <p className="mt-4 text-ink-muted">
          No sales of books with a donor reference in {summary.data.label}. Add a donor reference when you
          list a book, or in the donor_reference column of a CSV.
        </p>
      ) : (
        <>
          <p className="mt-4" data-testid="gift-aid-total">
            <strong>{formatPence(summary.data.totalMinor)}</strong> from{' '}
            {countOf(summary.data.itemsSold, 'book', 'books')} of{' '}
            {countOf(summary.data.donors.length, 'donor', 'donors')} in {summary.data.label}
          </p>
          <div className="mt-3 max-h-80 overflow-auto">
            <table className="w-full text-left text-sm">
              <thead>
                <tr className="border-b border-line text-ink-muted">
                  <th className="py-2 font-semibold">Donor reference</th>
                  <th className="py-2 text-right font-semibold">Books sold</th>
                  <th className="py-2 text-right font-semibold">Proceeds</th>
                </tr>
              </thead>
              <tbody>
                {summary.data.donors.map((donor) => (
                  <tr key={donor.donorReference} className="border-b border-line/60">
                    <td className="py-2">{donor.donorReference}</td>
                    <td className="py-2 text-right">{donor.itemsSold}</td>
                    <td className="py-2 text-right">{formatPence(donor.proceedsMinor)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
      <div className="mt-4 flex flex-wrap gap-2">
        <Button
          variant="outline"
          size="sm"
          disabled={exporting !== null}
          onClick={() => void exportCsv('donors')}
        >
          <Download aria-hidden="true" />
          Per donor (CSV)
        </Button>
        <Button
          variant="outline"
          size="sm"
          disabled={exporting !== null}
          onClick={() => void exportCsv('items')}
        >
          <Download aria-hidden="true" />
          Every book sold (CSV)
        </Button>
      </div>
    </section>
  );
}

// Team ---------------------------------------------------------------------------------------------

function TeamSection({ charity }: { charity: NonNullable<MyCharity> }) {
  const team = trpc.charities.team.useQuery();
  const utils = trpc.useUtils();
  const invite = trpc.charities.invite.useMutation({
    onSuccess: () => {
      setEmail('');
      void utils.charities.team.invalidate();
      notify.success('Invitation sent.');
    },
  });
  const revoke = trpc.charities.revokeInvitation.useMutation({
    onSuccess: () => void utils.charities.team.invalidate(),
  });
  const remove = trpc.charities.removeMember.useMutation({
    onSuccess: () => void utils.charities.team.invalidate(),
  });
  const [email, setEmail] = useState('');
  const id = useId();
  const owner = charity.role === 'owner';
  return (
    <section aria-labelledby="team-title" className={sectionClass}>
      <h2 id="team-title" className="text-xl font-semibold">
        Your team
      </h2>
      {team.isPending ? (
        <Skeleton className="mt-4 h-16" />
      ) : team.isError ? (
        <QueryError what="your team" onRetry={() => team.refetch()} retrying={team.isFetching} />
      ) : (
        <ul className="mt-3 flex flex-col gap-2" data-testid="team-list">
          {team.data.members.map((member) => (
            <li key={member.userId} className="flex flex-wrap items-center justify-between gap-2">
              <span>
                {member.name}
                {member.email ? <span className="text-ink-muted"> · {member.email}</span> : null}{' '}
                <span className="text-sm text-ink-muted">
                  ({member.role === 'owner' ? 'owner' : 'staff'})
                </span>
              </span>
              {owner && member.role === 'staff' ? (
                <Button size="sm" variant="ghost" onClick={() => remove.mutate({ userId: member.userId })}>
                  Remove
                </Button>
              ) : null}
            </li>
          ))}
          {team.data.invitations.map((invitation) => (
            <li
              key={invitation.id}
              className="flex flex-wrap items-center justify-between gap-2 text-ink-muted"
            >
              <span>{invitation.email} (invited)</span>
              <Button
                size="sm"
                variant="ghost"
                onClick={() => revoke.mutate({ invitationId: invitation.id })}
              >
                Cancel invitation
              </Button>
            </li>
          ))}
        </ul>
      )}
      {owner ? (
        <form
          className="mt-4 flex flex-col gap-2 sm:flex-row sm:items-end"
          onSubmit={(event) => {
            event.preventDefault();
            invite.mutate({ email });
          }}
        >
          <div className="flex flex-1 flex-col gap-1">
            <label htmlFor={`${id}-email`} className="text-sm font-semibold">
              Invite someone by email
            </label>
            <Input
              id={`${id}-email`}
              type="email"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              required
            />
          </div>
          <Button type="submit" variant="outline" disabled={invite.isPending} className="h-11">
            <UserPlus aria-hidden="true" />
            Send invitation
          </Button>
        </form>
      ) : null}
      {invite.error || revoke.error || remove.error ? (
        <Alert tone="error" className="mt-3">
          {apiErrorMessage(invite.error ?? revoke.error ?? remove.error)}
        </Alert>
      ) : null}
    </section>
  );
}

function RecentImports() {
  const imports = trpc.charities.imports.useQuery();
  if (!imports.data?.length) return null;
  return (
    <section aria-labelledby="imports-title" className={sectionClass}>
      <h2 id="imports-title" className="text-xl font-semibold">
        Recent CSV uploads
      </h2>
      <ul className="mt-3 flex flex-col gap-2 text-sm">
        {imports.data.map((item) => (
          <li key={item.id} className="flex flex-wrap justify-between gap-2">
            <Link to={`/charity/bulk-listing?import=${item.id}`} className={linkClass}>
              {item.fileName}
            </Link>
            <span className="text-ink-muted">
              {DAY.format(new Date(item.createdAt))} · {item.listedRows}{' '}
              {BULK_ROW_STATUS_LABELS.listed.toLowerCase()}
              {item.invalidRows + item.failedRows > 0
                ? ` · ${item.invalidRows + item.failedRows} to correct`
                : ''}
              {item.status === 'processing' ? ' · listing…' : ''}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The same figures as a seller's /account/analytics, for the charity's books. */
function CharityAnalytics() {
  const [period, setPeriod] = useState<AnalyticsPeriod>('30d');
  return (
    <section aria-labelledby="charity-analytics-title" className="flex flex-col gap-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <h2 id="charity-analytics-title" className="text-2xl font-semibold">
          How your books are doing
        </h2>
        <PeriodPicker period={period} onChange={setPeriod} />
      </div>
      <SellerAnalyticsPanel scope="charity" period={period} />
    </section>
  );
}
