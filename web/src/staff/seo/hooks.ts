/** SEO text: saving reloads the SEO list and the public pages that show it. */
import { thenRefresh } from '../../kit/mutations.ts';
import { trpc } from '../../lib/trpc.ts';

function useRefresh() {
  const utils = trpc.useUtils();
  return () => {
    void utils.staff.seo.invalidate();
    void utils.platform.pages.invalidate();
    void utils.catalogue.discovery.public.invalidate();
  };
}

export function useSetSeo(options: Parameters<typeof trpc.staff.seo.set.useMutation>[0] = {}) {
  return trpc.staff.seo.set.useMutation(thenRefresh(options, useRefresh()));
}
