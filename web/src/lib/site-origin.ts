import { createContext, useContext } from 'react';

/**
 * The origin the page was served from, for absolute links in the page (the listing's JSON-LD).
 * In the browser it is the window's; the server renders with the request's origin (the same one
 * the browser then sees), so the hydrated text matches (web/src/entry-server.tsx).
 */
export const SiteOriginContext = createContext<string | null>(null);

export function useSiteOrigin(): string {
  const fromServer = useContext(SiteOriginContext);
  if (fromServer !== null) return fromServer;
  return typeof window === 'undefined' ? '' : window.location.origin;
}
