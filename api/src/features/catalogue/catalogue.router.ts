import { categorySchema, genreSchema } from '@reshelf/contracts';
import { z } from 'zod';
import { cachedPublicProcedure, router } from '../../trpc.ts';
import { listCategories, listGenres } from './catalogue.service.ts';

export const catalogueRouter = router({
  categories: cachedPublicProcedure
    .input(z.void())
    .output(z.array(categorySchema))
    .query(({ ctx }) => listCategories(ctx.db)),
  genres: cachedPublicProcedure
    .input(z.void())
    .output(z.array(genreSchema))
    .query(({ ctx }) => listGenres(ctx.db)),
});
