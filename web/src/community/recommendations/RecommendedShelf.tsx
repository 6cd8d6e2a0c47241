import { ArrowRight } from 'lucide-react';
import { Link } from 'react-router-dom';
import { ListingsGridSkeleton } from '../../components/placeholders.tsx';
import { QueryError } from '../../components/QueryError.tsx';
import { useSession } from '../../lib/session.ts';
import { trpc } from '../../lib/trpc.ts';
import { RecommendationCards } from './RecommendationCards.tsx';

/**
 * The home page's "Recommended for you" row, for signed-in members only. The home page is
 * rendered on the server for everyone: the row appears once the session is known in the browser.
 */
export function RecommendedShelf() {
  const session = useSession();
  if (session.status !== 'signed-in') return null;
  return <SignedInShelf />;
}

function SignedInShelf() {
  const recommendations = trpc.community.recommendations.list.useQuery({ limit: 8 });
  if (recommendations.data && recommendations.data.items.length === 0) return null;
  return (
    <section
      aria-labelledby="recommended-title"
      className="mx-auto w-full max-w-6xl px-4 py-10 sm:px-6 md:py-12 lg:px-8"
      data-testid="recommended-for-you"
    >
      <div className="mb-6 flex flex-wrap items-end justify-between gap-x-6 gap-y-2">
        <div>
          <h2 id="recommended-title" className="text-3xl font-semibold sm:text-4xl">
            Recommended for you
          </h2>
          <p className="mt-2 max-w-2xl text-ink-muted">Picked from what you like, save, buy and look at.</p>
        </div>
        <Link
          to="/recommendations"
          className="inline-flex items-center gap-1 font-semibold text-brand underline-offset-4 hover:underline"
        >
          All your recommendations
          <ArrowRight aria-hidden="true" className="size-4" />
        </Link>
      </div>
      {recommendations.isPending ? (
        <ListingsGridSkeleton />
      ) : recommendations.isError ? (
        <QueryError
          what="your recommendations"
          onRetry={() => recommendations.refetch()}
          retrying={recommendations.isFetching}
        />
      ) : (
        <RecommendationCards items={recommendations.data.items} testId="recommended-grid" />
      )}
    </section>
  );
}
