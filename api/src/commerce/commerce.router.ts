/**
 * The commerce domain's procedures: the basket, checkout, offers, orders, disputes and returns,
 * refunds, payouts and statements, revenue, promotions and HMRC reporting.
 */
import { router } from '../trpc.ts';
import { basketPublicRouter, basketRouter } from './basket/basket.router.ts';
import { checkoutRouter } from './checkout/checkout.router.ts';
import { disputeMemberRouter, disputeStaffRouter } from './disputes/disputes.router.ts';
import { fairPriceRouter } from './fair-price/fair-price.router.ts';
import { offersRouter } from './offers/offers.router.ts';
import { staffOffersRouter } from './offers/staff-offers.router.ts';
import { ordersRouter } from './orders/orders.router.ts';
import { staffOrdersRouter } from './orders/staff-orders.router.ts';
import { parcelsMemberRouter, parcelsSellerRouter } from './parcels/parcels.router.ts';
import { payoutsRouter } from './payouts/payouts.router.ts';
import { staffPayoutsRouter } from './payouts/staff-payouts.router.ts';
import { statementsRouter } from './payouts/statements.router.ts';
import { promotionsRouter } from './promotions/promotions.router.ts';
import { refundsRouter } from './refunds/refunds.router.ts';
import { revenueRouter } from './revenue/revenue.router.ts';
import { reportingMemberRouter, reportingStaffRouter } from './tax-reporting/reporting.router.ts';

export const commerceRouter = router({
  basket: router({ member: basketRouter, public: basketPublicRouter }),
  checkout: checkoutRouter,
  offers: router({ member: offersRouter, staff: staffOffersRouter }),
  orders: router({ member: ordersRouter, staff: staffOrdersRouter }),
  parcels: router({ seller: parcelsSellerRouter, member: parcelsMemberRouter }),
  disputes: router({ member: disputeMemberRouter, staff: disputeStaffRouter }),
  refunds: refundsRouter,
  payouts: router({ member: payoutsRouter, statements: statementsRouter, staff: staffPayoutsRouter }),
  revenue: revenueRouter,
  promotions: promotionsRouter,
  taxReporting: router({ member: reportingMemberRouter, staff: reportingStaffRouter }),
  fairPrice: fairPriceRouter,
});
