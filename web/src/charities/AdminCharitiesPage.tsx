/**
 * /admin/charities: staff review charity applications. The queue of pending ones with what the
 * charity told us and the register to check its number with; approve, or reject with a
 * reason the owner is emailed. Approved and rejected ones are listed for reference.
 */
import { CHARITY_REGISTER_LABELS, type CharityApplication, type CharityStatus } from '@reshelf/contracts';
import { BadgeCheck, X } from 'lucide-react';
import { useId, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { QueryError } from '../components/QueryError.tsx';
import { AdminPageFrame } from '../components/staff/AdminPageFrame.tsx';
import { Alert } from '../components/ui/alert.tsx';
import { Button } from '../components/ui/button.tsx';
import { Textarea } from '../components/ui/input.tsx';
import { notify } from '../components/ui/notify.ts';
import { Skeleton } from '../components/ui/skeleton.tsx';
import { apiErrorMessage } from '../lib/api-errors.ts';
import { mediaUrl } from '../lib/media.ts';
import { trpc } from '../lib/trpc.ts';
import { cn } from '../lib/utils.ts';

const TABS: { key: CharityStatus; label: string }[] = [
  { key: 'pending', label: 'Waiting' },
  { key: 'approved', label: 'Approved' },
  { key: 'rejected', label: 'Rejected' },
];

const DATE = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric' });

export function AdminCharitiesPage() {
  const [search, setSearch] = useSearchParams();
  const status = (TABS.find((tab) => tab.key === search.get('status'))?.key ?? 'pending') as CharityStatus;
  const list = trpc.charities.applications.useQuery({ status });
  return (
    <AdminPageFrame
      title="Charities"
      description="Check each application against its charity register before approving. Only approved charities sell and appear in the directory."
      testId="admin-charities"
    >
      <div role="tablist" aria-label="Applications" className="flex gap-2">
        {TABS.map((tab) => (
          <button
            key={tab.key}
            type="button"
            role="tab"
            aria-selected={status === tab.key}
            className={cn(
              'rounded-full border px-3 py-1 text-sm font-semibold',
              status === tab.key ? 'border-ink bg-ink text-paper' : 'border-line hover:border-ink/40',
            )}
            onClick={() => setSearch(tab.key === 'pending' ? {} : { status: tab.key })}
          >
            {tab.label}
          </button>
        ))}
      </div>
      {list.isPending ? (
        <Skeleton className="h-40 rounded-xl" />
      ) : list.isError ? (
        <QueryError what="the applications" onRetry={() => list.refetch()} retrying={list.isFetching} />
      ) : list.data.length === 0 ? (
        <p className="rounded-xl border border-dashed border-line p-6 text-ink-muted">
          {status === 'pending' ? 'No applications are waiting.' : 'None yet.'}
        </p>
      ) : (
        <ul className="flex flex-col gap-4" data-testid="charity-applications">
          {list.data.map((application) => (
            <ApplicationCard key={application.id} application={application} />
          ))}
        </ul>
      )}
    </AdminPageFrame>
  );
}

function ApplicationCard({ application }: { application: CharityApplication }) {
  const utils = trpc.useUtils();
  const review = trpc.charities.review.useMutation({
    onSuccess: (result) => {
      void utils.charities.applications.invalidate();
      void utils.charities.waitingCount.invalidate();
      notify.success(
        `${application.name} ${result.status === 'approved' ? 'approved' : 'rejected'}; the owner has been emailed.`,
      );
    },
  });
  const [rejecting, setRejecting] = useState(false);
  const [reason, setReason] = useState('');
  const id = useId();
  return (
    <li className="rounded-xl border border-line bg-paper p-5 shadow-card" data-testid="charity-application">
      <div className="flex flex-wrap items-start gap-4">
        {application.logoUrl ? (
          <img
            src={mediaUrl(application.logoUrl)}
            alt=""
            className="size-14 rounded-lg border border-line object-contain"
          />
        ) : null}
        <div className="min-w-0 flex-1">
          <h2 className="text-lg font-semibold">{application.name}</h2>
          <p className="text-sm text-ink-muted">
            Registered charity {application.registeredNumber} · check it with the{' '}
            {CHARITY_REGISTER_LABELS[application.register]}
          </p>
          <dl className="mt-3 grid gap-x-6 gap-y-1 text-sm sm:grid-cols-2">
            <div>
              <dt className="inline text-ink-muted">Contact: </dt>
              <dd className="inline">
                {[application.contactName, application.contactEmail, application.contactPhone]
                  .filter(Boolean)
                  .join(', ') || '—'}
              </dd>
            </div>
            <div>
              <dt className="inline text-ink-muted">Account: </dt>
              <dd className="inline">{application.ownerEmail ?? '—'}</dd>
            </div>
            <div>
              <dt className="inline text-ink-muted">Address: </dt>
              <dd className="inline">{application.address ?? '—'}</dd>
            </div>
            <div>
              <dt className="inline text-ink-muted">Website: </dt>
              <dd className="inline break-all">{application.website ?? '—'}</dd>
            </div>
            <div>
              <dt className="inline text-ink-muted">Applied: </dt>
              <dd className="inline">{DATE.format(new Date(application.createdAt))}</dd>
            </div>
          </dl>
          {application.description ? (
            <p className="mt-2 text-sm text-ink-soft">{application.description}</p>
          ) : null}
          {application.rejectionReason ? (
            <p className="mt-2 text-sm text-destructive">Rejected: {application.rejectionReason}</p>
          ) : null}
        </div>
      </div>
      {application.status === 'pending' && !rejecting ? (
        <div className="mt-4 flex flex-wrap gap-2">
          <Button
            variant="brand"
            disabled={review.isPending}
            onClick={() => review.mutate({ charityId: application.id, decision: 'approve' })}
          >
            <BadgeCheck aria-hidden="true" />
            Approve
          </Button>
          <Button variant="outline" onClick={() => setRejecting(true)}>
            <X aria-hidden="true" />
            Reject…
          </Button>
        </div>
      ) : null}
      {rejecting && application.status === 'pending' ? (
        <form
          className="mt-4 flex flex-col gap-2"
          onSubmit={(event) => {
            event.preventDefault();
            review.mutate({ charityId: application.id, decision: 'reject', reason });
          }}
        >
          <label htmlFor={`${id}-reason`} className="text-sm font-semibold">
            Reason (emailed to the applicant)
          </label>
          <Textarea
            id={`${id}-reason`}
            value={reason}
            maxLength={1000}
            onChange={(e) => setReason(e.target.value)}
          />
          <div className="flex gap-2">
            <Button type="submit" variant="destructive" disabled={review.isPending}>
              Reject the application
            </Button>
            <Button type="button" variant="ghost" onClick={() => setRejecting(false)}>
              Cancel
            </Button>
          </div>
        </form>
      ) : null}
      {review.error ? (
        <Alert tone="error" className="mt-3">
          {apiErrorMessage(review.error)}
        </Alert>
      ) : null}
    </li>
  );
}
