/** /admin/emails: the transactional emails' wording (staff read; admins change and test). */
import { z } from 'zod';
import { adminProcedure, router, staffProcedure } from '../../trpc.ts';
import { EMAIL_TEMPLATE_KEYS } from '../mail/registry.ts';
import {
  listEmailTemplates,
  previewEmailTemplate,
  publishEmailTemplate,
  resetEmailTemplate,
  sendTestEmail,
} from './email-templates.service.ts';

export const templateKeySchema = z.enum(EMAIL_TEMPLATE_KEYS, 'Choose an email template from the list');

export const templateEditSchema = z.object({
  key: templateKeySchema,
  subject: z
    .string()
    .trim()
    .min(1, 'Write a subject')
    .max(200, 'Keep the subject to 200 characters or fewer'),
  body: z
    .string()
    .trim()
    .min(1, 'Write the email')
    .max(10000, 'Keep the email to 10,000 characters or fewer'),
});

export const emailTemplateViewSchema = z.object({
  key: z.string(),
  name: z.string(),
  sentWhen: z.string(),
  variables: z.array(
    z.object({ name: z.string(), description: z.string(), sample: z.string(), required: z.boolean() }),
  ),
  subject: z.string(),
  body: z.string(),
  defaultSubject: z.string(),
  defaultBody: z.string(),
  customised: z.boolean(),
  updatedAt: z.string().nullable(),
  updatedBy: z.string().nullable(),
  draft: z
    .object({
      subject: z.string(),
      body: z.string(),
      updatedAt: z.string().nullable(),
      updatedBy: z.string().nullable(),
    })
    .nullable(),
});

export const renderedSchema = z.object({ subject: z.string(), text: z.string(), html: z.string() });
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
      sendTestEmail(
        ctx.deps,
        { id: ctx.user.userId, email: ctx.user.email },
        input,
      ),
    ),
});
