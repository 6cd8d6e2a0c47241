/** Listings for staff (/admin/listings): search, remove and restore with a reason. Moderators too. */
import { z } from 'zod';
import { router, staffProcedure } from '../../trpc.ts';
import { LISTING_STATUSES, searchListings, setListingRemoved } from './staff-listings.service.ts';

const listingSchema = z.object({
  id: z.string(),
  slug: z.string().nullable(),
  title: z.string().nullable(),
  status: z.string(),
  priceMinor: z.number().nullable(),
  removedReason: z.string().nullable(),
  sellerId: z.string(),
  sellerEmail: z.string().nullable(),
  sellerName: z.string().nullable(),
  createdAt: z.string(),
  restorable: z.boolean(),
  restoreUntil: z.string().nullable(),
});

export const staffListingsRouter = router({
  search: staffProcedure
    .input(
      z.object({
        q: z.string().trim().max(200, 'Use at most 200 characters').optional(),
        seller: z.string().trim().max(320, 'Use at most 320 characters').optional(),
        status: z.enum(LISTING_STATUSES, 'Choose a status from the list').optional(),
        limit: z.number().int().min(1).max(100).default(50),
      }),
    )
    .output(z.array(listingSchema))
    .query(({ ctx, input }) => searchListings(ctx.db, input)),

  setRemoved: staffProcedure
    .input(
      z.object({
        listingId: z.uuid('Choose a listing from the list'),
        removed: z.boolean('Choose remove or restore'),
        reason: z
          .string()
          .trim()
          .min(3, 'Give a reason (at least 3 characters): the seller is told it')
          .max(500, 'Use at most 500 characters'),
      }),
    )
    .output(listingSchema)
    .mutation(({ ctx, input }) => setListingRemoved(ctx.deps, ctx.user.userId, input)),
});
