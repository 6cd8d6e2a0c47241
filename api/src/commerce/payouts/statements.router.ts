/** The seller's monthly statement: for the printable page, and as CSV. */
import { statementMonthSchema, statementSchema } from '@reshelf/contracts';
import { z } from 'zod';
import { authedProcedure, router } from '../../trpc.ts';
import { statementCsv, statementFor } from './statements.service.ts';

const monthInput = z.object({ month: statementMonthSchema });

export const statementsRouter = router({
  month: authedProcedure
    .input(monthInput)
    .output(statementSchema)
    .query(({ ctx, input }) => statementFor(ctx.db, ctx.user.userId, input.month)),

  csv: authedProcedure
    .input(monthInput)
    .output(z.object({ filename: z.string(), csv: z.string() }))
    .query(async ({ ctx, input }) => ({
      filename: `reshelf-statement-${input.month}.csv`,
      csv: statementCsv(await statementFor(ctx.db, ctx.user.userId, input.month)),
    })),
});
