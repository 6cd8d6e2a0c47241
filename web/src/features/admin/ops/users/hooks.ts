/** Account changes by staff: each reloads the search and the person shown. */
import { thenRefresh } from '../../../../kit/mutations.ts';
import { trpc } from '../../../../lib/trpc.ts';

function useRefresh(userId: string) {
  const utils = trpc.useUtils();
  return () => {
    void utils.users.search.invalidate();
    void utils.users.get.invalidate({ userId });
  };
}

export function useSetSuspended(
  userId: string,
  options: Parameters<typeof trpc.users.setSuspended.useMutation>[0] = {},
) {
  return trpc.users.setSuspended.useMutation(thenRefresh(options, useRefresh(userId)));
}

export function useSetModerator(
  userId: string,
  options: Parameters<typeof trpc.users.setModerator.useMutation>[0] = {},
) {
  return trpc.users.setModerator.useMutation(thenRefresh(options, useRefresh(userId)));
}
