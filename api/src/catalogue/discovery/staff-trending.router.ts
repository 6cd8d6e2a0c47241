/**
 * Trending books for staff (/admin/trending-books): the computed list with pin and hide.
 * Curating what the public sees is queue-like work, as staff picks are: staff may do it.
 */
import { z } from 'zod';
import { router, staffProcedure } from '../../trpc.ts';
import { clearTrendingOverride, setTrendingOverride, trendingBoard } from './staff-trending.service.ts';

const listingId = z.uuid('Choose a listing from the list');

export const staffTrendingRouter = router({
  board: staffProcedure
    .input(z.void())
    .output(
      z.object({
        list: z.array(
          z.object({
            id: z.string(),
            slug: z.string(),
            title: z.string(),
            authors: z.array(z.string()),
            priceMinor: z.number(),
            pinned: z.boolean(),
          }),
        ),
        overrides: z.array(
          z.object({
            listingId: z.string(),
            slug: z.string().nullable(),
            title: z.string(),
            status: z.string(),
            mode: z.enum(['pin', 'hide']),
            setBy: z.string().nullable(),
            createdAt: z.string(),
          }),
        ),
      }),
    )
    .query(({ ctx }) => trendingBoard(ctx.db)),

  set: staffProcedure
    .input(z.object({ listingId, mode: z.enum(['pin', 'hide'], 'Choose pin or hide') }))
    .output(z.void())
    .mutation(({ ctx, input }) => setTrendingOverride(ctx.db, ctx.user.userId, input)),

  clear: staffProcedure
    .input(z.object({ listingId }))
    .output(z.void())
    .mutation(({ ctx, input }) => clearTrendingOverride(ctx.db, ctx.user.userId, input.listingId)),
});
