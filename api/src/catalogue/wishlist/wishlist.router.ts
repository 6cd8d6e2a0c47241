/** The wishlist: save a listing, list the saved ones, and which are saved. Signed in only. */
import { listingCardSchema, wishlistStatusSchema, wishlistToggleInputSchema } from '@reshelf/contracts';
import { z } from 'zod';
import { authedProcedure, router } from '../../trpc.ts';
import { listWishlist, setWished, wishedIds } from './wishlist.service.ts';

export const wishlistRouter = router({
  toggle: authedProcedure
    .input(wishlistToggleInputSchema)
    .output(z.object({ wished: z.boolean() }))
    .mutation(({ ctx, input }) => setWished(ctx.db, ctx.user.userId, input.listingId, input.wished)),
  list: authedProcedure
    .input(z.void())
    .output(z.array(listingCardSchema))
    .query(({ ctx }) => listWishlist(ctx.db, ctx.user.userId)),
  status: authedProcedure
    .input(z.void())
    .output(wishlistStatusSchema)
    .query(async ({ ctx }) => ({ listingIds: await wishedIds(ctx.db, ctx.user.userId) })),
});
