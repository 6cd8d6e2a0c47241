/** The accessibility statement: saving reloads it and the public page. */
import { thenRefresh } from '../../../../kit/mutations.ts';
import { trpc } from '../../../../lib/trpc.ts';

function useRefresh() {
  const utils = trpc.useUtils();
  return () => {
    void utils.accessibility.invalidate();
    void utils.pages.invalidate();
  };
}

export function useSaveStatement(
  options: Parameters<typeof trpc.accessibility.saveStatement.useMutation>[0] = {},
) {
  return trpc.accessibility.saveStatement.useMutation(thenRefresh(options, useRefresh()));
}
