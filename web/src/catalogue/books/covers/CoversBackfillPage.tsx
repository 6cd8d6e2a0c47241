/**
 * /admin/covers-backfill (staff read it; admins run it): the books whose open listings show no
 * image (no photo, no cover). A run looks up to 50 of them by ISBN through the book lookup
 * (Open Library in hosted mode) and stores any https cover found; the page follows the run and
 * shows its report ("Found 12 of 40; 3 without an ISBN") with each book's outcome. Offline (the
 * embedded default) the page says a run will find nothing, and a run still checks for real.
 */
import { countOf, formatIsbn } from '@reshelf/contracts';
import { ImagePlus, LoaderCircle } from 'lucide-react';
import { useState } from 'react';
import { AdminPageFrame, EmptyState, formatDateTime } from '../../../components/staff/AdminPageFrame.tsx';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { toast } from '../../../components/ui/use-toast.ts';
import { QueryView } from '../../../kit/QueryView.tsx';
import { apiErrorMessage } from '../../../lib/api-errors.ts';
import { type RouterOutputs, trpc } from '../../../lib/trpc.ts';
import { cn } from '../../../lib/utils.ts';
import { useStartCoversBackfill } from './hooks.ts';

type Outputs = RouterOutputs['catalogue']['books']['covers'];
type Run = Outputs['overview']['runs'][number];
type Outcome = NonNullable<Outputs['run']['items'][number]['outcome']>;

const OUTCOME_LABELS: Record<Outcome, string> = {
  found: 'Cover found',
  not_found: 'Not found',
  no_isbn: 'No ISBN',
  error: 'Lookup failed',
};

const OUTCOME_TONES: Record<Outcome, string> = {
  found: 'bg-moss-soft text-moss',
  not_found: 'bg-paper-deep text-ink-muted',
  no_isbn: 'bg-accent/25 text-accent-foreground',
  error: 'bg-destructive/10 text-destructive',
};

/** "Found 12 of 40; 3 without an ISBN; 2 lookups failed". */
export function runSummary(run: Pick<Run, 'found' | 'checked' | 'noIsbn' | 'errors'>): string {
  const parts = [`Found ${run.found} of ${run.checked}`];
  if (run.noIsbn > 0) parts.push(`${run.noIsbn} without an ISBN`);
  if (run.errors > 0) parts.push(`${countOf(run.errors, 'lookup', 'lookups')} failed`);
  return parts.join('; ');
}

