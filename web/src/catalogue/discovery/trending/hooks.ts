/** The trending overrides, each with the caches it changes (the staff board and the public lists). */
import { trpc } from '../../../lib/trpc.ts';

type SetOptions = Parameters<typeof trpc.discovery.staff.trending.set.useMutation>[0];
type ClearOptions = Parameters<typeof trpc.discovery.staff.trending.clear.useMutation>[0];

function useRefreshTrending() {
  const utils = trpc.useUtils();
  return () => {
    void utils.discovery.staff.trending.invalidate();
    void utils.discovery.public.invalidate();
  };
}

/** Pin or hide a listing on /trending; the board and the public lists reload whatever the answer. */
export function useSetTrendingOverride(options: SetOptions = {}) {
  const refresh = useRefreshTrending();
  return trpc.discovery.staff.trending.set.useMutation({
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
  return trpc.discovery.staff.trending.clear.useMutation({
    ...options,
    onSettled: (...args) => {
      refresh();
      return options.onSettled?.(...args);
    },
  });
}
