// First: zod must know before any schema is built that this page allows no eval.
import './zod-config.ts';
import './styles.css';
import type { DehydratedState } from '@tanstack/react-query';
import { StrictMode, startTransition, useEffect } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { createPath, matchRoutes, type RouteObject, RouterProvider } from 'react-router-dom';
import { installPreloadRecovery } from './app/preload-recovery.ts';
import { AppProviders } from './app/providers.tsx';
import { createAppRouter, routes } from './app/router.tsx';
import { initConsent } from './app/shell/consent/consent.ts';
import { applyShellPadding } from './lib/native-shell.ts';
import { installOverflowGuard } from './lib/overflow-guard.ts';
import { SiteOriginContext } from './lib/site-origin.ts';

applyShellPadding();
initConsent();

/** The answers a server-rendered page was rendered with (web/src/entry-server.tsx), if it was. */
function serverState(): DehydratedState | undefined {
  const block = document.getElementById('reshelf-ssr-state');
  if (!block?.textContent) return undefined;
  try {
    return JSON.parse(block.textContent) as DehydratedState;
  } catch {
    return undefined;
  }
}

/**
 * The site origin the server rendered the page with (its PUBLIC_ORIGIN), which may not be the
 * address in the browser's bar (127.0.0.1 for localhost, a proxy's name): the page's absolute
 * links are rendered from it on both sides, or the hydrated text would differ (React #418).
 */
function serverOrigin(): string | null {
  return document.getElementById('reshelf-ssr-state')?.dataset.siteOrigin ?? null;
}

/**
 * Loads the code of the routes the page shows before hydrating, as the server had it: a lazy
 * route not yet loaded would render its fallback, not the page the server sent.
 */
async function loadMatchedRoutes(all: RouteObject[]): Promise<void> {
  const matched = matchRoutes(all, window.location) ?? [];
  await Promise.all(
    matched.map(async ({ route }) => {
      if (typeof route.lazy !== 'function') return;
      const loaded = await route.lazy();
      Object.assign(route, loaded);
      delete route.lazy;
    }),
  );
}

let router: ReturnType<typeof createAppRouter> | undefined;
installPreloadRecovery({
  pendingUrl: () => {
    const pending = router?.state.navigation.location;
    return pending ? createPath(pending) : null;
  },
});

let dehydratedState = serverState();
if (dehydratedState) {
  try {
    await loadMatchedRoutes(routes);
  } catch {
    // The page's code did not load: render from scratch, where the router loads it again and
    // preload recovery (app/preload-recovery.ts) deals with a second failure.
    dehydratedState = undefined;
  }
}
router = createAppRouter();

// Browser tests only: `vite build --mode e2e` keeps this branch; every other build drops it and
// the module with it (docs/decisions/0003-shell-test-hooks.md).
if (import.meta.env.MODE === 'e2e') void import('./testing/e2e-hooks.tsx');

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element to render into.');

/**
 * Marks the document once React has taken the page over (`<html data-hydrated>`): a
 * server-rendered page shows before it answers a click, and the browser tests wait for this
 * before they act on one (tests/support/browser.ts). Its effect runs after the page's own.
 */
function MarkHydrated(): null {
  useEffect(() => {
    document.documentElement.dataset.hydrated = '';
  }, []);
  return null;
}

const app = (
  <StrictMode>
    <SiteOriginContext.Provider value={dehydratedState ? serverOrigin() : null}>
      <AppProviders dehydratedState={dehydratedState}>
        <RouterProvider router={router} />
        <MarkHydrated />
      </AppProviders>
    </SiteOriginContext.Provider>
  </StrictMode>
);
// A server-rendered public page is hydrated; every other page is rendered here. Hydrating in a
// transition lets React yield to the browser every few milliseconds instead of holding the main
// thread for the whole page (on a phone, one task of half a second); the page shows meanwhile,
// and a click on a part not yet hydrated hydrates that part first (decision 0067).
if (dehydratedState && container.hasChildNodes()) startTransition(() => void hydrateRoot(container, app));
else createRoot(container).render(app);

installOverflowGuard();
