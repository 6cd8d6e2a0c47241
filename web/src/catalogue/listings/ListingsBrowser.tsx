import {
  type BrowseInput,
  CATALOGUE_LIMITS,
  CORRECTION_WORDS,
  plural,
  RESULT_GROUP_LABELS,
  RESULT_GROUPS,
  type ResultGroup,
} from '@reshelf/contracts';
import { keepPreviousData } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link, useLocation, useSearchParams } from 'react-router-dom';
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
import { cn } from '../../lib/utils.ts';
import { BookResultCards } from './BookResultCard.tsx';
import { Filters, type FixedFilter, SortSelect } from './Filters.tsx';
import { ListingCards } from './ListingGrid.tsx';
import {
  activeFilterCount,
  readListingParams,
  readsByBook,
  toApiInput,
  toBookInput,
  withChanges,
} from './listing-params.ts';
import { Pagination } from './Pagination.tsx';

/** What the count and the redirect read of an answer, copy by copy or by book. */
export interface ResultPage {
  total: number;
  totalCapped: boolean;
  page: number;
}

/** "12 books" copy by copy or for works, "12 editions" by edition. */
function countText(page: ResultPage, group: ResultGroup | null): string {
  const total = page.totalCapped
    ? `${CATALOGUE_LIMITS.countCap.toLocaleString('en-GB')}+`
    : page.total.toLocaleString('en-GB');
  return group === 'edition'
    ? `${total} ${plural(page.total, 'edition', 'editions')}`
    : `${total} ${plural(page.total, 'book', 'books')}`;
}

/**
 * "Each edition" / "Each book": how results by book are grouped, kept in the address
 * (`group=work`). Links, so each grouping is an address of its own and works before hydration.
 */
function GroupControl({ value }: { value: ResultGroup }) {
  const [search] = useSearchParams();
  const { pathname } = useLocation();
  return (
    <fieldset
      className="inline-flex rounded-md border border-line bg-white p-0.5 shadow-sm"
      data-testid="result-group"
    >
      <legend className="sr-only">Show results for</legend>
      {RESULT_GROUPS.map((group) => (
        <Link
          key={group}
          to={`${pathname}?${withChanges(search, { group: group === 'edition' ? null : group })}`}
          preventScrollReset
          aria-current={value === group ? 'true' : undefined}
          className={cn(
            'rounded px-3 py-1.5 text-sm font-medium',
            value === group ? 'bg-ink text-paper' : 'text-ink-muted hover:bg-paper-deep hover:text-ink',
          )}
        >
          {RESULT_GROUP_LABELS[group]}
        </Link>
      ))}
    </fieldset>
  );
}

/** "Showing results for tolkien — search instead for tolkein" (the words as typed, exact=1). */
function DidYouMean({ corrected, asked }: { corrected: string; asked: string }) {
  const [search] = useSearchParams();
  const { pathname } = useLocation();
  return (
    <p className="mb-4 text-base text-ink-soft" data-testid="did-you-mean">
      {CORRECTION_WORDS.showing} <strong className="font-semibold text-ink">{corrected}</strong> —{' '}
      {CORRECTION_WORDS.instead}{' '}
      <Link
        to={`${pathname}?${withChanges(search, { exact: '1' })}`}
        className="font-semibold text-brand underline underline-offset-4"
        data-testid="search-instead"
      >
        {asked}
      </Link>
    </p>
  );
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
  byBook = false,
}: {
  fixed?: Partial<Pick<BrowseInput, 'category' | 'genre' | 'charity' | 'seller'>>;
  mode?: 'browse' | 'search';
  /**
   * Results by book (decision 0079): one per edition or work, for /search, /listings and the
   * category and genre shelves. A seller's or charity's shelf and "following" stay copy by copy,
   * and so do advanced searches by a field the book search lacks (listing-params, COPY_ONLY_KEYS).
   */
  byBook?: boolean;
  /**
   * Where an answer sends the visitor instead, if anywhere (the search page: /search/not-found
   * for words nothing matches). Decided while rendering, so the server answers the redirect.
   */
  redirectFor?: (page: ResultPage, info: { filtered: boolean }) => string | null;
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
  const books = byBook && !followingMode && !fixed.seller && !fixed.charity && readsByBook(params);
  const bookQuery = trpc.catalogue.books.public.search.useQuery(
    toBookInput(params, { category: fixed.category, genre: fixed.genre }),
    { enabled: books, placeholderData: keepPreviousData },
  );
  const browse = trpc.catalogue.listings.browse.useQuery(input, {
    enabled: !books && !searching && !followingMode,
    placeholderData: keepPreviousData,
  });
  const followed = trpc.community.social.following.useQuery(input, {
    enabled: followingMode && signedIn,
    placeholderData: keepPreviousData,
  });
  const found = trpc.catalogue.listings.search.useQuery(
    { ...input, q: params.q },
    { enabled: !books && searching, placeholderData: keepPreviousData },
  );
  const copies = searching ? found : followingMode ? followed : browse;
  const query = books ? bookQuery : copies;
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
                    format: null,
                    firstEdition: null,
                    signed: null,
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
  } else if (books && bookQuery.data) {
    body = (
      <div
        aria-busy={query.isFetching}
        className={query.isPlaceholderData ? 'opacity-60 transition-opacity' : undefined}
      >
        <BookResultCards
          results={bookQuery.data.items}
          group={bookQuery.data.group}
          firstScreen={FIRST_SCREEN_CARDS}
        />
        <Pagination
          page={bookQuery.data.page}
          pageSize={bookQuery.data.pageSize}
          total={bookQuery.data.total}
          hasNextPage={bookQuery.data.hasNextPage}
        />
      </div>
    );
  } else if (copies.data) {
    body = (
      <div
        aria-busy={query.isFetching}
        className={query.isPlaceholderData ? 'opacity-60 transition-opacity' : undefined}
      >
        <ListingCards
          listings={copies.data.items}
          testId="results"
          layout="browser"
          firstScreen={FIRST_SCREEN_CARDS}
        />
        <Pagination
          page={copies.data.page}
          pageSize={copies.data.pageSize}
          total={copies.data.total}
          hasNextPage={copies.data.hasNextPage}
          asOf={copies.data.asOf}
        />
      </div>
    );
  }
  const corrected = books && searching ? bookQuery.data?.correctedQuery : null;

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
        {corrected && bookQuery.data?.query ? (
          <DidYouMean corrected={corrected} asked={bookQuery.data.query} />
        ) : null}
        <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
          <p className="text-sm text-ink-muted" aria-live="polite" data-testid="result-count">
            {query.data ? countText(query.data, books ? params.group : null) : ' '}
          </p>
          <div className="flex flex-wrap items-center gap-3">
            {books ? <GroupControl value={params.group} /> : null}
            <SortSelect value={sort} hasQuery={searching} />
          </div>
        </div>
        <StaleMark stale={query.isPlaceholderData} />
        {body}
      </section>
    </div>
  );
}
