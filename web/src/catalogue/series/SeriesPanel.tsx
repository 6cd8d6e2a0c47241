/**
 * A book's series on its page (decision 0089): "Series: His Dark Materials, book 1 of 3", and a
 * "Complete the set" panel listing every volume with what the member has, the copies on sale and
 * their lowest all-in price, the line "You have 1, 2 and 4: 3 is on sale from £x", "I have this"
 * for the book in view, and "Want the rest of this series". Signed out, the volumes and prices
 * alone. Nothing shows for a book in no series (the API answers null).
 */
import {
  completeTheSetLine,
  countOf,
  formatPence,
  type SeriesSet,
  seriesPlaceWords,
  volumeNumber,
} from '@reshelf/contracts';
import { Check, Library } from 'lucide-react';
import { Link } from 'react-router-dom';
import { Button } from '../../components/ui/button.tsx';
import { isNotFound } from '../../lib/errors.ts';
import { useSession } from '../../lib/session.ts';
import { trpc } from '../../lib/trpc.ts';
import { cn } from '../../lib/utils.ts';

/** The book page's series, under its title: the place line, and the panel below the page's head. */
export function useWorkSeries(slug: string) {
  return trpc.catalogue.series.forWork.useQuery(
    { slug },
    { retry: (count, error) => !isNotFound(error) && count < 1 },
  );
}

/** "Series: His Dark Materials, book 1 of 3", linking to the panel. */
export function SeriesPlace({ set }: { set: SeriesSet }) {
  return (
    <p className="mt-2 text-ink-soft" data-testid="series-place">
      <a href="#complete-the-set" className="underline-offset-4 hover:underline">
        {seriesPlaceWords(set.series.name, set.position, set.volumes.length)}
      </a>
    </p>
  );
}

export function CompleteTheSet({ set, workSlug }: { set: SeriesSet; workSlug: string }) {
  const session = useSession();
  const signedIn = session.status === 'signed-in';
  const utils = trpc.useUtils();
  const holdings = trpc.catalogue.series.member.holdings.useQuery(
    { seriesSlug: set.series.slug },
    { enabled: signedIn },
  );
  const setHave = trpc.catalogue.series.member.setHave.useMutation({
    onSuccess: () => utils.catalogue.series.member.invalidate(),
  });
  const wantRest = trpc.community.wants.add.useMutation({
    onSuccess: () => utils.catalogue.series.member.holdings.invalidate({ seriesSlug: set.series.slug }),
  });
  const have = new Set(holdings.data?.have ?? []);
  const line = holdings.data
    ? completeTheSetLine(set.volumes.map((volume) => ({ ...volume, have: have.has(volume.workSlug) })))
    : null;
  const haveThis = have.has(workSlug);
  // A purchase is not the member's to unmark: "I have this" toggles only their own record.
  const boughtThis = holdings.data?.bought.includes(workSlug) ?? false;
  const firstMissingOnSale = set.volumes.find(
    (volume) => !have.has(volume.workSlug) && volume.lowestAllInMinor !== null,
  );

  return (
    <section
      id="complete-the-set"
      aria-labelledby="complete-the-set-title"
      className="mt-10 rounded-lg border border-ink/10 bg-paper-deep/40 p-4 sm:p-6"
      data-testid="complete-the-set"
    >
      <h2 id="complete-the-set-title" className="flex items-center gap-2 text-xl font-semibold">
        <Library aria-hidden="true" className="size-5 text-brand" />
        Complete the set: {set.series.name}
      </h2>
      {line ? (
        <p className="mt-2 font-medium" data-testid="set-line">
          {firstMissingOnSale ? (
            <Link
              to={`/book/${firstMissingOnSale.workSlug}#copies-title`}
              className="underline-offset-4 hover:underline"
            >
              {line}
            </Link>
          ) : (
            line
          )}
        </p>
      ) : null}
      <ol className="mt-4 divide-y divide-ink/10" data-testid="set-volumes">
        {set.volumes.map((volume) => {
          const has = have.has(volume.workSlug);
          const current = volume.workSlug === workSlug;
          return (
            <li
              key={volume.workSlug}
              className="flex flex-wrap items-baseline gap-x-3 gap-y-1 py-2"
              data-testid="set-volume"
              data-position={volume.position}
              data-have={signedIn ? String(has) : undefined}
            >
              <span className="w-8 shrink-0 font-serif text-lg font-semibold text-ink-muted">
                {volumeNumber(volume.position)}
              </span>
              <span className="min-w-0 flex-1">
                {current ? (
                  <span className="font-semibold" aria-current="page">
                    {volume.title}
                  </span>
                ) : (
                  <Link to={`/book/${volume.workSlug}`} className="underline-offset-4 hover:underline">
                    {volume.title}
                  </Link>
                )}
                {signedIn && holdings.data ? (
                  <span
                    className={cn(
                      'ml-2 inline-flex items-center gap-1 rounded-full px-2 text-xs',
                      has ? 'bg-brand/10 text-brand' : 'bg-ink/5 text-ink-muted',
                    )}
                  >
                    {has ? <Check aria-hidden="true" className="size-3" /> : null}
                    {has ? 'You have it' : 'Missing'}
                  </span>
                ) : null}
              </span>
              <span className="text-sm">
                {volume.lowestAllInMinor !== null ? (
                  <Link
                    to={`/book/${volume.workSlug}#copies-title`}
                    className="text-brand underline-offset-4 hover:underline"
                    data-testid="set-volume-copies"
                  >
                    {countOf(volume.copiesOnSale, 'copy', 'copies')} from{' '}
                    {formatPence(volume.lowestAllInMinor)}
                  </Link>
                ) : (
                  <span className="text-ink-muted">None on sale</span>
                )}
              </span>
            </li>
          );
        })}
      </ol>
      {signedIn ? (
        <div className="mt-4 flex flex-wrap gap-3">
          {boughtThis ? (
            <p
              className="flex items-center gap-1 self-center text-sm text-ink-soft"
              data-testid="set-bought-this"
            >
              <Check aria-hidden="true" className="size-4 text-brand" />
              You bought this on Reshelf
            </p>
          ) : (
            <Button
              variant="outline"
              aria-pressed={haveThis}
              disabled={!holdings.data || setHave.isPending}
              onClick={() => setHave.mutate({ slug: workSlug, have: !haveThis })}
              data-testid="set-have-this"
            >
              {haveThis ? 'I don’t have this' : 'I have this'}
            </Button>
          )}
          {holdings.data?.restWantId ? (
            <p
              className="flex items-center gap-1 self-center text-sm text-ink-soft"
              data-testid="set-want-saved"
            >
              <Check aria-hidden="true" className="size-4 text-brand" />
              You want the rest of this series: we’ll tell you when a volume you don’t have is listed.
            </p>
          ) : (
            <Button
              variant="brand"
              disabled={!holdings.data || wantRest.isPending}
              onClick={() => wantRest.mutate({ target: { kind: 'series', seriesId: set.series.id } })}
              data-testid="set-want-rest"
            >
              Want the rest of this series
            </Button>
          )}
          {setHave.error || wantRest.error ? (
            <p role="alert" className="w-full text-sm text-destructive">
              {(setHave.error ?? wantRest.error)?.message}
            </p>
          ) : null}
        </div>
      ) : session.status === 'signed-out' ? (
        <p className="mt-4 text-sm text-ink-soft">
          <Link
            to={`/login?next=${encodeURIComponent(`/book/${workSlug}`)}`}
            className="text-brand underline"
          >
            Sign in
          </Link>{' '}
          to see which volumes you have and want the rest.
        </p>
      ) : null}
    </section>
  );
}
