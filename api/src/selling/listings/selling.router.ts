/** Selling: the listing wizard, editing, publishing and "my listings". Signed in only. */
import {
  bulkListingInputSchema,
  bulkResultSchema,
  listingIdSchema,
  listingWarningsSchema,
  myListingsInputSchema,
  myListingsSchema,
  priceSuggestionSchema,
  sellerListingSchema,
  startListingInputSchema,
  updateListingInputSchema,
} from '@reshelf/contracts';
import { z } from 'zod';
import { kickWantMatcher } from '../../community/index.ts';
import { authedProcedure, router } from '../../trpc.ts';
import {
  deleteDraft,
  getSellerListing,
  listingWarnings,
  myListings,
  publishListing,
  relistListing,
  removePhoto,
  reorderPhotos,
  startListing,
  suggestPrice,
  updateListing,
  withdrawListings,
} from './selling.service.ts';

const byId = z.object({ listingId: listingIdSchema });

export const sellingRouter = router({
  start: authedProcedure
    .input(startListingInputSchema)
    .output(
      z.object({
        listing: sellerListingSchema,
        resumed: z.boolean(),
        source: z.enum(['catalogue', 'openlibrary']).nullable(),
      }),
    )
    .mutation(({ ctx, input }) => startListing(ctx.db, ctx.bookLookup, ctx.user.userId, input.isbn)),
  get: authedProcedure
    .input(byId)
    .output(sellerListingSchema)
    .query(({ ctx, input }) => getSellerListing(ctx.db, ctx.user.userId, input.listingId)),
  update: authedProcedure
    .input(updateListingInputSchema)
    .output(sellerListingSchema)
    .mutation(async ({ ctx, input }) => {
      const listing = await updateListing(ctx.db, ctx.user.userId, input);
      // A price cut or a new edition of a listing on sale is queued for wants (decision 0088).
      if (listing.status === 'active') kickWantMatcher(ctx.deps);
      return listing;
    }),
  removePhoto: authedProcedure
    .input(z.object({ listingId: listingIdSchema, url: z.string().min(1).max(2048) }))
    .output(sellerListingSchema)
    .mutation(({ ctx, input }) =>
      removePhoto(ctx.db, ctx.storage, ctx.user.userId, input.listingId, input.url),
    ),
  reorderPhotos: authedProcedure
    .input(z.object({ listingId: listingIdSchema, photos: z.array(z.string().min(1).max(2048)).max(8) }))
    .output(sellerListingSchema)
    .mutation(({ ctx, input }) => reorderPhotos(ctx.db, ctx.user.userId, input.listingId, input.photos)),
  priceSuggestion: authedProcedure
    .input(byId)
    .output(priceSuggestionSchema)
    .query(({ ctx, input }) => suggestPrice(ctx.db, ctx.user.userId, input.listingId)),
  /** What to tell the seller before they publish: a price far above the suggestion, the same copy twice. */
  warnings: authedProcedure
    .input(byId)
    .output(listingWarningsSchema)
    .query(({ ctx, input }) => listingWarnings(ctx.db, ctx.user.userId, input.listingId)),
  publish: authedProcedure
    .input(byId)
    .output(sellerListingSchema)
    .mutation(async ({ ctx, input }) => {
      const listing = await publishListing(ctx.db, ctx.user.userId, input.listingId);
      // Right after the commit: members who want this book are told (decision 0088).
      kickWantMatcher(ctx.deps);
      return listing;
    }),
  relist: authedProcedure
    .input(byId)
    .output(sellerListingSchema)
    .mutation(async ({ ctx, input }) => {
      const listing = await relistListing(ctx.db, ctx.user.userId, input.listingId);
      kickWantMatcher(ctx.deps);
      return listing;
    }),
  withdraw: authedProcedure
    .input(bulkListingInputSchema)
    .output(bulkResultSchema)
    .mutation(({ ctx, input }) => withdrawListings(ctx.db, ctx.user.userId, input.listingIds)),
  deleteDraft: authedProcedure
    .input(byId)
    .output(z.object({ deleted: z.literal(true) }))
    .mutation(async ({ ctx, input }) => {
      await deleteDraft(ctx.db, ctx.storage, ctx.user.userId, input.listingId);
      return { deleted: true as const };
    }),
  mine: authedProcedure
    .meta({
      openapi: {
        operationId: 'selling-mine',
        method: 'GET',
        path: '/me/listings',
        tags: ['Selling'],
        summary: 'Your listings',
      },
    })
    .input(myListingsInputSchema)
    .output(myListingsSchema)
    .query(({ ctx, input }) => myListings(ctx.db, ctx.user.userId, input)),
});
