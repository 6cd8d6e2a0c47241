/** Orders after payment, for their buyer and their seller, and the seller's payouts ledger. */
import {
  dispatchInputSchema,
  orderDetailSchema,
  orderRoleSchema,
  orderSummarySchema,
  payoutsViewSchema,
  reasonSchema,
} from '@reshelf/contracts';
import { z } from 'zod';
import { authedProcedure, router } from '../../trpc.ts';
import { getOrder, listOrders, listPayouts } from './order-views.ts';
import {
  cancelBySeller,
  confirmOrder,
  dispatchOrder,
  markArrived,
  withdrawDispute,
} from './orders.service.ts';

const orderIdSchema = z.object({ orderId: z.string().uuid('Unknown order') });
const done = z.object({ ok: z.literal(true) });
const ok = { ok: true as const };

export const ordersRouter = router({
  /** The caller's purchases (buyer) or sales (seller), newest first. */
  list: authedProcedure
    .meta({
      openapi: {
        operationId: 'orders-list',
        method: 'GET',
        path: '/me/orders',
        tags: ['Orders'],
        summary: 'Your purchases or sales',
      },
    })
    .input(
      z.object({
        role: orderRoleSchema.meta({ examples: ['buyer'] }),
        status: z.enum(['open', 'done']).optional(),
      }),
    )
    .output(z.array(orderSummarySchema))
    .query(({ ctx, input }) => listOrders(ctx.db, ctx.user.userId, input.role, { status: input.status })),

  /** One order with its timeline and what the caller may do next. */
  get: authedProcedure
    .meta({
      openapi: {
        operationId: 'orders-get',
        method: 'GET',
        path: '/me/orders/{orderId}',
        tags: ['Orders'],
        summary: 'One of your orders',
      },
    })
    .input(orderIdSchema)
    .output(orderDetailSchema)
    .query(({ ctx, input }) => getOrder(ctx.db, { id: ctx.user.userId }, input.orderId)),

  /** The seller adds the carrier and tracking reference. */
  dispatch: authedProcedure
    .input(dispatchInputSchema)
    .output(done)
    .mutation(async ({ ctx, input }) => {
      await dispatchOrder(ctx.deps, ctx.user.userId, input);
      return ok;
    }),

  /** The seller cannot send it: cancel and refund the buyer in full. */
  cancel: authedProcedure
    .input(orderIdSchema.extend({ reason: reasonSchema('why you cannot send it') }))
    .output(done)
    .mutation(async ({ ctx, input }) => {
      await cancelBySeller(ctx.deps, ctx.user.userId, input);
      return ok;
    }),

  /** The buyer says it has arrived. */
  markArrived: authedProcedure
    .input(orderIdSchema)
    .output(done)
    .mutation(async ({ ctx, input }) => {
      await markArrived(ctx.deps, ctx.user.userId, input.orderId);
      return ok;
    }),

  /** "Everything is OK": completes the order and releases the seller's payout. */
  confirm: authedProcedure
    .input(orderIdSchema)
    .output(done)
    .mutation(async ({ ctx, input }) => {
      await confirmOrder(ctx.deps, ctx.user.userId, input.orderId);
      return ok;
    }),

  /** The buyer withdraws their report; the order completes. */
  withdrawReport: authedProcedure
    .input(orderIdSchema)
    .output(done)
    .mutation(async ({ ctx, input }) => {
      await withdrawDispute(ctx.deps, ctx.user.userId, input.orderId);
      return ok;
    }),

  /** The seller's payouts ledger: held until an order completes, then released. */
  payouts: authedProcedure
    .meta({
      openapi: {
        operationId: 'orders-payouts',
        method: 'GET',
        path: '/me/payouts',
        tags: ['Orders'],
        summary: 'Your payouts ledger',
      },
    })
    .input(z.object({}))
    .output(payoutsViewSchema)
    .query(({ ctx }) => listPayouts(ctx.db, ctx.user.userId)),
});
