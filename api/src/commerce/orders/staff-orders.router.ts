/**
 * Orders and payments for staff (/admin/orders, /admin/payments). Staff search them and open one
 * (`order`: everything its buyer and seller see, with its whole timeline); refunds are for admins.
 */
import { orderDetailSchema } from '@reshelf/contracts';
import { z } from 'zod';
import { adminProcedure, router, staffProcedure } from '../../trpc.ts';
import { getOrder } from './order-views.ts';
import {
  ORDER_STATUSES,
  PAYMENT_STATUSES,
  refundOrder,
  searchOrders,
  searchPayments,
} from './staff-orders.service.ts';

const q = z.string().trim().max(320, 'Use at most 320 characters').optional();
const limit = z.number().int().min(1).max(100).default(50);

export const staffOrdersRouter = router({
  /** One order as staff see it, with its whole timeline. */
  order: staffProcedure
    .input(z.object({ orderId: z.string().uuid('Unknown order') }))
    .output(orderDetailSchema)
    .query(({ ctx, input }) => getOrder(ctx.db, { id: ctx.user.userId, staff: true }, input.orderId)),

  search: staffProcedure
    .input(z.object({ q, status: z.enum(ORDER_STATUSES, 'Choose a status from the list').optional(), limit }))
    .output(
      z.array(
        z.object({
          id: z.string(),
          reference: z.string(),
          status: z.string(),
          /** "Title", or "Title and 2 more books" (an order has one or more books). */
          title: z.string().nullable(),
          bookCount: z.number(),
          books: z.array(
            z.object({
              id: z.string(),
              title: z.string(),
              priceMinor: z.number(),
              paidMinor: z.number(),
              refundedMinor: z.number(),
            }),
          ),
          buyerEmail: z.string().nullable(),
          sellerEmail: z.string().nullable(),
          totalMinor: z.number(),
          refundedMinor: z.number(),
          createdAt: z.string(),
        }),
      ),
    )
    .query(({ ctx, input }) => searchOrders(ctx.db, input)),

  payments: staffProcedure
    .input(
      z.object({ q, status: z.enum(PAYMENT_STATUSES, 'Choose a status from the list').optional(), limit }),
    )
    .output(
      z.array(
        z.object({
          id: z.string(),
          orderId: z.string(),
          reference: z.string(),
          provider: z.string(),
          providerRef: z.string(),
          status: z.string(),
          amountMinor: z.number(),
          refundedMinor: z.number(),
          buyerEmail: z.string().nullable(),
          createdAt: z.string(),
        }),
      ),
    )
    .query(({ ctx, input }) => searchPayments(ctx.db, input)),

  /**
   * Refund all that is left ('full'), a number of pence, or some of the order's books ('items'
   * with `itemIds`: exactly what was paid for them, their discount and protection shares
   * apportioned; the last books take the postage too).
   */
  refund: adminProcedure
    .input(
      z
        .object({
          orderId: z.uuid('Choose an order from the list'),
          amountMinor: z.union(
            [
              z.literal('full'),
              z.literal('items'),
              z.number().int('Use whole pence').positive('Refund more than £0.00'),
            ],
            'Choose the full amount, some of the books or a number of pence',
          ),
          itemIds: z
            .array(z.uuid('Choose books from the order'))
            .min(1, 'Choose at least one book to refund')
            .max(50, 'An order has at most 50 books')
            .optional(),
          reason: z
            .string()
            .trim()
            .min(3, 'Give a reason (at least 3 characters)')
            .max(500, 'Use at most 500 characters'),
        })
        .refine((input) => input.amountMinor !== 'items' || input.itemIds !== undefined, {
          message: 'Choose the books to refund',
          path: ['itemIds'],
        }),
    )
    .output(z.object({ refundedMinor: z.number(), status: z.string(), sellerDeductedMinor: z.number() }))
    .mutation(({ ctx, input }) => refundOrder({ ...ctx.deps, mail: ctx.deps }, ctx.user.userId, input)),
});
