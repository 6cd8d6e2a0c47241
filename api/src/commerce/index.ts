/**
 * The commerce module's one public surface (docs/architecture.md, "The commerce module"): the only
 * file outside api/src/commerce that anything imports (api/scripts/check-imports.ts). Inside it,
 * money derives every amount, pricing makes every quote, orders holds the one insert path and the
 * state machine, disputes the one way to open, answer and decide, payouts the money going out.
 */

export { quoteBasket, startBasket } from './checkout/basket-checkout.ts';
export {
  applyPaymentEvent,
  type CheckoutDeps,
  lapseReservations,
  startCheckout,
} from './checkout/checkout.service.ts';
export { commerceRouter } from './commerce.router.ts';
export { escalateUnanswered, reportProblem } from './disputes/disputes.service.ts';
export {
  acceptReturn,
  charityReturns,
  declineReturn,
  receiveReturn,
  refundPostedReturns,
  requestReturn,
  returnEligibility,
} from './disputes/returns.service.ts';
export { registerExportRoutes } from './exports/exports.route.ts';
export { statementMonths } from './money/ledger.ts';
export {
  applyConnectEvent,
  holdEarnings,
  isConnectEvent,
  listSellerPayouts,
  type PayoutDeps,
  payOut,
  providerBalance,
  releaseEarnings,
  startOnboarding,
} from './money/payouts.ts';
export {
  earningsByPayoutStatus,
  giftAidByDonor,
  giftAidItems,
  giftAidSpan,
  type SalesOf,
  salesByCategory,
  salesByMonth,
  salesTotals,
} from './money/sales.ts';
export {
  expireOffers,
  lapseAcceptedOffers,
  makeOffer,
  respondToOffer,
} from './offers/offers.service.ts';
export { insertOrder } from './orders/insert.ts';
export {
  autoComplete,
  cancelUndispatched,
  confirmOrder,
  dispatchOrder,
  markArrived,
  presumeDelivered,
  releaseHeldPayouts,
} from './orders/orders.service.ts';
export { refundOrder } from './orders/staff-orders.service.ts';
export { returnWindowEnds } from './orders/story.ts';
export { registerOutboundScans } from './parcels/outbound.ts';
export { registerParcelRoutes } from './parcels/parcel.routes.ts';
export { registerReturnScans } from './parcels/returns-scans.ts';
export { registerPaymentRoutes } from './payments/payment.routes.ts';
export {
  type BundleTiersView,
  bundleTiersViewSchema,
  getTiers,
  setTiers,
} from './pricing/bundle-tiers.service.ts';
export { type PricingGroup, quoteGroup } from './pricing/quote.ts';
export { liveShownPricer, type ShownPricer, shownPricerUnder } from './pricing/shown-price.ts';
export { purgeReportingRecords } from './tax-reporting/filing.service.ts';
export { askForReportingDetails, ukYear, yearTotals } from './tax-reporting/reporting.service.ts';
