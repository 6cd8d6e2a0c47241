/** /admin/launch-plan: the checklist staff add to, tick off and order (staff). */
import { z } from 'zod';
import { router, staffProcedure } from '../../trpc.ts';
import {
  addLaunchPlanItem,
  listLaunchPlan,
  MAX_LAUNCH_PLAN_ITEMS,
  removeLaunchPlanItem,
  reorderLaunchPlan,
  setLaunchPlanItemDone,
} from './launch-plan.service.ts';

const id = z.string().uuid('Unknown launch plan item');
const done = z.object({ ok: z.literal(true) });
const ok = { ok: true as const };

export const launchPlanRouter = router({
  list: staffProcedure
    .input(z.void())
    .output(
      z.array(
        z.object({
          id: z.string(),
          title: z.string(),
          owner: z.string().nullable(),
          position: z.number().int(),
          doneAt: z.string().nullable(),
          doneBy: z.string().nullable(),
        }),
      ),
    )
    .query(({ ctx }) => listLaunchPlan(ctx.db)),

  add: staffProcedure
    .input(
      z.object({
        title: z
          .string()
          .trim()
          .min(1, 'Say what needs doing')
          .max(200, 'Keep the item to 200 characters or fewer'),
        owner: z
          .string()
          .trim()
          .max(80, 'Keep the owner to 80 characters or fewer')
          .transform((value) => value || null)
          .nullable()
          .default(null),
      }),
    )
    .output(z.object({ id: z.string() }))
    .mutation(({ ctx, input }) => addLaunchPlanItem(ctx.db, ctx.user.userId, input)),

  setDone: staffProcedure
    .input(z.object({ id, done: z.boolean() }))
    .output(done)
    .mutation(async ({ ctx, input }) => {
      await setLaunchPlanItemDone(ctx.db, ctx.user.userId, input);
      return ok;
    }),

  remove: staffProcedure
    .input(z.object({ id }))
    .output(done)
    .mutation(async ({ ctx, input }) => {
      await removeLaunchPlanItem(ctx.db, ctx.user.userId, input.id);
      return ok;
    }),

  reorder: staffProcedure
    .input(z.object({ ids: z.array(id).max(MAX_LAUNCH_PLAN_ITEMS, 'Too many items') }))
    .output(done)
    .mutation(async ({ ctx, input }) => {
      await reorderLaunchPlan(ctx.db, ctx.user.userId, input.ids);
      return ok;
    }),
});
