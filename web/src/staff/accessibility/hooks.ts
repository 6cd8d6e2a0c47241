/** The accessibility statement: saving reloads it and the public page. */
import { thenRefresh } from '../../kit/mutations.ts';
import { trpc } from '../../lib/trpc.ts';

function useRefresh() {
  const utils = trpc.useUtils();
  return () => {
    void utils.staff.accessibility.invalidate();
    void utils.platform.pages.invalidate();
  };
}

export function useSaveStatement(
  options: Parameters<typeof trpc.staff.accessibility.saveStatement.useMutation>[0] = {},
) {
  return trpc.staff.accessibility.saveStatement.useMutation(thenRefresh(options, useRefresh()));
}
