import { PRODUCT } from '@reshelf/contracts';
import { useEffect } from 'react';

/** The site-wide description (also in index.html), used when a page gives none of its own. */
export const DEFAULT_DESCRIPTION =
  'Reshelf is the UK marketplace for pre-loved books. Buy second-hand books with buyer protection, or sell yours in under a minute.';

/** Sets the document title ("{title} · Reshelf") and the meta description for the current page. */
export function usePageMeta(title: string, description: string = DEFAULT_DESCRIPTION): void {
  useEffect(() => {
    document.title = `${title} · ${PRODUCT.name}`;
  }, [title]);

  useEffect(() => {
    let meta = document.head.querySelector<HTMLMetaElement>('meta[name="description"]');
    if (!meta) {
      meta = document.createElement('meta');
      meta.name = 'description';
      document.head.append(meta);
    }
    meta.content = description;
  }, [description]);
}
