/**
 * Report decisions: whatever the answer, the reports reload (someone else may have decided
 * first); acting on a listing report also reloads the staff listing search.
 */
import { thenRefresh } from '../../../kit/mutations.ts';
import { trpc } from '../../../lib/trpc.ts';

function useRefresh() {
  const utils = trpc.useUtils();
  return () => void utils.community.moderation.staff.invalidate();
}

export function useDismissReport(
  options: Parameters<typeof trpc.community.moderation.staff.dismiss.useMutation>[0] = {},
) {
  return trpc.community.moderation.staff.dismiss.useMutation(thenRefresh(options, useRefresh(), 'onSettled'));
}

export function useActOnReport(
  options: Parameters<typeof trpc.community.moderation.staff.act.useMutation>[0] = {},
) {
  const utils = trpc.useUtils();
  return trpc.community.moderation.staff.act.useMutation(
    thenRefresh(
      thenRefresh(options, () => void utils.community.moderation.listings.invalidate()),
      useRefresh(),
      'onSettled',
    ),
  );
}
