/** /admin/audit: the audit log, searchable and filtered by actor, action and date. */
import { z } from 'zod';
import { router, staffProcedure } from '../../trpc.ts';
import { auditActions, searchAudit } from './audit.service.ts';

export const daySchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Use a date like 2026-11-21')
  .refine((value) => {
    const date = new Date(`${value}T00:00:00Z`);
    return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
  }, 'That date does not exist');

export const auditRowSchema = z.object({
  id: z.string(),
  actorId: z.string().nullable(),
  actorEmail: z.string().nullable(),
  action: z.string(),
  targetType: z.string().nullable(),
  targetId: z.string().nullable(),
  details: z.record(z.string(), z.unknown()),
  requestId: z.string().nullable(),
  createdAt: z.string(),
});

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
