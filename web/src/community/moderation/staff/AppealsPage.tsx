/**
 * /admin/appeals (staff, moderators too): members' appeals against our team's removals, the open
 * ones oldest first with how long each has waited, beside the reports queue. Each shows what was
 * removed, the reason the member was given, who removed it, and the member's appeal. Someone
 * other than the one who removed it upholds it (the content goes back) or rejects it (the note
 * is the member's final reason); the server refuses the one who removed it, and the page says so
 * before they try.
 */
import { APPEAL_SAME_STAFF, type StaffAppeal } from '@reshelf/contracts';
import { keepPreviousData } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { AdminPageFrame, EmptyState, formatDateTime } from '../../../components/staff/AdminPageFrame.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { fieldClasses, Label, Textarea } from '../../../components/ui/input.tsx';
import { toast } from '../../../components/ui/use-toast.ts';
import { QueryView } from '../../../kit/QueryView.tsx';
import { apiErrorMessage } from '../../../lib/api-errors.ts';
import { trpc } from '../../../lib/trpc.ts';
import { waiting } from './waiting.ts';

const STATUSES = [
  ['open', 'Open'],
  ['upheld', 'Upheld'],
  ['rejected', 'Rejected'],
] as const;
type Status = (typeof STATUSES)[number][0];

