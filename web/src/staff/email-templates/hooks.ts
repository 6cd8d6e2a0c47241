/** Email template changes: publishing or resetting reloads the templates. */
import { thenRefresh } from '../../kit/mutations.ts';
import { trpc } from '../../lib/trpc.ts';

function useRefresh() {
  const utils = trpc.useUtils();
  return () => {
    void utils.staff.emailTemplates.list.invalidate();
  };
}

export function useUpdateEmailTemplate(
  options: Parameters<typeof trpc.staff.emailTemplates.update.useMutation>[0] = {},
) {
  return trpc.staff.emailTemplates.update.useMutation(thenRefresh(options, useRefresh()));
}

export function useResetEmailTemplate(
  options: Parameters<typeof trpc.staff.emailTemplates.reset.useMutation>[0] = {},
) {
  return trpc.staff.emailTemplates.reset.useMutation(thenRefresh(options, useRefresh()));
}
