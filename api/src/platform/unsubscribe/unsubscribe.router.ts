import { EMAIL_LISTS, unsubscribeInputSchema } from '@reshelf/contracts';
import { z } from 'zod';
import { publicProcedure, router } from '../../trpc.ts';
import { checkUnsubscribe, confirmUnsubscribe } from './unsubscribe.service.ts';

const statusSchema = z.object({
  list: z.enum(EMAIL_LISTS),
  listLabel: z.string(),
  recipient: z.string(),
  unsubscribed: z.boolean(),
});

export const unsubscribeRouter = router({
  check: publicProcedure
    .input(unsubscribeInputSchema)
    .output(statusSchema)
    .query(({ ctx, input }) => checkUnsubscribe(ctx.db, ctx.secrets, input)),
  confirm: publicProcedure
    .input(unsubscribeInputSchema)
    .output(statusSchema)
    .mutation(({ ctx, input }) => confirmUnsubscribe(ctx.db, ctx.secrets, input)),
});
