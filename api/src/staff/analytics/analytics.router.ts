/** Analytics (/admin/analytics): listings published, orders paid and sign-ups over time. Staff read it. */
import { z } from 'zod';
import { router, staffProcedure } from '../../trpc.ts';
import { ANALYTICS_RANGES, analyticsSeries } from './analytics.service.ts';

const counts = { listingsPublished: z.number(), ordersPaid: z.number(), signUps: z.number() };

export const analyticsRouter = router({
  series: staffProcedure
    .input(z.object({ range: z.enum(ANALYTICS_RANGES, 'Choose daily or monthly') }))
    .output(
      z.object({
        range: z.enum(ANALYTICS_RANGES),
        points: z.array(z.object({ bucket: z.string(), ...counts })),
        totals: z.object(counts),
      }),
    )
    .query(({ ctx, input }) => analyticsSeries(ctx.db, input.range)),
});
