/**
 * /admin/offers (staff, moderators too: offers are queue work like listings and disputes):
 * search offer threads, the page's figures, and cancelling an open offer with a reason.
 */
import { ADMIN_PERIODS } from '@reshelf/contracts';
import { z } from 'zod';
import { router, staffProcedure } from '../../trpc.ts';
import { cancelOfferAsStaff } from './offers.service.ts';
import { OFFER_STATUSES, offerSummary, searchOfferThreads } from './staff-offers.service.ts';

const party = z.object({ email: z.string().nullable(), name: z.string().nullable() });
const roundSchema = z.object({
  id: z.string(),
  round: z.number(),
  madeBy: z.enum(['buyer', 'seller']),
  amountMinor: z.number(),
  discountPercent: z.number(),
  status: z.string(),
  message: z.string().nullable(),
  createdAt: z.string(),
  expiresAt: z.string(),
  checkoutDeadline: z.string().nullable(),
  cancelReason: z.string().nullable(),
});
const threadSchema = z.object({
  threadId: z.string(),
  currentId: z.string(),
  status: z.string(),
  canCancel: z.boolean(),
  listing: z.object({
    id: z.string(),
    title: z.string(),
    slug: z.string().nullable(),
    priceMinor: z.number(),
    status: z.string(),
  }),
  buyer: party,
  seller: party,
  startedAt: z.string(),
  updatedAt: z.string(),
  rounds: z.array(roundSchema),
});

export const staffOffersRouter = router({
  search: staffProcedure
    .input(
      z.object({
        q: z.string().trim().max(320, 'Use at most 320 characters').optional(),
        status: z.enum(OFFER_STATUSES, 'Choose a status from the list').optional(),
        period: z.enum(ADMIN_PERIODS, 'Choose a period from the list').optional(),
        limit: z.number().int().min(1).max(100).default(50),
      }),
    )
    .output(z.array(threadSchema))
    .query(({ ctx, input }) => searchOfferThreads(ctx.db, input)),

  summary: staffProcedure
    .input(z.void())
    .output(
      z.object({
        open: z.number(),
        acceptanceRate: z.number().nullable(),
        decided30: z.number(),
        accepted30: z.number(),
        medianDiscountPercent: z.number().nullable(),
        opened30: z.number(),
      }),
    )
    .query(({ ctx }) => offerSummary(ctx.db)),

  /** Cancels a pending, or accepted and unpaid, offer; an accepted one's book goes back on sale. */
  cancel: staffProcedure
    .input(
      z.object({
        offerId: z.uuid('Choose an offer from the list'),
        reason: z
          .string()
          .trim()
          .min(3, 'Give a reason (at least 3 characters)')
          .max(500, 'Use at most 500 characters for the reason'),
      }),
    )
    .output(z.object({ was: z.enum(['pending', 'accepted']), released: z.boolean() }))
    .mutation(({ ctx, input }) => cancelOfferAsStaff(ctx.deps, ctx.user.userId, input)),
});
