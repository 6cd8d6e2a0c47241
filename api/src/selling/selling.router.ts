/** The selling domain's procedures: listing a book (the wizard, my listings) a seller's analytics, and selling as a trade. */
import { router } from '../trpc.ts';
import { sellerAnalyticsRouter } from './analytics/seller-analytics.router.ts';
import { sellingRouter } from './listings/selling.router.ts';
import { traderRouter } from './trader/trader.router.ts';

export const sellingDomainRouter = router({
  listings: sellingRouter,
  analytics: sellerAnalyticsRouter,
  trader: traderRouter,
});
