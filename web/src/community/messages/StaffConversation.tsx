/**
 * A conversation as staff read it: only through a report on one of its messages or a dispute
 * on its order, opened on request (each opening is recorded in the audit log). Read-only.
 */
import { countOf } from '@reshelf/contracts';
import { useState } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { apiErrorMessage } from '../../lib/api-errors.ts';
import { formatWhen } from '../../lib/dates.ts';
import { trpc } from '../../lib/trpc.ts';

type Through = { threadId: string; reportId: string } | { disputeId: string };

export function StaffConversation({ through }: { through: Through }) {
  const [open, setOpen] = useState(false);
  const byReport = trpc.community.messages.staff.thread.useQuery(
    'reportId' in through ? through : { threadId: '', reportId: '' },
    { enabled: open && 'reportId' in through, staleTime: 60_000 },
  );
  const byDispute = trpc.community.messages.staff.forDispute.useQuery(
    'disputeId' in through ? through : { disputeId: '' },
    { enabled: open && 'disputeId' in through, staleTime: 60_000 },
  );
  const query = 'reportId' in through ? byReport : byDispute;
  if (!open) {
    return (
      <Button
        variant="link"
        size="sm"
        className="mt-1 self-start"
        onClick={() => setOpen(true)}
        data-testid="read-conversation"
      >
        Read the conversation (recorded in the audit log)
      </Button>
    );
  }
  if (query.isPending) return <Skeleton className="h-24 w-full rounded-lg" />;
  if (query.isError) return <p className="text-sm text-destructive">{apiErrorMessage(query.error)}</p>;
  const thread = query.data;
  if (!thread) {
    return (
      <p className="text-sm text-ink-muted" data-testid="staff-conversation-none">
        The buyer and the seller have not written to each other.
      </p>
    );
  }
  return (
    <ol
      className="mt-2 flex flex-col gap-1.5 rounded-lg bg-paper-deep p-3 text-sm"
      data-testid="staff-conversation"
    >
      <li className="text-xs text-ink-muted">
        {thread.buyerName} (buyer) and {thread.sellerName} (seller) about “{thread.listing.title}”
      </li>
      {thread.entries.map((entry) =>
        entry.kind === 'system' ? (
          <li key={entry.id} className="text-xs text-ink-muted">
            {entry.text} · {formatWhen(entry.at)}
          </li>
        ) : (
          <li key={entry.id} className="break-words">
            <span className="font-semibold">
              {entry.senderSide === 'buyer' ? thread.buyerName : thread.sellerName}:
            </span>{' '}
            {entry.text}
            {entry.photos.length ? ` [${countOf(entry.photos.length, 'photo', 'photos')}]` : ''}
            {entry.hidden ? ' (removed by Reshelf)' : ''}{' '}
            <span className="text-xs text-ink-muted">{formatWhen(entry.at)}</span>
          </li>
        ),
      )}
    </ol>
  );
}
