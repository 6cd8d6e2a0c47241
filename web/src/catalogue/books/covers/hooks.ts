/** The covers backfill: starting a run reloads the overview. */
import { thenRefresh } from '../../../kit/mutations.ts';
import { trpc } from '../../../lib/trpc.ts';

function useRefresh() {
  const utils = trpc.useUtils();
  return () => {
    void utils.catalogue.books.covers.overview.invalidate();
  };
}

export function useStartCoversBackfill(
  options: Parameters<typeof trpc.catalogue.books.covers.start.useMutation>[0] = {},
) {
  return trpc.catalogue.books.covers.start.useMutation(thenRefresh(options, useRefresh()));
}
