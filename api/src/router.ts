/** The whole API surface: a pure index of feature routers. */

import { apiTokensRouter } from './account/api-tokens/api-tokens.router.ts';
import { authRouter } from './account/auth/auth.router.ts';
import { accountRouter } from './account/member/account.router.ts';
import { notificationsRouter } from './account/notifications/notifications.router.ts';
import { coversBackfillRouter } from './catalogue/books/covers-backfill.router.ts';
import { staffBooksRouter } from './catalogue/books/staff-books.router.ts';
import { bookSigningsRouter } from './catalogue/discovery/book-signings.router.ts';
import { discoveryRouter } from './catalogue/discovery/discovery.router.ts';
import { staffPicksRouter } from './catalogue/discovery/staff-picks.router.ts';
import { staffTrendingRouter } from './catalogue/discovery/staff-trending.router.ts';
import { listingsRouter } from './catalogue/listings/listings.router.ts';
import { sellersRouter } from './catalogue/sellers/sellers.router.ts';
import { catalogueRouter } from './catalogue/taxonomy/catalogue.router.ts';
import { taxonomyRouter } from './catalogue/taxonomy/taxonomy.router.ts';
import { charitiesRouter } from './charities/charities.router.ts';
import { basketPublicRouter, basketRouter } from './commerce/basket/basket.router.ts';
import { checkoutRouter } from './commerce/checkout/checkout.router.ts';
import { disputeMemberRouter, disputeStaffRouter } from './commerce/disputes/disputes.router.ts';
import { offersRouter } from './commerce/offers/offers.router.ts';
import { staffOffersRouter } from './commerce/offers/staff-offers.router.ts';
import { disputesRouter, ordersRouter } from './commerce/orders/orders.router.ts';
import { staffOrdersRouter } from './commerce/orders/staff-orders.router.ts';
import { payoutsRouter } from './commerce/payouts/payouts.router.ts';
import { staffPayoutsRouter } from './commerce/payouts/staff-payouts.router.ts';
import { statementsRouter } from './commerce/payouts/statements.router.ts';
import { promotionsRouter } from './commerce/promotions/promotions.router.ts';
import { refundsRouter } from './commerce/refunds/refunds.router.ts';
import { revenueRouter } from './commerce/revenue/revenue.router.ts';
import { reportingMemberRouter, reportingStaffRouter } from './commerce/tax-reporting/reporting.router.ts';
import { messagesRouter, staffMessagesRouter } from './community/messages/messages.router.ts';
import { reportsRouter, staffReportsRouter } from './community/moderation/reports.router.ts';
import { staffListingsRouter } from './community/moderation/staff-listings.router.ts';
import { recommendationsRouter } from './community/recommendations/recommendations.router.ts';
import {
  reviewsMemberRouter,
  reviewsPublicRouter,
  staffReviewsRouter,
} from './community/reviews/reviews.router.ts';
import { socialRouter } from './community/social/social.router.ts';
import { wishlistRouter } from './community/wishlist/wishlist.router.ts';
import { contactRouter } from './platform/contact/contact.router.ts';
import { devRouter } from './platform/dev/dev.router.ts';
import { flagsRouter } from './platform/flags/flags.router.ts';
import { pagesRouter } from './platform/pages/pages.router.ts';
import { realtimeRouter } from './platform/realtime/realtime.router.ts';
import { unsubscribeRouter } from './platform/unsubscribe/unsubscribe.router.ts';
import { sellerAnalyticsRouter } from './selling/analytics/seller-analytics.router.ts';
import { sellingRouter } from './selling/listings/selling.router.ts';
import { accessibilityRouter } from './staff/accessibility/accessibility.router.ts';
import { analyticsRouter } from './staff/analytics/analytics.router.ts';
import { auditRouter } from './staff/audit/audit.router.ts';
import { adminRouter } from './staff/dashboard/admin.router.ts';
import { emailTemplatesRouter } from './staff/email-templates/email-templates.router.ts';
import { globalAdminRouter } from './staff/global-admin/global-admin.router.ts';
import { jobLogRouter } from './staff/job-log/job-log.router.ts';
import { launchPlanRouter } from './staff/launch-plan/launch-plan.router.ts';
import { opsRouter } from './staff/ops/ops.router.ts';
import { requestLogRouter } from './staff/request-log/request-log.router.ts';
import { seoRouter } from './staff/seo/seo.router.ts';
import { usersRouter } from './staff/users/users.router.ts';
import { router } from './trpc.ts';

/**
 * The API in eight domains, the same names as the folders of `api/src` and `web/src`
 * (docs/architecture.md "Domains"): each domain holds its features, and a feature with more than
 * one audience splits by audience (`member` is what buyers, sellers and charities call, `staff` the
 * staff's tools for the same records, `public` what anyone may read). `staff` holds the staff
 * area's own tools and the global admins'; `platform` what the site as a whole offers (flags,
 * realtime, static pages, contact, unsubscribe). REST paths and operation ids are pinned in each
 * published procedure's meta, so they do not follow these names (decision 0039).
 */
export const appRouter = router({
  account: router({
    auth: authRouter,
    member: accountRouter,
    apiTokens: apiTokensRouter,
    notifications: notificationsRouter,
  }),
  catalogue: router({
    listings: listingsRouter,
    taxonomy: router({ public: catalogueRouter, staff: taxonomyRouter }),
    books: router({ staff: staffBooksRouter, covers: coversBackfillRouter }),
    discovery: router({
      public: discoveryRouter,
      picks: staffPicksRouter,
      trending: staffTrendingRouter,
      bookSignings: bookSigningsRouter,
    }),
    sellers: sellersRouter,
  }),
  selling: router({ listings: sellingRouter, analytics: sellerAnalyticsRouter }),
  commerce: router({
    basket: router({ member: basketRouter, public: basketPublicRouter }),
    checkout: checkoutRouter,
    offers: router({ member: offersRouter, staff: staffOffersRouter }),
    orders: router({ member: ordersRouter, staff: staffOrdersRouter }),
    disputes: router({ member: disputeMemberRouter, staff: disputeStaffRouter, legacy: disputesRouter }),
    refunds: refundsRouter,
    payouts: router({ member: payoutsRouter, statements: statementsRouter, staff: staffPayoutsRouter }),
    revenue: revenueRouter,
    promotions: promotionsRouter,
    taxReporting: router({ member: reportingMemberRouter, staff: reportingStaffRouter }),
  }),
  community: router({
    messages: router({ member: messagesRouter, staff: staffMessagesRouter }),
    reviews: router({ member: reviewsMemberRouter, public: reviewsPublicRouter, staff: staffReviewsRouter }),
    moderation: router({ member: reportsRouter, staff: staffReportsRouter, listings: staffListingsRouter }),
    social: socialRouter,
    wishlist: wishlistRouter,
    recommendations: recommendationsRouter,
  }),
  charities: charitiesRouter,
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
    globalAdmin: globalAdminRouter,
    ops: opsRouter,
  }),
  platform: router({
    flags: flagsRouter,
    realtime: realtimeRouter,
    pages: pagesRouter,
    contact: contactRouter,
    unsubscribe: unsubscribeRouter,
    dev: devRouter,
  }),
});

export type AppRouter = typeof appRouter;
