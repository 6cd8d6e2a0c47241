import { useQueryClient } from '@tanstack/react-query';
import { Loader2 } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { apiErrorMessage } from '../../lib/api-errors.ts';
import { loginPath, safeNextPath, withNext } from '../../lib/next-path.ts';
import { usePageMeta } from '../../lib/page-meta.ts';
import { markSignedIn } from '../../lib/session.ts';
import { trpc } from '../../lib/trpc.ts';
import { AuthShell, textLinkClass } from './AuthShell.tsx';

type Outcome = { state: 'working' } | { state: 'failed'; message: string };

/**
 * /auth/confirm?token=…, the link in the confirmation email. Confirming signs the person in
 * (the API sets the session cookies); they continue to /complete-signup, carrying `next` (where
 * they were going when they signed up) through the profile and onboarding. The token works once,
 * so it is sent exactly once, even when React runs effects twice in development.
 */
export function ConfirmEmailPage() {
  usePageMeta('Confirming your email address');
  const [params] = useSearchParams();
  const token = params.get('token')?.trim() ?? '';
  const next = safeNextPath(params.get('next'));
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const confirm = trpc.account.auth.confirmEmail.useMutation();
  const sent = useRef(false);
  const [outcome, setOutcome] = useState<Outcome>(() =>
    token ? { state: 'working' } : { state: 'failed', message: 'This confirmation link is incomplete.' },
  );

  useEffect(() => {
    if (!token || sent.current) return;
    sent.current = true;
    confirm.mutateAsync({ token }).then(
      async (result) => {
        markSignedIn(queryClient, result.user);
        await navigate(withNext('/complete-signup', next), { replace: true, state: { justConfirmed: true } });
      },
      (error: unknown) => setOutcome({ state: 'failed', message: apiErrorMessage(error) }),
    );
  }, [token, next, confirm, navigate, queryClient]);

  if (outcome.state === 'working') {
    return (
      <AuthShell title="Confirming your email address">
        <p role="status" className="flex items-center gap-3 text-ink-soft">
          <Loader2 aria-hidden="true" className="size-5 text-brand motion-safe:animate-spin" />
          Just a moment…
        </p>
      </AuthShell>
    );
  }

  return (
    <AuthShell title="We couldn't confirm your email address">
      <div className="flex flex-col gap-5">
        <Alert tone="error" data-testid="confirm-error">
          {outcome.message}
        </Alert>
        <p className="text-ink-soft">
          Links work once and expire after 24 hours. If you've already confirmed your address, sign in.
          Otherwise, ask for a new link.
        </p>
        <div className="flex flex-col gap-3 sm:flex-row">
          <Button asChild variant="brand" size="lg">
            <Link to={loginPath(next)}>Sign in</Link>
          </Button>
          <Button asChild variant="outline" size="lg">
            <Link to={withNext('/email-confirmation', next)}>Get a new link</Link>
          </Button>
        </div>
        <p className="text-sm text-ink-muted">
          Need a hand?{' '}
          <Link to="/pages/contact" className={textLinkClass}>
            Contact us
          </Link>
          .
        </p>
      </div>
    </AuthShell>
  );
}
