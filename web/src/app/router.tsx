import { PRODUCT } from '@reshelf/contracts';
import { createBrowserRouter, type RouteObject } from 'react-router-dom';
import {
  HomeSkeleton,
  ListingSkeleton,
  ListingsGridSkeleton,
  PageSkeleton,
} from '../components/placeholders.tsx';
import { RootLayout } from '../features/layout/RootLayout.tsx';
import { RootErrorBoundary } from './RootErrorBoundary.tsx';

/**
 * Every page is a lazy route: its code is fetched the first time it is visited. A lazy route
 * needs a static hydrateFallbackElement, shown inside the layout while its code loads on a
 * first visit (later navigations keep the current page and show the progress bar instead).
 *
 * Add later pages as children of the root, each with `lazy` and a fitting placeholder.
 */
const gridFallback = (
  <div className="mx-auto w-full max-w-6xl px-4 py-10 sm:px-6 lg:px-8">
    <ListingsGridSkeleton />
  </div>
);

const catalogue = () => import('../features/discovery/ShelfPages.tsx');
const charity = () => import('../features/charity/CharityPages.tsx');
const sellers = () => import('../features/sellers/SellerPages.tsx');
const staticPage = () => import('../features/pages/StaticPage.tsx');

/** A static page kept in the database, at a fixed path. */
function fixedPage(path: string, slug: string): RouteObject {
  return {
    path,
    hydrateFallbackElement: <PageSkeleton />,
    lazy: async () => {
      const { StaticPage } = await staticPage();
      return { element: <StaticPage slug={slug} /> };
    },
  };
}

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
        path: 'listings',
        hydrateFallbackElement: gridFallback,
        lazy: async () => ({
          Component: (await import('../features/catalogue/ListingsPage.tsx')).ListingsPage,
        }),
      },
      {
        path: 'search',
        hydrateFallbackElement: gridFallback,
        lazy: async () => ({ Component: (await import('../features/search/SearchPage.tsx')).SearchPage }),
      },
      {
        path: 'search/not-found',
        hydrateFallbackElement: <PageSkeleton />,
        lazy: async () => ({
          Component: (await import('../features/search/SearchNotFoundPage.tsx')).SearchNotFoundPage,
        }),
      },
      {
        path: 'listing/:slug',
        hydrateFallbackElement: <ListingSkeleton />,
        lazy: async () => ({ Component: (await import('../features/listing/ListingPage.tsx')).ListingPage }),
      },
      {
        path: 'categories',
        hydrateFallbackElement: <PageSkeleton />,
        lazy: async () => ({ Component: (await catalogue()).CategoriesPage }),
      },
      {
        path: 'c/:slug',
        hydrateFallbackElement: gridFallback,
        lazy: async () => ({ Component: (await catalogue()).CategoryPage }),
      },
      {
        path: 'g/:slug',
        hydrateFallbackElement: gridFallback,
        lazy: async () => ({ Component: (await catalogue()).GenrePage }),
      },
      {
        path: 'trending',
        hydrateFallbackElement: gridFallback,
        lazy: async () => ({ Component: (await catalogue()).TrendingPage }),
      },
      {
        path: 'recently-added',
        hydrateFallbackElement: gridFallback,
        lazy: async () => ({ Component: (await catalogue()).RecentlyAddedPage }),
      },
      {
        path: 'staff-picks',
        hydrateFallbackElement: gridFallback,
        lazy: async () => ({ Component: (await catalogue()).StaffPicksPage }),
      },
      {
        path: 'discover-sellers',
        hydrateFallbackElement: <PageSkeleton />,
        lazy: async () => ({ Component: (await sellers()).DiscoverSellersPage }),
      },
      {
        path: 'seller/:sellerId',
        hydrateFallbackElement: gridFallback,
        lazy: async () => ({ Component: (await sellers()).SellerPage }),
      },
      {
        path: 'charity',
        hydrateFallbackElement: <PageSkeleton />,
        lazy: async () => ({ Component: (await charity()).CharityLandingPage }),
      },
      {
        path: 'charity/directory',
        hydrateFallbackElement: <PageSkeleton />,
        lazy: async () => ({ Component: (await charity()).CharityDirectoryPage }),
      },
      {
        path: 'charity/:slug',
        hydrateFallbackElement: gridFallback,
        lazy: async () => ({ Component: (await charity()).CharityProfilePage }),
      },
      {
        path: 'pages/contact',
        hydrateFallbackElement: <PageSkeleton />,
        lazy: async () => ({ Component: (await import('../features/pages/ContactPage.tsx')).ContactPage }),
      },
      {
        path: 'pages/:slug',
        hydrateFallbackElement: <PageSkeleton />,
        lazy: async () => ({ Component: (await staticPage()).StaticPage }),
      },
      fixedPage('terms', 'terms'),
      fixedPage('help-centre', 'help-centre'),
      fixedPage('help-centre/faq', 'faq'),
      {
        path: PRODUCT.appPath.slice(1),
        hydrateFallbackElement: <PageSkeleton />,
        lazy: async () => ({ Component: (await import('../features/pages/AppPage.tsx')).AppPage }),
      },
      {
        path: 'unsubscribe',
        hydrateFallbackElement: <PageSkeleton />,
        lazy: async () => ({
          Component: (await import('../features/pages/UnsubscribePage.tsx')).UnsubscribePage,
        }),
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
