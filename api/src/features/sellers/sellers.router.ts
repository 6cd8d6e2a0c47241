import { bundleTierOutSchema, sellerCardSchema, slugSchema } from '@reshelf/contracts';
import { z } from 'zod';
import { cachedPublicProcedure, publicProcedure, router } from '../../trpc.ts';
import { discoverSellers, publicBundleTiers, sellerById } from './sellers.service.ts';

export const sellersRouter = router({
  discover: cachedPublicProcedure
    .input(z.object({ limit: z.number().int().min(1).max(96).default(48) }))
    .output(z.array(sellerCardSchema))
    .query(({ ctx, input }) => discoverSellers(ctx.db, input.limit)),
  byId: cachedPublicProcedure
    .input(z.object({ sellerId: z.uuid('That is not a seller id') }))
    .output(sellerCardSchema)
    .query(({ ctx, input }) => sellerById(ctx.db, input.sellerId)),
  /**
   * The bundle discount tiers on a seller's own books, or on a charity shop's (issue 23), for
   * "Buy more from this seller and save". Not cached: a seller sees their change at once.
   */
  bundleTiers: publicProcedure
    .input(
      z.union([
        z.object({ sellerId: z.uuid('That is not a seller id') }),
        z.object({ charitySlug: slugSchema }),
      ]),
    )
    .output(z.object({ tiers: z.array(bundleTierOutSchema) }))
    .query(({ ctx, input }) => publicBundleTiers(ctx.db, input)),
});
