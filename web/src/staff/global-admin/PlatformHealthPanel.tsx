/**
 * /global-admin's platform health: the database, the job runner and the mail outbox, each
 * with its status and the reasons behind it. Read again every 30 seconds while open.
 */
import { countOf } from '@reshelf/contracts';
import { Activity, Database, Mail, RefreshCw, Timer } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { QueryView } from '../../kit/QueryView.tsx';
import { type RouterOutputs, trpc } from '../../lib/trpc.ts';
import { cn } from '../../lib/utils.ts';

type Health = RouterOutputs['staff']['globalAdmin']['health'];
type Status = Health['status'];

const STATUS_LABEL: Record<Status, string> = { ok: 'Healthy', warning: 'Needs a look', failing: 'Failing' };
const STATUS_STYLE: Record<Status, string> = {
  ok: 'bg-moss-soft text-moss',
  warning: 'bg-accent/25 text-accent-foreground',
  failing: 'bg-destructive/10 text-destructive',
};

const TRANSPORT_LABEL: Record<NonNullable<Health['mail']['transport']>, string> = {
  dev: 'the dev mailbox (nothing leaves)',
  smtp: 'SMTP',
  resend: 'Resend',
};

const timeFormat = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});
const when = (iso: string | null) => (iso ? timeFormat.format(new Date(iso)) : 'never');

