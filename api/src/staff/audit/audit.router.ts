/** /admin/audit: the audit log, searchable and filtered by actor, action and date. */
import { z } from 'zod';
import { auditRowSchema, daySchema } from '../../platform/audit/audit.schemas.ts';
import { auditActions, searchAudit } from '../../platform/audit/audit.service.ts';
import { router, staffProcedure } from '../../trpc.ts';

export const auditRouter = router({
  search: staffProcedure
    .input(
      z
        .object({
          q: z.string().trim().max(100, 'Search for at most 100 characters').optional(),
          actor: z.string().trim().max(320, 'Use at most 320 characters').optional(),
          action: z
            .string()
            .trim()
            .max(80, 'Use at most 80 characters')
            .regex(/^[a-zA-Z0-9_.]*$/, 'Choose an action from the list')
            .optional(),
          from: daySchema.optional(),
          to: daySchema.optional(),
          before: z.string().regex(/^\d+$/, 'Unknown page').optional(),
          limit: z.number().int().min(1).max(200).default(50),
        })
        .refine((input) => !input.from || !input.to || input.from <= input.to, {
          message: 'The start date must be on or before the end date',
          path: ['from'],
        }),
    )
    .output(z.object({ rows: z.array(auditRowSchema), nextBefore: z.string().nullable() }))
    .query(({ ctx, input }) =>
      searchAudit(ctx.db, {
        ...input,
        q: input.q || undefined,
        actor: input.actor || undefined,
        action: input.action || undefined,
      }),
    ),

  actions: staffProcedure
    .input(z.void())
    .output(z.array(z.string()))
    .query(({ ctx }) => auditActions(ctx.db)),
});
