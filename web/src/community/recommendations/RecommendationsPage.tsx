import { Sparkles } from 'lucide-react';
import { Link } from 'react-router-dom';
import { PageBody, PageHeader } from '../../components/PageHeader.tsx';
import { ListingsGridSkeleton } from '../../components/placeholders.tsx';
import { QueryError } from '../../components/QueryError.tsx';
import { Button } from '../../components/ui/button.tsx';
import { usePageMeta } from '../../lib/page-meta.ts';
import { trpc } from '../../lib/trpc.ts';
import { RecommendationCards } from './RecommendationCards.tsx';

/**
 * /recommendations (signed in): books picked for the member from what they told onboarding, their
 * wishlist, purchases and views, and what readers like them bought; each says why.
 */
export function RecommendationsPage() {
  usePageMeta('Recommended for you');
  const recommendations = trpc.community.recommendations.list.useQuery({ limit: 48 }, { staleTime: 0 });
  return (
    <div>
      <PageHeader
        title="Recommended for you"
        description="Picked from the genres and authors you like, your wishlist, what you’ve bought and looked at, and what readers like you bought. Each book says why."
        crumbs={[{ to: '/account', label: 'Your account' }]}
      />
      <PageBody className="flex flex-col gap-6">
        {recommendations.data?.coldStart ? (
          <div
            className="flex flex-col items-start gap-3 rounded-2xl border border-line bg-brand-soft/40 p-5 sm:flex-row sm:items-center sm:justify-between"
            data-testid="recommendations-cold-start"
          >
            <p className="flex items-start gap-3 text-ink-soft">
              <Sparkles aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-brand" />
              We don’t know your taste yet, so here are staff picks and what’s trending. Tell us the genres
              and authors you love and these will follow you.
            </p>
            <Button asChild variant="brand">
              <Link to="/onboarding">Pick genres and authors</Link>
            </Button>
          </div>
        ) : null}
        {recommendations.isPending ? (
          <ListingsGridSkeleton />
        ) : recommendations.isError ? (
          <QueryError
            what="your recommendations"
            onRetry={() => recommendations.refetch()}
            retrying={recommendations.isFetching}
          />
        ) : recommendations.data.items.length === 0 ? (
          <div className="flex flex-col items-start gap-4 rounded-xl border border-dashed border-line p-6 text-ink-muted">
            <p>
              Nothing to recommend just yet: there are no books on sale that you haven’t bought or listed.
            </p>
            <Button asChild variant="brand">
              <Link to="/listings">Browse books</Link>
            </Button>
          </div>
        ) : (
          <RecommendationCards items={recommendations.data.items} testId="recommendations-grid" />
        )}
      </PageBody>
    </div>
  );
}
