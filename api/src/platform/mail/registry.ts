/**
 * The transactional emails staff can edit (decision 0016): each template's default subject
 * and body, written here in code, with the {{variables}} it may use. A stored version in
 * email_templates replaces the default while it exists (see render.ts).
 *
 * Bodies are plain text: paragraphs separated by a blank line. The HTML version is the same
 * paragraphs in the Reshelf layout, with the template's button.
 */
import type { EmailList } from '@reshelf/contracts';

export interface TemplateVariable {
  description: string;
  /** Shown in previews and test sends. */
  sample: string;
  /** The body must use it (e.g. the link that does the work). */
  required?: boolean;
}

export interface TemplateDefinition {
  key: string;
  name: string;
  sentWhen: string;
  variables: Record<string, TemplateVariable>;
  subject: string;
  body: string;
  /** The button in the HTML version: its label and the variable holding its link. */
  action?: { label: string; urlVariable: string };
}

export interface RenderedEmail {
  subject: string;
  text: string;
  html: string;
}

const SAMPLE_LINK = 'https://reshelf.example/…';

export const EMAIL_TEMPLATES = [
  {
    key: 'confirm-signup',
    name: 'Confirm your email',
    sentWhen: 'Someone signs up, or asks for the confirmation link again',
    variables: {
      displayName: { description: 'The name they signed up with', sample: 'Jo' },
      url: {
        description: 'The confirmation link (works once, for 24 hours)',
        sample: SAMPLE_LINK,
        required: true,
      },
    },
    subject: 'Confirm your email address',
    body: [
      'Hello {{displayName}},',
      'Thanks for joining Reshelf. Please confirm your email address to finish setting up your account.',
      'Confirm your email: {{url}}',
      'This link works once and expires in 24 hours. If you did not sign up, you can ignore this email.',
    ].join('\n\n'),
    action: { label: 'Confirm my email', urlVariable: 'url' },
  },
  {
    key: 'already-registered',
    name: 'Already registered',
    sentWhen: 'Someone signs up with an address that already has an account',
    variables: {
      loginUrl: { description: 'The sign-in page', sample: SAMPLE_LINK, required: true },
      resetUrl: { description: 'The forgotten-password page', sample: SAMPLE_LINK },
    },
    subject: 'You already have a Reshelf account',
    body: [
      'Someone tried to create a Reshelf account with this email address, but you already have one.',
      'If it was you, sign in at {{loginUrl}}, or reset your password at {{resetUrl}} if you have forgotten it.',
      'If it was not you, you can ignore this email: nothing has changed.',
    ].join('\n\n'),
    action: { label: 'Sign in', urlVariable: 'loginUrl' },
  },
  {
    key: 'reset-password',
    name: 'Reset your password',
    sentWhen: 'Someone asks to reset a forgotten password',
    variables: {
      url: { description: 'The reset link (works once, for 1 hour)', sample: SAMPLE_LINK, required: true },
    },
    subject: 'Reset your Reshelf password',
    body: [
      'We received a request to reset the password for your Reshelf account.',
      'Choose a new password: {{url}}',
      'The link works once and expires in 1 hour. Resetting your password signs you out everywhere.',
      'If you did not ask for this, you can ignore this email: your password stays the same.',
    ].join('\n\n'),
    action: { label: 'Choose a new password', urlVariable: 'url' },
  },
  {
    key: 'account-closed',
    name: 'Your account is closed',
    sentWhen:
      'A member closes their account in Account settings (sent to the address the account had, before it is anonymised)',
    variables: {
      displayName: { description: 'The name the account had', sample: 'Jo' },
      contactUrl: { description: 'The contact page', sample: SAMPLE_LINK, required: true },
    },
    subject: 'Your Reshelf account is closed',
    body: [
      'Hello {{displayName}},',
      'Your Reshelf account is closed, as you asked. Nobody can sign in to it any more, and this email address is free to use for a new account.',
      'Your books on sale have been withdrawn and your drafts deleted. Your profile, wishlist, follows, saved searches, saved addresses, email choices, API tokens and sessions have been removed. Reviews and messages you wrote stay for the people you traded with, shown as written by a “Former member”.',
      'We keep the records of your orders, payments, refunds and payouts, with the delivery address of each order, for six years, because UK law requires it. Everything else is deleted or anonymised within 30 days.',
      'If you did not close your account, contact us at once: {{contactUrl}}',
    ].join('\n\n'),
    action: { label: 'Contact us', urlVariable: 'contactUrl' },
  },
  {
    key: 'saved-search.alert',
    name: 'Saved search: new books',
    sentWhen:
      'New listings match a member’s saved search whose alerts are “at once” (the job runner, every 30 s)',
    variables: {
      searchName: { description: 'The saved search’s name', sample: '“tolkien” · hardback' },
      count: { description: 'How many new books (a number)', sample: '2' },
      newBooks: {
        description: 'How many new books, in words: “1 new book”, “2 new books”',
        sample: '2 new books',
      },
      books: {
        description: 'The new books, one a line: title, author and price',
        sample: 'The Hobbit, J. R. R. Tolkien: £6.00\nThe Silmarillion, J. R. R. Tolkien: £4.50',
      },
      url: { description: 'The search, newest first', sample: SAMPLE_LINK, required: true },
      manageUrl: { description: 'Where the member manages their saved searches', sample: SAMPLE_LINK },
    },
    subject: 'New for your saved search {{searchName}}',
    body: [
      'New on Reshelf for your saved search {{searchName}}: {{newBooks}}.',
      '{{books}}',
      'See them all, newest first: {{url}}',
      'Change how often we tell you, or stop these alerts, at {{manageUrl}}',
    ].join('\n\n'),
    action: { label: 'See the books', urlVariable: 'url' },
  },
  {
    key: 'saved-search.digest',
    name: 'Saved searches: daily digest',
    sentWhen:
      'Once a day, when new listings matched a member’s saved searches whose alerts are “daily digest”',
    variables: {
      count: { description: 'How many new books in all (a number)', sample: '3' },
      newBooks: {
        description: 'How many new books in all, in words: “1 new book”, “3 new books”',
        sample: '3 new books',
      },
      searches: {
        description: 'Each search with its new books',
        sample:
          '“tolkien”: The Hobbit (£6.00), The Silmarillion (£4.50)\n“le guin”: A Wizard of Earthsea (£3.00)',
      },
      url: {
        description: 'Where the member manages their saved searches',
        sample: SAMPLE_LINK,
        required: true,
      },
    },
    subject: 'Your saved searches: {{newBooks}} today',
    body: [
      'Here is what was listed on Reshelf in the last day for your saved searches:',
      '{{searches}}',
      'See each search, change how often we tell you, or stop these alerts: {{url}}',
    ].join('\n\n'),
    action: { label: 'Your saved searches', urlVariable: 'url' },
  },
  {
    key: 'wants.alert',
    name: 'Wants: a copy is on sale',
    sentWhen:
      'A copy is published that meets a member’s want whose alerts are “at once” (right after it is published; the job runner is the backstop)',
    variables: {
      headline: {
        description: 'What is on sale: “Dracula is on sale”, or “2 books you want are on sale”',
        sample: 'Dracula is on sale',
      },
      books: {
        description: 'The copies, one a line: title, author, what the want asked and the all-in price',
        sample:
          'Dracula, Bram Stoker (Signed · First edition): £48.20 including buyer protection, + postage from £2.29',
      },
      newCopies: {
        description: 'How many copies, in words: “1 copy”, “2 copies”',
        sample: '1 copy',
      },
      url: {
        description: 'The copy (or the member’s wants, for several)',
        sample: SAMPLE_LINK,
        required: true,
      },
      manageUrl: { description: 'Where the member manages their wants', sample: SAMPLE_LINK },
    },
    subject: 'Wanted: {{headline}}',
    body: [
      'A book you want is on sale on Reshelf: {{newCopies}}.',
      '{{books}}',
      'See it before someone else does: {{url}}',
      'Change how often we tell you, or remove the want, at {{manageUrl}}',
    ].join('\n\n'),
    action: { label: 'See the book', urlVariable: 'url' },
  },
  {
    key: 'wants.digest',
    name: 'Wants: daily digest',
    sentWhen: 'Once a day, when copies met a member’s wants whose alerts are “once a day”',
    variables: {
      newCopies: {
        description: 'How many copies in all, in words: “1 copy”, “3 copies”',
        sample: '3 copies',
      },
      books: {
        description: 'The copies, one a line: title, author and the all-in price',
        sample:
          'Dracula, Bram Stoker: £6.20 including buyer protection, + postage from £2.29\nEmma, Jane Austen: £4.95 including buyer protection, + postage from £2.29',
      },
      url: {
        description: 'Where the member sees and manages their wants',
        sample: SAMPLE_LINK,
        required: true,
      },
    },
    subject: 'Books you want: {{newCopies}} on sale today',
    body: [
      'These copies of books you want went on sale on Reshelf in the last day:',
      '{{books}}',
      'See your wants, change how often we tell you, or stop these emails: {{url}}',
    ].join('\n\n'),
    action: { label: 'Your wants', urlVariable: 'url' },
  },
] as const satisfies readonly TemplateDefinition[];

