/** /admin/staff-picks: choose and order the listings shown on the home page (staff). */
import { z } from 'zod';
import { router, staffProcedure } from '../../trpc.ts';
import {
  addStaffPick,
  listStaffPicks,
  MAX_STAFF_PICKS,
  pickCandidates,
  removeStaffPick,
  reorderStaffPicks,
  updateStaffPickNote,
} from './staff-picks.service.ts';

const listingId = z.string().uuid('Unknown listing');
const note = z
  .string()
  .trim()
  .max(280, 'Keep the note to 280 characters or fewer')
  .transform((value) => value || null)
  .nullable();
const done = z.object({ ok: z.literal(true) });
const ok = { ok: true as const };

export const staffPicksRouter = router({
  list: staffProcedure
    .input(z.void())
    .output(
      z.array(
        z.object({
          listingId: z.string(),
          slug: z.string().nullable(),
          title: z.string(),
          authors: z.array(z.string()),
          status: z.string(),
          priceMinor: z.number().int().nullable(),
          sellerName: z.string(),
          note: z.string().nullable(),
          position: z.number().int(),
          pickedBy: z.string().nullable(),
        }),
      ),
    )
    .query(({ ctx }) => listStaffPicks(ctx.db)),

  candidates: staffProcedure
    .input(
      z.object({
        q: z.string().trim().min(2, 'Type at least 2 characters').max(100, 'Use at most 100 characters'),
      }),
    )
    .output(
      z.array(
        z.object({
          listingId: z.string(),
          slug: z.string().nullable(),
          title: z.string(),
          authors: z.array(z.string()),
          priceMinor: z.number().int().nullable(),
          sellerName: z.string(),
        }),
      ),
    )
    .query(({ ctx, input }) => pickCandidates(ctx.db, input.q)),

  add: staffProcedure
    .input(z.object({ listingId, note: note.optional() }))
    .output(done)
    .mutation(async ({ ctx, input }) => {
      await addStaffPick(ctx.db, ctx.user.userId, input);
      return ok;
    }),

  remove: staffProcedure
    .input(z.object({ listingId }))
    .output(done)
    .mutation(async ({ ctx, input }) => {
      await removeStaffPick(ctx.db, ctx.user.userId, input.listingId);
      return ok;
    }),

  note: staffProcedure
    .input(z.object({ listingId, note }))
    .output(done)
    .mutation(async ({ ctx, input }) => {
      await updateStaffPickNote(ctx.db, ctx.user.userId, input);
      return ok;
    }),

  reorder: staffProcedure
    .input(z.object({ listingIds: z.array(listingId).max(MAX_STAFF_PICKS, 'Too many picks') }))
    .output(done)
    .mutation(async ({ ctx, input }) => {
      await reorderStaffPicks(ctx.db, ctx.user.userId, input.listingIds);
      return ok;
    }),
});
