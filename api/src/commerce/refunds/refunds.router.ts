/** The refunds ledger (/admin/refunds): staff read it; refunds are made on orders and disputes. */
import { ADMIN_PERIODS } from '@reshelf/contracts';
import { z } from 'zod';
import { router, staffProcedure } from '../../trpc.ts';
import { refundLedger } from '../money/refunds-ledger.ts';

export const refundsRouter = router({
  ledger: staffProcedure
    .input(
      z.object({
        period: z.enum(ADMIN_PERIODS, 'Choose a period from the list').optional(),
        q: z.string().trim().max(40, 'An order reference is at most 40 characters').optional(),
        limit: z.number().int().min(1).max(200).default(100),
      }),
    )
    .output(
      z.object({
        rows: z.array(
          z.object({
            id: z.string(),
            orderId: z.string(),
            reference: z.string(),
            title: z.string().nullable(),
            amountMinor: z.number(),
            protectionMinor: z.number(),
            reason: z.string(),
            byEmail: z.string().nullable(),
            createdAt: z.string(),
          }),
        ),
        count: z.number(),
        totalMinor: z.number(),
        protectionMinor: z.number(),
      }),
    )
    .query(({ ctx, input }) => refundLedger(ctx.db, input)),
});
