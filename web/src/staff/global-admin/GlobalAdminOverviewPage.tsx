import { ADMIN_TIERS, countOf } from '@reshelf/contracts';
import { ShieldCheck, UserPlus } from 'lucide-react';
import { useState } from 'react';
import { AdminSkeleton } from '../../components/placeholders.tsx';
import { Button } from '../../components/ui/button.tsx';
import { QueryView } from '../../kit/QueryView.tsx';
import { usePageMeta } from '../../lib/page-meta.ts';
import { useSession } from '../../lib/session.ts';
import { trpc } from '../../lib/trpc.ts';
import { cn } from '../../lib/utils.ts';
import { type AdminRecord, DeactivateDialog, SetTierDialog } from './AdminRecordDialogs.tsx';
import { AdminCallFailed } from './access.tsx';
import { formatDate, GlobalAdminFrame } from './GlobalAdminFrame.tsx';
import { PlatformHealthPanel } from './PlatformHealthPanel.tsx';

const TOP_LEVEL = Math.max(...Object.values(ADMIN_TIERS));

type Editing = { kind: 'grant' } | { kind: 'tier' | 'deactivate'; record: AdminRecord } | null;

/**
 * /global-admin (read_only and above): your tier, platform health, and everyone with an admin
 * record; super admins grant, change, deactivate and reactivate records (never their own).
 */
export function GlobalAdminOverviewPage() {
  usePageMeta('Global admin');
  const overview = trpc.staff.globalAdmin.overview.useQuery();
  const session = useSession();
  const [editing, setEditing] = useState<Editing>(null);
  const selfId = session.status === 'signed-in' ? session.user.id : null;

  return (
    <QueryView
      query={overview}
      pending={<AdminSkeleton label="Loading global admin" />}
      error={() => (
        <AdminCallFailed
          error={overview.error}
          retry={() => void overview.refetch()}
          retrying={overview.isFetching}
        />
      )}
    >
      {(data) => {
        const { tier, level, admins } = data;
        const canManage = level >= ADMIN_TIERS.super_admin;
        const actions = (admin: AdminRecord) =>
          canManage && admin.userId !== selfId ? (
            <div className="flex flex-wrap gap-2">
              <Button size="sm" variant="outline" onClick={() => setEditing({ kind: 'tier', record: admin })}>
                {admin.isActive ? 'Change tier' : 'Reactivate'}
              </Button>
              {admin.isActive ? (
                <Button
                  size="sm"
                  variant="ghost"
                  onClick={() => setEditing({ kind: 'deactivate', record: admin })}
                >
                  Deactivate
                </Button>
              ) : null}
            </div>
          ) : canManage ? (
            <span className="text-xs text-ink-muted">You</span>
          ) : null;

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

            <PlatformHealthPanel />

            <section aria-labelledby="admins-title" className="mt-10">
              <div className="flex flex-wrap items-end justify-between gap-3">
                <div>
                  <h2 id="admins-title" className="text-2xl font-semibold">
                    Admin users
                  </h2>
                  <p className="mt-1 text-sm text-ink-muted">
                    {countOf(admins.length, 'record', 'records')}. Only active records grant access.
                    {canManage ? '' : ' Only super admins change them.'}
                  </p>
                </div>
                {canManage ? (
                  <Button variant="brand" onClick={() => setEditing({ kind: 'grant' })}>
                    <UserPlus aria-hidden="true" />
                    Grant a tier
                  </Button>
                ) : null}
              </div>
              {admins.length === 0 ? (
                <p className="mt-4 rounded-xl border border-dashed border-line p-6 text-ink-muted">
                  No admin records yet.
                </p>
              ) : (
                <>
                  <ul className="mt-4 flex flex-col gap-3 md:hidden">
                    {admins.map((admin) => (
                      <li
                        key={admin.userId}
                        className="rounded-xl border border-line bg-paper p-4 shadow-card"
                      >
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
                        {canManage ? <div className="mt-3">{actions(admin)}</div> : null}
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
                          {canManage ? (
                            <th scope="col" className="px-4 py-3 font-semibold">
                              <span className="sr-only">Actions</span>
                            </th>
                          ) : null}
                        </tr>
                      </thead>
                      <tbody className="divide-y divide-line">
                        {admins.map((admin) => (
                          <tr key={admin.userId} data-testid="admin-record" data-email={admin.email}>
                            <td className="px-4 py-3 font-semibold text-ink">{admin.displayName || '—'}</td>
                            <td className="px-4 py-3 break-words text-ink-soft">{admin.email}</td>
                            <td className="px-4 py-3">
                              <TierBadge tier={admin.tier} />
                            </td>
                            <td className="px-4 py-3">
                              <StatusBadge active={admin.isActive} />
                            </td>
                            <td className="px-4 py-3 whitespace-nowrap text-ink-soft">
                              {formatDate(admin.since)}
                            </td>
                            {canManage ? <td className="px-4 py-3">{actions(admin)}</td> : null}
                          </tr>
                        ))}
                      </tbody>
                    </table>
                  </div>
                </>
              )}
            </section>

            {editing?.kind === 'grant' || editing?.kind === 'tier' ? (
              <SetTierDialog
                key={editing.kind === 'tier' ? editing.record.userId : 'grant'}
                record={editing.kind === 'tier' ? editing.record : null}
                open
                onOpenChange={(open) => (open ? undefined : setEditing(null))}
              />
            ) : null}
            {editing?.kind === 'deactivate' ? (
              <DeactivateDialog
                key={editing.record.userId}
                record={editing.record}
                open
                onOpenChange={(open) => (open ? undefined : setEditing(null))}
              />
            ) : null}
          </GlobalAdminFrame>
        );
      }}
    </QueryView>
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
