/**
 * Revenue (/admin/revenue): buyer protection, the discounts Reshelf funds, net income and
 * postage by period (definitions in revenue.service.ts). Staff read it.
 */
import { ADMIN_PERIODS } from '@reshelf/contracts';
import { z } from 'zod';
import { router, staffProcedure } from '../../trpc.ts';
import { revenueByPeriod } from '../money/revenue.ts';

export const revenueRouter = router({
  byPeriod: staffProcedure
    .input(z.void())
    .output(
      z.array(
        z.object({
          period: z.enum(ADMIN_PERIODS),
          startsAt: z.string(),
          endsAt: z.string(),
          ordersPaid: z.number(),
          /** The books in those orders (an order holds one or more). */
          booksPaid: z.number(),
          protectionChargedMinor: z.number(),
          protectionRefundedMinor: z.number(),
          protectionNetMinor: z.number(),
          discountsGivenMinor: z.number(),
          discountsReturnedMinor: z.number(),
          discountsFundedMinor: z.number(),
          netMinor: z.number(),
          postageMinor: z.number(),
          refundsMinor: z.number(),
        }),
      ),
    )
    .query(({ ctx }) => revenueByPeriod(ctx.db)),
});
