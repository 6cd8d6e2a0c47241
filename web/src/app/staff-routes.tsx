/**
 * The staff area's pages (besides the dashboard), as routes inside the staff frame: the one
 * table of them. The sidebar's spellings and the spec's both lead to the same page
 * (email-templates and emails, flags and settings, trending-books and trending). Every path
 * here is in admin-pages.ts (checked by admin-pages.test.ts), so the sidebar or the command
 * palette finds it.
 */
import type { ComponentType } from 'react';
import type { RouteObject } from 'react-router-dom';
import { AdminSkeleton } from '../components/placeholders.tsx';

type LazyPage = () => Promise<{ Component: ComponentType }>;

function page<M>(load: () => Promise<M>, pick: (module: M) => ComponentType): LazyPage {
  return async () => ({ Component: pick(await load()) });
}

// biome-ignore format: one page a line reads best.
const PAGES: [string[], LazyPage][] = [
  [['charities'], page(() => import('../charities/AdminCharitiesPage.tsx'), (m) => m.AdminCharitiesPage)],
  [['disputes'], page(() => import('../commerce/disputes/staff/DisputesPage.tsx'), (m) => m.DisputesPage)],
  [['shipping-disputes'], page(() => import('../commerce/disputes/staff/ShippingDisputesPage.tsx'), (m) => m.ShippingDisputesPage)],
  [['audit'], page(() => import('../staff/audit/AuditPage.tsx'), (m) => m.AuditPage)],
  [['emails', 'email-templates'], page(() => import('../staff/email-templates/EmailsPage.tsx'), (m) => m.EmailsPage)],
  [['settings', 'flags'], page(() => import('../platform/flags/SettingsPage.tsx'), (m) => m.SettingsPage)],
  [['staff-picks'], page(() => import('../catalogue/discovery/picks/StaffPicksPage.tsx'), (m) => m.StaffPicksPage)],
  [['exports'], page(() => import('../commerce/exports/ExportsPage.tsx'), (m) => m.ExportsPage)],
  [['users'], page(() => import('../staff/users/UsersPage.tsx'), (m) => m.UsersPage)],
  [['listings'], page(() => import('../community/moderation/listings/ListingsPage.tsx'), (m) => m.ListingsPage)],
  [['orders'], page(() => import('../commerce/orders/staff/OrdersPage.tsx'), (m) => m.OrdersPage)],
  [['payments'], page(() => import('../commerce/payments/PaymentsPage.tsx'), (m) => m.PaymentsPage)],
  [['payouts'], page(() => import('../commerce/payouts/staff/PayoutsAdminPage.tsx'), (m) => m.PayoutsAdminPage)],
  [['payments/reconciliation'], page(() => import('../commerce/payments/ReconciliationPage.tsx'), (m) => m.ReconciliationPage)],
  [['revenue'], page(() => import('../commerce/revenue/RevenuePage.tsx'), (m) => m.RevenuePage)],
  [['logs'], page(() => import('../staff/logs/LogsPage.tsx'), (m) => m.LogsPage)],
  [['refunds'], page(() => import('../commerce/refunds/RefundsPage.tsx'), (m) => m.RefundsPage)],
  [['trending-books', 'trending'], page(() => import('../catalogue/discovery/trending/TrendingBooksPage.tsx'), (m) => m.TrendingBooksPage)],
  [['analytics'], page(() => import('../staff/analytics/AnalyticsPage.tsx'), (m) => m.AnalyticsPage)],
  [['books'], page(() => import('../catalogue/books/BooksPage.tsx'), (m) => m.BooksPage)],
  [['launch-plan'], page(() => import('../staff/launch-plan/LaunchPlanPage.tsx'), (m) => m.LaunchPlanPage)],
  [['categories'], page(() => import('../catalogue/taxonomy/CategoriesPage.tsx'), (m) => m.CategoriesPage)],
  [['seo'], page(() => import('../staff/seo/SeoPage.tsx'), (m) => m.SeoPage)],
  [['accessibility'], page(() => import('../staff/accessibility/AccessibilityPage.tsx'), (m) => m.AccessibilityPage)],
  [['book-signings'], page(() => import('../catalogue/discovery/book-signings/BookSigningsPage.tsx'), (m) => m.BookSigningsPage)],
  [['reports'], page(() => import('../community/moderation/staff/ReportsPage.tsx'), (m) => m.ReportsPage)],
  [['appeals'], page(() => import('../community/moderation/staff/AppealsPage.tsx'), (m) => m.AppealsPage)],
  [['promotions'], page(() => import('../commerce/promotions/PromotionsPage.tsx'), (m) => m.PromotionsPage)],
  [['offers'], page(() => import('../commerce/offers/staff/OffersPage.tsx'), (m) => m.OffersPage)],
  [['covers-backfill'], page(() => import('../catalogue/books/covers/CoversBackfillPage.tsx'), (m) => m.CoversBackfillPage)],
];

/** Every staff page's address under /admin (the dashboard is the index). */
export const ADMIN_ROUTE_PATHS: readonly string[] = PAGES.flatMap(([paths]) => paths);

export const ADMIN_OPERATION_ROUTES: RouteObject[] = PAGES.flatMap(([paths, lazy]) =>
  paths.map((path) => ({ path, hydrateFallbackElement: <AdminSkeleton />, lazy })),
);
