/** /admin/accessibility: the accessibility statement (admins edit /pages/accessibility-policy). */
import { z } from 'zod';
import { adminProcedure, router } from '../../trpc.ts';
import { accessibilityStatement, saveAccessibilityStatement } from './accessibility.service.ts';

export const accessibilityRouter = router({
  statement: adminProcedure
    .input(z.void())
    .output(
      z.object({
        title: z.string(),
        description: z.string(),
        bodyMarkdown: z.string(),
        updatedAt: z.string(),
        updatedBy: z.string().nullable(),
      }),
    )
    .query(({ ctx }) => accessibilityStatement(ctx.db)),

  saveStatement: adminProcedure
    .input(
      z.object({
        title: z
          .string()
          .trim()
          .min(1, 'Give the statement a title')
          .max(120, 'Use at most 120 characters for the title'),
        description: z
          .string()
          .trim()
          .min(1, 'Describe the statement in a sentence')
          .max(300, 'Use at most 300 characters for the description'),
        bodyMarkdown: z
          .string()
          .trim()
          .min(1, 'The statement cannot be empty')
          .max(100000, 'Keep the statement under 100,000 characters'),
      }),
    )
    .output(z.object({ ok: z.literal(true) }))
    .mutation(async ({ ctx, input }) => {
      await saveAccessibilityStatement(ctx.db, ctx.user.userId, input);
      return { ok: true as const };
    }),
});
