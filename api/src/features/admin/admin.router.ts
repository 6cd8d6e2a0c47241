import { ADMIN_PERIODS } from '@reshelf/contracts';
import { z } from 'zod';
import { type Context, router, staffProcedure } from '../../trpc.ts';
import { recordAudit } from '../audit/audit.service.ts';
import { searchAdmin } from './admin.service.ts';

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

const seedSchema = z.object({
  listings: z.number().int(),
  orders: z.number().int(),
});

const searchSchema = z.object({
  users: z.array(z.object({ id: z.string(), email: z.string(), displayName: z.string() })),
  listings: z.array(
    z.object({
      id: z.string(),
      slug: z.string(),
      title: z.string(),
      status: z.string(),
      sellerName: z.string(),
      priceMinor: z.number().int().nullable(),
    }),
  ),
  orders: z.array(
    z.object({ id: z.string(), reference: z.string(), status: z.string(), totalMinor: z.number().int() }),
  ),
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
    .meta({
      openapi: { method: 'GET', path: '/admin/metrics', tags: ['Staff'], summary: 'Dashboard metrics' },
    })
    .input(
      z
        .object({ period: z.enum(ADMIN_PERIODS, 'Choose today, mtd, last30 or ytd').default('mtd') })
        .default({ period: 'mtd' }),
    )
    .output(metricsSchema)
    .query(({ ctx, input }) => ctx.functions.adminMetrics(input, caller(ctx))),

  /** admin-cleanup-listings: duplicates and listings without an image. */
  cleanupListings: staffProcedure
    .meta({
      openapi: { method: 'POST', path: '/admin/cleanup', tags: ['Staff'], summary: 'Clean up listings' },
    })
    .input(z.object({}).strict().optional())
    .output(cleanupSchema)
    .mutation(async ({ ctx }) => {
      // The function is one statement of its own (both backends): recorded once it succeeded.
      const result = await ctx.functions.adminCleanupListings(caller(ctx));
      await recordAudit(ctx.db, {
        action: 'admin.cleanupListings',
        targetType: 'listings',
        details: { ...result },
      });
      return result;
    }),

  /**
   * seed-openlibrary-recent: 40 real books on sale and orders across the periods; with reset,
   * what an earlier seed made is removed first (all in one statement).
   */
  seed: staffProcedure
    .meta({ openapi: { method: 'POST', path: '/admin/seed', tags: ['Staff'], summary: 'Seed demo data' } })
    .input(z.object({ reset: z.boolean('reset must be true or false').default(false) }).strict())
    .output(seedSchema)
    .mutation(async ({ ctx, input }) => {
      const result = await ctx.functions.seedOpenLibraryRecent(input, caller(ctx));
      await recordAudit(ctx.db, {
        action: 'admin.seed',
        targetType: 'demo_data',
        details: { reset: input.reset, ...result },
      });
      return result;
    }),

  /** The command palette: people, listings and orders matching some text. */
  search: staffProcedure
    .input(
      z.object({
        q: z
          .string()
          .trim()
          .min(2, 'Type at least 2 characters to search')
          .max(100, 'Search for at most 100 characters'),
      }),
    )
    .output(searchSchema)
    .query(({ ctx, input }) => searchAdmin(ctx.db, input.q)),
});
