/** Listing moderation: removing or restoring reloads the search. */
import { thenRefresh } from '../../../kit/mutations.ts';
import { trpc } from '../../../lib/trpc.ts';

function useRefresh() {
  const utils = trpc.useUtils();
  return () => {
    void utils.community.moderation.listings.search.invalidate();
  };
}

export function useSetListingRemoved(
  options: Parameters<typeof trpc.community.moderation.listings.setRemoved.useMutation>[0] = {},
) {
  return trpc.community.moderation.listings.setRemoved.useMutation(thenRefresh(options, useRefresh()));
}