export function AppealsPage() {
  const [params, setParams] = useSearchParams();
  const status: Status = STATUSES.some(([value]) => value === params.get('status'))
    ? (params.get('status') as Status)
    : 'open';
  const appeals = trpc.community.moderation.appeals.list.useQuery(
    { status },
    { placeholderData: keepPreviousData },
  );
  return (
    <AdminPageFrame
      title="Appeals"
      description="Members’ appeals against removals, oldest first. Someone other than the one who removed it decides: uphold it and the content goes back, or reject it with the final reason. The member is told either way."
      testId="appeals-page"
    >
      <div className="flex flex-col gap-3 rounded-xl border border-line bg-paper p-4 sm:flex-row sm:items-end">
        <div className="flex flex-col gap-1">
          <Label htmlFor="appeals-status">Status</Label>
          <select
            id="appeals-status"
            value={status}
            onChange={(event) => {
              const next = new URLSearchParams(params);
              if (event.target.value === 'open') next.delete('status');
              else next.set('status', event.target.value);
              setParams(next, { replace: true });
            }}
            className={`${fieldClasses} h-11`}
          >
            {STATUSES.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </div>
        <Link
          to="/admin/reports"
          className="text-sm font-semibold text-brand underline-offset-2 hover:underline"
        >
          The reports queue
        </Link>
      </div>
      <QueryView
        query={appeals}
        pending="Loading appeals…"
        empty={
          <EmptyState testId="appeals-empty">
            {status === 'open' ? 'No open appeals.' : `No ${status} appeals.`}
          </EmptyState>
        }
      >
        {(data) => (
          <ul className="flex flex-col gap-3" data-testid="appeals" aria-busy={appeals.isFetching}>
            {data.map((appeal) => (
              <AppealRow key={appeal.id} appeal={appeal} />
            ))}
          </ul>
        )}
      </QueryView>
    </AdminPageFrame>
  );
}

/** The removal as its owner was told it ("your listing …"), in staff's words ("their listing …"). */
const theirs = (what: string) => what.replace(/\byour\b/g, 'their');

function AppealRow({ appeal }: { appeal: StaffAppeal }) {
  const [deciding, setDeciding] = useState(false);
  return (
    <li
      data-testid="appeal"
      data-status={appeal.appeal?.status}
      className="flex min-w-0 flex-col gap-3 rounded-xl border border-line bg-paper p-4"
    >
      <div className="flex flex-wrap items-center gap-2 text-xs font-semibold">
        {appeal.harmLabel ? (
          <span className="rounded-full bg-destructive/10 px-2 py-0.5 text-destructive">
            {appeal.harmLabel}
          </span>
        ) : null}
        {appeal.appeal?.status === 'open' ? (
          <span className="rounded-full bg-ink/10 px-2 py-0.5 text-ink">{waiting(appeal.appeal.at)}</span>
        ) : null}
      </div>
      <div className="text-sm break-words">
        <p className="font-semibold">
          {appeal.owner.name ?? 'A member'} ({appeal.owner.email ?? 'no email'}): {theirs(appeal.what)}
        </p>
        <p className="mt-1">
          Removed on {formatDateTime(appeal.removedAt)} by{' '}
          {appeal.actionedByYou ? 'you' : (appeal.actionedByEmail ?? 'staff')}. Reason given: {appeal.reason}
        </p>
        {appeal.appeal ? (
          <blockquote className="mt-2 border-l-2 border-line pl-3 italic" data-testid="appeal-text">
            “{appeal.appeal.text}”
          </blockquote>
        ) : null}
      </div>
      {appeal.appeal && appeal.appeal.status !== 'open' ? (
        <p className="rounded-lg bg-paper-deep p-3 text-sm break-words" data-testid="decision">
          <span className="font-semibold">{appeal.appeal.status === 'upheld' ? 'Upheld' : 'Rejected'}</span>
          {appeal.decidedByEmail ? ` by ${appeal.decidedByEmail}` : ''}
          {appeal.appeal.decidedAt ? ` on ${formatDateTime(appeal.appeal.decidedAt)}` : ''}
          {appeal.appeal.decisionNote ? `: ${appeal.appeal.decisionNote}` : ''}
        </p>
      ) : appeal.actionedByYou ? (
        <p className="text-sm text-ink-muted" data-testid="not-yours">
          {APPEAL_SAME_STAFF}
        </p>
      ) : deciding ? (
        <DecideForm appeal={appeal} onClose={() => setDeciding(false)} />
      ) : (
        <div>
          <Button size="sm" variant="outline" onClick={() => setDeciding(true)}>
            Decide…
          </Button>
        </div>
      )}
    </li>
  );
}

function DecideForm({ appeal, onClose }: { appeal: StaffAppeal; onClose: () => void }) {
  const id = useId();
  const [note, setNote] = useState('');
  const utils = trpc.useUtils();
  const decide = trpc.community.moderation.appeals.decide.useMutation({
    onSuccess: (result) => {
      toast({
        title: result.status === 'upheld' ? 'Appeal upheld: the content is back' : 'Appeal rejected',
        description: 'The member has been told.',
      });
      onClose();
    },
    onError: (error) =>
      toast({ variant: 'destructive', title: 'Appeal not decided', description: apiErrorMessage(error) }),
    // Whatever the answer, the queues reload (someone else may have decided first).
    onSettled: () => void utils.community.moderation.invalidate(),
  });
  function submit(uphold: boolean) {
    return (event: FormEvent) => {
      event.preventDefault();
      decide.mutate({ removalId: appeal.id, uphold, note });
    };
  }
  return (
    <form
      className="flex flex-col gap-3 rounded-lg border border-line bg-paper-deep/50 p-3"
      onSubmit={submit(false)}
      aria-label="Decide the appeal"
    >
      <div className="flex flex-col gap-1">
        <Label htmlFor={`${id}-note`}>What you decided and why (the member reads it)</Label>
        <Textarea
          id={`${id}-note`}
          value={note}
          maxLength={1000}
          className="min-h-20"
          onChange={(event) => setNote(event.target.value)}
        />
      </div>
      <div className="flex flex-col gap-2 sm:flex-row">
        <Button type="button" size="sm" variant="brand" disabled={decide.isPending} onClick={submit(true)}>
          Uphold: put it back
        </Button>
        <Button type="submit" size="sm" variant="destructive" disabled={decide.isPending}>
          Reject: the removal stands
        </Button>
        <Button type="button" size="sm" variant="ghost" onClick={onClose}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
