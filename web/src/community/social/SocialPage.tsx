import { type FeedItem, type FollowTargetInput, formatPence, SHOWN_PRICE_WORDS } from '@reshelf/contracts';
import { CalendarDays, Loader2, Sparkles, TrendingDown, UserPlus } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { ListingCard } from '../../catalogue/index.ts';
import { PageBody, PageHeader } from '../../components/PageHeader.tsx';
import { QueryError } from '../../components/QueryError.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { errorMessage } from '../../lib/errors.ts';
import { usePageMeta } from '../../lib/page-meta.ts';
import { trpc } from '../../lib/trpc.ts';
import { FollowButton } from './FollowButton.tsx';

const PAGE_SIZE = 20;

const WHEN = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  hour: '2-digit',
  minute: '2-digit',
  timeZone: 'Europe/London',
});
const SIGNING_WHEN = new Intl.DateTimeFormat('en-GB', {
  weekday: 'long',
  day: 'numeric',
  month: 'long',
  hour: '2-digit',
  minute: '2-digit',
  timeZone: 'Europe/London',
});

const linkClass = 'font-semibold text-brand underline-offset-4 hover:underline';

/** The line above an item: what happened, and why the member sees it. */
function Headline({ item }: { item: FeedItem }) {
  const because = item.because ? (
    <Link to={item.because.href} className={linkClass}>
      {item.because.label}
    </Link>
  ) : null;
  switch (item.kind) {
    case 'new_listing':
      return (
        <>
          <Sparkles aria-hidden="true" className="size-4 shrink-0 text-brand" />
          <span>
            New {item.because?.kind === 'seller' || item.because?.kind === 'charity' ? 'from' : 'by'}{' '}
            {because}
            {item.because?.kind === 'genre' ? ' (a genre you follow)' : null}
            {item.because?.kind === 'author' ? ' (an author you follow)' : null}
          </span>
        </>
      );
    case 'price_drop':
      return (
        <>
          <TrendingDown aria-hidden="true" className="size-4 shrink-0 text-moss" />
          <span>
            {because} dropped the price
            {item.priceDrop ? (
              <>
                {' '}
                to <strong data-testid="price-drop-now">{formatPence(item.priceDrop.nowAllInMinor)}</strong>{' '}
                (was {formatPence(item.priceDrop.wasAllInMinor)}), {SHOWN_PRICE_WORDS.including}
              </>
            ) : null}
          </span>
        </>
      );
    case 'staff_pick':
      return (
        <>
          <Sparkles aria-hidden="true" className="size-4 shrink-0 text-brand" />
          <span>
            A{' '}
            <Link to="/staff-picks" className={linkClass}>
              staff pick
            </Link>
            {item.note ? <>: “{item.note}”</> : null}
          </span>
        </>
      );
    case 'book_signing':
      return (
        <>
          <CalendarDays aria-hidden="true" className="size-4 shrink-0 text-brand" />
          <span>A book signing</span>
        </>
      );
  }
}

function FeedEntry({ item }: { item: FeedItem }) {
  return (
    <li
      className="flex gap-4 rounded-xl border border-line bg-paper p-4 shadow-card"
      data-testid="feed-item"
      data-kind={item.kind}
    >
      {item.listing ? (
        <div className="w-36 shrink-0 sm:w-44">
          <ListingCard listing={item.listing} />
        </div>
      ) : null}
      <div className="flex min-w-0 flex-1 flex-col gap-2">
        <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-ink-soft">
          <Headline item={item} />
        </p>
        <time dateTime={item.at} className="text-sm text-ink-muted">
          {WHEN.format(new Date(item.at))}
        </time>
        {item.signing ? (
          <div className="mt-1">
            <p className="font-serif text-lg font-semibold">{item.signing.title}</p>
            <p className="text-ink-soft">
              {item.signing.author} at {item.signing.venue},{' '}
              {SIGNING_WHEN.format(new Date(item.signing.startsAt))}
            </p>
            {item.signing.description ? (
              <p className="mt-1 text-sm text-ink-muted">{item.signing.description}</p>
            ) : null}
          </div>
        ) : null}
      </div>
    </li>
  );
}