export type EmailTemplateKey = (typeof EMAIL_TEMPLATES)[number]['key'];

/** The lists a person can leave one by one ('all' leaves every one of them). */
export type UnsubscribableList = Exclude<EmailList, 'all'>;

export type EmailClass =
  | { essential: true; why: 'account' | 'security' | 'orders' | 'payments' | 'offers' | 'staff' }
  | { essential: false; list: UnsubscribableList };

/**
 * Every email the product sends, essential or not (decision 0028), by template key, or by the
 * start of the key for a family (`order.placed`, `order.cancelled`…). Essential emails go out
 * whatever the person's email choices: their account and its security, what they bought and
 * sold, payments and refunds, offers they take part in, what staff must tell them. A
 * non-essential email belongs to a list: it carries List-Unsubscribe with a one-click address
 * (RFC 8058) and an unsubscribe link, and is never sent to someone who left its list (or all
 * lists). A member leaves a list with an email's link or from their email settings (the same
 * rows: platform/mail/suppressions.ts). Wishlist price drops and the unread-message digest are
 * the lists sent today (decision 0036); a newsletter or recommendations would be sent under
 * their own list's family.
 */
export const EMAIL_CLASSES: readonly { key: string; family?: true; class: EmailClass }[] = [
  { key: 'confirm-signup', class: { essential: true, why: 'account' } },
  { key: 'already-registered', class: { essential: true, why: 'security' } },
  { key: 'reset-password', class: { essential: true, why: 'security' } },
  { key: 'account-closed', class: { essential: true, why: 'account' } },
  { key: 'order.', family: true, class: { essential: true, why: 'orders' } },
  { key: 'offer.', family: true, class: { essential: true, why: 'offers' } },
  // Money out: why earnings wait, payouts sent and failed, the payout account's state.
  { key: 'payout.', family: true, class: { essential: true, why: 'payments' } },
  { key: 'charity-', family: true, class: { essential: true, why: 'account' } },
  { key: 'listing_', family: true, class: { essential: true, why: 'staff' } },
  { key: 'offer_message_removed', class: { essential: true, why: 'staff' } },
  // Reports and appeals: a reporter told the outcome, a member told why their content was removed and what their appeal decided.
  { key: 'safety.', family: true, class: { essential: true, why: 'staff' } },
  // HMRC platform reporting: the details the law needs before a seller's payouts go on (decision 0047).
  { key: 'reporting.', family: true, class: { essential: true, why: 'payments' } },
  // A test of a template that staff send themselves from the template editor.
  { key: 'test.', family: true, class: { essential: true, why: 'staff' } },
  { key: 'newsletter.', family: true, class: { essential: false, list: 'newsletter' } },
  { key: 'recommendations.', family: true, class: { essential: false, list: 'recommendations' } },
  { key: 'wishlist_alerts.', family: true, class: { essential: false, list: 'wishlist_alerts' } },
  // Unread messages, in one email after a while (decision 0036).
  { key: 'messages.', family: true, class: { essential: false, list: 'messages' } },
  // New listings for saved searches, at once or in a daily digest (decision 0044).
  { key: 'saved-search.', family: true, class: { essential: false, list: 'saved_searches' } },
  // Copies that meet a member's wants, at once or in a daily digest (decision 0088).
  { key: 'wants.', family: true, class: { essential: false, list: 'wants' } },
];

