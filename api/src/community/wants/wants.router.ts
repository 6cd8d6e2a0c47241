/**
 * community.wants.*: a member's wants (decision 0088) and the demand sellers see. Every
 * procedure is the signed-in member's own: none takes a member id.
 */
import {
  isbnInputSchema,
  WANT_ALERTS,
  WANT_MESSAGES,
  WANT_WORDS,
  wantConditionsSchema,
  wantInputSchema,
  wantViewSchema,
} from '@reshelf/contracts';
import { z } from 'zod';
import { authedProcedure, router } from '../../trpc.ts';
import { addWant, demandFor, listWants, removeWant, updateWant, wantsForBook } from './wants.service.ts';

const wantId = z.uuid('That isn’t one of your wants');

const demandSchema = z.object({
  /** Readers (other members) whose wants cover the edition. */
  readers: z.number().int().min(0),
  /** "3 readers want this", or null when nobody does. */
  words: z.string().nullable(),
});

export const wantsRouter = router({
  /** The member's wants, newest first, with the copies on sale now that meet each. */
  list: authedProcedure
    .input(z.void())
    .output(z.array(wantViewSchema))
    .query(({ ctx }) => listWants(ctx.db, ctx.user.userId)),
  /** The member's wants touching a book page: its work, any of its editions, or its series. */
  forBook: authedProcedure
    .input(z.object({ workId: z.uuid('That isn’t a book on Reshelf') }))
    .output(z.array(wantViewSchema))
    .query(({ ctx, input }) => wantsForBook(ctx.db, ctx.user.userId, input.workId)),
  /** Adds a want; the same target and conditions again changes its alerts. */
  add: authedProcedure
    .input(wantInputSchema)
    .output(wantViewSchema)
    .mutation(({ ctx, input }) => addWant(ctx.db, ctx.user.userId, input)),
  /**
   * Changes a want's alerts or its conditions (all of them: what is left out is not asked). New
   * conditions another of the member's wants for that target has make the two one (the one rule,
   * as `add`): the answer is the want kept.
   */
  update: authedProcedure
    .input(
      z.object({
        id: wantId,
        alerts: z.enum(WANT_ALERTS).optional(),
        conditions: wantConditionsSchema.optional(),
      }),
    )
    .output(wantViewSchema)
    .mutation(({ ctx, input }) => updateWant(ctx.db, ctx.user.userId, input)),
  remove: authedProcedure
    .input(z.object({ id: wantId }))
    .output(z.object({ removed: z.literal(true) }))
    .mutation(async ({ ctx, input }) => {
      await removeWant(ctx.db, ctx.user.userId, input.id);
      return { removed: true as const };
    }),
  /** For a seller listing an edition (by its id or ISBN): how many readers want it. */
  demand: authedProcedure
    .input(
      z
        .object({
          bookId: z.uuid('That isn’t an edition on Reshelf').optional(),
          isbn: isbnInputSchema.optional(),
        })
        .refine((input) => input.bookId !== undefined || input.isbn !== undefined, {
          message: WANT_MESSAGES.noTarget,
        }),
    )
    .output(demandSchema)
    .query(async ({ ctx, input }) => {
      const { byBook, byIsbn } = await demandFor(
        ctx.db,
        input.bookId ? { bookIds: [input.bookId] } : { isbns: [input.isbn as string] },
        ctx.user.userId,
      );
      const readers = (input.bookId ? byBook.get(input.bookId) : byIsbn.get(input.isbn as string)) ?? 0;
      return { readers, words: readers > 0 ? WANT_WORDS.demand(readers) : null };
    }),
  /** For a charity's bulk upload: the readers wanting each ISBN of its rows, in one query. */
  demandByIsbn: authedProcedure
    .input(z.object({ isbns: z.array(isbnInputSchema).max(200, 'Ask for at most 200 ISBNs at a time') }))
    .output(z.array(demandSchema.extend({ isbn13: z.string() })))
    .query(async ({ ctx, input }) => {
      const { byIsbn } = await demandFor(ctx.db, { isbns: input.isbns }, ctx.user.userId);
      return [...byIsbn]
        .filter(([, readers]) => readers > 0)
        .map(([isbn13, readers]) => ({ isbn13, readers, words: WANT_WORDS.demand(readers) }));
    }),
});
