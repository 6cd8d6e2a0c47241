// First: zod must know before any schema is built that this page allows no eval.
import './zod-config.ts';
import './styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createPath, RouterProvider } from 'react-router-dom';
import { installPreloadRecovery } from './app/preload-recovery.ts';
import { AppProviders } from './app/providers.tsx';
import { createAppRouter } from './app/router.tsx';
import { initConsent } from './features/consent/consent.ts';
import { applyShellPadding } from './lib/native-shell.ts';
import { installOverflowGuard } from './lib/overflow-guard.ts';

applyShellPadding();
initConsent();

let router: ReturnType<typeof createAppRouter> | undefined;
installPreloadRecovery({
  pendingUrl: () => {
    const pending = router?.state.navigation.location;
    return pending ? createPath(pending) : null;
  },
});
router = createAppRouter();

// Browser tests only: `vite build --mode e2e` keeps this branch; every other build drops it and
// the module with it (docs/decisions/0003-shell-test-hooks.md).
if (import.meta.env.MODE === 'e2e') void import('./testing/e2e-hooks.tsx');

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element to render into.');

createRoot(container).render(
  <StrictMode>
    <AppProviders>
      <RouterProvider router={router} />
    </AppProviders>
  </StrictMode>,
);

installOverflowGuard();
