import { bundleTiersSchema, dataExportSchema, displayNameSchema } from '@reshelf/contracts';
import { z } from 'zod';
import { bundleTiersViewSchema, getTiers, setTiers } from '../../commerce/index.ts';
import { AppError } from '../../errors.ts';
import { requestInfo } from '../../platform/identity/resolve-auth.ts';
import { clearSessionCookies } from '../../platform/identity/session-cookies.ts';
import { authedProcedure, router } from '../../trpc.ts';
import { authorSuggestions, completeOnboarding, completeSignup, getProfile } from './account.service.ts';
import { CLOSE_ACCOUNT_MESSAGES, closeAccount } from './close-account.service.ts';
import { exportMemberData, takeExportSlot } from './data-export.service.ts';

const optionalText = (max: number, label: string) =>
  z
    .string()
    .trim()
    .max(max, `${label} is at most ${max} characters`)
    .transform((value) => (value === '' ? null : value))
    .nullable()
    .default(null);

const ok = z.object({ ok: z.literal(true) });

/** The caller's own bundle discount tiers, for their books sold as a private seller. */
const bundleTiersRouter = router({
  get: authedProcedure
    .input(z.object({}).optional())
    .output(bundleTiersViewSchema)
    .query(({ ctx }) => getTiers(ctx.db, { sellerId: ctx.user.userId })),
  /** Up to three tiers, rising in books and percentage; [] turns bundle discounts off. */
  set: authedProcedure
    .input(z.object({ tiers: bundleTiersSchema }))
    .output(bundleTiersViewSchema)
    .mutation(({ ctx, input }) => setTiers(ctx.db, { sellerId: ctx.user.userId }, input.tiers)),
});

export const accountRouter = router({
  bundleTiers: bundleTiersRouter,

  profile: authedProcedure
    .input(z.void())
    .output(
      z.object({
        displayName: z.string(),
        town: z.string().nullable(),
        bio: z.string().nullable(),
        signupCompleted: z.boolean(),
        onboarded: z.boolean(),
        favouriteGenreIds: z.array(z.string().uuid()),
        favouriteAuthors: z.array(z.string()),
      }),
    )
    .query(({ ctx }) => getProfile(ctx.db, ctx.user.userId)),

  completeSignup: authedProcedure
    .input(
      z.object({
        displayName: displayNameSchema,
        town: optionalText(80, 'Town'),
        bio: optionalText(1000, 'About you'),
      }),
    )
    .output(ok)
    .mutation(async ({ ctx, input }) => {
      await completeSignup(ctx.db, ctx.user.userId, input);
      return { ok: true as const };
    }),

  completeOnboarding: authedProcedure
    .input(
      z.object({
        genreIds: z.array(z.string().uuid('Unknown genre')).max(20, 'Pick at most 20 genres'),
        // Favourite authors: left as they were when not sent.
        authors: z
          .array(
            z
              .string()
              .trim()
              .min(1, 'An author’s name cannot be empty')
              .max(200, 'An author’s name is at most 200 characters'),
          )
          .max(20, 'Pick at most 20 authors')
          .optional(),
      }),
    )
    .output(ok)
    .mutation(async ({ ctx, input }) => {
      await completeOnboarding(ctx.db, ctx.user.userId, input.genreIds, input.authors);
      return { ok: true as const };
    }),

  authorSuggestions: authedProcedure
    .input(
      z.object({
        query: z
          .string()
          .trim()
          .min(2, 'Type at least 2 letters of the author’s name')
          .max(100, 'Search for at most 100 characters'),
      }),
    )
    .output(z.array(z.string()))
    .query(({ ctx, input }) => authorSuggestions(ctx.db, input.query)),

  /**
   * Closes the caller's account for ever (Account settings → Close your account): their current
   * password and the word CLOSE typed. Refused, saying what to finish first, while anything is
   * unfinished (close-account.service.ts). On success the session cookies are cleared.
   */
  close: authedProcedure
    .input(
      z.object({
        password: z.string().min(1, 'Enter your current password').max(200, 'That password is too long'),
        confirm: z.literal('CLOSE', 'Type CLOSE in capitals to confirm'),
      }),
    )
    .output(ok)
    .mutation(async ({ ctx, input }) => {
      if (ctx.auth.via === 'api-token') throw new AppError('FORBIDDEN', CLOSE_ACCOUNT_MESSAGES.apiToken);
      await closeAccount(ctx.deps, ctx.user, { password: input.password }, requestInfo(ctx.req));
      clearSessionCookies(ctx.res, ctx.config);
      return { ok: true as const };
    }),

  /**
   * "Download your data" (UK GDPR right of access): everything Reshelf holds about the caller,
   * and only them (no input names anyone), as one JSON document. A few an hour (429 beyond).
   * The audit log records staff actions, so the export is logged against the request instead.
   */
  exportData: authedProcedure
    .meta({
      openapi: {
        operationId: 'account-exportData',
        method: 'GET',
        path: '/me/data',
        tags: ['Account'],
        summary: 'Download your data: everything Reshelf holds about you, as JSON',
      },
    })
    .input(z.void())
    .output(dataExportSchema)
    .query(async ({ ctx }) => {
      await takeExportSlot(ctx.db, ctx.user.userId);
      const data = await exportMemberData(ctx.db, ctx.user.userId);
      ctx.req.log.info(
        { event: 'account.data_export', userId: ctx.user.userId, via: ctx.auth.via },
        'member downloaded their data',
      );
      return data;
    }),
});
