import { type Location, Outlet, ScrollRestoration, useNavigation } from 'react-router-dom';
import { SiteChromeProvider } from '../../components/site-chrome.tsx';
import { GlobalOverlays } from './GlobalOverlays.tsx';
import { NavigationProgress } from './NavigationProgress.tsx';
import { ShownLocation } from './ShownLocation.tsx';
import { SiteFooter } from './SiteFooter.tsx';
import { SiteHeader } from './SiteHeader.tsx';

/**
 * The frame around every public page: skip link, header, main landmark, footer, and the global
 * overlays (cookie banner, welcome gift). The staff area hides the header and footer for its own
 * frame (site-chrome.tsx); the page keeps its place in the tree, so nothing remounts.
 */
/**
 * Where a page's scroll position is remembered. React Router keys it by the history entry, and
 * every page loaded afresh (typed in, a link from outside, a full navigation such as the way back
 * from a payment page or after closing an account) is the entry "default": each such page opened
 * where the last one had been left. The first entry is keyed by its address instead, so a reload
 * keeps its place and another page opens at its top.
 */
function scrollKey(location: Location): string {
  return location.key === 'default' ? `default:${location.pathname}${location.search}` : location.key;
}

export function RootLayout() {
  const navigation = useNavigation();
  return (
    <SiteChromeProvider>
      {(chromeHidden) => (
        <div className="flex min-h-dvh flex-col">
          <a
            href="#main"
            className="sr-only rounded-md bg-ink px-4 py-2 text-sm font-semibold text-paper focus:not-sr-only focus:fixed focus:top-3 focus:left-3 focus:z-[60] focus:px-4 focus:py-3"
          >
            Skip to main content
          </a>
          <NavigationProgress />
          {chromeHidden ? null : <SiteHeader />}
          <main
            id="main"
            tabIndex={-1}
            aria-busy={navigation.state !== 'idle'}
            // At least a screen tall, so the footer starts below the first screen: a page whose
            // content arrives after it shows (a signed-in page, rendered in the browser) does
            // not push a visible footer down as it grows (layout shift 0.32 on /basket before).
            className="flex min-h-dvh flex-1 flex-col"
          >
            <Outlet />
          </main>
          {chromeHidden ? null : <SiteFooter />}
          <GlobalOverlays />
          <ScrollRestoration getKey={scrollKey} />
          <ShownLocation />
        </div>
      )}
    </SiteChromeProvider>
  );
}
