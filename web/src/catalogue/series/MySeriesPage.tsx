/**
 * /account/series (decision 0089): the member's series, any they have a volume of (bought on
 * Reshelf or marked "I have this"), each with its gaps: "You have 1, 2 and 4: 3 is on sale from
 * £x", and the missing volumes linking to their copies.
 */
import {
  completeTheSetLine,
  countOf,
  formatPence,
  type MemberSeries,
  volumeNumber,
} from '@reshelf/contracts';
import { Library } from 'lucide-react';
import { Link } from 'react-router-dom';
import { PageBody, PageHeader } from '../../components/PageHeader.tsx';
import { PageSkeleton } from '../../components/placeholders.tsx';
import { QueryError } from '../../components/QueryError.tsx';
import { usePageMeta } from '../../lib/page-meta.ts';
import { trpc } from '../../lib/trpc.ts';

export function MySeriesPage() {
  usePageMeta('Your series');
  const list = trpc.catalogue.series.member.list.useQuery(undefined, { staleTime: 0 });
  return (
    <div>
      <PageHeader
        title="Your series"
        description="The series you have a book of, and the volumes you are missing."
        crumbs={[{ to: '/account', label: 'Your account' }]}
      />
      <PageBody>
        {list.isPending ? (
          <PageSkeleton label="Loading your series" />
        ) : list.isError ? (
          <QueryError what="your series" onRetry={() => list.refetch()} retrying={list.isFetching} />
        ) : list.data.length === 0 ? (
          <div className="flex flex-col items-start gap-3" data-testid="my-series-empty">
            <Library aria-hidden="true" className="size-6 text-brand" />
            <p>
              No series yet. Books you buy here, or mark “I have this” on a book’s page, gather here by
              series, with the volumes you are missing.
            </p>
          </div>
        ) : (
          <ul className="grid gap-6 md:grid-cols-2" data-testid="my-series">
            {list.data.map((entry) => (
              <SeriesCard key={entry.series.id} entry={entry} />
            ))}
          </ul>
        )}
      </PageBody>
    </div>
  );
}

function SeriesCard({ entry }: { entry: MemberSeries[number] }) {
  const have = new Set(entry.have);
  const line = completeTheSetLine(
    entry.volumes.map((volume) => ({ ...volume, have: have.has(volume.workSlug) })),
  );
  const missing = entry.volumes.filter((volume) => !have.has(volume.workSlug));
  const first = entry.volumes[0];
  return (
    <li className="rounded-lg border border-ink/10 p-4" data-testid="my-series-card">
      <h2 className="text-lg font-semibold">
        {first ? (
          <Link
            to={`/book/${first.workSlug}#complete-the-set`}
            className="underline-offset-4 hover:underline"
          >
            {entry.series.name}
          </Link>
        ) : (
          entry.series.name
        )}
      </h2>
      {line ? <p className="mt-1 text-ink-soft">{line}</p> : null}
      {missing.length ? (
        <ul className="mt-3 space-y-1 text-sm">
          {missing.map((volume) => (
            <li key={volume.workSlug} className="flex flex-wrap gap-x-2">
              <span className="font-semibold text-ink-muted">{volumeNumber(volume.position)}</span>
              <Link to={`/book/${volume.workSlug}`} className="underline-offset-4 hover:underline">
                {volume.title}
              </Link>
              {volume.lowestAllInMinor !== null ? (
                <span className="text-brand">
                  {countOf(volume.copiesOnSale, 'copy', 'copies')} from {formatPence(volume.lowestAllInMinor)}
                </span>
              ) : (
                <span className="text-ink-muted">none on sale</span>
              )}
            </li>
          ))}
        </ul>
      ) : null}
    </li>
  );
}
