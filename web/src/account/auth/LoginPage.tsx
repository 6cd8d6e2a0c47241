import { Link, Navigate, useSearchParams } from 'react-router-dom';
import { Alert } from '../../components/ui/alert.tsx';
import { safeNextPath } from '../../lib/next-path.ts';
import { usePageMeta } from '../../lib/page-meta.ts';
import { type SessionUser, useSession } from '../../lib/session.ts';
import { cn } from '../../lib/utils.ts';
import { AuthShell, textLinkClass } from './AuthShell.tsx';
import { SignInForm } from './SignInForm.tsx';
import { SignUpForm } from './SignUpForm.tsx';
import { SIGN_IN_TO_CONTINUE } from './sign-in-words.ts';

type Mode = 'signin' | 'signup';

/**
 * Where a person goes once signed in: `next` if it is a same-site path, else on with their setup.
 * Checked here again, where it is followed: a path that normalises to another host
 * (`/.//evil.example`) made the router throw instead of going anywhere.
 */
export function destinationAfterSignIn(next: string | null, user: SessionUser): string {
  const safe = safeNextPath(next);
  if (safe) return safe;
  if (!user.signupCompleted) return '/complete-signup';
  return '/';
}

/**
 * /login: sign in, or (with ?mode=signup) create an account. Both keep `next`, so a person sent
 * here from a signed-in page comes back to it.
 */
export function LoginPage() {
  const [params] = useSearchParams();
  const mode: Mode = params.get('mode') === 'signup' ? 'signup' : 'signin';
  const next = safeNextPath(params.get('next'));
  const session = useSession();

  usePageMeta(
    mode === 'signup' ? 'Create an account' : 'Sign in',
    mode === 'signup'
      ? 'Create a Reshelf account to buy and sell pre-loved books across the UK.'
      : 'Sign in to your Reshelf account.',
  );

  if (session.status === 'signed-in') {
    return <Navigate to={destinationAfterSignIn(next, session.user)} replace />;
  }

  const hrefFor = (target: Mode) => {
    const search = new URLSearchParams();
    if (target === 'signup') search.set('mode', 'signup');
    if (next) search.set('next', next);
    const query = search.toString();
    return `/login${query ? `?${query}` : ''}`;
  };

  return (
    <AuthShell
      title={mode === 'signup' ? 'Create your account' : 'Sign in'}
      description={
        mode === 'signup'
          ? 'Buy pre-loved books with buyer protection, and sell your own in under a minute.'
          : 'Sign in to buy, sell and keep track of your books.'
      }
      beforeCard={
        <>
          <nav
            aria-label="Sign in or create an account"
            className="mt-6 grid grid-cols-2 gap-1 rounded-lg bg-paper-edge/60 p-1"
          >
            <ModeLink to={hrefFor('signin')} active={mode === 'signin'}>
              Sign in
            </ModeLink>
            <ModeLink to={hrefFor('signup')} active={mode === 'signup'}>
              Create an account
            </ModeLink>
          </nav>
          {next && mode === 'signin' ? (
            <Alert tone="info" live={false} className="mt-4">
              {SIGN_IN_TO_CONTINUE}
            </Alert>
          ) : null}
        </>
      }
      footer={
        mode === 'signup' ? (
          <>
            Already have an account?{' '}
            <Link to={hrefFor('signin')} className={textLinkClass}>
              Sign in
            </Link>
          </>
        ) : (
          <>
            New to Reshelf?{' '}
            <Link to={hrefFor('signup')} className={textLinkClass}>
              Create an account
            </Link>
          </>
        )
      }
    >
      {mode === 'signup' ? <SignUpForm next={next} /> : <SignInForm next={next} />}
    </AuthShell>
  );
}

function ModeLink({ to, active, children }: { to: string; active: boolean; children: string }) {
  return (
    <Link
      to={to}
      replace
      aria-current={active ? 'page' : undefined}
      className={cn(
        'flex h-10 items-center justify-center rounded-md px-3 text-sm font-semibold transition-colors',
        active ? 'bg-paper text-ink shadow-sm' : 'text-ink-muted hover:text-ink',
      )}
    >
      {children}
    </Link>
  );
}
