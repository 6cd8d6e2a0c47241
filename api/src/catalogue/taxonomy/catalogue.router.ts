import { categorySchema, genreSchema } from '@reshelf/contracts';
import { z } from 'zod';
import { cachedPublicProcedure, router } from '../../trpc.ts';
import { listCategories, listGenres } from './catalogue.service.ts';

export const catalogueRouter = router({
  categories: cachedPublicProcedure
    .meta({
      openapi: {
        operationId: 'catalogue-categories',
        method: 'GET',
        path: '/categories',
        tags: ['Catalogue'],
        summary: 'Categories',
      },
    })
    .input(z.void())
    .output(z.array(categorySchema))
    .query(({ ctx }) => listCategories(ctx.db)),
  genres: cachedPublicProcedure
    .meta({
      openapi: {
        operationId: 'catalogue-genres',
        method: 'GET',
        path: '/genres',
        tags: ['Catalogue'],
        summary: 'Genres',
      },
    })
    .input(z.void())
    .output(z.array(genreSchema))
    .query(({ ctx }) => listGenres(ctx.db)),
});