export function CoversBackfillPage() {
  const access = trpc.staff.dashboard.access.useQuery();
  // While a run is going, the list and the runs follow it (the report polls on its own).
  const overview = trpc.catalogue.books.covers.overview.useQuery(undefined, {
    staleTime: 0,
    refetchInterval: (query) =>
      query.state.data?.runs.some((run) => run.status === 'running') ? 1500 : false,
  });
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const [runId, setRunId] = useState<string | null>(null);
  const shownRun = runId ?? overview.data?.runs[0]?.id ?? null;
  const start = useStartCoversBackfill({
    onSuccess: (result) => {
      setRunId(result.runId);
      setChosen(new Set());
      toast({
        title: 'Backfill started',
        description: `Looking up ${countOf(result.requested, 'book', 'books')}.`,
      });
    },
    onError: (error) =>
      toast({ variant: 'destructive', title: 'Backfill not started', description: apiErrorMessage(error) }),
  });
  const isAdmin = access.data?.isAdmin ?? false;
  const running = overview.data?.runs.some((run) => run.status === 'running') ?? false;
  const max = overview.data?.maxPerRun ?? 50;

  function toggle(id: string) {
    setChosen((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else if (next.size < max) next.add(id);
      return next;
    });
  }

  return (
    <AdminPageFrame
      title="Covers backfill"
      description="Books whose listings show no image: no photo from the seller and no cover. A run looks each one up by ISBN and keeps the cover it finds."
      testId="covers-backfill-page"
    >
      <QueryView query={overview} pending="Loading books…">
        {(data) => (
          <>
            {data.lookup === 'offline' ? (
              <Alert tone="info" title="Lookups are offline" data-testid="lookup-offline" live={false}>
                This server looks books up offline (no Open Library), so a run will check each book but find
                no covers. Hosted mode (BOOK_LOOKUP=openlibrary) fetches them.
              </Alert>
            ) : (
              <p className="text-sm text-ink-soft" data-testid="lookup-online">
                Covers come from Open Library, one book at a time, at most {max} a run.
              </p>
            )}

            {shownRun ? <RunReport runId={shownRun} /> : null}

            <section className="flex flex-col gap-3" aria-labelledby="missing-heading">
              <div className="flex flex-col gap-2 sm:flex-row sm:items-end sm:justify-between">
                <div>
                  <h2 id="missing-heading" className="text-xl font-semibold">
                    Missing a cover
                  </h2>
                  <p className="text-sm text-ink-muted" data-testid="missing-total">
                    {data.total === 0
                      ? 'Every book on sale has an image.'
                      : `${countOf(data.total, 'book', 'books')}; never checked first.`}
                  </p>
                </div>
                {isAdmin && data.total > 0 ? (
                  <div className="flex flex-col gap-2 sm:flex-row">
                    <Button
                      variant="outline"
                      disabled={chosen.size === 0 || start.isPending || running}
                      onClick={() => start.mutate({ bookIds: [...chosen] })}
                    >
                      Run on the chosen ({chosen.size})
                    </Button>
                    <Button disabled={start.isPending || running} onClick={() => start.mutate({})}>
                      <ImagePlus aria-hidden="true" />
                      Run on the next {Math.min(max, data.total)}
                    </Button>
                  </div>
                ) : null}
              </div>
              {!isAdmin && access.isSuccess ? (
                <p className="text-sm text-ink-muted">Admins run the backfill; you can read the reports.</p>
              ) : null}
              {running ? (
                <p className="text-sm text-ink-muted" role="status">
                  A backfill is already running: wait for it to finish before starting another.
                </p>
              ) : null}
              {data.books.length === 0 ? (
                <EmptyState testId="missing-empty">Nothing is missing a cover.</EmptyState>
              ) : (
                <ul className="flex flex-col gap-2" data-testid="missing-books">
                  {data.books.map((book) => (
                    <li
                      key={book.id}
                      className="flex min-w-0 items-start gap-3 rounded-xl border border-line bg-paper p-3"
                      data-testid="missing-book"
                    >
                      {isAdmin ? (
                        <input
                          type="checkbox"
                          className="mt-1 size-4 shrink-0"
                          checked={chosen.has(book.id)}
                          disabled={!chosen.has(book.id) && chosen.size >= max}
                          onChange={() => toggle(book.id)}
                          aria-label={`Choose ${book.title}`}
                        />
                      ) : null}
                      <div className="min-w-0 flex-1">
                        <p className="font-semibold break-words">{book.title}</p>
                        <p className="text-sm break-words text-ink-soft">
                          {book.authors.join(', ')} ·{' '}
                          {book.isbn13 ? `ISBN ${formatIsbn(book.isbn13)}` : 'no ISBN'} ·{' '}
                          {countOf(book.listings, 'listing', 'listings')} without an image
                        </p>
                        {book.lastCheck ? (
                          <p className="text-xs text-ink-muted">
                            Last checked {formatDateTime(book.lastCheck.at)}:{' '}
                            {OUTCOME_LABELS[book.lastCheck.outcome].toLowerCase()}
                          </p>
                        ) : null}
                      </div>
                    </li>
                  ))}
                </ul>
              )}
            </section>

            {data.runs.length > 0 ? (
              <section className="flex flex-col gap-2" aria-labelledby="runs-heading">
                <h2 id="runs-heading" className="text-xl font-semibold">
                  Recent runs
                </h2>
                <ul className="flex flex-col gap-2">
                  {data.runs.map((run) => (
                    <li key={run.id}>
                      <button
                        type="button"
                        onClick={() => setRunId(run.id)}
                        aria-pressed={run.id === shownRun}
                        className={cn(
                          'flex w-full cursor-pointer flex-col gap-0.5 rounded-xl border bg-paper p-3 text-left text-sm hover:border-brand/50',
                          run.id === shownRun ? 'border-brand' : 'border-line',
                        )}
                      >
                        <span className="font-semibold">
                          {run.status === 'running'
                            ? `Running: checked ${run.checked} of ${run.requested}`
                            : runSummary(run)}
                        </span>
                        <span className="break-all text-ink-muted">
                          {formatDateTime(run.startedAt)} · {run.startedBy ?? 'a former account'} ·{' '}
                          {run.lookup === 'offline' ? 'offline' : 'Open Library'}
                          {run.status === 'failed' ? ` · failed: ${run.error ?? 'stopped'}` : ''}
                        </span>
                      </button>
                    </li>
                  ))}
                </ul>
              </section>
            ) : null}
          </>
        )}
      </QueryView>
    </AdminPageFrame>
  );
}

