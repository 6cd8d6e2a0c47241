/**
 * /admin/users (admins): the shared basic dashboard, then people. Search by email or name (kept
 * in the address as ?q=, which the command palette uses), open one (?user=) to see their roles,
 * listings and orders, suspend or unsuspend them with a reason, and grant or revoke moderator.
 * Every change is recorded in the audit log by the server.
 */
import { formatPence, traderAddress } from '@reshelf/contracts';
import { keepPreviousData } from '@tanstack/react-query';
import { Search, ShieldCheck, ShieldOff, UserRoundCheck, UserRoundX } from 'lucide-react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { AdminPageFrame, EmptyState, formatDateTime } from '../../components/staff/AdminPageFrame.tsx';
import { BasicDashboard } from '../../components/staff/BasicDashboard.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Input, Label } from '../../components/ui/input.tsx';
import { toast } from '../../components/ui/use-toast.ts';
import { TableScroll } from '../../kit/index.ts';
import { QueryView } from '../../kit/QueryView.tsx';
import { useFilterParams } from '../../kit/useFilterParams.ts';
import { apiErrorMessage } from '../../lib/api-errors.ts';
import { trpc } from '../../lib/trpc.ts';
import { cn } from '../../lib/utils.ts';
import { useSetModerator, useSetSuspended } from './hooks.ts';

const refused = (title: string) => (error: unknown) =>
  toast({ variant: 'destructive', title, description: apiErrorMessage(error) });

const filterSchema = z.object({ q: z.string().default(''), user: z.string().optional() });

export function UsersPage() {
  const filters = useFilterParams(filterSchema);
  const { q, user: selected } = filters.values;
  const form = useForm({ values: { q } });
  const people = trpc.staff.users.search.useQuery(
    { ...(q ? { q } : {}), limit: 50 },
    { placeholderData: keepPreviousData },
  );

  const search = form.handleSubmit((draft) => filters.set({ q: draft.q.trim(), user: undefined }));

  return (
    <AdminPageFrame
      title="Users"
      description="Find a person by email or name, see what they sell and buy, suspend an account, and choose who moderates. Admins only."
      testId="users-page"
    >
      <BasicDashboard />
      <form onSubmit={search} className="flex flex-col gap-2 sm:flex-row sm:items-end">
        <div className="flex flex-1 flex-col gap-1">
          <Label htmlFor="users-q">Email or name</Label>
          <Input id="users-q" placeholder="e.g. bookworm@reshelf.test" {...form.register('q')} />
        </div>
        <Button type="submit">
          <Search aria-hidden="true" />
          Search
        </Button>
      </form>

      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,1.1fr)]">
        <section aria-label="People">
          <QueryView
            query={people}
            pending="Loading people…"
            empty={<EmptyState testId="users-empty">Nobody matches “{q}”.</EmptyState>}
          >
            {(data) => (
              <ul className="flex flex-col gap-2" data-testid="users">
                {data.map((person) => (
                  <li key={person.id}>
                    <button
                      type="button"
                      data-testid="user-row"
                      aria-current={selected === person.id ? 'true' : undefined}
                      onClick={() => filters.set({ user: person.id })}
                      className={cn(
                        'flex w-full cursor-pointer flex-col gap-1 rounded-xl border border-line bg-paper p-3 text-left hover:border-brand/50',
                        selected === person.id && 'border-brand ring-2 ring-brand/20',
                      )}
                    >
                      <span className="flex flex-wrap items-center gap-2">
                        <span className="font-semibold break-all">{person.email}</span>
                        {person.roles.map((role) => (
                          <Badge key={role}>{role}</Badge>
                        ))}
                        {person.suspended ? <Badge tone="danger">suspended</Badge> : null}
                      </span>
                      <span className="text-sm text-ink-muted">
                        {person.displayName ?? 'No name'} · joined {formatDateTime(person.createdAt)}
                      </span>
                    </button>
                  </li>
                ))}
              </ul>
            )}
          </QueryView>
        </section>
        {selected ? <Person userId={selected} /> : null}
      </div>
    </AdminPageFrame>
  );
}

function Badge({ children, tone = 'plain' }: { children: string; tone?: 'plain' | 'danger' }) {
  return (
    <span
      className={cn(
        'rounded-full px-2 py-0.5 text-xs font-semibold',
        tone === 'danger' ? 'bg-red-100 text-red-800' : 'bg-brand-soft text-brand',
      )}
    >
      {children}
    </span>
  );
}

