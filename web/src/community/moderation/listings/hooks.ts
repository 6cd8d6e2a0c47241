/** Listing moderation: removing or restoring reloads the search. */
import { thenRefresh } from '../../../kit/mutations.ts';
import { trpc } from '../../../lib/trpc.ts';

function useRefresh() {
  const utils = trpc.useUtils();
  return () => {
    void utils.listings.staff.search.invalidate();
  };
}

export function useSetListingRemoved(
  options: Parameters<typeof trpc.listings.staff.setRemoved.useMutation>[0] = {},
) {
  return trpc.listings.staff.setRemoved.useMutation(thenRefresh(options, useRefresh()));
}
