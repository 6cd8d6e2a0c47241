/** Orders after payment, the seller's payouts, and the staff's dispute queue. */
import {
  DISPUTE_KINDS,
  dispatchInputSchema,
  disputeQueueItemSchema,
  orderDetailSchema,
  orderRoleSchema,
  orderSummarySchema,
  payoutsViewSchema,
  reasonSchema,
} from '@reshelf/contracts';
import { z } from 'zod';
import { authedProcedure, router, staffProcedure } from '../../trpc.ts';
import {
  cancelBySeller,
  confirmOrder,
  dispatchOrder,
  disputeQueue,
  getOrder,
  listOrders,
  listPayouts,
  markArrived,
  openDispute,
  resolveDispute,
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

  /**
   * The buyer reports a problem with the book(s), or a parcel that never arrived. A problem with
   * some of an order's books names them (`itemIds`, the order's items); none named: the whole order.
   */
  reportProblem: authedProcedure
    .input(
      orderIdSchema.extend({
        kind: z.enum(DISPUTE_KINDS, { message: 'Choose what went wrong' }),
        reason: reasonSchema('what went wrong'),
        itemIds: z
          .array(z.string().uuid('Unknown book'))
          .min(1, 'Choose at least one book')
          .max(50, 'An order has at most 50 books')
          .optional(),
      }),
    )
    .output(z.object({ disputeId: z.string().uuid() }))
    .mutation(({ ctx, input }) => openDispute(ctx.deps, ctx.user.userId, input)),

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

export const disputesRouter = router({
  /** The queue: open disputes oldest first, or resolved ones newest first. */
  queue: staffProcedure
    .input(
      z.object({
        kind: z.enum(DISPUTE_KINDS).optional(),
        status: z.enum(['open', 'resolved', 'all']).default('open'),
      }),
    )
    .output(z.array(disputeQueueItemSchema))
    .query(({ ctx, input }) => disputeQueue(ctx.db, input)),

  /** An order as staff see it, with its whole timeline. */
  order: staffProcedure
    .input(orderIdSchema)
    .output(orderDetailSchema)
    .query(({ ctx, input }) => getOrder(ctx.db, { id: ctx.user.userId, staff: true }, input.orderId)),

  /**
   * Refund the buyer through the payment port (the books the report names, or everything left),
   * or release the payout to the seller.
   */
  resolve: staffProcedure
    .input(
      z.object({
        disputeId: z.string().uuid('Unknown dispute'),
        outcome: z.enum(['refund', 'release'], { message: 'Choose refund or release' }),
        note: z
          .string()
          .trim()
          .min(5, 'Write a short note for both parties (at least 5 characters)')
          .max(2000, 'Use at most 2,000 characters'),
      }),
    )
    .output(z.object({ orderId: z.string().uuid(), refundedMinor: z.number().int() }))
    .mutation(({ ctx, input }) => resolveDispute(ctx.deps, ctx.user.userId, input)),
});