function Person({ userId }: { userId: string }) {
  const person = trpc.staff.users.get.useQuery({ userId });
  const reasonForm = useForm({ defaultValues: { reason: '' } });
  const suspend = useSetSuspended(userId, {
    onSuccess: (result) => {
      toast({
        title: result.suspended ? 'Account suspended' : 'Account restored',
        description: result.suspended
          ? `${result.email} can no longer sign in; their session has ended.`
          : `${result.email} can sign in again.`,
      });
      reasonForm.reset();
    },
    onError: refused('Account not changed'),
  });
  const moderator = useSetModerator(userId, {
    onSuccess: (result) => {
      const isModerator = result.roles.includes('moderator');
      toast({
        title: isModerator ? 'Moderator role granted' : 'Moderator role revoked',
        description: isModerator
          ? `${result.email} can now work the staff queues.`
          : `${result.email} no longer has the staff area.`,
      });
    },
    onError: refused('Role not changed'),
  });

  return (
    <QueryView query={person} pending="Loading…">
      {(data) => {
        const isModerator = data.roles.includes('moderator');
        return (
          <section
            aria-label={`Person: ${data.email}`}
            data-testid="user-detail"
            className="flex flex-col gap-4 rounded-xl border border-line bg-paper p-4 shadow-card sm:p-5"
          >
            <div>
              <h2 className="text-xl font-semibold break-all">{data.email}</h2>
              <p className="text-sm text-ink-muted">
                {data.displayName ?? 'No name'} · joined {formatDateTime(data.createdAt)} ·{' '}
                {data.emailConfirmed ? 'email confirmed' : 'email not confirmed'}
              </p>
              <p className="mt-2 flex flex-wrap gap-2" data-testid="user-status">
                {data.roles.length ? (
                  data.roles.map((role) => <Badge key={role}>{role}</Badge>)
                ) : (
                  <Badge>member</Badge>
                )}
                {data.suspended ? <Badge tone="danger">suspended</Badge> : <Badge>active</Badge>}
              </p>
            </div>

            <p className="text-sm text-ink-soft" data-testid="user-trades">
              {data.business
                ? `Business seller: ${data.business.tradingName}, ${traderAddress(data.business)}${data.business.companyNumber ? ` · company ${data.business.companyNumber}` : ''}${data.business.vatNumber ? ` · VAT ${data.business.vatNumber}` : ''} · ${data.business.contactEmail}`
                : data.trades === 'private'
                  ? 'Sells privately (said so)'
                  : 'Has not said whether they sell as a business'}
            </p>

            <dl className="grid grid-cols-2 gap-3 text-sm sm:grid-cols-4">
              <Figure label="Listings" value={data.listings.total} />
              <Figure label="On sale" value={data.listings.active} />
              <Figure label="Bought" value={data.orders.bought} />
              <Figure label="Sold" value={data.orders.sold} />
            </dl>

            {data.orders.recent.length ? (
              <TableScroll label="Recent orders">
                <table className="w-full text-left text-sm">
                  <caption className="sr-only">Recent orders</caption>
                  <thead className="text-ink-muted">
                    <tr>
                      <th className="py-1 pr-3 font-semibold">Order</th>
                      <th className="py-1 pr-3 font-semibold">Side</th>
                      <th className="py-1 pr-3 font-semibold">Status</th>
                      <th className="py-1 text-right font-semibold">Total</th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.orders.recent.map((order) => (
                      <tr key={order.id} className="border-t border-line">
                        <td className="py-1.5 pr-3 font-mono">{order.reference}</td>
                        <td className="py-1.5 pr-3">{order.side}</td>
                        <td className="py-1.5 pr-3">{order.status}</td>
                        <td className="py-1.5 text-right tabular-nums">{formatPence(order.totalMinor)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </TableScroll>
            ) : (
              <p className="text-sm text-ink-muted">No orders yet.</p>
            )}

            <form
              className="flex flex-col gap-2 border-t border-line pt-4"
              onSubmit={reasonForm.handleSubmit(({ reason }) =>
                suspend.mutate({ userId, suspended: !data.suspended, reason }),
              )}
            >
              <Label htmlFor="suspend-reason">
                {data.suspended ? 'Why restore this account?' : 'Why suspend this account?'}
              </Label>
              <Input
                id="suspend-reason"
                maxLength={500}
                {...reasonForm.register('reason')}
                placeholder={data.suspended ? 'e.g. Appeal upheld' : 'e.g. Repeated counterfeit listings'}
              />
              <div className="flex flex-col gap-2 sm:flex-row">
                <Button
                  type="submit"
                  variant={data.suspended ? 'outline' : 'destructive'}
                  disabled={suspend.isPending}
                >
                  {data.suspended ? <UserRoundCheck aria-hidden="true" /> : <UserRoundX aria-hidden="true" />}
                  {data.suspended ? 'Unsuspend' : 'Suspend'}
                </Button>
                <Button
                  type="button"
                  variant="outline"
                  disabled={moderator.isPending}
                  onClick={() => moderator.mutate({ userId, moderator: !isModerator })}
                >
                  {isModerator ? <ShieldOff aria-hidden="true" /> : <ShieldCheck aria-hidden="true" />}
                  {isModerator ? 'Revoke moderator' : 'Grant moderator'}
                </Button>
              </div>
            </form>
          </section>
        );
      }}
    </QueryView>
  );
}

function Figure({ label, value }: { label: string; value: number }) {
  return (
    <div className="rounded-lg bg-paper-deep p-3">
      <dt className="text-ink-muted">{label}</dt>
      <dd className="font-serif text-2xl font-semibold tabular-nums">{value.toLocaleString('en-GB')}</dd>
    </div>
  );
}
