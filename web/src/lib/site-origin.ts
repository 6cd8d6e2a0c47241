import { createContext, useContext } from 'react';

/**
 * The site's origin, for absolute links in the page (the listing's JSON-LD). The server renders
 * with the site's PUBLIC_ORIGIN (web/src/entry-server.tsx) and hands it to the browser with the
 * page's answers; a page it rendered is hydrated with that same origin (main.tsx), whatever
 * address the browser opened it at, so the hydrated text matches. A page rendered only in the
 * browser uses the window's.
 */
export const SiteOriginContext = createContext<string | null>(null);

export function useSiteOrigin(): string {
  const fromServer = useContext(SiteOriginContext);
  if (fromServer !== null) return fromServer;
  return typeof window === 'undefined' ? '' : window.location.origin;
}
