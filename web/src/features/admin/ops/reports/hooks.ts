/**
 * Report decisions: whatever the answer, the reports reload (someone else may have decided
 * first); acting on a listing report also reloads the staff listing search.
 */
import { thenRefresh } from '../../../../kit/mutations.ts';
import { trpc } from '../../../../lib/trpc.ts';

function useRefresh() {
  const utils = trpc.useUtils();
  return () => void utils.staffReports.invalidate();
}

export function useDismissReport(options: Parameters<typeof trpc.staffReports.dismiss.useMutation>[0] = {}) {
  return trpc.staffReports.dismiss.useMutation(thenRefresh(options, useRefresh(), 'onSettled'));
}

export function useActOnReport(options: Parameters<typeof trpc.staffReports.act.useMutation>[0] = {}) {
  const utils = trpc.useUtils();
  return trpc.staffReports.act.useMutation(
    thenRefresh(
      thenRefresh(options, () => void utils.staffListings.invalidate()),
      useRefresh(),
      'onSettled',
    ),
  );
}
