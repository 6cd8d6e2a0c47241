/** /admin/book-signings: events staff create, edit, publish and unpublish. */
import { z } from 'zod';
import { router, staffProcedure } from '../../trpc.ts';
import {
  createBookSigning,
  listBookSignings,
  setBookSigningPublished,
  updateBookSigning,
} from './book-signings.service.ts';

const id = z.string().uuid('Unknown event');
const text = (max: number, empty: string, what: string) =>
  z.string().trim().min(1, empty).max(max, `Use at most ${max} characters for the ${what}`);
const fields = z.object({
  title: text(200, 'Give the event a title', 'title'),
  author: text(120, 'Say which author is signing', 'author'),
  venue: text(200, 'Say where it takes place', 'venue'),
  startsAt: z.iso.datetime({ offset: true, error: 'Choose the date and time it starts' }),
  description: z
    .string()
    .trim()
    .max(2000, 'Use at most 2,000 characters for the description')
    .transform((value) => value || null)
    .nullable()
    .default(null),
});
const eventSchema = z.object({
  id: z.string(),
  title: z.string(),
  author: z.string(),
  venue: z.string(),
  startsAt: z.string(),
  description: z.string().nullable(),
  publishedAt: z.string().nullable(),
  updatedAt: z.string(),
});
const done = z.object({ ok: z.literal(true) });
const ok = { ok: true as const };

export const bookSigningsRouter = router({
  list: staffProcedure
    .input(z.void())
    .output(z.array(eventSchema))
    .query(({ ctx }) => listBookSignings(ctx.db)),

  create: staffProcedure
    .input(fields)
    .output(z.object({ id: z.string() }))
    .mutation(({ ctx, input }) => createBookSigning(ctx.db, ctx.user.userId, input)),

  update: staffProcedure
    .input(fields.extend({ id }))
    .output(done)
    .mutation(async ({ ctx, input: { id, ...input } }) => {
      await updateBookSigning(ctx.db, ctx.user.userId, id, input);
      return ok;
    }),

  setPublished: staffProcedure
    .input(z.object({ id, published: z.boolean() }))
    .output(done)
    .mutation(async ({ ctx, input }) => {
      await setBookSigningPublished(ctx.db, ctx.user.userId, input.id, input.published);
      return ok;
    }),
});
