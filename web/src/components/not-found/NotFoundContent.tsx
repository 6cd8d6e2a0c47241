import { ArrowLeft, BookOpen } from 'lucide-react';
import { Link, useLocation } from 'react-router-dom';
import { usePageStatus } from '../../lib/page-meta.ts';
import { Button } from '../ui/button.tsx';

/**
 * The body of the not-found page; also shown by the error page when a route answers 404, and by
 * every page whose record does not exist (a listing, a category, a static page, a seller…). Where
 * it shows, a server-rendered page answers 404 (web/src/entry-server.tsx).
 */
export function NotFoundContent() {
  usePageStatus(404);
  const { pathname } = useLocation();
  return (
    <section
      data-testid="not-found"
      aria-labelledby="not-found-title"
      className="mx-auto flex w-full max-w-2xl flex-1 flex-col items-start justify-center px-4 py-16 sm:px-6 md:py-24"
    >
      <p className="font-serif text-6xl font-bold text-brand/80 sm:text-7xl" aria-hidden="true">
        404
      </p>
      <h1 id="not-found-title" className="mt-4 text-3xl font-semibold sm:text-4xl">
        Page not found
      </h1>
      <p className="mt-4 text-lg text-ink-muted">
        We couldn't find a page at{' '}
        <code className="break-all rounded bg-paper-deep px-1.5 py-0.5 text-base text-ink">{pathname}</code>.
        It may have moved, or the link may have a typo.
      </p>
      <p className="mt-2 text-ink-muted">Try the home page, or go straight to the books.</p>
      <div className="mt-8 flex w-full flex-col gap-3 sm:w-auto sm:flex-row">
        <Button asChild variant="brand" size="lg">
          <Link to="/">
            <ArrowLeft aria-hidden="true" />
            Back to the home page
          </Link>
        </Button>
        <Button asChild variant="outline" size="lg">
          <Link to="/listings">
            <BookOpen aria-hidden="true" />
            Browse books
          </Link>
        </Button>
      </div>
    </section>
  );
}
