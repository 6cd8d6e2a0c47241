/**
 * The seller's payouts through the payment provider (decision 0046): their payout
 * account and its set-up, and the payouts made to their bank. Staff's tools for the same money
 * are `payouts.staff` (the other half).
 */
import {
  onboardingLinkSchema,
  payoutAccountSchema,
  payoutDetailSchema,
  payoutsListSchema,
} from '@reshelf/contracts';
import { z } from 'zod';
import { AppError } from '../../errors.ts';
import { authedProcedure, router } from '../../trpc.ts';
import { getSellerPayout, listSellerPayouts, payoutAccount, startOnboarding } from '../money/payouts.ts';

export const payoutsRouter = router({
  /** The caller's payout account: its state, what is due, holds, and earnings waiting (and why). */
  account: authedProcedure
    .input(z.void())
    .output(payoutAccountSchema)
    .query(({ ctx }) => payoutAccount(ctx.db, ctx.user.userId)),

  /** Makes the caller's account at the provider if need be; answers where its onboarding is. */
  startOnboarding: authedProcedure
    // An empty object: a mutation always carries a JSON body (none at all is refused by the lean path).
    .input(z.object({}).strict())
    .output(onboardingLinkSchema)
    .mutation(async ({ ctx }) => {
      const person = await ctx.db
        .selectFrom('auth.users')
        .select('email')
        .where('id', '=', ctx.user.userId)
        .executeTakeFirst();
      if (!person?.email)
        throw new AppError('PRECONDITION_FAILED', 'Add an email address to your account first.');
      return startOnboarding(ctx.deps, { id: ctx.user.userId, email: person.email });
    }),

  /** The caller's payouts to their bank, newest first, and transfers not yet paid out. */
  list: authedProcedure
    .input(z.void())
    .output(payoutsListSchema)
    .query(({ ctx }) => listSellerPayouts(ctx.db, ctx.user.userId)),

  /** One payout: its orders, fees, refunds and reversals, and its state. */
  get: authedProcedure
    .input(z.object({ payoutId: z.string().uuid('Unknown payout') }))
    .output(payoutDetailSchema)
    .query(({ ctx, input }) => getSellerPayout(ctx.db, ctx.user.userId, input.payoutId)),
});
