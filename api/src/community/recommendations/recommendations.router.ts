/** Recommendations: a member reads their own, explained. */
import { recommendationsSchema } from '@reshelf/contracts';
import { z } from 'zod';
import { authedProcedure, router } from '../../trpc.ts';
import { memberRecommendations } from './recommendations.service.ts';

export const recommendationsRouter = router({
  list: authedProcedure
    .input(
      z
        .object({
          limit: z
            .number('Limit must be a number')
            .int('Limit must be a whole number')
            .min(1, 'Ask for at least 1')
            .max(48, 'Ask for at most 48')
            .default(24),
        })
        .default({ limit: 24 }),
    )
    .output(recommendationsSchema)
    .query(({ ctx, input }) => memberRecommendations(ctx.db, ctx.user.userId, input.limit)),
});
