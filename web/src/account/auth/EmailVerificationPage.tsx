import { BadgeCheck, MailWarning } from 'lucide-react';
import { Link } from 'react-router-dom';
import { usePageMeta } from '../../lib/page-meta.ts';
import { useSession } from '../../lib/session.ts';
import { DevMailboxHint } from '../../platform/index.ts';
import { AuthShell, textLinkClass } from './AuthShell.tsx';
import { ResendConfirmation } from './ResendConfirmation.tsx';

/** /email-verification (signed in): is my address confirmed? If not, send the link again. */
export function EmailVerificationPage() {
  usePageMeta('Email verification');
  const session = useSession();
  // The guard renders this page only for a signed-in person.
  if (session.status !== 'signed-in') return null;
  const { email, emailConfirmed } = session.user;

  return (
    <AuthShell
      title="Email verification"
      footer={
        <Link to="/account" className={textLinkClass}>
          Back to your account
        </Link>
      }
    >
      {emailConfirmed ? (
        <div className="flex gap-4" data-testid="email-status">
          <span className="flex size-11 shrink-0 items-center justify-center rounded-full bg-moss-soft text-moss">
            <BadgeCheck aria-hidden="true" className="size-5" />
          </span>
          <div>
            <p className="font-semibold text-ink">Your email address is confirmed</p>
            <p className="mt-1 break-words text-ink-soft">{email}</p>
            <p className="mt-3 text-sm text-ink-muted">
              We'll send order updates, messages and password resets here.
            </p>
          </div>
        </div>
      ) : (
        <div className="flex flex-col gap-5">
          <div className="flex gap-4" data-testid="email-status">
            <span className="flex size-11 shrink-0 items-center justify-center rounded-full bg-accent/25 text-accent-foreground">
              <MailWarning aria-hidden="true" className="size-5" />
            </span>
            <div>
              <p className="font-semibold text-ink">Your email address is not confirmed yet</p>
              <p className="mt-1 break-words text-ink-soft">{email}</p>
              <p className="mt-3 text-sm text-ink-muted">
                Select the link in the email we sent you. It works once and expires in 24 hours.
              </p>
            </div>
          </div>
          <ResendConfirmation email={email} label="Resend the confirmation email" />
          <DevMailboxHint email={email} />
        </div>
      )}
    </AuthShell>
  );
}
