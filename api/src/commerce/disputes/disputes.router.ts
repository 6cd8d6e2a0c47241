/**
 * Two-sided disputes (decisions 0049 and 0051): `commerce.disputes.member` for the
 * buyer and the seller (one way to open a report, `report`; one for the seller to answer,
 * `respond`), `commerce.disputes.staff` for staff (the queue, a case, and one way to decide,
 * `decide`), in /admin/disputes.
 */
import {
  changeOfMindTrackingInputSchema,
  DISPUTE_KINDS,
  declineReasonSchema,
  disputeCaseSchema,
  disputeQueueItemSchema,
  reportDisputeInputSchema,
  requestReturnInputSchema,
  returnEligibilitySchema,
  returnRequestSchema,
  returnTrackingInputSchema,
  SHIPMENT_STATUSES,
  type ShipmentStatus,
  sellerRespondInputSchema,
  staffDecisionInputSchema,
} from '@reshelf/contracts';
import { z } from 'zod';
import { authedProcedure, router, staffProcedure } from '../../trpc.ts';
import { retryReturnLabel } from '../parcels/returns.ts';
import {
  addReturnTracking,
  answerOffer,
  confirmReturn,
  decideAsStaff,
  disputeForOrder,
  disputeQueue,
  getDisputeCase,
  reportProblem,
  respondAsSeller,
  returnsSetting,
  setReturnsSetting,
} from './disputes.service.ts';
import {
  acceptReturn,
  declineReturn,
  receiveReturn,
  requestReturn,
  returnEligibility,
  returnForSale,
  sendReturnBack,
} from './returns.service.ts';

const orderIdSchema = z.object({ orderId: z.uuid('Unknown order') });
const disputeIdSchema = z.object({ disputeId: z.uuid('Unknown report') });

