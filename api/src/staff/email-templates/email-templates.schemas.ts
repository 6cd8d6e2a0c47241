/** The email templates' shapes, shared by the staff and global-admin routers. */
import { z } from 'zod';
import { EMAIL_TEMPLATE_KEYS } from '../../platform/mail/registry.ts';

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
