/** The job log (/admin/logs): runs of the scheduled jobs, filterable. Staff read it. */
import { z } from 'zod';
import { router, staffProcedure } from '../../trpc.ts';
import { jobNames, searchJobRuns } from './job-log.service.ts';

export const jobLogRouter = router({
  jobs: staffProcedure
    .input(z.void())
    .output(z.array(z.string()))
    .query(() => jobNames()),

  runs: staffProcedure
    .input(
      z.object({
        job: z
          .string()
          .refine((name) => jobNames().includes(name), 'Choose a job from the list')
          .optional(),
        errorsOnly: z.boolean().default(false),
        before: z
          .string()
          .regex(/^\d{1,19}$/, 'Use the link to older runs')
          .optional(),
        limit: z.number().int().min(1).max(100).default(50),
      }),
    )
    .output(
      z.object({
        rows: z.array(
          z.object({
            id: z.string(),
            job: z.string(),
            startedAt: z.string(),
            finishedAt: z.string().nullable(),
            moved: z.number(),
            error: z.string().nullable(),
          }),
        ),
        nextBefore: z.string().nullable(),
      }),
    )
    .query(({ ctx, input }) => searchJobRuns(ctx.db, input)),
});
