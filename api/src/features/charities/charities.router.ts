import {
  charityDirectoryInputSchema,
  charityDirectorySchema,
  charitySummarySchema,
  slugSchema,
} from '@reshelf/contracts';
import { z } from 'zod';
import { cachedPublicProcedure, router } from '../../trpc.ts';
import { charityBySlug, charityDirectory, featuredCharities } from './charities.service.ts';

export const charitiesRouter = router({
  featured: cachedPublicProcedure
    .input(z.object({ limit: z.number().int().min(1).max(24).default(6) }))
    .output(z.array(charitySummarySchema))
    .query(({ ctx, input }) => featuredCharities(ctx.db, input.limit)),
  directory: cachedPublicProcedure
    .input(charityDirectoryInputSchema)
    .output(charityDirectorySchema)
    .query(({ ctx, input }) => charityDirectory(ctx.db, input)),
  bySlug: cachedPublicProcedure
    .input(z.object({ slug: slugSchema }))
    .output(charitySummarySchema)
    .query(({ ctx, input }) => charityBySlug(ctx.db, input.slug)),
});
