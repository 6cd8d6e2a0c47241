import {
  categorySummarySchema,
  homeSchema,
  listingCardSchema,
  namedRefSchema,
  searchQuerySchema,
  searchSuggestionsSchema,
  slugSchema,
  staffPickSchema,
} from '@reshelf/contracts';
import { z } from 'zod';
import { cachedPublicProcedure, router } from '../../trpc.ts';
import {
  categoryBySlug,
  categorySummaries,
  genreBySlug,
  homeSections,
  recentListings,
  searchSuggestions,
  staffPicks,
  trendingListings,
} from './discovery.service.ts';

const limitInput = z.object({ limit: z.number().int().min(1).max(48).default(24) });

export const discoveryRouter = router({
  home: cachedPublicProcedure
    .input(z.void())
    .output(homeSchema)
    .query(({ ctx }) => homeSections(ctx.db)),
  trending: cachedPublicProcedure
    .input(limitInput)
    .output(z.array(listingCardSchema))
    .query(({ ctx, input }) => trendingListings(ctx.db, input.limit)),
  staffPicks: cachedPublicProcedure
    .input(limitInput)
    .output(z.array(staffPickSchema))
    .query(({ ctx, input }) => staffPicks(ctx.db, input.limit)),
  recent: cachedPublicProcedure
    .input(limitInput)
    .output(z.array(listingCardSchema))
    .query(({ ctx, input }) => recentListings(ctx.db, input.limit)),
  categories: cachedPublicProcedure
    .input(z.void())
    .output(z.array(categorySummarySchema))
    .query(({ ctx }) => categorySummaries(ctx.db)),
  category: cachedPublicProcedure
    .input(z.object({ slug: slugSchema }))
    .output(
      categorySummarySchema.extend({
        parent: namedRefSchema.nullable(),
        seoTitle: z.string().nullable(),
        seoDescription: z.string().nullable(),
      }),
    )
    .query(({ ctx, input }) => categoryBySlug(ctx.db, input.slug)),
  genre: cachedPublicProcedure
    .input(z.object({ slug: slugSchema }))
    .output(categorySummarySchema)
    .query(({ ctx, input }) => genreBySlug(ctx.db, input.slug)),
  suggestions: cachedPublicProcedure
    .input(z.object({ q: searchQuerySchema }))
    .output(searchSuggestionsSchema)
    .query(({ ctx, input }) => searchSuggestions(ctx.db, input.q)),
});