/** Whether an email is essential, or the list it belongs to; undefined for an unknown template. */
export function emailClass(template: string): EmailClass | undefined {
  return EMAIL_CLASSES.find((entry) =>
    entry.family
      ? template.startsWith(entry.key) && template.length > entry.key.length
      : template === entry.key,
  )?.class;
}

export const EMAIL_TEMPLATE_KEYS = EMAIL_TEMPLATES.map((template) => template.key) as [
  EmailTemplateKey,
  ...EmailTemplateKey[],
];

export function templateDefinition(key: string): TemplateDefinition | undefined {
  return (EMAIL_TEMPLATES as readonly TemplateDefinition[]).find((template) => template.key === key);
}

const VARIABLE = /\{\{\s*([A-Za-z][A-Za-z0-9_]*)\s*\}\}/g;

/** Problems with an edited subject and body, as sentences; empty when it can be saved. */
export function templateProblems(definition: TemplateDefinition, subject: string, body: string): string[] {
  const problems: string[] = [];
  const known = Object.keys(definition.variables);
  const list = known.map((name) => `{{${name}}}`).join(', ');
  for (const [part, text] of [
    ['subject', subject],
    ['body', body],
  ] as const) {
    for (const match of text.matchAll(VARIABLE)) {
      if (!known.includes(match[1]!)) {
        problems.push(`The ${part} uses {{${match[1]}}}, which this email does not have. Use ${list}.`);
      }
    }
    const stray = text.replace(VARIABLE, '');
    if (stray.includes('{{') || stray.includes('}}')) {
      problems.push(`The ${part} has an unfinished variable: write each one as {{name}}.`);
    }
  }
  for (const [name, variable] of Object.entries(definition.variables)) {
    if (variable.required && !new RegExp(`\\{\\{\\s*${name}\\s*\\}\\}`).test(body)) {
      problems.push(`The body must include {{${name}}} (${variable.description.toLowerCase()}).`);
    }
  }
  if (/\n/.test(subject)) problems.push('The subject must be one line.');
  return [...new Set(problems)];
}

