/** /admin/logs, "Requests": the structured request log, for staff. */
import { z } from 'zod';
import { STATUS_CLASSES, searchRequestLog } from '../../platform/request-log/request-log.service.ts';
import { router, staffProcedure } from '../../trpc.ts';

export const requestLogRouter = router({
  search: staffProcedure
    .input(
      z.object({
        status: z.enum(STATUS_CLASSES, 'Choose 2xx, 3xx, 4xx or 5xx').optional(),
        method: z
          .enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD'], 'Choose a method')
          .optional(),
        path: z.string().trim().min(1).max(200, 'Use at most 200 characters for the path').optional(),
        requestId: z.string().trim().min(1).max(200, 'A request id has at most 200 characters').optional(),
        user: z.string().trim().min(1).max(320, 'Use at most 320 characters').optional(),
        slowerThanMs: z
          .number()
          .int('Give a whole number of milliseconds')
          .min(0)
          .max(600_000, 'At most 600,000 ms')
          .optional(),
        before: z
          .string()
          .regex(/^\d{1,19}$/, 'Unknown page')
          .optional(),
        limit: z.number().int().min(1).max(100).default(50),
      }),
    )
    .output(
      z.object({
        rows: z.array(
          z.object({
            id: z.string(),
            at: z.string(),
            requestId: z.string(),
            method: z.string(),
            path: z.string(),
            status: z.number().int(),
            durationMs: z.number(),
            userEmail: z.string().nullable(),
          }),
        ),
        nextBefore: z.string().nullable(),
      }),
    )
    .query(({ ctx, input }) => searchRequestLog(ctx.db, input)),
});
