import { ADMIN_PERIODS } from '@reshelf/contracts';
import { z } from 'zod';
import { type Context, router, staffProcedure } from '../../trpc.ts';

const metricsSchema = z.object({
  disputes_open: z.number().int(),
  active_listings: z.number().int(),
  buyer_protection_minor: z.number().int(),
});

const cleanupSchema = z.object({
  duplicates_removed: z.number().int(),
  no_image_removed: z.number().int(),
  total_deleted: z.number().int(),
});

const caller = (ctx: Context) => ({ accessToken: ctx.auth.claims?.accessToken });

export const adminRouter = router({
  /** The staff guard of /admin: who the caller is as staff. */
  access: staffProcedure
    .input(z.void())
    .output(z.object({ roles: z.array(z.string()), isAdmin: z.boolean() }))
    .query(({ ctx }) => ({ roles: ctx.roles, isAdmin: ctx.isAdmin })),

  /** admin-metrics: the dashboard's three cards for a period (Europe/London). */
  metrics: staffProcedure
    .input(
      z
        .object({ period: z.enum(ADMIN_PERIODS, 'Choose today, mtd, last30 or ytd').default('mtd') })
        .default({ period: 'mtd' }),
    )
    .output(metricsSchema)
    .query(({ ctx, input }) => ctx.functions.adminMetrics(input, caller(ctx))),

  /** admin-cleanup-listings: duplicates and listings without an image. */
  cleanupListings: staffProcedure
    .input(z.object({}).strict().optional())
    .output(cleanupSchema)
    .mutation(({ ctx }) => ctx.functions.adminCleanupListings(caller(ctx))),
});
