/** Selling as a trade (decision 0073): a member's answer and a business seller's details. Signed in only. */
import { businessSellerInputSchema, traderStatusSchema } from '@reshelf/contracts';
import { z } from 'zod';
import { authedProcedure, router } from '../../trpc.ts';
import { declareBusinessSeller, declarePrivateSeller, traderStatus } from './trader.service.ts';

export const traderRouter = router({
  /** Whether the caller sells as a trade, their details, and whether to ask them. */
  status: authedProcedure
    .input(z.object({}))
    .output(traderStatusSchema)
    .query(({ ctx }) => traderStatus(ctx.db, ctx.user.userId)),

  /** The caller sells as a trade: trading name, geographic address, company and VAT numbers, email. */
  declareBusiness: authedProcedure
    .input(businessSellerInputSchema)
    .output(traderStatusSchema)
    .mutation(({ ctx, input }) => declareBusinessSeller(ctx.db, ctx.user.userId, input)),

  /** The caller sells privately, not as a trade. */
  declarePrivate: authedProcedure
    .input(z.object({}))
    .output(traderStatusSchema)
    .mutation(({ ctx }) => declarePrivateSeller(ctx.db, ctx.user.userId)),
});
