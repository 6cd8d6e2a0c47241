/** Renders a transactional email: the staff's stored version if there is one, else the default. */
import type { Database } from '../../db/index.ts';
import { type EmailTemplateKey, type RenderedEmail, renderTemplate, templateDefinition } from './registry.ts';

export async function renderEmail(
  db: Database,
  key: EmailTemplateKey,
  variables: Record<string, string>,
): Promise<RenderedEmail> {
  const definition = templateDefinition(key);
  if (!definition) throw new Error(`unknown email template ${key}`);
  const stored = await db
    .selectFrom('email_templates')
    .select(['subject', 'body'])
    .where('key', '=', key)
    .executeTakeFirst();
  const version =
    stored?.subject && stored.body ? { subject: stored.subject, body: stored.body } : definition;
  return renderTemplate(definition, version, variables);
}
