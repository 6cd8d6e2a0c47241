/** Transactional emails, written for people. Each returns a subject, plain text and HTML. */

export interface Rendered {
  subject: string;
  text: string;
  html: string;
}

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

export function layout(paragraphs: string[], action?: { label: string; url: string }): string {
  const body = paragraphs.map((p) => `<p style="margin:0 0 16px">${escapeHtml(p)}</p>`).join('');
  const button = action
    ? `<p style="margin:24px 0"><a href="${escapeHtml(action.url)}" style="background:#8c2f23;color:#fff;padding:12px 20px;border-radius:8px;text-decoration:none;font-weight:600">${escapeHtml(action.label)}</a></p><p style="margin:0 0 16px;color:#6b6258;font-size:13px">Or paste this link into your browser: ${escapeHtml(action.url)}</p>`
    : '';
  return `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#211c17;background:#fbf7f0;padding:24px"><div style="max-width:560px;margin:auto;background:#fff;border-radius:12px;padding:32px"><p style="font-weight:700;font-size:20px;margin:0 0 24px">Reshelf</p>${body}${button}<p style="color:#6b6258;font-size:13px;margin-top:32px">Reshelf — pre-loved books, passed on.</p></div></body></html>`;
}

export function confirmSignupEmail(input: { displayName: string; url: string }): Rendered {
  const lines = [
    `Hello ${input.displayName},`,
    'Thanks for joining Reshelf. Please confirm your email address to finish setting up your account.',
    'This link works once and expires in 24 hours. If you did not sign up, you can ignore this email.',
  ];
  return {
    subject: 'Confirm your email address',
    text: `${lines[0]}\n\n${lines[1]}\n\nConfirm your email: ${input.url}\n\n${lines[2]}\n`,
    html: layout(lines, { label: 'Confirm my email', url: input.url }),
  };
}

export function alreadyRegisteredEmail(input: { loginUrl: string; resetUrl: string }): Rendered {
  const lines = [
    'Someone tried to create a Reshelf account with this email address, but you already have one.',
    `If it was you, sign in at ${input.loginUrl}, or reset your password at ${input.resetUrl} if you have forgotten it.`,
    'If it was not you, you can ignore this email: nothing has changed.',
  ];
  return {
    subject: 'You already have a Reshelf account',
    text: `${lines.join('\n\n')}\n`,
    html: layout(lines, { label: 'Sign in', url: input.loginUrl }),
  };
}

export function resetPasswordEmail(input: { url: string }): Rendered {
  const lines = [
    'We received a request to reset the password for your Reshelf account.',
    'The link works once and expires in 1 hour. Resetting your password signs you out everywhere.',
    'If you did not ask for this, you can ignore this email: your password stays the same.',
  ];
  return {
    subject: 'Reset your Reshelf password',
    text: `${lines[0]}\n\nChoose a new password: ${input.url}\n\n${lines[1]}\n\n${lines[2]}\n`,
    html: layout(lines, { label: 'Choose a new password', url: input.url }),
  };
}