function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toLocaleString('en-GB', { maximumFractionDigits: 1 })} MB`;
}

function StatusBadge({ status }: { status: Status }) {
  return (
    <span
      data-testid="health-status"
      data-status={status}
      className={cn(
        'inline-block shrink-0 rounded-full px-2.5 py-0.5 text-xs font-semibold',
        STATUS_STYLE[status],
      )}
    >
      {STATUS_LABEL[status]}
    </span>
  );
}

function Part({
  name,
  icon,
  status,
  problems,
  children,
}: {
  name: string;
  icon: ReactNode;
  status: Status;
  problems: string[];
  children: ReactNode;
}) {
  const id = `health-${name.toLowerCase().replace(/\s+/g, '-')}`;
  return (
    <section
      aria-labelledby={id}
      data-testid={id}
      className="flex min-w-0 flex-col gap-3 rounded-xl border border-line bg-paper p-5 shadow-card"
    >
      <div className="flex items-start justify-between gap-3">
        <h3 id={id} className="flex items-center gap-2 font-sans text-base font-semibold text-ink">
          <span className="flex size-8 items-center justify-center rounded-full bg-brand-soft text-brand">
            {icon}
          </span>
          {name}
        </h3>
        <StatusBadge status={status} />
      </div>
      {problems.length > 0 ? (
        <ul className="list-disc pl-5 text-sm text-ink" data-testid="health-problems">
          {problems.map((problem) => (
            <li key={problem}>{problem}</li>
          ))}
        </ul>
      ) : null}
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1.5 text-sm [&_dt]:break-all">{children}</dl>
    </section>
  );
}

function Fact({ term, children, testId }: { term: string; children: ReactNode; testId?: string }) {
  return (
    <>
      <dt className="text-ink-muted">{term}</dt>
      <dd className="min-w-0 break-words text-ink" data-testid={testId}>
        {children}
      </dd>
    </>
  );
}

export function PlatformHealthPanel() {
  const health = trpc.staff.globalAdmin.health.useQuery(undefined, { refetchInterval: 30_000 });

  return (
    <section aria-labelledby="health-title" className="mt-10" data-testid="platform-health">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h2 id="health-title" className="flex items-center gap-2 text-2xl font-semibold">
            Platform health {health.data ? <StatusBadge status={health.data.status} /> : null}
          </h2>
          <p className="mt-1 text-sm text-ink-muted">
            {health.data ? `Checked ${when(health.data.checkedAt)}.` : 'Checking…'} Read from the database, so
            every server reports the same.
          </p>
        </div>
        <Button
          variant="outline"
          size="sm"
          onClick={() => void health.refetch()}
          disabled={health.isFetching}
        >
          <RefreshCw aria-hidden="true" className={cn(health.isFetching && 'animate-spin')} />
          Check again
        </Button>
      </div>

      <QueryView
        query={health}
        pending={
          <div className="mt-4 grid gap-4 lg:grid-cols-3">
            <Skeleton className="h-48" />
            <Skeleton className="h-48" />
            <Skeleton className="h-48" />
          </div>
        }
        error={(message) => (
          <p
            role="alert"
            className="mt-4 rounded-xl border border-destructive/30 bg-destructive/5 p-4 text-sm"
          >
            The health check failed: {message}
          </p>
        )}
      >
        {(data) => (
          <div className="mt-4 grid gap-4 lg:grid-cols-3">
            <Part
              name="Database"
              icon={<Database aria-hidden="true" className="size-4" />}
              {...data.database}
            >
              <Fact term="Round trip" testId="database-round-trip">
                {data.database.roundTripMs} ms
              </Fact>
              <Fact term="PostgreSQL">{data.database.version}</Fact>
              <Fact term="Size">{megabytes(data.database.sizeBytes)}</Fact>
              <Fact term="Connections">{data.database.connections}</Fact>
              <Fact term="Migrations" testId="database-migrations">
                {data.database.migrationsApplied} applied
                {data.database.migrationsPending.length
                  ? `, ${data.database.migrationsPending.length} pending`
                  : ''}
              </Fact>
            </Part>

            <Part name="Job runner" icon={<Timer aria-hidden="true" className="size-4" />} {...data.jobs}>
              {data.jobs.runs.map((run) => (
                <Fact key={run.job} term={run.job}>
                  <span data-testid="job-last-run" data-job={run.job}>
                    {run.lastStartedAt ? when(run.lastStartedAt) : 'never run'}
                  </span>
                  {run.runsLastDay ? (
                    <span className="block text-xs text-ink-muted">
                      {run.runsLastDay} in 24 h{run.failuresLastDay ? `, ${run.failuresLastDay} failed` : ''}
                    </span>
                  ) : null}
                </Fact>
              ))}
            </Part>

            <Part name="Mail outbox" icon={<Mail aria-hidden="true" className="size-4" />} {...data.mail}>
              <Fact term="Sends through" testId="mail-transport">
                {data.mail.transport ? TRANSPORT_LABEL[data.mail.transport] : 'unknown'}
              </Fact>
              <Fact term="Queued" testId="mail-queued">
                {data.mail.queued}
                {data.mail.oldestQueuedAt ? ` (oldest ${when(data.mail.oldestQueuedAt)})` : ''}
                {data.mail.retrying ? (
                  <span className="block text-xs text-ink-muted">
                    {data.mail.retrying} waiting to try again
                  </span>
                ) : null}
              </Fact>
              <Fact term="Sending now" testId="mail-sending">
                {data.mail.sending}
              </Fact>
              <Fact term="Sent in 24 h" testId="mail-sent">
                {data.mail.sentLastDay}
              </Fact>
              <Fact term="Failed in 24 h" testId="mail-failed">
                {data.mail.failedLastDay}
              </Fact>
              <Fact term="Last sent">{when(data.mail.lastSentAt)}</Fact>
              {data.mail.lastErrors.length ? (
                <Fact term="Last errors" testId="mail-errors">
                  <ul className="flex flex-col gap-1.5">
                    {data.mail.lastErrors.map((failure) => (
                      <li key={`${failure.at}-${failure.template}-${failure.error}`}>
                        <span className="block text-xs text-ink-muted">
                          {when(failure.at)} · {failure.template} ·{' '}
                          {failure.status === 'failed'
                            ? `failed after ${countOf(failure.attempts, 'attempt', 'attempts')}`
                            : `attempt ${failure.attempts}, will try again`}
                        </span>
                        {failure.error}
                      </li>
                    ))}
                  </ul>
                </Fact>
              ) : null}
            </Part>
          </div>
        )}
      </QueryView>
      <p className="mt-3 flex items-center gap-1.5 text-xs text-ink-muted">
        <Activity aria-hidden="true" className="size-3.5" /> The job runner is failing when a job has not run
        for 5 minutes; mail is failing when a message has waited in the queue for 15, or when the latest
        attempt failed and nothing has been sent since.
      </p>
    </section>
  );
}
