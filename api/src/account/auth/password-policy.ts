/**
 * Password policy: at least 10 characters and not among common passwords (zxcvbn's list of
 * ~49,000 leaked passwords, compared case-insensitively). Each failure says what to fix.
 */
import { dictionary } from '@zxcvbn-ts/language-common';

export const MIN_PASSWORD_LENGTH = 10;
export const MAX_PASSWORD_LENGTH = 128;

let common: Set<string> | undefined;
function commonPasswords(): Set<string> {
  common ??= new Set((dictionary['passwords-common'] as string[]).map((word) => word.toLowerCase()));
  return common;
}

/** Problems with a proposed password, in words a person can act on; empty when it is fine. */
export function passwordProblems(
  password: string,
  context: { email?: string; displayName?: string } = {},
): string[] {
  const problems: string[] = [];
  if (password.length < MIN_PASSWORD_LENGTH) {
    problems.push(`Use at least ${MIN_PASSWORD_LENGTH} characters (this one has ${password.length}).`);
  }
  if (password.length > MAX_PASSWORD_LENGTH) {
    problems.push(`Use at most ${MAX_PASSWORD_LENGTH} characters.`);
  }
  const lowered = password.toLowerCase();
  if (commonPasswords().has(lowered)) {
    problems.push(
      'This is one of the most common passwords, so it is easy to guess. Choose something less predictable.',
    );
  } else if (/^(.)\1+$/.test(password)) {
    problems.push('Avoid repeating a single character. Choose something less predictable.');
  }
  const local = context.email?.split('@')[0]?.toLowerCase();
  if (local && local.length >= 4 && lowered.includes(local)) {
    problems.push('Don’t use your email address in your password.');
  }
  return problems;
}
