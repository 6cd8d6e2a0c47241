/**
 * The basket: `basket.member.*`. Signed in only; a visitor's basket lives in the
 * browser and is merged on sign-in. The quote prices the books group by group (one order and one
 * parcel per seller); checkout of the groups is `commerce.checkout.startBasket`.
 */
import {
  BASKET_LIMITS,
  basketListingIdsSchema,
  basketQuoteInputSchema,
  basketQuoteSchema,
  basketSchema,
  bundleTierOutSchema,
} from '@reshelf/contracts';
import { z } from 'zod';
import { authedProcedure, publicProcedure, router } from '../../trpc.ts';
import { quoteBasket } from '../checkout/basket-checkout.ts';
import {
  addToBasket,
  basketCount,
  bundleTiersOf,
  listBasket,
  mergeBasket,
  removeFromBasket,
} from './basket.service.ts';

const listingIdSchema = z.object({ listingId: z.string().uuid('That is not a book we know') });

export const basketRouter = router({
  /** The basket grouped by seller, gone books included (state says which). */
  list: authedProcedure
    .input(z.void())
    .output(basketSchema)
    .query(({ ctx }) => listBasket(ctx.db, ctx.user.userId)),
  /** The header's count: books that can still be bought, and how many are gone. */
  count: authedProcedure
    .input(z.void())
    .output(z.object({ count: z.number().int(), gone: z.number().int() }))
    .query(({ ctx }) => basketCount(ctx.db, ctx.user.userId)),
  add: authedProcedure
    .input(listingIdSchema)
    .output(z.object({ count: z.number().int() }))
    .mutation(({ ctx, input }) => addToBasket(ctx.db, ctx.user.userId, input.listingId)),
  /** Removes one book, or several (e.g. every gone one). */
  remove: authedProcedure
    .input(
      z.union([
        listingIdSchema,
        z.object({
          listingIds: z.array(z.string().uuid('That is not a book we know')).max(BASKET_LIMITS.maxItems),
        }),
      ]),
    )
    .output(z.object({ count: z.number().int() }))
    .mutation(({ ctx, input }) =>
      removeFromBasket(ctx.db, ctx.user.userId, 'listingId' in input ? [input.listingId] : input.listingIds),
    ),
  /** A visitor's basket from the browser, on sign-in. */
  merge: authedProcedure
    .input(z.object({ listingIds: basketListingIdsSchema.or(z.array(z.string().uuid()).length(0)) }))
    .output(z.object({ count: z.number().int(), added: z.array(z.string()), skipped: z.array(z.string()) }))
    .mutation(({ ctx, input }) => mergeBasket(ctx.db, ctx.user.userId, input.listingIds)),
  /** These books priced as one order per seller; gone books listed apart. */
  quote: authedProcedure
    .input(basketQuoteInputSchema)
    .output(basketQuoteSchema)
    .query(({ ctx, input }) =>
      quoteBasket(ctx.db, ctx.user.userId, input.listingIds, input.promoCode ?? null, {
        choices: input.deliveries,
        carriers: ctx.deps.carriers,
      }),
    ),
});

/**
 * What anyone may read (decision 0043): a seller's or a charity shop's bundle tiers, for "Buy
 * more from this seller and save" on their page (and a visitor's basket). Not cached: a seller
 * changing their tiers is seen at once.
 */
export const basketPublicRouter = router({
  tiers: publicProcedure
    .input(
      z.union([
        z.object({ sellerId: z.string().uuid('That is not a seller we know') }),
        z.object({ charitySlug: z.string().trim().min(1, 'Name the charity').max(120) }),
      ]),
    )
    .output(z.array(bundleTierOutSchema))
    .query(({ ctx, input }) => bundleTiersOf(ctx.db, input)),
});
