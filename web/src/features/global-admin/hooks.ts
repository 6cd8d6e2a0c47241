/** Super admins' changes to admin records; each reloads the overview once it succeeded. */
import { thenRefresh } from '../../kit/mutations.ts';
import { trpc } from '../../lib/trpc.ts';

function useRefresh() {
  const utils = trpc.useUtils();
  return () => void utils.globalAdmin.overview.invalidate();
}

export function useSetAdminTier(
  options: Parameters<typeof trpc.globalAdmin.setAdminTier.useMutation>[0] = {},
) {
  return trpc.globalAdmin.setAdminTier.useMutation(thenRefresh(options, useRefresh()));
}

export function useDeactivateAdmin(
  options: Parameters<typeof trpc.globalAdmin.deactivateAdmin.useMutation>[0] = {},
) {
  return trpc.globalAdmin.deactivateAdmin.useMutation(thenRefresh(options, useRefresh()));
}
