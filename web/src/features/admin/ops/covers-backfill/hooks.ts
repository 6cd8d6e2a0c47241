/** The covers backfill: starting a run reloads the overview. */
import { thenRefresh } from '../../../../kit/mutations.ts';
import { trpc } from '../../../../lib/trpc.ts';

function useRefresh() {
  const utils = trpc.useUtils();
  return () => {
    void utils.coversBackfill.overview.invalidate();
  };
}

export function useStartCoversBackfill(
  options: Parameters<typeof trpc.coversBackfill.start.useMutation>[0] = {},
) {
  return trpc.coversBackfill.start.useMutation(thenRefresh(options, useRefresh()));
}
