/** Revenue (/admin/revenue): buyer protection and postage by period. Staff read it. */
import { ADMIN_PERIODS } from '@reshelf/contracts';
import { z } from 'zod';
import { router, staffProcedure } from '../../trpc.ts';
import { revenueByPeriod } from './revenue.service.ts';

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
          protectionChargedMinor: z.number(),
          protectionRefundedMinor: z.number(),
          protectionNetMinor: z.number(),
          postageMinor: z.number(),
          refundsMinor: z.number(),
        }),
      ),
    )
    .query(({ ctx }) => revenueByPeriod(ctx.db)),
});
