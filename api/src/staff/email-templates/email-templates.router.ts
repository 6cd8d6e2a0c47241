/** /admin/emails: the transactional emails' wording (staff read; admins change and test). */
import { z } from 'zod';
import { adminProcedure, router, staffProcedure } from '../../trpc.ts';
import {
  emailTemplateViewSchema,
  renderedSchema,
  templateEditSchema,
  templateKeySchema,
} from './email-templates.schemas.ts';
import {
  listEmailTemplates,
  previewEmailTemplate,
  publishEmailTemplate,
  resetEmailTemplate,
  sendTestEmail,
} from './email-templates.service.ts';

const done = z.object({ ok: z.literal(true) });

export const emailTemplatesRouter = router({
  list: staffProcedure
    .input(z.void())
    .output(z.array(emailTemplateViewSchema))
    .query(({ ctx }) => listEmailTemplates(ctx.db)),

  /** The email as it would be sent, with sample values; problems come back as the error. */
  preview: staffProcedure
    .input(templateEditSchema)
    .output(renderedSchema)
    .query(({ input }) => previewEmailTemplate(input)),

  /** Saves and publishes: sent from now on. */
  update: adminProcedure
    .input(templateEditSchema)
    .output(done)
    .mutation(async ({ ctx, input }) => {
      await publishEmailTemplate(ctx.db, ctx.user.userId, input);
      return { ok: true as const };
    }),

  /** Back to the default wording. */
  reset: adminProcedure
    .input(z.object({ key: templateKeySchema }))
    .output(done)
    .mutation(async ({ ctx, input }) => {
      await resetEmailTemplate(ctx.db, ctx.user.userId, input.key);
      return { ok: true as const };
    }),

  /** A test to the staff member's own address (the dev mailbox in development). */
  sendTest: adminProcedure
    .input(z.union([templateEditSchema, z.object({ key: templateKeySchema }).strict()]))
    .output(z.object({ to: z.string(), subject: z.string() }))
    .mutation(({ ctx, input }) =>
      sendTestEmail(ctx.deps, { id: ctx.user.userId, email: ctx.user.email }, input),
    ),
});
