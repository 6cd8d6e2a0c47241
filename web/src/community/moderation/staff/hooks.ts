/**
 * Report decisions: whatever the answer, the reports reload (someone else may have decided
 * first); acting on a listing report also reloads the staff listing search.
 */
import { thenRefresh } from '../../../kit/mutations.ts';
import { trpc } from '../../../lib/trpc.ts';

function useRefresh() {
  const utils = trpc.useUtils();
  return () => void utils.reports.staff.invalidate();
}

export function useDismissReport(options: Parameters<typeof trpc.reports.staff.dismiss.useMutation>[0] = {}) {
  return trpc.reports.staff.dismiss.useMutation(thenRefresh(options, useRefresh(), 'onSettled'));
}

export function useActOnReport(options: Parameters<typeof trpc.reports.staff.act.useMutation>[0] = {}) {
  const utils = trpc.useUtils();
  return trpc.reports.staff.act.useMutation(
    thenRefresh(
      thenRefresh(options, () => void utils.listings.staff.invalidate()),
      useRefresh(),
      'onSettled',
    ),
  );
}
