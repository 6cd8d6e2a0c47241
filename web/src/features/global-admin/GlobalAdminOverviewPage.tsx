import { ADMIN_TIERS } from '@reshelf/contracts';
import { ShieldCheck } from 'lucide-react';
import { AdminSkeleton } from '../../components/placeholders.tsx';
import { usePageMeta } from '../../lib/page-meta.ts';
import { trpc } from '../../lib/trpc.ts';
import { cn } from '../../lib/utils.ts';
import { AdminCallFailed } from './access.tsx';
import { formatDate, GlobalAdminFrame } from './GlobalAdminFrame.tsx';

const TOP_LEVEL = Math.max(...Object.values(ADMIN_TIERS));

/** /global-admin (read_only and above): your tier, and everyone with an admin record. */
export function GlobalAdminOverviewPage() {
  usePageMeta('Global admin');
  const overview = trpc.globalAdmin.overview.useQuery();

  if (overview.isPending) return <AdminSkeleton label="Loading global admin" />;
  if (overview.isError) {
    return (
      <AdminCallFailed
        error={overview.error}
        retry={() => void overview.refetch()}
        retrying={overview.isFetching}
      />
    );
  }
  const { tier, level, admins } = overview.data;

  return (
    <GlobalAdminFrame
      title="Overview"
      description="Who can use global admin, and at which tier. Tiers, highest first: super_admin, ops_admin, support_agent, read_only."
    >
      <section
        aria-labelledby="your-tier-title"
        data-testid="your-tier"
        className="flex max-w-xl items-start gap-4 rounded-xl border border-line bg-paper p-5 shadow-card sm:p-6"
      >
        <span className="flex size-11 shrink-0 items-center justify-center rounded-full bg-brand-soft text-brand">
          <ShieldCheck aria-hidden="true" className="size-5" />
        </span>
        <div>
          <h2 id="your-tier-title" className="font-sans text-sm font-semibold text-ink-muted">
            Your tier
          </h2>
          <p className="mt-1 font-serif text-2xl font-semibold text-ink">{tier}</p>
          <p className="mt-1 text-sm text-ink-muted">
            Level {level} of {TOP_LEVEL}
          </p>
        </div>
      </section>

      <section aria-labelledby="admins-title" className="mt-10">
        <h2 id="admins-title" className="text-2xl font-semibold">
          Admin users
        </h2>
        <p className="mt-1 text-sm text-ink-muted">
          {admins.length} {admins.length === 1 ? 'record' : 'records'}. Only active records grant access.
        </p>
        {admins.length === 0 ? (
          <p className="mt-4 rounded-xl border border-dashed border-line p-6 text-ink-muted">
            No admin records yet.
          </p>
        ) : (
          <>
            <ul className="mt-4 flex flex-col gap-3 md:hidden">
              {admins.map((admin) => (
                <li key={admin.userId} className="rounded-xl border border-line bg-paper p-4 shadow-card">
                  <div className="flex items-start justify-between gap-3">
                    <div className="min-w-0">
                      <p className="truncate font-semibold text-ink">{admin.displayName || '—'}</p>
                      <p className="truncate text-sm text-ink-muted">{admin.email}</p>
                    </div>
                    <StatusBadge active={admin.isActive} />
                  </div>
                  <p className="mt-3 flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-ink-soft">
                    <TierBadge tier={admin.tier} />
                    <span>Since {formatDate(admin.since)}</span>
                  </p>
                </li>
              ))}
            </ul>
            <div className="mt-4 hidden overflow-hidden rounded-xl border border-line bg-paper shadow-card md:block">
              <table className="w-full text-left text-sm" data-testid="admin-users">
                <thead className="bg-paper-deep/70 text-xs uppercase tracking-wider text-ink-muted">
                  <tr>
                    <th scope="col" className="px-4 py-3 font-semibold">
                      Name
                    </th>
                    <th scope="col" className="px-4 py-3 font-semibold">
                      Email
                    </th>
                    <th scope="col" className="px-4 py-3 font-semibold">
                      Tier
                    </th>
                    <th scope="col" className="px-4 py-3 font-semibold">
                      Status
                    </th>
                    <th scope="col" className="px-4 py-3 font-semibold">
                      Since
                    </th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-line">
                  {admins.map((admin) => (
                    <tr key={admin.userId}>
                      <td className="px-4 py-3 font-semibold text-ink">{admin.displayName || '—'}</td>
                      <td className="px-4 py-3 break-words text-ink-soft">{admin.email}</td>
                      <td className="px-4 py-3">
                        <TierBadge tier={admin.tier} />
                      </td>
                      <td className="px-4 py-3">
                        <StatusBadge active={admin.isActive} />
                      </td>
                      <td className="px-4 py-3 whitespace-nowrap text-ink-soft">{formatDate(admin.since)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </>
        )}
      </section>
    </GlobalAdminFrame>
  );
}

const TIER_STYLES: Partial<Record<string, string>> = { super_admin: 'bg-ink text-paper' };

function TierBadge({ tier }: { tier: string }) {
  return (
    <span
      className={cn(
        'inline-block rounded-full bg-paper-deep px-2.5 py-0.5 font-mono text-xs font-semibold text-ink-soft',
        TIER_STYLES[tier],
      )}
    >
      {tier}
    </span>
  );
}

function StatusBadge({ active }: { active: boolean }) {
  return active ? (
    <span className="inline-block shrink-0 rounded-full bg-moss-soft px-2.5 py-0.5 text-xs font-semibold text-moss">
      Active
    </span>
  ) : (
    <span className="inline-block shrink-0 rounded-full bg-paper-deep px-2.5 py-0.5 text-xs font-semibold text-ink-muted">
      Inactive
    </span>
  );
}
