import { ADMIN_PERIODS } from '@reshelf/contracts';
import { z } from 'zod';
import { emailCleanupWithdrawals } from '../../community/index.ts';
import { AppError } from '../../errors.ts';
import { recordAudit } from '../../platform/audit/audit.service.ts';
import { adminProcedure, type Context, router, staffProcedure } from '../../trpc.ts';
import { searchAdmin } from './admin.service.ts';
import { attachDemoCovers } from './demo-covers.ts';
import { type ResetPreview, resetPreview } from './reset-preview.ts';
import { ensureSeedPeople } from './seed-people.ts';

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

const cleanupPreviewSchema = cleanupSchema.extend({
  digest: z.string(),
  sample: z.array(
    z.object({
      listing_id: z.string(),
      slug: z.string().nullable(),
      title: z.string(),
      authors: z.string(),
      seller_name: z.string(),
      rule: z.enum(['duplicate', 'no_image']),
      price_minor: z.number().int().nullable(),
    }),
  ),
});

const seedSchema = z.object({
  listings: z.number().int(),
  orders: z.number().int(),
});

const resetPreviewSchema = z.object({
  listings: z.number().int(),
  soldListings: z.number().int(),
  orders: z.number().int(),
  disputes: z.number().int(),
  digest: z.string(),
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

const caller = (ctx: Context) => ({
  accessToken: ctx.auth.claims?.accessToken,
  userId: ctx.auth.claims?.userId,
});

/**
 * Seeds the demo data, after removing what earlier seeds made when `removing` is given (its
 * counts go in the audit log), and gives the seeded listings their covers.
 */
async function seedDemoData(ctx: Context, removing: Omit<ResetPreview, 'digest'> | null) {
  // Hosted: the demo people through Supabase Auth's admin API, never rows written by SQL.
  await ensureSeedPeople(ctx.db, ctx.identity);
  const result = await ctx.functions.seedOpenLibraryRecent({ reset: removing !== null }, caller(ctx));
  await recordAudit(ctx.db, {
    action: removing ? 'admin.resetAndSeed' : 'admin.seed',
    targetType: 'demo_data',
    details: removing ? { removed: removing, added: result } : { added: result },
  });
  // The Edge Function cannot draw images (no sharp in Deno): in both backends the BFF gives
  // the seeded listings their generated covers, through the storage port.
  try {
    await attachDemoCovers({ db: ctx.db, storage: ctx.storage });
  } catch (error) {
    ctx.req.log.error({ err: error }, 'demo covers failed');
    throw new AppError(
      'UNAVAILABLE',
      'The demo data was seeded, but its cover images could not be stored. Seed again to add them.',
    );
  }
  return result;
}

export const adminRouter = router({
  /** The staff guard of /admin: who the caller is as staff. */
  access: staffProcedure
    .input(z.void())
    .output(z.object({ roles: z.array(z.string()), isAdmin: z.boolean() }))
    .query(({ ctx }) => ({ roles: ctx.roles, isAdmin: ctx.isAdmin })),

  /** admin-metrics: the dashboard's three cards for a period (Europe/London). */
  metrics: staffProcedure
    .meta({
      openapi: {
        operationId: 'admin-metrics',
        method: 'GET',
        path: '/admin/metrics',
        tags: ['Staff'],
        summary: 'Dashboard metrics',
      },
    })
    .input(
      z
        .object({ period: z.enum(ADMIN_PERIODS, 'Choose today, mtd, last30 or ytd').default('mtd') })
        .default({ period: 'mtd' }),
    )
    .output(metricsSchema)
    .query(({ ctx, input }) => ctx.functions.adminMetrics(input, caller(ctx))),

  /**
   * admin-cleanup-listings as a dry run: what "Cleanup duplicates" would withdraw (counts, up
   * to five titles of each rule, and the digest a confirmation sends back). Moderators too.
   */
  cleanupPreview: staffProcedure
    .meta({
      openapi: {
        operationId: 'admin-cleanupPreview',
        method: 'GET',
        path: '/admin/cleanup/preview',
        tags: ['Staff'],
        summary: 'Preview the listings clean-up',
      },
    })
    .input(z.void())
    .output(cleanupPreviewSchema)
    .query(async ({ ctx }) => {
      const answer = await ctx.functions.adminCleanupListings({ dryRun: true }, caller(ctx));
      return {
        duplicates_removed: answer.duplicates_removed,
        no_image_removed: answer.no_image_removed,
        total_deleted: answer.total_deleted,
        digest: answer.digest,
        sample: answer.sample,
      };
    }),

  /**
   * admin-cleanup-listings: withdraws duplicates and listings without any image (admins only).
   * `expected` is the preview's digest: when the set has changed since, nothing happens (409).
   * The spec's answer; the sellers are emailed once the withdrawal has committed.
   */
  cleanupListings: adminProcedure
    .meta({
      openapi: {
        operationId: 'admin-cleanupListings',
        method: 'POST',
        path: '/admin/cleanup',
        tags: ['Staff'],
        summary: 'Clean up listings',
      },
    })
    .input(
      z
        .object({
          expected: z
            .string()
            .regex(/^[0-9a-f]{32}$/, 'Send the digest the preview answered (32 hex characters)')
            .optional(),
        })
        .strict()
        .optional(),
    )
    .output(cleanupSchema)
    .mutation(async ({ ctx, input }) => {
      // The function is one statement of its own (both backends): recorded once it succeeded.
      const answer = await ctx.functions.adminCleanupListings(
        { dryRun: false, ...(input?.expected ? { expected: input.expected } : {}) },
        caller(ctx),
      );
      const result = {
        duplicates_removed: answer.duplicates_removed,
        no_image_removed: answer.no_image_removed,
        total_deleted: answer.total_deleted,
      };
      await recordAudit(ctx.db, {
        action: 'admin.cleanupListings',
        targetType: 'listings',
        details: { ...result, run_id: answer.run_id },
      });
      await emailCleanupWithdrawals(
        { db: ctx.db, mailer: ctx.mailer, origin: ctx.config.siteOrigin, log: ctx.req.log },
        answer.listing_ids,
      );
      return result;
    }),

  /**
   * seed-openlibrary-recent: 40 real books on sale and orders across the periods; seeding again
   * adds only what has gone. Then the seeded listings without any image get their generated
   * covers. Removing what earlier seeds made first is resetAndSeed (admins only).
   */
  seed: staffProcedure
    .meta({
      openapi: {
        operationId: 'admin-seed',
        method: 'POST',
        path: '/admin/seed',
        tags: ['Staff'],
        summary: 'Seed demo data',
      },
    })
    .input(
      z
        .object({ reset: z.boolean('reset must be true or false').default(false) })
        .strict()
        .refine((input) => !input.reset, {
          path: ['reset'],
          message: 'Reset and Seed is its own action, for admins: POST /admin/seed/reset',
        }),
    )
    .output(seedSchema)
    .mutation(({ ctx }) => seedDemoData(ctx, null)),

  /**
   * What Reset and Seed would remove, counted: the listings (on sale and sold), orders and
   * disputes earlier seeds made, and the digest a confirmation sends back. Moderators too.
   */
  resetPreview: staffProcedure
    .meta({
      openapi: {
        operationId: 'admin-resetPreview',
        method: 'GET',
        path: '/admin/seed/reset/preview',
        tags: ['Staff'],
        summary: 'Preview Reset and Seed',
      },
    })
    .input(z.void())
    .output(resetPreviewSchema)
    .query(({ ctx }) => resetPreview(ctx.db)),

  /**
   * Reset and Seed (admins only): removes what earlier seeds made (only that: see
   * resetPreview), then seeds again, in one statement. `expected` is the preview's digest: when
   * the demo data has changed since, nothing happens (409).
   */
  resetAndSeed: adminProcedure
    .meta({
      openapi: {
        operationId: 'admin-resetAndSeed',
        method: 'POST',
        path: '/admin/seed/reset',
        tags: ['Staff'],
        summary: 'Reset and seed demo data',
      },
    })
    .input(
      z
        .object({
          expected: z
            .string()
            .regex(/^[0-9a-f]{32}$/, 'Send the digest the preview answered (32 hex characters)')
            .optional(),
        })
        .strict()
        .optional(),
    )
    .output(seedSchema)
    .mutation(async ({ ctx, input }) => {
      const removing = await resetPreview(ctx.db);
      if (input?.expected && input.expected !== removing.digest) {
        throw new AppError(
          'CONFLICT',
          'The demo data has changed since you looked. Open Reset and Seed again to see what it removes now.',
        );
      }
      const { digest: _digest, ...removed } = removing;
      return seedDemoData(ctx, removed);
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
