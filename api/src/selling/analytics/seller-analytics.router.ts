/**
 * Seller analytics: a member reads their own books' figures; a charity's members
 * read their charity's (refused, 403, to anyone else).
 */
import { ANALYTICS_PERIODS, sellerAnalyticsSchema } from '@reshelf/contracts';
import { z } from 'zod';
import { requireCharity } from '../../platform/identity/memberships.ts';
import { authedProcedure, router } from '../../trpc.ts';
import { sellerAnalytics } from './seller-analytics.service.ts';

const periodInput = z.object({
  period: z.enum(ANALYTICS_PERIODS, 'Choose a period of 7d, 30d or 12m'),
});

export const sellerAnalyticsRouter = router({
  mine: authedProcedure
    .input(periodInput)
    .output(sellerAnalyticsSchema)
    .query(({ ctx, input }) =>
      sellerAnalytics(ctx.db, { kind: 'seller', userId: ctx.user.userId }, input.period),
    ),
  charity: authedProcedure
    .input(periodInput)
    .output(sellerAnalyticsSchema)
    .query(async ({ ctx, input }) => {
      const charity = await requireCharity(ctx.db, ctx.user.userId);
      return sellerAnalytics(ctx.db, { kind: 'charity', charityId: charity.charityId }, input.period);
    }),
});
