import { Mailbox } from 'lucide-react';
import { Link } from 'react-router-dom';
import { trpc } from '../../lib/trpc.ts';

/**
 * Outside production, emails land in the dev mailbox instead of being sent. Where an email has
 * just been sent, point newcomers there. The API answers NOT_FOUND in production, and then
 * nothing is shown.
 */
export function DevMailboxHint({ email }: { email: string }) {
  const mailbox = trpc.platform.dev.mailbox.useQuery({ to: email }, { retry: false, staleTime: 0 });
  if (!mailbox.isSuccess) return null;
  return (
    <div
      data-testid="dev-mailbox-hint"
      className="flex items-start gap-3 rounded-lg border border-dashed border-ink/25 bg-paper-deep/50 p-4 text-sm"
    >
      <Mailbox aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-ink-muted" />
      <p className="text-ink-soft">
        <span className="font-semibold text-ink">Running Reshelf locally?</span> Emails are not sent here:
        read this one in the{' '}
        <Link
          to={`/dev/mailbox?to=${encodeURIComponent(email)}`}
          className="font-semibold text-brand underline-offset-4 hover:underline"
        >
          dev mailbox
        </Link>
        .
      </p>
    </div>
  );
}
