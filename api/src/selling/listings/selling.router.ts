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
    .mutation(({ ctx, input }) => updateListing(ctx.db, ctx.user.userId, input)),
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
    .mutation(({ ctx, input }) => publishListing(ctx.db, ctx.user.userId, input.listingId)),
  relist: authedProcedure
    .input(byId)
    .output(sellerListingSchema)
    .mutation(({ ctx, input }) => relistListing(ctx.db, ctx.user.userId, input.listingId)),
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
