/** SEO text: saving reloads the SEO list and the public pages that show it. */
import { thenRefresh } from '../../../../kit/mutations.ts';
import { trpc } from '../../../../lib/trpc.ts';

function useRefresh() {
  const utils = trpc.useUtils();
  return () => {
    void utils.seo.invalidate();
    void utils.pages.invalidate();
    void utils.discovery.invalidate();
  };
}

export function useSetSeo(options: Parameters<typeof trpc.seo.set.useMutation>[0] = {}) {
  return trpc.seo.set.useMutation(thenRefresh(options, useRefresh()));
}
