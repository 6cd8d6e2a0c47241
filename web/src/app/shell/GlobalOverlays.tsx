import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';
import { track } from '../../lib/analytics.ts';
import { trpc } from '../../lib/trpc.ts';
import { CookieBanner } from './consent/CookieBanner.tsx';
import { WelcomeGift } from './welcome-gift/WelcomeGift.tsx';

/**
 * What sits over every public page (spec section 2, "Global overlays"): the cookie banner and the
 * welcome gift. Toasts are mounted above the router (app/providers.tsx). Page views are recorded
 * here too; analytics holds them until the visitor accepts cookies. Staff can switch the welcome
 * gift off with the welcome_gift feature flag (/admin/settings); it stays on while the flags load
 * or if they cannot be read.
 */
export function GlobalOverlays() {
  usePageViews();
  const flags = trpc.platform.flags.public.useQuery(undefined, { retry: false });
  return (
    <>
      <CookieBanner />
      {flags.data?.welcome_gift === false ? null : <WelcomeGift />}
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
