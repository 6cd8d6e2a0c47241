/**
 * Reviews as anyone sees them (decision 0048): a seller's or charity's rating (average,
 * count, share dispatched on time, all from real orders) and its published reviews, with the
 * seller's reply. Used on seller, charity and listing pages; the compact rating on listing cards.
 * A seller's or charity's page leads with its books: the rating line at the top (the summary
 * below) links to all the reviews, after the books.
 */
import { countOf, type PublicReview, plural, type Rating, type SellerReviews } from '@reshelf/contracts';
import { RatingLine, SellerRating, Stars } from '../../components/rating.tsx';
import { Button } from '../../components/ui/button.tsx';
import { QueryView } from '../../kit/index.ts';
import { trpc } from '../../lib/trpc.ts';
import { cn } from '../../lib/utils.ts';
import { ReportControl } from '../moderation/ReportControl.tsx';
import { useReportReview } from './hooks.ts';

const dayFormat = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  timeZone: 'Europe/London',
});

function ReviewItem({ review, sellerName }: { review: PublicReview; sellerName: string }) {
  return (
    <li data-testid="review" className="rounded-xl border border-line bg-paper p-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <Stars value={review.stars} />
        <span className="text-xs text-ink-muted">{dayFormat.format(new Date(review.publishedAt))}</span>
      </div>
      {review.body ? <p className="mt-2 text-ink">{review.body}</p> : null}
      <p className="mt-2 text-sm text-ink-muted">
        {review.authorName} bought “{review.bookTitle}”
      </p>
      {review.reply ? (
        <div className="mt-3 border-l-2 border-brand/40 pl-3 text-sm">
          <p className="font-semibold text-ink-soft">{sellerName} replied</p>
          <p className="text-ink">{review.reply}</p>
        </div>
      ) : null}
      <ReportReview review={review} />
    </li>
  );
}

/** Any member may report a published review or its reply (not one they wrote: the server says so). */
function ReportReview({ review }: { review: PublicReview }) {
  const report = useReportReview();
  return (
    <ReportControl
      kind="review"
      label="Report this review"
      className="mt-2"
      description={`Tell our team what’s wrong with ${review.authorName}’s review${review.reply ? ' or its reply' : ''}. Nobody is told who reported it.`}
      send={(input) => report.mutateAsync({ reviewId: review.id, ...input })}
    />
  );
}

/** The way to a seller's or charity's next page of reviews. */
interface MoreReviews {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => unknown;
}

function ReviewsBody({
  loaded,
  more,
  sellerName,
}: {
  loaded: SellerReviews[];
  more: MoreReviews;
  sellerName: string;
}) {
  const first = loaded[0];
  if (!first) return null;
  const reviews = loaded.flatMap((page) => page.reviews);
  return (
    <>
      <RatingLine rating={first.rating} className="text-sm" />
      {reviews.length > 0 ? (
        <ul className="mt-4 grid gap-3 md:grid-cols-2">
          {reviews.map((review) => (
            <ReviewItem key={review.id} review={review} sellerName={sellerName} />
          ))}
        </ul>
      ) : (
        <p className="mt-2 text-sm text-ink-muted">
          Reviews appear here once buyers have reviewed completed orders.
        </p>
      )}
      {more.hasNextPage ? (
        <Button
          variant="outline"
          className="mt-4"
          data-testid="more-reviews"
          disabled={more.isFetchingNextPage}
          onClick={() => void more.fetchNextPage()}
        >
          {more.isFetchingNextPage ? 'Loading…' : 'Show more reviews'}
        </Button>
      ) : null}
    </>
  );
}

function Section({ children, limit }: { children: React.ReactNode; limit?: boolean }) {
  return (
    <section
      id={REVIEWS_ANCHOR}
      aria-labelledby="reviews-heading"
      data-testid="reviews"
      className={cn('mb-8 scroll-mt-24', limit && 'mt-8')}
    >
      <h2 id="reviews-heading" className="mb-2 font-serif text-xl font-semibold">
        Reviews
      </h2>
      {children}
    </section>
  );
}

/** Reviews a seller's or charity's page loads at first (and its summary reads from the same answer). */
const PAGE_REVIEWS = 6;

/** Where a page's reviews section is: the summary's link goes there. */
export const REVIEWS_ANCHOR = 'reviews';

function useSellerReviews(sellerId: string, limit: number) {
  return trpc.community.reviews.public.forSeller.useInfiniteQuery(
    { sellerId, limit },
    { getNextPageParam: (page) => page.nextCursor },
  );
}

function useCharityReviews(slug: string) {
  return trpc.community.reviews.public.forCharity.useInfiniteQuery(
    { slug, limit: PAGE_REVIEWS },
    { getNextPageParam: (page) => page.nextCursor },
  );
}

/** The rating line with a link down to the reviews ("Read all 12 reviews"); nothing while it loads. */
function RatingSummary({ rating }: { rating: Rating | undefined }) {
  if (!rating) return null;
  return (
    <span data-testid="rating-summary" className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
      <RatingLine rating={rating} />
      {rating.count > 0 ? (
        <a
          href={`#${REVIEWS_ANCHOR}`}
          className="font-semibold text-brand underline-offset-4 hover:underline"
        >
          Read all {plural(rating.count, 'the review', countOf(rating.count, 'review', 'reviews'))}
        </a>
      ) : null}
    </span>
  );
}

/** A seller page's rating at the top, linking to its reviews below the books. */
export function SellerRatingSummary({ sellerId }: { sellerId: string }) {
  return <RatingSummary rating={useSellerReviews(sellerId, PAGE_REVIEWS).data?.pages[0]?.rating} />;
}

/** A charity page's rating at the top, linking to its reviews below the books. */
export function CharityRatingSummary({ slug }: { slug: string }) {
  return <RatingSummary rating={useCharityReviews(slug).data?.pages[0]?.rating} />;
}

/**
 * The ratings of the sellers named on a page (stars and count), in one request: by seller id,
 * each shown by `SellerRating`. Empty while they load.
 */
export function useSellerRatings(sellerIds: string[]): Record<string, Rating> {
  const ids = [...new Set(sellerIds)].slice(0, 100);
  const query = trpc.community.reviews.public.ratings.useQuery(
    { sellerIds: ids },
    { enabled: ids.length > 0, staleTime: 60_000 },
  );
  return query.data ?? {};
}

/** One seller's rating (stars and count) where they are named; nothing while it loads. */
export function SellerRatingFor({ sellerId, className }: { sellerId: string; className?: string }) {
  const rating = useSellerRatings([sellerId])[sellerId];
  return rating ? <SellerRating rating={rating} className={className} /> : null;
}

export function SellerReviewsSection({
  sellerId,
  sellerName,
  limit = PAGE_REVIEWS,
  spaced,
}: {
  sellerId: string;
  sellerName: string;
  limit?: number;
  spaced?: boolean;
}) {
  const query = useSellerReviews(sellerId, limit);
  return (
    <Section limit={spaced}>
      <QueryView query={query} pending="Loading reviews…">
        {(data) => <ReviewsBody loaded={data.pages} more={query} sellerName={sellerName} />}
      </QueryView>
    </Section>
  );
}

export function CharityReviewsSection({ slug, name }: { slug: string; name: string }) {
  const query = useCharityReviews(slug);
  return (
    <Section limit>
      <QueryView query={query} pending="Loading reviews…">
        {(data) => <ReviewsBody loaded={data.pages} more={query} sellerName={name} />}
      </QueryView>
    </Section>
  );
}
