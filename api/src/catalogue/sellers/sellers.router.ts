import { discoverSellerSchema, sellerCardSchema } from '@reshelf/contracts';
import { z } from 'zod';
import { cachedPublicProcedure, router } from '../../trpc.ts';
import { discoverSellers, sellerById } from './sellers.service.ts';

export const sellersRouter = router({
  discover: cachedPublicProcedure
    .input(z.object({ limit: z.number().int().min(1).max(96).default(48) }))
    .output(z.array(discoverSellerSchema))
    .query(({ ctx, input }) => discoverSellers(ctx.db, input.limit)),
  byId: cachedPublicProcedure
    .input(z.object({ sellerId: z.uuid('That is not a seller id') }))
    .output(sellerCardSchema)
    .query(({ ctx, input }) => sellerById(ctx.db, input.sellerId)),
});
