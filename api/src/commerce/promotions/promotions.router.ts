/**
 * /admin/promotions: discount codes. Admins create, edit, pause and resume them (settings-level
 * configuration); moderators may read the list and its figures.
 */
import { WELCOME_GIFT } from '@reshelf/contracts';
import { z } from 'zod';
import { adminProcedure, router, staffProcedure } from '../../trpc.ts';
import {
  createPromotion,
  listPromotions,
  setPromotionActive,
  updatePromotion,
} from './promotions.service.ts';

const id = z.string().uuid('Unknown promotion');
const whole = (what: string, min: number, max: number) =>
  z
    .number({ error: `Enter ${what}` })
    .int(`Use a whole number for ${what}`)
    .min(min, `Use at least ${min} for ${what}`)
    .max(max, `Use at most ${max} for ${what}`);

const code = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z0-9]{3,20}$/, 'Use 3 to 20 letters and digits for the code, like SPRING10')
  .refine((value) => value !== WELCOME_GIFT.code, {
    message: 'WELCOME20 is the built-in first-order gift, so it cannot be a promotion. Choose another code.',
  });

const fields = z.object({
  kind: z.enum(['percent', 'fixed'], { error: 'Choose a percentage or a fixed amount' }),
  percentOff: whole('the percentage', 1, 90).nullable().default(null),
  amountOffMinor: whole('the amount off in pence', 1, 100_000).nullable().default(null),
  minItemMinor: whole('the minimum spend in pence', 1, 10_000_000).nullable().default(null),
  startsAt: z.iso.datetime({ offset: true, error: 'Choose when the code starts' }),
  endsAt: z.iso.datetime({ offset: true, error: 'Choose when the code ends' }),
  totalLimit: whole('the total limit', 1, 1_000_000).nullable().default(null),
  perBuyerLimit: whole('the limit for each buyer', 1, 100).default(1),
});

const promotionSchema = z.object({
  id: z.string(),
  code: z.string(),
  kind: z.enum(['percent', 'fixed']),
  percentOff: z.number().int().nullable(),
  amountOffMinor: z.number().int().nullable(),
  minItemMinor: z.number().int().nullable(),
  startsAt: z.string(),
  endsAt: z.string(),
  totalLimit: z.number().int().nullable(),
  perBuyerLimit: z.number().int(),
  active: z.boolean(),
  status: z.enum(['scheduled', 'live', 'ended', 'paused', 'exhausted']),
  redemptions: z.number().int(),
  discountedMinor: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
const done = z.object({ ok: z.literal(true) });
const ok = { ok: true as const };

export const promotionsRouter = router({
  list: staffProcedure
    .input(z.void())
    .output(z.array(promotionSchema))
    .query(({ ctx }) => listPromotions(ctx.db)),

  create: adminProcedure
    .input(fields.extend({ code }))
    .output(z.object({ id: z.string() }))
    .mutation(({ ctx, input }) => createPromotion(ctx.db, ctx.user.userId, input)),

  update: adminProcedure
    .input(fields.extend({ id }))
    .output(done)
    .mutation(async ({ ctx, input: { id, ...input } }) => {
      await updatePromotion(ctx.db, ctx.user.userId, id, input);
      return ok;
    }),

  setActive: adminProcedure
    .input(z.object({ id, active: z.boolean() }))
    .output(done)
    .mutation(async ({ ctx, input }) => {
      await setPromotionActive(ctx.db, ctx.user.userId, input.id, input.active);
      return ok;
    }),
});
