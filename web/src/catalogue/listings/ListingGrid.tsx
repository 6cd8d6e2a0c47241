import type { ListingCard as ListingCardData } from '@reshelf/contracts';
import type { ReactNode } from 'react';
import { ListingsGridSkeleton } from '../../components/placeholders.tsx';
import { QueryError } from '../../components/QueryError.tsx';
import type { PhotoLayout } from '../../lib/media.ts';
import { cn } from '../../lib/utils.ts';
import { useCardRatings } from './card-ratings.ts';
import { ListingCard } from './ListingCard.tsx';

export const GRID_CLASSES = 'grid grid-cols-2 gap-3 sm:grid-cols-3 sm:gap-4 lg:grid-cols-4';

type Query<T> = {
  data: T | undefined;
  isPending: boolean;
  isError: boolean;
  isFetching: boolean;
  refetch: () => unknown;
};

/** A grid of listing cards with its loading (8 skeleton cards), error and empty states. */
export function ListingGrid({
  query,
  what = 'these books',
  empty,
  notes,
  className,
  testId = 'listing-grid',
}: {
  query: Query<ListingCardData[]>;
  what?: string;
  empty?: ReactNode;
  notes?: Map<string, string | null>;
  className?: string;
  testId?: string;
}) {
  if (query.isPending) return <ListingsGridSkeleton className={className} />;
  if (query.isError || !query.data) {
    return <QueryError what={what} onRetry={() => query.refetch()} retrying={query.isFetching} />;
  }
  if (query.data.length === 0) {
    return (
      <div className="rounded-xl border border-dashed border-line p-6 text-ink-muted">
        {empty ?? <p>There's nothing here yet.</p>}
      </div>
    );
  }
  return <ListingCards listings={query.data} notes={notes} className={className} testId={testId} />;
}

export function ListingCards({
  listings,
  notes,
  className,
  testId = 'listing-grid',
  layout = 'grid',
  firstScreen = 0,
}: {
  listings: ListingCardData[];
  notes?: Map<string, string | null>;
  className?: string;
  testId?: string;
  /** The grid's layout, for the size of the photos (beside the filters: "browser"). */
  layout?: PhotoLayout;
  /** How many leading cards are on the first screen (eager, the first one "high"); 0 for none. */
  firstScreen?: number;
}) {
  const ratings = useCardRatings(listings.map((listing) => listing.id));
  return (
    <ul data-testid={testId} className={cn(GRID_CLASSES, className)}>
      {listings.map((listing, index) => (
        <li key={listing.id}>
          <ListingCard
            listing={listing}
            note={notes?.get(listing.id)}
            rating={ratings[listing.id]}
            layout={layout}
            priority={index === 0 && firstScreen > 0 ? 'high' : index < firstScreen ? 'eager' : 'lazy'}
          />
        </li>
      ))}
    </ul>
  );
}
