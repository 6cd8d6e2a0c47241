/** The transactional emails the product sends, for staff pages that list them. */
import { EMAIL_TEMPLATES } from './registry.ts';

export const EMAIL_TEMPLATE_CATALOGUE = EMAIL_TEMPLATES.map(({ key, name, subject, sentWhen }) => ({
  key,
  name,
  subject,
  sentWhen,
}));
