import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';
import { track } from '../../lib/analytics.ts';
import { CookieBanner } from '../consent/CookieBanner.tsx';
import { WelcomeGift } from '../welcome-gift/WelcomeGift.tsx';

/**
 * What sits over every public page (spec section 2, "Global overlays"): the cookie banner and the
 * welcome gift. Toasts are mounted above the router (app/providers.tsx). Page views are recorded
 * here too; analytics holds them until the visitor accepts cookies.
 */
export function GlobalOverlays() {
  usePageViews();
  return (
    <>
      <CookieBanner />
      <WelcomeGift />
    </>
  );
}

/** The last history entry counted, so a re-render or a remount never counts a visit twice. */
let lastCountedKey: string | null = null;

function usePageViews() {
  const { key, pathname } = useLocation();
  useEffect(() => {
    if (key === lastCountedKey) return;
    lastCountedKey = key;
    track('page_view', { path: pathname });
  }, [key, pathname]);
}
