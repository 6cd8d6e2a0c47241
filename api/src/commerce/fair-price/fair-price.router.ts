/** A fair price from Reshelf's own sales (issue 38, decision 0091). */
import {
  CONDITIONS,
  type Condition,
  FAIR_PRICE_MAX_BATCH,
  fairPriceQuerySchema,
  fairPriceSchema,
  slugSchema,
} from '@reshelf/contracts';
import { z } from 'zod';
import { authedProcedure, cachedPublicProcedure, router } from '../../trpc.ts';
import { fairPrices, fairPricesForListings, typicalByCondition, typicalPrice } from './fair-price.service.ts';

export const fairPriceRouter = router({
  /** The sell wizard's price step: band, suggestion, the level it rests on and its sales; null when too few. */
  suggest: authedProcedure
    .input(fairPriceQuerySchema)
    .output(fairPriceSchema.nullable())
    .query(async ({ ctx, input }) => (await fairPrices(ctx.db, [input]))[0] ?? null),

  /** The charity bulk upload's preview: every row's suggestion in one query, in the rows' order. */
  suggestMany: authedProcedure
    .input(
      z.object({
        rows: z
          .array(fairPriceQuerySchema)
          .max(FAIR_PRICE_MAX_BATCH, `Ask for at most ${FAIR_PRICE_MAX_BATCH} rows at once`),
      }),
    )
    .output(z.array(fairPriceSchema.nullable()))
    .query(({ ctx, input }) => fairPrices(ctx.db, input.rows)),

  /** A charity's bulk upload report: each row's copy (listed or a draft), in one batch, in the ids' order. */
  forListings: authedProcedure
    .input(
      z.object({
        listingIds: z
          .array(z.string().uuid('Unknown listing'))
          .max(FAIR_PRICE_MAX_BATCH, `Ask for at most ${FAIR_PRICE_MAX_BATCH} rows at once`),
      }),
    )
    .output(z.array(fairPriceSchema.nullable()))
    .query(({ ctx, input }) => fairPricesForListings(ctx.db, input.listingIds)),

  /** Buyers: "typical price £x–£y in this condition", from this book's own sales only; null otherwise. */
  typical: cachedPublicProcedure
    .input(
      z.union([
        z.object({
          bookId: z.string().uuid('Unknown book'),
          condition: z.enum(CONDITIONS, { message: 'Choose a condition' }),
        }),
        // A listing page asks for its copy: that copy's edition in its condition.
        z.object({ listingSlug: slugSchema }),
      ]),
    )
    .output(fairPriceSchema.nullable())
    .query(async ({ ctx, input }) => {
      if ('bookId' in input) return typicalPrice(ctx.db, input);
      const listing = await ctx.db
        .selectFrom('listings')
        .select(['book_id', 'condition'])
        .where('slug', '=', input.listingSlug)
        .where('status', 'in', ['active', 'reserved', 'sold'])
        .executeTakeFirst();
      if (!listing?.book_id || !listing.condition) return null;
      return typicalPrice(ctx.db, { bookId: listing.book_id, condition: listing.condition as Condition });
    }),

  /** A book page: an edition's typical price in each condition with enough of this book's sales. */
  typicalByCondition: cachedPublicProcedure
    .input(z.object({ bookId: z.string().uuid('Unknown book') }))
    .output(z.array(z.object({ condition: z.enum(CONDITIONS), price: fairPriceSchema })))
    .query(({ ctx, input }) => typicalByCondition(ctx.db, input.bookId)),
});
