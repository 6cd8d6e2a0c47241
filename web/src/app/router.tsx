import { createBrowserRouter, type RouteObject } from 'react-router-dom';
import { HomeSkeleton, PageSkeleton } from '../components/placeholders.tsx';
import { RootLayout } from '../features/layout/RootLayout.tsx';
import { RootErrorBoundary } from './RootErrorBoundary.tsx';

/**
 * Every page is a lazy route: its code is fetched the first time it is visited. A lazy route
 * needs a static hydrateFallbackElement, shown inside the layout while its code loads on a
 * first visit (later navigations keep the current page and show the progress bar instead).
 *
 * Add later pages as children of the root, each with `lazy` and a fitting placeholder.
 */
export const routes: RouteObject[] = [
  {
    id: 'root',
    path: '/',
    element: <RootLayout />,
    errorElement: <RootErrorBoundary />,
    children: [
      {
        index: true,
        hydrateFallbackElement: <HomeSkeleton />,
        lazy: async () => {
          const { HomePage } = await import('../features/home/HomePage.tsx');
          return { Component: HomePage };
        },
      },
      {
        path: '*',
        hydrateFallbackElement: <PageSkeleton />,
        lazy: async () => {
          const { NotFoundPage } = await import('../features/not-found/NotFoundPage.tsx');
          return { Component: NotFoundPage };
        },
      },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