function RunReport({ runId }: { runId: string }) {
  const run = trpc.catalogue.books.covers.run.useQuery(
    { runId },
    { refetchInterval: (query) => (query.state.data?.status === 'running' ? 1000 : false), staleTime: 0 },
  );
  return (
    <QueryView query={run} pending="Loading the report…">
      {(data) => {
        return (
          <section
            className="flex flex-col gap-3 rounded-xl border border-line bg-paper p-4"
            data-testid="backfill-report"
            data-status={data.status}
            aria-labelledby="report-heading"
          >
            <div>
              <h2 id="report-heading" className="text-xl font-semibold" data-testid="backfill-summary">
                {data.status === 'running' ? (
                  <span className="flex items-center gap-2">
                    <LoaderCircle className="size-5 animate-spin" aria-hidden="true" />
                    Checked {data.checked} of {data.requested}…
                  </span>
                ) : (
                  runSummary(data)
                )}
              </h2>
              <p className="text-sm text-ink-muted">
                {data.status === 'failed' ? `The run stopped: ${data.error ?? 'unknown error'}. ` : ''}
                Started {formatDateTime(data.startedAt)} by {data.startedBy ?? 'a former account'},{' '}
                {data.lookup === 'offline' ? 'with lookups offline' : 'from Open Library'}.
                {data.status !== 'running'
                  ? ` Not found: ${data.notFound}. Without an ISBN: ${data.noIsbn}. Failed lookups: ${data.errors}.`
                  : ''}
              </p>
            </div>
            <ul className="flex flex-col divide-y divide-line/60 text-sm" data-testid="backfill-items">
              {data.items.map((item) => (
                <li
                  key={item.position}
                  className="flex flex-wrap items-start justify-between gap-2 py-2"
                  data-testid="backfill-item"
                  data-outcome={item.outcome ?? 'waiting'}
                >
                  <div className="min-w-0 flex-1">
                    <p className="font-semibold break-words">{item.title}</p>
                    <p className="text-ink-muted break-words">
                      {item.isbn13 ? `ISBN ${formatIsbn(item.isbn13)}` : 'no ISBN'}
                      {item.detail ? ` · ${item.detail}` : ''}
                    </p>
                  </div>
                  <div className="flex shrink-0 items-center gap-2">
                    {item.coverUrl ? (
                      <img
                        src={item.coverUrl}
                        alt={`Cover of ${item.title}`}
                        className="h-12 w-8 rounded object-cover"
                      />
                    ) : null}
                    <span
                      className={cn(
                        'rounded-full px-2.5 py-0.5 text-xs font-semibold',
                        item.outcome ? OUTCOME_TONES[item.outcome] : 'bg-paper-deep text-ink-muted',
                      )}
                    >
                      {item.outcome ? OUTCOME_LABELS[item.outcome] : 'Waiting'}
                    </span>
                  </div>
                </li>
              ))}
            </ul>
          </section>
        );
      }}
    </QueryView>
  );
}
