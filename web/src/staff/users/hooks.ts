/** Account changes by staff: each reloads the search and the person shown. */
import { thenRefresh } from '../../kit/mutations.ts';
import { trpc } from '../../lib/trpc.ts';

function useRefresh(userId: string) {
  const utils = trpc.useUtils();
  return () => {
    void utils.staff.users.search.invalidate();
    void utils.staff.users.get.invalidate({ userId });
  };
}

export function useSetSuspended(
  userId: string,
  options: Parameters<typeof trpc.staff.users.setSuspended.useMutation>[0] = {},
) {
  return trpc.staff.users.setSuspended.useMutation(thenRefresh(options, useRefresh(userId)));
}

export function useSetModerator(
  userId: string,
  options: Parameters<typeof trpc.staff.users.setModerator.useMutation>[0] = {},
) {
  return trpc.staff.users.setModerator.useMutation(thenRefresh(options, useRefresh(userId)));
}
