/** The sellers' ratings for a page of listing cards, in one request (decision 0048). */
import type { Rating } from '@reshelf/contracts';
import { trpc } from '../../lib/trpc.ts';

/** The ratings of the sellers of a page of cards, by listing id (one request for the page). */
export function useCardRatings(listingIds: string[]): Record<string, Rating> {
  const ids = [...new Set(listingIds)].slice(0, 100);
  const query = trpc.community.reviews.public.ratingsForListings.useQuery(
    { listingIds: ids },
    { enabled: ids.length > 0, staleTime: 60_000 },
  );
  return query.data ?? {};
}
