import { ArrowLeft, ShieldX, UserRound } from 'lucide-react';
import { Link } from 'react-router-dom';
import { Button } from '../components/ui/button.tsx';
import { usePageMeta } from '../lib/page-meta.ts';

/** The spec's 403 text (section 2), word for word; the API sends the same. */
export const STAFF_FORBIDDEN_TEXT =
  "You don't have permission to access the admin portal with your current account.";

/** Shown in place of the staff area to someone signed in without an admin or moderator role. */
export function ForbiddenPage() {
  usePageMeta('403 Forbidden');
  return (
    <section
      data-testid="forbidden"
      aria-labelledby="forbidden-title"
      className="mx-auto flex w-full max-w-2xl flex-1 flex-col items-start justify-center px-4 py-16 sm:px-6 md:py-24"
    >
      <span className="flex size-14 items-center justify-center rounded-full bg-brand-soft text-brand">
        <ShieldX aria-hidden="true" className="size-7" />
      </span>
      <h1 id="forbidden-title" className="mt-6 text-3xl font-semibold sm:text-4xl">
        403 Forbidden
      </h1>
      <p className="mt-4 text-lg text-ink-muted" data-testid="forbidden-message">
        {STAFF_FORBIDDEN_TEXT}
      </p>
      <p className="mt-2 text-ink-muted">
        If you work for Reshelf and need access, ask an administrator to give your account a staff role.
      </p>
      <div className="mt-8 flex w-full flex-col gap-3 sm:w-auto sm:flex-row">
        <Button asChild variant="brand" size="lg">
          <Link to="/">
            <ArrowLeft aria-hidden="true" />
            Back to the home page
          </Link>
        </Button>
        <Button asChild variant="outline" size="lg">
          <Link to="/account">
            <UserRound aria-hidden="true" />
            Go to your account
          </Link>
        </Button>
      </div>
    </section>
  );
}
