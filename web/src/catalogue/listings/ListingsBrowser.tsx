import { type BrowseInput, CATALOGUE_LIMITS, type ListingPage, plural } from '@reshelf/contracts';
import { keepPreviousData } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { ListingsGridSkeleton } from '../../components/placeholders.tsx';
import { QueryError } from '../../components/QueryError.tsx';
import { Button } from '../../components/ui/button.tsx';
import { StaleMark } from '../../kit/QueryView.tsx';
import { errorMessage } from '../../lib/errors.ts';
import { FIRST_SCREEN_CARDS } from '../../lib/media.ts';
import { loginPath } from '../../lib/next-path.ts';
import { usePageRedirect } from '../../lib/page-meta.ts';
import { useSession } from '../../lib/session.ts';
import { trpc } from '../../lib/trpc.ts';
import { Filters, type FixedFilter, SortSelect } from './Filters.tsx';
import { ListingCards } from './ListingGrid.tsx';
import { activeFilterCount, readListingParams, toApiInput, withChanges } from './listing-params.ts';
import { Pagination } from './Pagination.tsx';

function countText(page: ListingPage): string {
  const total = page.totalCapped
    ? `${CATALOGUE_LIMITS.countCap.toLocaleString('en-GB')}+`
    : page.total.toLocaleString('en-GB');
  return `${total} ${plural(page.total, 'book', 'books')}`;
}

/**
 * Filters, sort, a grid and pages: the body of /listings, /search and every shelf (a category,
 * a genre, a charity, a seller), which fix some filters of their own.
 */
export function ListingsBrowser({
  fixed = {},
  mode = 'browse',
  redirectFor,
  empty,
}: {
  fixed?: Partial<Pick<BrowseInput, 'category' | 'genre' | 'charity' | 'seller'>>;
  mode?: 'browse' | 'search';
  /**
   * Where an answer sends the visitor instead, if anywhere (the search page: /search/not-found
   * for words nothing matches). Decided while rendering, so the server answers the redirect.
   */
  redirectFor?: (page: ListingPage, info: { filtered: boolean }) => string | null;
  empty?: ReactNode;
}) {
  const [search, setSearch] = useSearchParams();
  const params = readListingParams(search);
  const input = toApiInput(params, fixed);
  const searching = mode === 'search' && params.q.trim().length > 0;
  const session = useSession();
  const signedIn = session.status === 'signed-in';
  // /listings?following=1: the member's own shelf, never a cached public answer.
  const followingMode = mode === 'browse' && Object.keys(fixed).length === 0 && params.following;
  const browse = trpc.catalogue.listings.browse.useQuery(input, {
    enabled: !searching && !followingMode,
    placeholderData: keepPreviousData,
  });
  const followed = trpc.community.social.following.useQuery(input, {
    enabled: followingMode && signedIn,
    placeholderData: keepPreviousData,
  });
  const found = trpc.catalogue.listings.search.useQuery(
    { ...input, q: params.q },
    { enabled: searching, placeholderData: keepPreviousData },
  );
  const query = searching ? found : followingMode ? followed : browse;
  const filtered = activeFilterCount(params) > 0;
  const fixedKeys = Object.keys(fixed) as FixedFilter[];
  const sort = params.sort ?? (searching ? 'relevance' : 'newest');

  usePageRedirect(
    redirectFor && query.data && !query.isPlaceholderData ? redirectFor(query.data, { filtered }) : null,
  );

  let body: ReactNode;
  if (followingMode && session.status === 'signed-out') {
    body = (
      <p
        className="rounded-xl border border-dashed border-line p-6 text-ink-muted"
        data-testid="following-signed-out"
      >
        <Link
          className="font-semibold text-brand underline-offset-4 hover:underline"
          to={loginPath('/listings?following=1')}
        >
          Sign in
        </Link>{' '}
        to see books from the sellers, authors and genres you follow.
      </p>
    );
  } else if (query.isPending) {
    body = <ListingsGridSkeleton />;
  } else if (query.isError) {
    body = (
      <QueryError
        what="these books"
        message={errorMessage(query.error)}
        onRetry={() => query.refetch()}
        retrying={query.isFetching}
      />
    );
  } else if (query.data.items.length === 0) {
    body = (
      <div
        className="rounded-xl border border-dashed border-line p-6 text-ink-muted"
        data-testid="no-results"
      >
        {query.data.total > 0 ? (
          <p>
            There are no more books on this page.{' '}
            <Link
              className="font-semibold text-brand underline-offset-4 hover:underline"
              to={`?${withChanges(search, { page: null, asOf: null })}`}
            >
              Go to the first page
            </Link>
          </p>
        ) : filtered ? (
          <div className="flex flex-col items-start gap-3">
            <p>No books match these filters.</p>
            <Button
              variant="outline"
              onClick={() =>
                setSearch(
                  withChanges(search, {
                    category: null,
                    genre: null,
                    condition: null,
                    minPrice: null,
                    maxPrice: null,
                    charity: null,
                    following: null,
                  }),
                )
              }
            >
              Clear the filters
            </Button>
          </div>
        ) : (
          (empty ?? <p>There are no books here yet. Check back soon.</p>)
        )}
      </div>
    );
  } else {
    body = (
      <div
        aria-busy={query.isFetching}
        className={query.isPlaceholderData ? 'opacity-60 transition-opacity' : undefined}
      >
        <ListingCards
          listings={query.data.items}
          testId="results"
          layout="browser"
          firstScreen={FIRST_SCREEN_CARDS}
        />
        <Pagination
          page={query.data.page}
          pageSize={query.data.pageSize}
          total={query.data.total}
          hasNextPage={query.data.hasNextPage}
          asOf={query.data.asOf}
        />
      </div>
    );
  }

  return (
    <div className="grid gap-6 lg:grid-cols-[16rem_minmax(0,1fr)] lg:gap-8">
      <aside aria-label="Filters" className="lg:sticky lg:top-24 lg:self-start">
        <Filters
          params={params}
          fixed={fixedKeys}
          showFollowing={mode === 'browse' && fixedKeys.length === 0 && signedIn}
        />
      </aside>
      <section aria-label="Results" className="min-w-0">
        <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
          <p className="text-sm text-ink-muted" aria-live="polite" data-testid="result-count">
            {query.data ? countText(query.data) : ' '}
          </p>
          <SortSelect value={sort} hasQuery={searching} />
        </div>
        <StaleMark stale={query.isPlaceholderData} />
        {body}
      </section>
    </div>
  );
}
