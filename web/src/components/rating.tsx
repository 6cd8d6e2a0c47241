/**
 * A rating as it is shown everywhere a seller or charity is named (decision 0048): five stars,
 * the one-line summary, and the compact form on a listing card. Presentation only: the figures
 * come from the server (`Rating`, counted from real orders).
 */
import { countOf, type Rating, ratingWords } from '@reshelf/contracts';
import { Star } from 'lucide-react';
import { cn } from '../lib/utils.ts';

/** Five stars, `value` of them filled; read as "4 out of 5 stars". */
export function Stars({ value, className }: { value: number; className?: string }) {
  return (
    <span role="img" aria-label={`${value} out of 5 stars`} className={cn('inline-flex gap-0.5', className)}>
      {[1, 2, 3, 4, 5].map((n) => (
        <Star
          key={n}
          aria-hidden="true"
          className={cn('size-4', n <= Math.round(value) ? 'fill-amber-500 text-amber-500' : 'text-ink/25')}
        />
      ))}
    </span>
  );
}

/** One line: the average, the count and the share dispatched on time. */
export function RatingLine({ rating, className }: { rating: Rating; className?: string }) {
  return (
    <span
      data-testid="rating"
      className={cn('inline-flex flex-wrap items-center gap-x-2 gap-y-1', className)}
    >
      {rating.average !== null && rating.count > 0 ? <Stars value={rating.average} /> : null}
      <span className="font-semibold text-ink">{ratingWords(rating)}</span>
      {rating.onTimePercent !== null ? (
        <span className="text-ink-muted">
          · {rating.onTimePercent}% dispatched on time ({rating.dispatchedOnTime} of {rating.dispatchCounted}{' '}
          orders)
        </span>
      ) : null}
    </span>
  );
}

/** The compact rating of a listing card: "★ 4.7 (12)", nothing while a seller has no reviews. */
export function CardRating({ rating }: { rating: Rating | undefined }) {
  if (!rating || rating.count === 0 || rating.average === null) return null;
  return (
    <p
      data-testid="card-rating"
      className="mt-1 flex items-center gap-1 text-xs font-medium text-ink-soft"
      title={ratingWords(rating)}
    >
      <Star aria-hidden="true" className="size-3.5 fill-amber-500 text-amber-500" />
      <span className="sr-only">Seller rated </span>
      {rating.average.toFixed(1)}
      <span className="text-ink-muted">
        ({rating.count}
        <span className="sr-only"> reviews</span>)
      </span>
    </p>
  );
}

/**
 * A seller's rating beside their name (the discover page, the listing page's seller card): the
 * stars with the average and the number of reviews, or "No reviews yet".
 */
export function SellerRating({ rating, className }: { rating: Rating; className?: string }) {
  return (
    <span
      data-testid="seller-rating"
      className={cn('inline-flex flex-wrap items-center gap-x-1.5 text-sm', className)}
      title={ratingWords(rating)}
    >
      {rating.count > 0 && rating.average !== null ? (
        <>
          <Stars value={rating.average} />
          <span className="font-semibold text-ink">{rating.average.toFixed(1)}</span>
          <span className="text-ink-muted">({countOf(rating.count, 'review', 'reviews')})</span>
        </>
      ) : (
        <span className="text-ink-muted">No reviews yet</span>
      )}
    </span>
  );
}