/** One kind of suggestion (genres, authors or sellers): a follow button each, and why. */
function SuggestionGroup({
  title,
  items,
}: {
  title: string;
  items: { key: string; target: FollowTargetInput; name: string; detail: ReactNode }[];
}) {
  if (!items.length) return null;
  return (
    <div className="mt-4">
      <h3 className="text-sm font-semibold text-ink">{title}</h3>
      <ul className="mt-2 flex flex-wrap gap-x-4 gap-y-3">
        {items.map((item) => (
          <li key={item.key} className="flex flex-col items-start gap-1">
            <FollowButton target={item.target} name={item.name} withName notFollowed />
            {item.detail}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** Whom to follow: onboarding choices first, then what is trending. */
function Suggestions() {
  const suggestions = trpc.community.social.suggestions.useQuery();
  if (suggestions.isPending) return <Skeleton className="h-40 rounded-xl" />;
  if (suggestions.isError) {
    return (
      <QueryError
        what="suggestions"
        onRetry={() => suggestions.refetch()}
        retrying={suggestions.isFetching}
      />
    );
  }
  const { genres, authors, sellers } = suggestions.data;
  const none = genres.length + authors.length + sellers.length === 0;
  return (
    <section
      aria-labelledby="suggestions-heading"
      className="rounded-xl border border-line bg-paper-deep/40 p-5"
      data-testid="follow-suggestions"
    >
      <h2 id="suggestions-heading" className="flex items-center gap-2 font-serif text-xl font-semibold">
        <UserPlus aria-hidden="true" className="size-5 text-brand" />
        Follow readers, authors and genres
      </h2>
      <p className="mt-1 text-ink-soft">
        Your feed fills with new books from the sellers, charities, authors and genres you follow, and price
        drops from sellers you like.
      </p>
      {none ? (
        <p className="mt-3 text-ink-soft">
          Browse the{' '}
          <Link to="/discover-sellers" className={linkClass}>
            sellers
          </Link>{' '}
          or the{' '}
          <Link to="/categories" className={linkClass}>
            categories
          </Link>{' '}
          and follow what you like.
        </p>
      ) : null}
      <SuggestionGroup
        title="Genres"
        items={genres.map((genre) => ({
          key: genre.slug,
          target: { kind: 'genre', genreSlug: genre.slug },
          name: genre.name,
          detail: <span className="text-xs text-ink-muted">{genre.reason}</span>,
        }))}
      />
      <SuggestionGroup
        title="Authors"
        items={authors.map((author) => ({
          key: author.name,
          target: { kind: 'author', author: author.name },
          name: author.name,
          detail: <span className="max-w-56 truncate text-xs text-ink-muted">{author.reason}</span>,
        }))}
      />
      <SuggestionGroup
        title="Sellers"
        items={sellers.map((seller) => ({
          key: seller.id,
          target: { kind: 'seller', sellerId: seller.id },
          name: seller.name,
          detail: (
            <Link
              to={`/seller/${seller.id}`}
              className="text-xs text-ink-muted underline-offset-4 hover:underline"
            >
              {seller.town ? `${seller.town} · ` : ''}
              {seller.reason}
            </Link>
          ),
        }))}
      />
    </section>
  );
}

/** /social: what the member follows, newest first, a page at a time. */
export function SocialPage() {
  usePageMeta('Your feed', 'New books and price drops from the sellers, authors and genres you follow.');
  const feed = trpc.community.social.feed.useInfiniteQuery(
    { limit: PAGE_SIZE },
    { getNextPageParam: (page) => page.nextCursor, staleTime: 0 },
  );
  const items = feed.data?.pages.flatMap((page) => page.items) ?? [];
  const followsAnything = feed.data?.pages[0]?.followsAnything ?? true;
  return (
    <>
      <PageHeader
        title="Your feed"
        description="New books from the sellers, charities, authors and genres you follow, price drops, staff picks and book signings, newest first."
      >
        <p className="mt-3 text-sm">
          <Link to="/account/following" className={linkClass}>
            Manage what you follow
          </Link>
          {' · '}
          <Link to="/listings?following=1" className={linkClass}>
            Browse books from what you follow
          </Link>
        </p>
      </PageHeader>
      <PageBody className="flex flex-col gap-6">
        {feed.isPending ? (
          <div role="status" aria-label="Loading your feed" className="flex flex-col gap-4">
            <Skeleton className="h-48 rounded-xl" />
            <Skeleton className="h-48 rounded-xl" />
          </div>
        ) : feed.isError ? (
          <QueryError
            what="your feed"
            message={errorMessage(feed.error)}
            onRetry={() => feed.refetch()}
            retrying={feed.isFetching}
          />
        ) : (
          <>
            {!followsAnything || items.length === 0 ? <Suggestions /> : null}
            {items.length ? (
              <ol className="grid gap-4 lg:grid-cols-2" data-testid="feed">
                {items.map((item) => (
                  <FeedEntry key={item.key} item={item} />
                ))}
              </ol>
            ) : (
              <p className="text-ink-muted" data-testid="feed-empty">
                Nothing here yet: follow a few sellers, authors or genres and their new books will appear
                here.
              </p>
            )}
            {feed.hasNextPage ? (
              <Button
                variant="outline"
                className="self-center"
                onClick={() => feed.fetchNextPage()}
                disabled={feed.isFetchingNextPage}
              >
                {feed.isFetchingNextPage ? (
                  <Loader2 aria-hidden="true" className="size-4 animate-spin" />
                ) : null}
                Show older
              </Button>
            ) : null}
          </>
        )}
      </PageBody>
    </>
  );
}
