/**
 * Whether the site's header and footer are shown. The staff area has a frame of its own (its
 * sidebar and header), so its layout hides them while it is on screen. The change is made in a
 * layout effect, before the browser paints, so neither frame flashes.
 */
import { createContext, type ReactNode, useContext, useLayoutEffect, useState } from 'react';

interface SiteChrome {
  hidden: boolean;
  setHidden: (hidden: boolean) => void;
}

const SiteChromeContext = createContext<SiteChrome>({ hidden: false, setHidden: () => {} });

export function SiteChromeProvider({ children }: { children: (hidden: boolean) => ReactNode }) {
  const [hidden, setHidden] = useState(false);
  return (
    <SiteChromeContext.Provider value={{ hidden, setHidden }}>{children(hidden)}</SiteChromeContext.Provider>
  );
}

/** Hides the site's header and footer while the calling component is mounted. */
export function useHideSiteChrome(): void {
  const { setHidden } = useContext(SiteChromeContext);
  useLayoutEffect(() => {
    setHidden(true);
    return () => setHidden(false);
  }, [setHidden]);
}
