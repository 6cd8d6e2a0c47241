/** The selling domain's procedures: listing a book (the wizard, my listings) and a seller's analytics. */
import { router } from '../trpc.ts';
import { sellerAnalyticsRouter } from './analytics/seller-analytics.router.ts';
import { sellingRouter } from './listings/selling.router.ts';

export const sellingDomainRouter = router({ listings: sellingRouter, analytics: sellerAnalyticsRouter });
