/** Offers: make, counter, accept or decline, withdraw, and the caller's threads. */
import {
  BASKET_LIMITS,
  offerAmountSchema,
  offerMessageSchema,
  offerThreadSchema,
  orderRoleSchema,
} from '@reshelf/contracts';
import { z } from 'zod';
import { authedProcedure, router } from '../../trpc.ts';
import {
  counterOffer,
  listThreads,
  makeBundleOffer,
  makeOffer,
  respondToOffer,
  withdrawOffer,
} from './offers.service.ts';

const offerIdSchema = z.object({ offerId: z.string().uuid('Unknown offer') });

export const offersRouter = router({
  /** The buyer's opening offer: at least half the asking price. */
  make: authedProcedure
    .input(
      z.object({
        listingId: z.string().uuid('Unknown book'),
        amountMinor: offerAmountSchema,
        message: offerMessageSchema,
      }),
    )
    .output(z.object({ offerId: z.string().uuid() }))
    .mutation(({ ctx, input }) => makeOffer(ctx.deps, ctx.user.userId, input)),

  /**
   * "Ask for a bundle price": one offer for 2 to 20 books of one seller (one parcel), at least
   * half their total; the same rounds, 48 hours, one counter each way, 24 hours to pay.
   */
  makeBundle: authedProcedure
    .input(
      z.object({
        listingIds: z
          .array(z.string().uuid('Unknown book'))
          .min(2, 'A bundle offer is for two books or more')
          .max(
            BASKET_LIMITS.maxGroupItems,
            `A bundle offer is for at most ${BASKET_LIMITS.maxGroupItems} books`,
          ),
        amountMinor: offerAmountSchema,
        message: offerMessageSchema,
      }),
    )
    .output(z.object({ offerId: z.string().uuid() }))
    .mutation(({ ctx, input }) => makeBundleOffer(ctx.deps, ctx.user.userId, input)),

  /** A counter-offer: the seller once, then the buyer once. */
  counter: authedProcedure
    .input(offerIdSchema.extend({ amountMinor: offerAmountSchema, message: offerMessageSchema }))
    .output(z.object({ offerId: z.string().uuid() }))
    .mutation(({ ctx, input }) => counterOffer(ctx.deps, ctx.user.userId, input)),

  /** Accept (the book is held for the buyer for 24 hours) or decline. */
  respond: authedProcedure
    .input(
      offerIdSchema.extend({
        action: z.enum(['accept', 'decline'], { message: 'Choose accept or decline' }),
      }),
    )
    .output(z.object({ status: z.enum(['accepted', 'declined']), checkoutDeadline: z.string().nullable() }))
    .mutation(({ ctx, input }) => respondToOffer(ctx.deps, ctx.user.userId, input)),

  /** Takes back a pending offer the caller made. */
  withdraw: authedProcedure
    .input(offerIdSchema)
    .output(z.object({ ok: z.literal(true) }))
    .mutation(async ({ ctx, input }) => {
      await withdrawOffer(ctx.db, ctx.user.userId, input.offerId);
      return { ok: true as const };
    }),

  /** Offers the caller made (buyer) or received (seller), optionally for one listing. */
  list: authedProcedure
    .meta({
      openapi: {
        operationId: 'offers-list',
        method: 'GET',
        path: '/me/offers',
        tags: ['Offers'],
        summary: 'Offers you made or received',
      },
    })
    .input(
      z.object({
        role: orderRoleSchema.meta({ examples: ['buyer'] }),
        listingId: z.string().uuid().optional(),
      }),
    )
    .output(z.array(offerThreadSchema))
    .query(({ ctx, input }) =>
      listThreads(ctx.db, ctx.user.userId, input.role, input.listingId ? { listingId: input.listingId } : {}),
    ),
});
