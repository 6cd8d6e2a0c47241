import { categorySchema, genreSchema } from '@reshelf/contracts';
import { z } from 'zod';
import { publicProcedure, router } from '../../trpc.ts';
import { listCategories, listGenres } from './catalogue.service.ts';

export const catalogueRouter = router({
  categories: publicProcedure
    .input(z.void())
    .output(z.array(categorySchema))
    .query(({ ctx }) => listCategories(ctx.db)),
  genres: publicProcedure
    .input(z.void())
    .output(z.array(genreSchema))
    .query(({ ctx }) => listGenres(ctx.db)),
});
