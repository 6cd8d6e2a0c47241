/**
 * /admin/covers-backfill: staff (moderators too) see the books missing a cover and the runs'
 * reports; admins start a run, since it sends up to 50 requests to an outside service
 * (decision 0021). The run continues after the call answers; the page follows it with `run`.
 */
import { z } from 'zod';
import { adminProcedure, router, staffProcedure } from '../../trpc.ts';
import {
  getRun,
  listMissingCovers,
  MAX_PER_RUN,
  recentRuns,
  startCoverBackfill,
} from './covers-backfill.service.ts';

const outcome = z.enum(['found', 'not_found', 'no_isbn', 'error']);
const runSchema = z.object({
  id: z.string(),
  status: z.enum(['running', 'finished', 'failed']),
  lookup: z.enum(['offline', 'openlibrary']),
  selection: z.enum(['all', 'chosen']),
  startedBy: z.string().nullable(),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  requested: z.number(),
  checked: z.number(),
  found: z.number(),
  notFound: z.number(),
  noIsbn: z.number(),
  errors: z.number(),
  error: z.string().nullable(),
});

export const coversBackfillRouter = router({
  /** The books missing a cover, the lookup in use, and the latest runs. */
  overview: staffProcedure
    .input(z.void())
    .output(
      z.object({
        lookup: z.enum(['offline', 'openlibrary']),
        maxPerRun: z.number(),
        total: z.number(),
        books: z.array(
          z.object({
            id: z.string(),
            title: z.string(),
            authors: z.array(z.string()),
            isbn13: z.string().nullable(),
            listings: z.number(),
            lastCheck: z.object({ at: z.string(), outcome }).nullable(),
          }),
        ),
        runs: z.array(runSchema),
      }),
    )
    .query(async ({ ctx }) => {
      const [missing, runs] = await Promise.all([listMissingCovers(ctx.db), recentRuns(ctx.db)]);
      return { lookup: ctx.bookLookup.kind, maxPerRun: MAX_PER_RUN, ...missing, runs };
    }),

  /** One run's report: its counts and each book's outcome. */
  run: staffProcedure
    .input(z.object({ runId: z.uuid('Choose a run from the list') }))
    .output(
      runSchema.extend({
        items: z.array(
          z.object({
            position: z.number(),
            bookId: z.string().nullable(),
            title: z.string(),
            isbn13: z.string().nullable(),
            outcome: outcome.nullable(),
            coverUrl: z.string().nullable(),
            detail: z.string().nullable(),
          }),
        ),
      }),
    )
    .query(({ ctx, input }) => getRun(ctx.db, input.runId)),

  /** Starts a run over the chosen books, or the next ones missing a cover (at most 50). */
  start: adminProcedure
    .input(
      z.object({
        bookIds: z
          .array(z.uuid('Choose books from the list'))
          .min(1, 'Choose at least one book, or run over all missing')
          .max(MAX_PER_RUN, `Choose at most ${MAX_PER_RUN} books for one run`)
          .optional(),
      }),
    )
    .output(z.object({ runId: z.string(), requested: z.number() }))
    .mutation(async ({ ctx, input }) => {
      const { runId, requested, finished } = await startCoverBackfill(ctx.deps, ctx.user.userId, input);
      // The lookups go on after this answer; failures are recorded on the run itself.
      ctx.background.track(finished);
      return { runId, requested };
    }),
});
