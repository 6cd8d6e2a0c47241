/** The transactional emails the product sends, for staff pages that list them. */
import { alreadyRegisteredEmail, confirmSignupEmail, resetPasswordEmail } from './templates.ts';

const example = 'https://reshelf.example/…';

export const EMAIL_TEMPLATE_CATALOGUE = [
  {
    key: 'confirm-signup',
    name: 'Confirm your email',
    subject: confirmSignupEmail({ displayName: 'Reader', url: example }).subject,
    sentWhen: 'Someone signs up, or asks for the confirmation link again',
  },
  {
    key: 'already-registered',
    name: 'Already registered',
    subject: alreadyRegisteredEmail({ loginUrl: example, resetUrl: example }).subject,
    sentWhen: 'Someone signs up with an address that already has an account',
  },
  {
    key: 'reset-password',
    name: 'Reset your password',
    subject: resetPasswordEmail({ url: example }).subject,
    sentWhen: 'Someone asks to reset a forgotten password',
  },
] as const;
