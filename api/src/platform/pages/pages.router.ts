import { pageSchema, slugSchema } from '@reshelf/contracts';
import { z } from 'zod';
import { cachedPublicProcedure, router } from '../../trpc.ts';
import { pageBySlug } from './pages.service.ts';

export const pagesRouter = router({
  bySlug: cachedPublicProcedure
    .input(z.object({ slug: slugSchema }))
    .output(pageSchema)
    .query(({ ctx, input }) => pageBySlug(ctx.db, input.slug)),
});
