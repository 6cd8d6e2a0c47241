/** The dashboard's demo data actions; each reloads the figures whatever the answer. */
import { thenRefresh } from '../../kit/mutations.ts';
import { trpc } from '../../lib/trpc.ts';

/** Seed the demo data. */
export function useSeedDemoData(options: Parameters<typeof trpc.staff.dashboard.seed.useMutation>[0] = {}) {
  const utils = trpc.useUtils();
  return trpc.staff.dashboard.seed.useMutation(
    thenRefresh(options, () => void utils.staff.dashboard.metrics.invalidate(), 'onSettled'),
  );
}

/** Run the listings cleanup; the figures and the cleanup preview reload. */
export function useCleanupListings(
  options: Parameters<typeof trpc.staff.dashboard.cleanupListings.useMutation>[0] = {},
) {
  const utils = trpc.useUtils();
  return trpc.staff.dashboard.cleanupListings.useMutation(
    thenRefresh(
      options,
      () => {
        void utils.staff.dashboard.metrics.invalidate();
        void utils.staff.dashboard.cleanupPreview.invalidate();
      },
      'onSettled',
    ),
  );
}

/** Reset and seed (admins): the figures and the reset preview reload. */
export function useResetAndSeed(
  options: Parameters<typeof trpc.staff.dashboard.resetAndSeed.useMutation>[0] = {},
) {
  const utils = trpc.useUtils();
  return trpc.staff.dashboard.resetAndSeed.useMutation(
    thenRefresh(
      options,
      () => {
        void utils.staff.dashboard.metrics.invalidate();
        void utils.staff.dashboard.resetPreview.invalidate();
        void utils.staff.dashboard.cleanupPreview.invalidate();
      },
      'onSettled',
    ),
  );
}
