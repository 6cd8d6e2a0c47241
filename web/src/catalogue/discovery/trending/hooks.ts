/** The trending overrides, each with the caches it changes (the staff board and the public lists). */
import { trpc } from '../../../lib/trpc.ts';

type SetOptions = Parameters<typeof trpc.catalogue.discovery.trending.set.useMutation>[0];
type ClearOptions = Parameters<typeof trpc.catalogue.discovery.trending.clear.useMutation>[0];

function useRefreshTrending() {
  const utils = trpc.useUtils();
  return () => {
    void utils.catalogue.discovery.trending.invalidate();
    void utils.catalogue.discovery.public.invalidate();
  };
}

/** Pin or hide a listing on /trending; the board and the public lists reload whatever the answer. */
export function useSetTrendingOverride(options: SetOptions = {}) {
  const refresh = useRefreshTrending();
  return trpc.catalogue.discovery.trending.set.useMutation({
    ...options,
    onSettled: (...args) => {
      refresh();
      return options.onSettled?.(...args);
    },
  });
}

/** Undo a pin or hide; the board and the public lists reload whatever the answer. */
export function useClearTrendingOverride(options: ClearOptions = {}) {
  const refresh = useRefreshTrending();
  return trpc.catalogue.discovery.trending.clear.useMutation({
    ...options,
    onSettled: (...args) => {
      refresh();
      return options.onSettled?.(...args);
    },
  });
}
