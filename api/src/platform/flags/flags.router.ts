/** Feature flags: public reading for the web client; /admin/settings for admins. */
import { z } from 'zod';
import { adminProcedure, cachedPublicProcedure, router, staffProcedure } from '../../trpc.ts';
import { createFlag, describeFlag, listFlags, publicFlags, toggleFlag } from './flags.service.ts';

const flagSchema = z.object({
  key: z.string(),
  description: z.string(),
  enabled: z.boolean(),
  updatedAt: z.string(),
  updatedBy: z.string().nullable(),
});
const keySchema = z
  .string()
  .trim()
  .regex(/^[a-z][a-z0-9_]*$/, 'Use lower-case letters, digits and underscores, starting with a letter')
  .max(60, 'Use at most 60 characters');
const descriptionSchema = z
  .string()
  .trim()
  .min(1, 'Say what the flag does')
  .max(500, 'Use at most 500 characters');

export const flagsRouter = router({
  /** Every flag's state, the same for everyone (cached, dropped on any change). */
  public: cachedPublicProcedure
    .input(z.void())
    .output(z.record(z.string(), z.boolean()))
    .query(({ ctx }) => publicFlags(ctx.db)),

  /** Staff see the flags; only admins change them. */
  list: staffProcedure
    .input(z.void())
    .output(z.array(flagSchema))
    .query(({ ctx }) => listFlags(ctx.db)),

  toggle: adminProcedure
    .input(z.object({ key: keySchema, enabled: z.boolean('Choose on or off') }))
    .output(flagSchema)
    .mutation(({ ctx, input }) => toggleFlag(ctx.db, ctx.user.userId, input.key, input.enabled)),

  describe: adminProcedure
    .input(z.object({ key: keySchema, description: descriptionSchema }))
    .output(flagSchema)
    .mutation(({ ctx, input }) => describeFlag(ctx.db, ctx.user.userId, input.key, input.description)),

  create: adminProcedure
    .input(z.object({ key: keySchema, description: descriptionSchema, enabled: z.boolean().default(false) }))
    .output(z.object({ ok: z.literal(true) }))
    .mutation(async ({ ctx, input }) => {
      await createFlag(ctx.db, ctx.user.userId, input);
      return { ok: true as const };
    }),
});