export const disputeMemberRouter = router({
  /** The latest report on one of the caller's orders (as its buyer or its seller), or null. */
  forOrder: authedProcedure
    .input(orderIdSchema)
    .output(disputeCaseSchema.nullable())
    .query(({ ctx, input }) => disputeForOrder(ctx.db, { id: ctx.user.userId }, input.orderId)),

  /** The buyer reports a problem: a reason, a description and up to 6 photos. */
  report: authedProcedure
    .input(reportDisputeInputSchema)
    .output(z.object({ disputeId: z.uuid() }))
    .mutation(({ ctx, input }) => reportProblem(ctx.deps, ctx.user.userId, input)),

  /** The seller answers: full refund, a partial offer, the book back first, or contest. */
  respond: authedProcedure
    .input(sellerRespondInputSchema)
    .output(disputeCaseSchema)
    .mutation(({ ctx, input }) => respondAsSeller(ctx.deps, ctx.user.userId, input)),

  /** The buyer accepts or refuses the seller's partial offer. */
  answerOffer: authedProcedure
    .input(disputeIdSchema.extend({ accept: z.boolean({ error: 'Accept or refuse the offer' }) }))
    .output(disputeCaseSchema)
    .mutation(({ ctx, input }) => answerOffer(ctx.deps, ctx.user.userId, input)),

  /** The buyer has posted the book back: the carrier and tracking reference. */
  returnTracking: authedProcedure
    .input(returnTrackingInputSchema)
    .output(disputeCaseSchema)
    .mutation(({ ctx, input }) => addReturnTracking(ctx.deps, ctx.user.userId, input)),

  /** The seller has the book back: the buyer is refunded. */
  confirmReturn: authedProcedure
    .input(disputeIdSchema)
    .output(disputeCaseSchema)
    .mutation(({ ctx, input }) => confirmReturn(ctx.deps, ctx.user.userId, input)),

  /**
   * Change-of-mind returns (a charity's 14 days, or a private seller's who accepts returns), on
   * the one return flow: whether the buyer may ask, and any request made.
   */
  returnEligibility: authedProcedure
    .input(orderIdSchema)
    .output(returnEligibilitySchema)
    .query(({ ctx, input }) => returnEligibility(ctx.db, ctx.user.userId, input.orderId)),

  /** The buyer asks to return the order's books, or some of them (`itemIds`, order items). */
  requestReturn: authedProcedure
    .input(requestReturnInputSchema)
    .output(returnEligibilitySchema)
    .mutation(({ ctx, input }) => requestReturn(ctx.deps, { userId: ctx.user.userId }, input)),

  /** The return on one of the caller's private sales (their sale page), or null. */
  saleReturn: authedProcedure
    .input(orderIdSchema)
    .output(returnRequestSchema.nullable())
    .query(({ ctx, input }) => returnForSale(ctx.db, ctx.user.userId, input.orderId)),

  /** A private seller accepts a return and says where to post it (a charity: its dashboard). */
  acceptReturn: authedProcedure
    .input(
      z.object({
        returnId: z.uuid('Unknown return'),
        address: z.string().trim().max(300, 'Keep the address to 300 characters'),
      }),
    )
    .output(returnRequestSchema)
    .mutation(({ ctx, input }) => acceptReturn(ctx.deps, ctx.user.userId, input.returnId, input.address)),

  declineReturn: authedProcedure
    .input(z.object({ returnId: z.uuid('Unknown return'), reason: declineReasonSchema }))
    .output(returnRequestSchema)
    .mutation(({ ctx, input }) => declineReturn(ctx.deps, ctx.user.userId, input)),

  /** The book is back: the buyer is refunded the book and its postage. */
  receiveReturn: authedProcedure
    .input(z.object({ returnId: z.uuid('Unknown return') }))
    .output(returnRequestSchema)
    .mutation(({ ctx, input }) => receiveReturn(ctx.deps, ctx.user.userId, input.returnId)),

  /** A change-of-mind return: the buyer has posted the book back. */
  returnSentBack: authedProcedure
    .input(changeOfMindTrackingInputSchema)
    .output(returnEligibilitySchema)
    .mutation(({ ctx, input }) => sendReturnBack(ctx.deps, ctx.user.userId, input)),

  /**
   * The buyer's "Try again" on a return label the carrier could not sell us (it was down): buys
   * it now, once however often pressed. Their own return's label only.
   */
  retryReturnLabel: authedProcedure
    .input(z.object({ shipmentId: z.uuid('Unknown return label') }))
    .output(
      z.object({
        shipmentId: z.uuid(),
        status: z.enum(SHIPMENT_STATUSES),
        lastError: z.string().nullable(),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      const shipment = await retryReturnLabel(ctx.deps, ctx.user.userId, input.shipmentId);
      return {
        shipmentId: shipment.id,
        status: shipment.status as ShipmentStatus,
        lastError: shipment.last_error,
      };
    }),

  /** Whether the caller, as a private seller, accepts returns for any reason (shown on listings). */
  returnsSetting: authedProcedure
    .input(z.object({}))
    .output(z.object({ acceptsReturns: z.boolean() }))
    .query(({ ctx }) => returnsSetting(ctx.db, ctx.user.userId)),

  setReturnsSetting: authedProcedure
    .input(z.object({ acceptsReturns: z.boolean({ error: 'Say whether you accept returns' }) }))
    .output(z.object({ acceptsReturns: z.boolean() }))
    .mutation(({ ctx, input }) => setReturnsSetting(ctx.db, ctx.user.userId, input.acceptsReturns)),
});

export const disputeStaffRouter = router({
  /** The queue: open reports oldest first, or decided ones newest first. */
  queue: staffProcedure
    .input(
      z.object({
        kind: z.enum(DISPUTE_KINDS, 'Choose a kind from the list').optional(),
        status: z.enum(['open', 'resolved', 'all'], 'Choose open, resolved or all').default('open'),
      }),
    )
    .output(z.array(disputeQueueItemSchema))
    .query(({ ctx, input }) => disputeQueue(ctx.db, input)),

  /** One report with both sides and their evidence. */
  get: staffProcedure
    .input(disputeIdSchema)
    .output(disputeCaseSchema)
    .query(({ ctx, input }) => getDisputeCase(ctx.db, { id: ctx.user.userId, staff: true }, input.disputeId)),

  /** Full refund, partial refund (up to what was paid), return first, or release. */
  decide: staffProcedure
    .input(staffDecisionInputSchema)
    .output(disputeCaseSchema)
    .mutation(({ ctx, input }) => decideAsStaff(ctx.deps, ctx.user.userId, input)),
});