export function fillVariables(text: string, variables: Record<string, string>): string {
  return text.replace(VARIABLE, (whole, name: string) => variables[name] ?? whole);
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/** The Reshelf email layout: paragraphs and an optional button. Everything is escaped. */
export function layout(paragraphs: string[], action?: { label: string; url: string }): string {
  const body = paragraphs
    .map((p) => `<p style="margin:0 0 16px">${escapeHtml(p).replace(/\n/g, '<br>')}</p>`)
    .join('');
  const button = action
    ? `<p style="margin:24px 0"><a href="${escapeHtml(action.url)}" style="background:#8c2f23;color:#fff;padding:12px 20px;border-radius:8px;text-decoration:none;font-weight:600">${escapeHtml(action.label)}</a></p><p style="margin:0 0 16px;color:#6b6258;font-size:13px">Or paste this link into your browser: ${escapeHtml(action.url)}</p>`
    : '';
  return `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#211c17;background:#fbf7f0;padding:24px"><div style="max-width:560px;margin:auto;background:#fff;border-radius:12px;padding:32px"><p style="font-weight:700;font-size:20px;margin:0 0 24px">Reshelf</p>${body}${button}<p style="color:#6b6258;font-size:13px;margin-top:32px">Reshelf — pre-loved books, passed on.</p></div></body></html>`;
}

/** A subject and body (the default or a stored one) filled in with the variables. */
export function renderTemplate(
  definition: TemplateDefinition,
  version: { subject: string; body: string },
  variables: Record<string, string>,
): RenderedEmail {
  const subject = fillVariables(version.subject, variables).replace(/\s+/g, ' ').trim();
  const text = fillVariables(version.body, variables).replace(/\r\n/g, '\n').trim();
  const paragraphs = text
    .split(/\n{2,}/)
    .map((p) => p.trim())
    .filter(Boolean);
  const url = definition.action ? variables[definition.action.urlVariable] : undefined;
  return {
    subject,
    text: `${text}\n`,
    html: layout(paragraphs, definition.action && url ? { label: definition.action.label, url } : undefined),
  };
}

/**
 * Sample values of a template's variables, for previews and test sends. Given the site's
 * origin (a test send, which is a real email), the sample links lead there.
 */
export function sampleVariables(definition: TemplateDefinition, origin?: string): Record<string, string> {
  return Object.fromEntries(
    Object.entries(definition.variables).map(([name, v]) => [
      name,
      origin && v.sample === SAMPLE_LINK ? `${origin}/…` : v.sample,
    ]),
  );
}
