/** Global admin changes: each reloads what it changed once it succeeded. */
import { thenRefresh } from '../../kit/mutations.ts';
import { trpc } from '../../lib/trpc.ts';

function useRefresh() {
  const utils = trpc.useUtils();
  return () => void utils.platform.globalAdmin.overview.invalidate();
}

export function useSetAdminTier(
  options: Parameters<typeof trpc.platform.globalAdmin.setAdminTier.useMutation>[0] = {},
) {
  return trpc.platform.globalAdmin.setAdminTier.useMutation(thenRefresh(options, useRefresh()));
}

export function useDeactivateAdmin(
  options: Parameters<typeof trpc.platform.globalAdmin.deactivateAdmin.useMutation>[0] = {},
) {
  return trpc.platform.globalAdmin.deactivateAdmin.useMutation(thenRefresh(options, useRefresh()));
}

function useRefreshTemplates() {
  const utils = trpc.useUtils();
  return () => void utils.platform.globalAdmin.emailTemplates.invalidate();
}

export function useSaveTemplateDraft(
  options: Parameters<typeof trpc.platform.globalAdmin.saveEmailTemplateDraft.useMutation>[0] = {},
) {
  return trpc.platform.globalAdmin.saveEmailTemplateDraft.useMutation(
    thenRefresh(options, useRefreshTemplates()),
  );
}

export function useDiscardTemplateDraft(
  options: Parameters<typeof trpc.platform.globalAdmin.discardEmailTemplateDraft.useMutation>[0] = {},
) {
  return trpc.platform.globalAdmin.discardEmailTemplateDraft.useMutation(
    thenRefresh(options, useRefreshTemplates()),
  );
}

export function usePublishTemplate(
  options: Parameters<typeof trpc.platform.globalAdmin.publishEmailTemplate.useMutation>[0] = {},
) {
  return trpc.platform.globalAdmin.publishEmailTemplate.useMutation(
    thenRefresh(options, useRefreshTemplates()),
  );
}
