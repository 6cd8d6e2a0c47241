/**
 * The staff area's pages (besides the dashboard), as routes inside the staff frame: the one
 * table of them. The sidebar's spellings and the spec's both lead to the same page
 * (email-templates and emails, flags and settings, trending-books and trending). Every path
 * here is in admin-pages.ts (checked by admin-pages.test.ts), so the sidebar or the command
 * palette finds it.
 */
import type { ComponentType } from 'react';
import type { RouteObject } from 'react-router-dom';
import { AdminSkeleton } from '../../../components/placeholders.tsx';

type LazyPage = () => Promise<{ Component: ComponentType }>;

function page<M>(load: () => Promise<M>, pick: (module: M) => ComponentType): LazyPage {
  return async () => ({ Component: pick(await load()) });
}

// biome-ignore format: one page a line reads best.
const PAGES: [string[], LazyPage][] = [
  [['charities'], page(() => import('../../charity/AdminCharitiesPage.tsx'), (m) => m.AdminCharitiesPage)],
  [['disputes'], page(() => import('../DisputesPage.tsx'), (m) => m.DisputesPage)],
  [['shipping-disputes'], page(() => import('../ShippingDisputesPage.tsx'), (m) => m.ShippingDisputesPage)],
  [['audit'], page(() => import('./AuditPage.tsx'), (m) => m.AuditPage)],
  [['emails', 'email-templates'], page(() => import('./EmailsPage.tsx'), (m) => m.EmailsPage)],
  [['settings', 'flags'], page(() => import('./SettingsPage.tsx'), (m) => m.SettingsPage)],
  [['staff-picks'], page(() => import('./StaffPicksPage.tsx'), (m) => m.StaffPicksPage)],
  [['exports'], page(() => import('./ExportsPage.tsx'), (m) => m.ExportsPage)],
  [['users'], page(() => import('./UsersPage.tsx'), (m) => m.UsersPage)],
  [['listings'], page(() => import('./ListingsPage.tsx'), (m) => m.ListingsPage)],
  [['orders'], page(() => import('./OrdersPage.tsx'), (m) => m.OrdersPage)],
  [['payments'], page(() => import('./PaymentsPage.tsx'), (m) => m.PaymentsPage)],
  [['payouts'], page(() => import('./PayoutsAdminPage.tsx'), (m) => m.PayoutsAdminPage)],
  [['payments/reconciliation'], page(() => import('./ReconciliationPage.tsx'), (m) => m.ReconciliationPage)],
  [['revenue'], page(() => import('./RevenuePage.tsx'), (m) => m.RevenuePage)],
  [['logs'], page(() => import('./LogsPage.tsx'), (m) => m.LogsPage)],
  [['refunds'], page(() => import('./RefundsPage.tsx'), (m) => m.RefundsPage)],
  [['trending-books', 'trending'], page(() => import('./TrendingBooksPage.tsx'), (m) => m.TrendingBooksPage)],
  [['analytics'], page(() => import('./AnalyticsPage.tsx'), (m) => m.AnalyticsPage)],
  [['books'], page(() => import('./BooksPage.tsx'), (m) => m.BooksPage)],
  [['launch-plan'], page(() => import('./LaunchPlanPage.tsx'), (m) => m.LaunchPlanPage)],
  [['categories'], page(() => import('./CategoriesPage.tsx'), (m) => m.CategoriesPage)],
  [['seo'], page(() => import('./SeoPage.tsx'), (m) => m.SeoPage)],
  [['accessibility'], page(() => import('./AccessibilityPage.tsx'), (m) => m.AccessibilityPage)],
  [['book-signings'], page(() => import('./BookSigningsPage.tsx'), (m) => m.BookSigningsPage)],
  [['reports'], page(() => import('./ReportsPage.tsx'), (m) => m.ReportsPage)],
  [['promotions'], page(() => import('./PromotionsPage.tsx'), (m) => m.PromotionsPage)],
  [['offers'], page(() => import('./OffersPage.tsx'), (m) => m.OffersPage)],
  [['covers-backfill'], page(() => import('./CoversBackfillPage.tsx'), (m) => m.CoversBackfillPage)],
];

/** Every staff page's address under /admin (the dashboard is the index). */
export const ADMIN_ROUTE_PATHS: readonly string[] = PAGES.flatMap(([paths]) => paths);

export const ADMIN_OPERATION_ROUTES: RouteObject[] = PAGES.flatMap(([paths, lazy]) =>
  paths.map((path) => ({ path, hydrateFallbackElement: <AdminSkeleton />, lazy })),
);
