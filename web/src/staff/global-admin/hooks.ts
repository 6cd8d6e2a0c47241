/** Global admin changes: each reloads what it changed once it succeeded. */
import { thenRefresh } from '../../kit/mutations.ts';
import { trpc } from '../../lib/trpc.ts';

function useRefresh() {
  const utils = trpc.useUtils();
  return () => void utils.staff.globalAdmin.overview.invalidate();
}

export function useSetAdminTier(
  options: Parameters<typeof trpc.staff.globalAdmin.setAdminTier.useMutation>[0] = {},
) {
  return trpc.staff.globalAdmin.setAdminTier.useMutation(thenRefresh(options, useRefresh()));
}

export function useDeactivateAdmin(
  options: Parameters<typeof trpc.staff.globalAdmin.deactivateAdmin.useMutation>[0] = {},
) {
  return trpc.staff.globalAdmin.deactivateAdmin.useMutation(thenRefresh(options, useRefresh()));
}

function useRefreshTemplates() {
  const utils = trpc.useUtils();
  return () => void utils.staff.globalAdmin.emailTemplates.invalidate();
}

export function useSaveTemplateDraft(
  options: Parameters<typeof trpc.staff.globalAdmin.saveEmailTemplateDraft.useMutation>[0] = {},
) {
  return trpc.staff.globalAdmin.saveEmailTemplateDraft.useMutation(
    thenRefresh(options, useRefreshTemplates()),
  );
}

export function useDiscardTemplateDraft(
  options: Parameters<typeof trpc.staff.globalAdmin.discardEmailTemplateDraft.useMutation>[0] = {},
) {
  return trpc.staff.globalAdmin.discardEmailTemplateDraft.useMutation(
    thenRefresh(options, useRefreshTemplates()),
  );
}

export function usePublishTemplate(
  options: Parameters<typeof trpc.staff.globalAdmin.publishEmailTemplate.useMutation>[0] = {},
) {
  return trpc.staff.globalAdmin.publishEmailTemplate.useMutation(thenRefresh(options, useRefreshTemplates()));
}
