/**
 * The staff area's pages. The sidebar lists the spec's links in its order (section 2); the
 * router decides which have a page (app/router.tsx and ops/routes.tsx), and
 * the rest show the not-found page inside the staff layout until their issue builds them. The
 * command palette offers all of them.
 */
import {
  Accessibility,
  BookOpen,
  CalendarDays,
  ChartColumn,
  ClipboardList,
  Download,
  FileClock,
  FolderTree,
  Globe,
  HandCoins,
  HeartHandshake,
  ImagePlus,
  LayoutDashboard,
  ListChecks,
  type LucideIcon,
  Mail,
  Megaphone,
  PoundSterling,
  Scale,
  Star,
  ToggleLeft,
  TrendingUp,
  Truck,
  Undo2,
  Users,
} from 'lucide-react';

export interface AdminPage {
  path: string;
  label: string;
  icon: LucideIcon;
  /** Other words a person might type for it in the command palette. */
  keywords?: string[];
}

export const ADMIN_HOME = '/admin';

export const ADMIN_SIDEBAR_PAGES: readonly AdminPage[] = [
  { path: ADMIN_HOME, label: 'Dashboard', icon: LayoutDashboard, keywords: ['home', 'metrics', 'seed'] },
  { path: '/admin/users', label: 'Users', icon: Users, keywords: ['people', 'accounts'] },
  { path: '/admin/listings', label: 'Listings', icon: BookOpen, keywords: ['books'] },
  { path: '/admin/staff-picks', label: 'Staff picks', icon: Star },
  { path: '/admin/trending-books', label: 'Trending books', icon: TrendingUp },
  { path: '/admin/offers', label: 'Offers', icon: HandCoins },
  { path: '/admin/reports', label: 'Reports', icon: ClipboardList },
  { path: '/admin/disputes', label: 'Disputes', icon: Scale },
  { path: '/admin/shipping-disputes', label: 'Shipping disputes', icon: Truck, keywords: ['not received'] },
  { path: '/admin/refunds', label: 'Refunds', icon: Undo2 },
  { path: '/admin/promotions', label: 'Promotions', icon: Megaphone, keywords: ['discounts'] },
  { path: '/admin/flags', label: 'Flags', icon: ToggleLeft, keywords: ['feature flags'] },
  { path: '/admin/categories', label: 'Categories', icon: FolderTree },
  { path: '/admin/seo', label: 'SEO', icon: Globe, keywords: ['search engines'] },
  { path: '/admin/email-templates', label: 'Email templates', icon: Mail },
  { path: '/admin/exports', label: 'Exports', icon: Download, keywords: ['csv', 'download'] },
  { path: '/admin/audit', label: 'Audit', icon: FileClock, keywords: ['log', 'history'] },
  { path: '/admin/accessibility', label: 'Accessibility', icon: Accessibility },
  { path: '/admin/covers-backfill', label: 'Covers backfill', icon: ImagePlus, keywords: ['images'] },
];

/** The dashboard header's links (spec section 2), besides "back to the site". */
export const ADMIN_HEADER_PAGES: readonly AdminPage[] = [
  { path: '/admin/analytics', label: 'Analytics', icon: ChartColumn },
  { path: '/admin/revenue', label: 'Revenue', icon: PoundSterling, keywords: ['money', 'buyer protection'] },
];

/**
 * Spec section 2: users, orders, payments and logs all show the same basic dashboard
 * (`BasicDashboard` in DashboardPage.tsx, above each page's own table once it has one).
 */
export const DASHBOARD_ALIASES = ['users', 'orders', 'payments', 'logs'] as const;

/**
 * Staff pages outside the spec's sidebar list, found with the command palette: charity
 * applications to approve or reject (issue 10).
 */
export const ADMIN_OTHER_PAGES: readonly AdminPage[] = [
  {
    path: '/admin/charities',
    label: 'Charities',
    icon: HeartHandshake,
    keywords: ['charity', 'applications', 'approve', 'reject'],
  },
  {
    path: '/admin/books',
    label: 'Books',
    icon: BookOpen,
    keywords: ['catalogue', 'isbn', 'merge', 'duplicates'],
  },
  { path: '/admin/launch-plan', label: 'Launch plan', icon: ListChecks, keywords: ['checklist', 'launch'] },
  {
    path: '/admin/book-signings',
    label: 'Book signings',
    icon: CalendarDays,
    keywords: ['events', 'authors'],
  },
];
