import './styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router-dom';
import { installPreloadRecovery } from './app/preload-recovery.ts';
import { AppProviders } from './app/providers.tsx';
import { createAppRouter } from './app/router.tsx';

installPreloadRecovery();

const router = createAppRouter();
const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element to render into.');

createRoot(container).render(
  <StrictMode>
    <AppProviders>
      <RouterProvider router={router} />
    </AppProviders>
  </StrictMode>,
);
