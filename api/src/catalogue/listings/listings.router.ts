import {
  browseInputSchema,
  listingCardSchema,
  listingDetailSchema,
  listingPageSchema,
  searchInputSchema,
  searchResultSchema,
  slugSchema,
} from '@reshelf/contracts';
import { z } from 'zod';
import { tagPublicAnswer } from '../../http/public-cache.ts';
import { cachedPublicProcedure, publicProcedure, router, withTrustedOutput } from '../../trpc.ts';
import { recordView } from './listing-views.ts';
import { browseListings, getListingBySlug, searchListings, similarListings } from './listings.service.ts';

export const listingsRouter = router({
  browse: withTrustedOutput(
    cachedPublicProcedure
      .meta({
        openapi: {
          operationId: 'listings-browse',
          method: 'GET',
          path: '/listings',
          tags: ['Catalogue'],
          summary: 'Browse listings on sale',
        },
      })
      .input(browseInputSchema)
      .output(listingPageSchema)
      .query(({ ctx, input }) => browseListings(ctx.db, input)),
  ),
  search: withTrustedOutput(
    cachedPublicProcedure
      .meta({
        openapi: {
          operationId: 'listings-search',
          method: 'GET',
          path: '/listings/search',
          tags: ['Catalogue'],
          summary: 'Search the catalogue',
        },
      })
      .input(searchInputSchema)
      .output(searchResultSchema)
      .query(({ ctx, input }) => searchListings(ctx.db, input)),
  ),
  bySlug: withTrustedOutput(
    cachedPublicProcedure
      .meta({
        openapi: {
          operationId: 'listings-bySlug',
          method: 'GET',
          path: '/listings/{slug}',
          tags: ['Catalogue'],
          summary: 'A listing',
        },
      })
      .input(z.object({ slug: slugSchema }))
      .output(listingDetailSchema)
      .query(async ({ ctx, input }) => {
        const listing = await getListingBySlug(ctx.db, input.slug);
        // The page shows its seller (name, listings on sale): a change to them drops it.
        tagPublicAnswer(ctx.req, `seller:${listing.seller.id}`);
        return listing;
      }),
  ),
  similar: withTrustedOutput(
    cachedPublicProcedure
      .input(z.object({ slug: slugSchema, limit: z.number().int().min(1).max(24).default(8) }))
      .output(z.array(listingCardSchema))
      .query(({ ctx, input }) => similarListings(ctx.db, input.slug, input.limit)),
  ),
  recordView: publicProcedure
    .input(z.object({ listingId: z.uuid('Listing must be a listing id') }))
    .output(z.object({ recorded: z.literal(true) }))
    // Buffered and written in batches (catalogue/listings): the page never waits for it.
    .mutation(({ ctx, input }) => {
      recordView(ctx, input.listingId);
      return { recorded: true as const };
    }),
});
