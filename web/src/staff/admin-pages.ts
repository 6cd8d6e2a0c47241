/**
 * The staff area's pages: one list, from which the sidebar, the header's links and the command
 * palette are all drawn, so they cannot drift apart. Each page says where it is shown:
 *
 * - `sidebar`: the spec's sidebar links in the spec's order (section 2), with Charities, Orders,
 *   Payments and Logs among them (staff could not find them);
 * - `header`: the dashboard header's links (Analytics, Revenue);
 * - `palette`: only in the command palette (pages staff reach now and then).
 *
 * The command palette offers every page in the list. `admin-pages.test.ts` checks that every
 * staff route (app/router.tsx and ops/routes.tsx) is in the list, so a new page cannot be left
 * unreachable again.
 */
import {
  Accessibility,
  BookOpen,
  CalendarDays,
  ChartColumn,
  ClipboardList,
  CreditCard,
  Download,
  FileClock,
  FolderTree,
  Globe,
  HandCoins,
  HeartHandshake,
  ImagePlus,
  Landmark,
  LayoutDashboard,
  ListChecks,
  Logs,
  type LucideIcon,
  Mail,
  Megaphone,
  PoundSterling,
  ReceiptText,
  Scale,
  Star,
  ToggleLeft,
  TrendingUp,
  Truck,
  Undo2,
  Users,
} from 'lucide-react';

export type AdminPagePlace = 'sidebar' | 'header' | 'palette';

export interface AdminPage {
  path: string;
  label: string;
  icon: LucideIcon;
  place: AdminPagePlace;
  /** Other addresses of the same page (the spec's spellings and ours). */
  aliases?: string[];
  /** Other words a person might type for it in the command palette. */
  keywords?: string[];
}

export const ADMIN_HOME = '/admin';

// biome-ignore format: one page a line reads best.
export const ADMIN_PAGES: readonly AdminPage[] = [
  { path: ADMIN_HOME, label: 'Dashboard', icon: LayoutDashboard, place: 'sidebar', keywords: ['home', 'metrics', 'seed'] },
  { path: '/admin/users', label: 'Users', icon: Users, place: 'sidebar', keywords: ['people', 'accounts', 'suspend'] },
  { path: '/admin/charities', label: 'Charities', icon: HeartHandshake, place: 'sidebar', keywords: ['charity', 'applications', 'approve', 'reject'] },
  { path: '/admin/listings', label: 'Listings', icon: BookOpen, place: 'sidebar', keywords: ['books', 'remove'] },
  { path: '/admin/orders', label: 'Orders', icon: ReceiptText, place: 'sidebar', keywords: ['refund', 'reference', 'events'] },
  { path: '/admin/payments', label: 'Payments', icon: CreditCard, place: 'sidebar', keywords: ['refund', 'provider'] },
  { path: '/admin/payouts', label: 'Payouts', icon: Landmark, place: 'sidebar', keywords: ['transfers', 'sellers paid', 'hold', 'hmrc'] },
  { path: '/admin/payments/reconciliation', label: 'Reconciliation', icon: Scale, place: 'palette', keywords: ['ledger', 'balance', 'imbalance'] },
  { path: '/admin/staff-picks', label: 'Staff picks', icon: Star, place: 'sidebar' },
  { path: '/admin/trending-books', label: 'Trending books', icon: TrendingUp, place: 'sidebar', aliases: ['/admin/trending'] },
  { path: '/admin/offers', label: 'Offers', icon: HandCoins, place: 'sidebar' },
  { path: '/admin/reports', label: 'Reports', icon: ClipboardList, place: 'sidebar', keywords: ['harm', 'fraud', 'online safety'] },
  { path: '/admin/appeals', label: 'Appeals', icon: Scale, place: 'palette', keywords: ['removals', 'reports', 'online safety'] },
  { path: '/admin/disputes', label: 'Disputes', icon: Scale, place: 'sidebar' },
  { path: '/admin/shipping-disputes', label: 'Shipping disputes', icon: Truck, place: 'sidebar', keywords: ['not received'] },
  { path: '/admin/refunds', label: 'Refunds', icon: Undo2, place: 'sidebar' },
  { path: '/admin/promotions', label: 'Promotions', icon: Megaphone, place: 'sidebar', keywords: ['discounts', 'promo codes'] },
  { path: '/admin/flags', label: 'Flags', icon: ToggleLeft, place: 'sidebar', aliases: ['/admin/settings'], keywords: ['feature flags', 'settings'] },
  { path: '/admin/categories', label: 'Categories', icon: FolderTree, place: 'sidebar' },
  { path: '/admin/seo', label: 'SEO', icon: Globe, place: 'sidebar', keywords: ['search engines'] },
  { path: '/admin/email-templates', label: 'Email templates', icon: Mail, place: 'sidebar', aliases: ['/admin/emails'] },
  { path: '/admin/exports', label: 'Exports', icon: Download, place: 'sidebar', keywords: ['csv', 'download'] },
  { path: '/admin/audit', label: 'Audit', icon: FileClock, place: 'sidebar', keywords: ['log', 'history'] },
  { path: '/admin/logs', label: 'Logs', icon: Logs, place: 'sidebar', keywords: ['jobs', 'requests', 'errors'] },
  { path: '/admin/accessibility', label: 'Accessibility', icon: Accessibility, place: 'sidebar' },
  { path: '/admin/covers-backfill', label: 'Covers backfill', icon: ImagePlus, place: 'sidebar', keywords: ['images'] },
  { path: '/admin/analytics', label: 'Analytics', icon: ChartColumn, place: 'header', keywords: ['charts'] },
  { path: '/admin/revenue', label: 'Revenue', icon: PoundSterling, place: 'header', keywords: ['money', 'buyer protection', 'discounts', 'income'] },
  { path: '/admin/books', label: 'Books', icon: BookOpen, place: 'palette', keywords: ['catalogue', 'isbn', 'merge', 'duplicates'] },
  { path: '/admin/launch-plan', label: 'Launch plan', icon: ListChecks, place: 'palette', keywords: ['checklist', 'launch'] },
  { path: '/admin/book-signings', label: 'Book signings', icon: CalendarDays, place: 'palette', keywords: ['events', 'authors'] },
];

const placed = (place: AdminPagePlace) => ADMIN_PAGES.filter((page) => page.place === place);

/** The sidebar's links, in order. */
export const ADMIN_SIDEBAR_PAGES: readonly AdminPage[] = placed('sidebar');

/** The dashboard header's links (spec section 2), besides "back to the site". */
export const ADMIN_HEADER_PAGES: readonly AdminPage[] = placed('header');

/**
 * Spec section 2: users, orders, payments and logs all show the same basic dashboard
 * (`BasicDashboard` in dashboard/BasicDashboard.tsx, above each page's own table).
 */
export const DASHBOARD_ALIASES = ['users', 'orders', 'payments', 'logs'] as const;
