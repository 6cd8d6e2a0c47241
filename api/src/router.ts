/** The whole API surface: a pure index of feature routers. */
import { accessibilityRouter } from './features/accessibility/accessibility.router.ts';
import { accountRouter } from './features/account/account.router.ts';
import { adminRouter } from './features/admin/admin.router.ts';
import { analyticsRouter } from './features/analytics/analytics.router.ts';
import { apiTokensRouter } from './features/api-tokens/api-tokens.router.ts';
import { auditRouter } from './features/audit/audit.router.ts';
import { authRouter } from './features/auth/auth.router.ts';
import { basketPublicRouter, basketRouter } from './features/basket/basket.router.ts';
import { bookSigningsRouter } from './features/book-signings/book-signings.router.ts';
import { catalogueRouter } from './features/catalogue/catalogue.router.ts';
import { charitiesRouter } from './features/charities/charities.router.ts';
import { checkoutRouter } from './features/checkout/checkout.router.ts';
import { contactRouter } from './features/contact/contact.router.ts';
import { coversBackfillRouter } from './features/covers-backfill/covers-backfill.router.ts';
import { devRouter } from './features/dev/dev.router.ts';
import { discoveryRouter } from './features/discovery/discovery.router.ts';
import { disputeMemberRouter, disputeStaffRouter } from './features/disputes/disputes.router.ts';
import { emailTemplatesRouter } from './features/email-templates/email-templates.router.ts';
import { flagsRouter } from './features/flags/flags.router.ts';
import { globalAdminRouter } from './features/global-admin/global-admin.router.ts';
import { jobLogRouter } from './features/job-log/job-log.router.ts';
import { launchPlanRouter } from './features/launch-plan/launch-plan.router.ts';
import { listingsRouter } from './features/listings/listings.router.ts';
import { messagesRouter, staffMessagesRouter } from './features/messages/messages.router.ts';
import { notificationsRouter } from './features/notifications/notifications.router.ts';
import { offersRouter } from './features/offers/offers.router.ts';
import { opsRouter } from './features/ops/ops.router.ts';
import { disputesRouter, ordersRouter } from './features/orders/orders.router.ts';
import { pagesRouter } from './features/pages/pages.router.ts';
import { payoutsRouter } from './features/payouts/payouts.router.ts';
import { promotionsRouter } from './features/promotions/promotions.router.ts';
import { realtimeRouter } from './features/realtime/realtime.router.ts';
import { recommendationsRouter } from './features/recommendations/recommendations.router.ts';
import { refundsRouter } from './features/refunds/refunds.router.ts';
import { reportingMemberRouter, reportingStaffRouter } from './features/reporting/reporting.router.ts';
import { reportsRouter, staffReportsRouter } from './features/reports/reports.router.ts';
import { requestLogRouter } from './features/request-log/request-log.router.ts';
import { revenueRouter } from './features/revenue/revenue.router.ts';
import {
  reviewsMemberRouter,
  reviewsPublicRouter,
  staffReviewsRouter,
} from './features/reviews/reviews.router.ts';
import { sellerAnalyticsRouter } from './features/seller-analytics/seller-analytics.router.ts';
import { sellersRouter } from './features/sellers/sellers.router.ts';
import { sellingRouter } from './features/selling/selling.router.ts';
import { seoRouter } from './features/seo/seo.router.ts';
import { socialRouter } from './features/social/social.router.ts';
import { staffBooksRouter } from './features/staff-books/staff-books.router.ts';
import { staffListingsRouter } from './features/staff-listings/staff-listings.router.ts';
import { staffOffersRouter } from './features/staff-offers/staff-offers.router.ts';
import { staffOrdersRouter } from './features/staff-orders/staff-orders.router.ts';
import { staffPayoutsRouter } from './features/staff-payouts/staff-payouts.router.ts';
import { staffPicksRouter } from './features/staff-picks/staff-picks.router.ts';
import { staffTrendingRouter } from './features/staff-trending/staff-trending.router.ts';
import { statementsRouter } from './features/statements/statements.router.ts';
import { taxonomyRouter } from './features/taxonomy/taxonomy.router.ts';
import { unsubscribeRouter } from './features/unsubscribe/unsubscribe.router.ts';
import { usersRouter } from './features/users/users.router.ts';
import { wishlistRouter } from './features/wishlist/wishlist.router.ts';
import { router } from './trpc.ts';

/**
 * Grouped by domain, then by audience (decision 0039): `orders.member` is what buyers and sellers
 * call, `orders.staff` the staff's tools for the same orders. `staff` holds the staff area's own
 * tools, `platform` the global admins'. Each leaf is one feature's router; the REST paths and
 * operation ids are pinned in the procedures' meta, so they do not follow these names. The order
 * of the keys is the order of the REST document's operations (openapi/openapi.json): keep it.
 */
export const appRouter = router({
  auth: authRouter,
  catalogue: router({
    public: catalogueRouter,
    staff: staffBooksRouter,
    taxonomy: taxonomyRouter,
    covers: coversBackfillRouter,
  }),
  staff: router({
    dashboard: adminRouter,
    users: usersRouter,
    audit: auditRouter,
    emailTemplates: emailTemplatesRouter,
    jobLog: jobLogRouter,
    requestLog: requestLogRouter,
    analytics: analyticsRouter,
    launchPlan: launchPlanRouter,
    seo: seoRouter,
    accessibility: accessibilityRouter,
  }),
  listings: router({ public: listingsRouter, selling: sellingRouter, staff: staffListingsRouter }),
  orders: router({
    member: ordersRouter,
    disputes: disputesRouter,
    staff: staffOrdersRouter,
    resolution: disputeMemberRouter,
    resolutionStaff: disputeStaffRouter,
  }),
  offers: router({ member: offersRouter, staff: staffOffersRouter }),
  account: router({ member: accountRouter, apiTokens: apiTokensRouter, analytics: sellerAnalyticsRouter }),
  platform: router({ globalAdmin: globalAdminRouter, ops: opsRouter }),
  discovery: router({
    public: discoveryRouter,
    staff: router({
      picks: staffPicksRouter,
      trending: staffTrendingRouter,
      bookSignings: bookSigningsRouter,
    }),
  }),
  sellers: sellersRouter,
  charities: charitiesRouter,
  wishlist: wishlistRouter,
  basket: router({ member: basketRouter, public: basketPublicRouter }),
  social: socialRouter,
  recommendations: recommendationsRouter,
  checkout: checkoutRouter,
  money: router({ refunds: refundsRouter, revenue: revenueRouter, promotions: promotionsRouter }),
  reporting: router({ member: reportingMemberRouter, staff: reportingStaffRouter }),
  payouts: router({ member: payoutsRouter, statements: statementsRouter, staff: staffPayoutsRouter }),
  messages: router({ member: messagesRouter, staff: staffMessagesRouter }),
  reports: router({ member: reportsRouter, staff: staffReportsRouter }),
  reviews: router({ member: reviewsMemberRouter, public: reviewsPublicRouter, staff: staffReviewsRouter }),
  notifications: notificationsRouter,
  realtime: realtimeRouter,
  pages: pagesRouter,
  contact: contactRouter,
  unsubscribe: unsubscribeRouter,
  flags: flagsRouter,
  dev: devRouter,
});

export type AppRouter = typeof appRouter;
