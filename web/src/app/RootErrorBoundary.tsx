import { RotateCw } from 'lucide-react';
import { useEffect } from 'react';
import { isRouteErrorResponse, useRouteError } from 'react-router-dom';
import { NotFoundContent } from '../components/not-found/NotFoundContent.tsx';
import { PageSkeleton } from '../components/placeholders.tsx';
import { Button } from '../components/ui/button.tsx';
import { Wordmark } from '../components/Wordmark.tsx';
import { usePageMeta } from '../lib/page-meta.ts';
import { isChunkLoadError, isRecoveryReloadPending } from './preload-recovery.ts';

/** The spec's router fallback text (section 2, "Global overlays"). */
export const UNEXPECTED_ERROR_TEXT = 'Unexpected Application Error!';

/**
 * The root route's error element. It replaces the whole layout (the layout itself may be what
 * failed), so it brings its own minimal header, and its links load pages afresh.
 */
export function RootErrorBoundary() {
  const error = useRouteError();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  // The page's code failed to load and a fresh load is already under way (preload-recovery.ts).
  const reloading = isRecoveryReloadPending();

  useEffect(() => {
    if (!notFound && !reloading) console.error(error);
  }, [error, notFound, reloading]);

  if (reloading) return <PageSkeleton />;

  return (
    <div className="flex min-h-dvh flex-col">
      <header className="border-b border-line bg-paper">
        <div className="mx-auto flex w-full max-w-6xl items-center px-4 py-3 sm:px-6 lg:px-8">
          <Wordmark reloadDocument />
        </div>
      </header>
      <main id="main" className="flex flex-1 flex-col">
        {notFound ? <NotFoundContent /> : <UnexpectedError error={error} />}
      </main>
    </div>
  );
}

function UnexpectedError({ error }: { error: unknown }) {
  usePageMeta('Something went wrong');
  const detail = import.meta.env.DEV ? describe(error) : null;
  const chunkFailed = isChunkLoadError(error);
  return (
    <section
      data-testid="app-error"
      aria-labelledby="app-error-title"
      className="mx-auto flex w-full max-w-2xl flex-1 flex-col items-start justify-center px-4 py-16 sm:px-6 md:py-24"
    >
      <h1 id="app-error-title" className="text-3xl font-semibold sm:text-4xl">
        {UNEXPECTED_ERROR_TEXT}
      </h1>
      <p data-testid="app-error-message" className="mt-4 text-lg text-ink-muted">
        {chunkFailed
          ? 'Sorry, this page could not be loaded. You may be offline, or Reshelf may have just been updated. Check your connection, then reload the page.'
          : 'Sorry, something went wrong while showing this page. Reloading usually fixes it; if it keeps happening, start again from the home page.'}
      </p>
      <div className="mt-8 flex w-full flex-col gap-3 sm:w-auto sm:flex-row">
        <Button variant="brand" size="lg" onClick={() => window.location.reload()}>
          <RotateCw aria-hidden="true" />
          Reload the page
        </Button>
        <Button asChild variant="outline" size="lg">
          <a href="/">Go to the home page</a>
        </Button>
      </div>
      {detail ? (
        <pre className="mt-10 w-full overflow-x-auto rounded-lg border border-line bg-paper-deep p-4 text-xs text-ink-soft">
          {detail}
        </pre>
      ) : null}
    </section>
  );
}

/** Development only: the error's message and stack, to save a trip to the console. */
function describe(error: unknown): string {
  if (isRouteErrorResponse(error)) return `${error.status} ${error.statusText}`;
  if (error instanceof Error) return error.stack ?? error.message;
  return String(error);
}
