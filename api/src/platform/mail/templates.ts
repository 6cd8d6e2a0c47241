/**
 * Transactional emails with their code defaults (registry.ts), for callers that have no
 * database at hand. Sending code uses renderEmail (render.ts), which prefers the staff's
 * stored version of a template.
 */
import { EMAIL_TEMPLATES, type RenderedEmail, renderTemplate, type TemplateDefinition } from './registry.ts';

export { layout } from './registry.ts';

function byDefault(key: string, variables: Record<string, string>): RenderedEmail {
  const definition = EMAIL_TEMPLATES.find((template) => template.key === key) as TemplateDefinition;
  return renderTemplate(definition, definition, variables);
}

export function confirmSignupEmail(input: { displayName: string; url: string }): RenderedEmail {
  return byDefault('confirm-signup', input);
}

export function alreadyRegisteredEmail(input: { loginUrl: string; resetUrl: string }): RenderedEmail {
  return byDefault('already-registered', input);
}

export function resetPasswordEmail(input: { url: string }): RenderedEmail {
  return byDefault('reset-password', input);
}

/** A rendered email (subject, plain text and HTML), for the emails still written in code. */
export type Rendered = RenderedEmail;
