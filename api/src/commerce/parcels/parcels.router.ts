/**
 * Parcels (issue 37): the seller's "Get label" and "It came back", and every parcel of an order
 * (the parcel to the buyer and any return) with its tracking timeline, for both sides.
 */
import { LABEL_UNAVAILABLE, shipmentViewSchema } from '@reshelf/contracts';
import { z } from 'zod';
import { AppError } from '../../errors.ts';
import { authedProcedure, type Deps, router } from '../../trpc.ts';
import { confirmReturned, getLabel } from './outbound.ts';
import { shipmentsForOrder } from './shipment-view.ts';

const orderIdSchema = z.object({ orderId: z.string().uuid('Unknown order') });

/** The site's carrier (a site without one cannot buy labels). */
function withCarrier(deps: Deps) {
  const { carriers } = deps;
  if (!carriers) throw new AppError('UNAVAILABLE', LABEL_UNAVAILABLE);
  return { ...deps, carriers };
}

export const parcelsSellerRouter = router({
  /** "Get label": the parcel to the buyer, its label bought once. */
  getLabel: authedProcedure
    .input(orderIdSchema)
    .output(shipmentViewSchema)
    .mutation(({ ctx, input }) => getLabel(withCarrier(ctx.deps), ctx.user.userId, input.orderId)),

  /** The carrier returned the parcel and the seller has it back: the buyer is refunded in full. */
  confirmReturned: authedProcedure
    .input(orderIdSchema)
    .output(z.object({ ok: z.literal(true) }))
    .mutation(async ({ ctx, input }) => {
      await confirmReturned(ctx.deps, ctx.user.userId, input.orderId);
      return { ok: true as const };
    }),
});

export const parcelsMemberRouter = router({
  /** Every parcel of one of your orders, with its scans newest first. */
  forOrder: authedProcedure
    .meta({
      openapi: {
        operationId: 'orders-parcels',
        method: 'GET',
        path: '/me/orders/{orderId}/parcels',
        tags: ['Orders'],
        summary: 'The parcels of one of your orders, with tracking',
      },
    })
    .input(orderIdSchema)
    .output(z.array(shipmentViewSchema))
    .query(({ ctx, input }) => shipmentsForOrder(ctx.db, ctx.user.userId, input.orderId)),
});
