/** Listing moderation: removing or restoring reloads the search. */
import { thenRefresh } from '../../../../kit/mutations.ts';
import { trpc } from '../../../../lib/trpc.ts';

function useRefresh() {
  const utils = trpc.useUtils();
  return () => {
    void utils.staffListings.search.invalidate();
  };
}

export function useSetListingRemoved(
  options: Parameters<typeof trpc.staffListings.setRemoved.useMutation>[0] = {},
) {
  return trpc.staffListings.setRemoved.useMutation(thenRefresh(options, useRefresh()));
}
