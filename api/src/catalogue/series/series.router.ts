/**
 * Series and completing the set (decision 0089): the public set view of a work's series, and
 * the signed-in member's parts: what they have of it, "I have this", their series with gaps,
 * and "want the rest of this series".
 */
import {
  memberSeriesSchema,
  seriesBySlugInputSchema,
  seriesForWorkInputSchema,
  seriesHaveInputSchema,
  seriesHoldingsSchema,
  seriesSetSchema,
} from '@reshelf/contracts';
import { z } from 'zod';
import { authedProcedure, cachedPublicProcedure, router, withTrustedOutput } from '../../trpc.ts';
import { memberSeries, seriesForWork, seriesHoldings, setHave } from './series.service.ts';

export const seriesRouter = router({
  /** A work's series with every volume, its copies on sale and lowest all-in price; null for a book in none. */
  forWork: withTrustedOutput(
    cachedPublicProcedure
      .meta({
        openapi: {
          operationId: 'books-series',
          method: 'GET',
          path: '/books/{slug}/series',
          tags: ['Catalogue'],
          summary:
            'A book’s series (null when it is in none): every volume in order, with its copies on sale and lowest all-in price',
        },
      })
      .input(seriesForWorkInputSchema)
      .output(seriesSetSchema.nullable())
      .query(({ ctx, input }) => seriesForWork(ctx.db, input.slug)),
  ),
  member: router({
    /** The volumes of a series the member has (bought on Reshelf or marked), and their want for the rest. */
    holdings: authedProcedure
      .input(seriesBySlugInputSchema)
      .output(seriesHoldingsSchema)
      .query(({ ctx, input }) => seriesHoldings(ctx.db, ctx.user.userId, input.seriesSlug)),
    /** "I have this" / "I don't have this" on a book page. */
    setHave: authedProcedure
      .input(seriesHaveInputSchema)
      .output(z.object({ have: z.boolean() }))
      .mutation(({ ctx, input }) => setHave(ctx.db, ctx.user.userId, input.slug, input.have)),
    /** The member's series, each with every volume and which they have. */
    list: authedProcedure
      .input(z.void())
      .output(memberSeriesSchema)
      .query(({ ctx }) => memberSeries(ctx.db, ctx.user.userId)),
  }),
});
