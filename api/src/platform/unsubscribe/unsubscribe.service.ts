/**
 * Unsubscribe links: /unsubscribe?u=<user id or email>&l=<list>&s=<signature>. The signature
 * is an HMAC under the 'unsubscribe' key, so the link works without signing in and cannot be
 * altered to unsubscribe someone else. Following it records a suppression.
 */
import { EMAIL_LIST_LABELS, EMAIL_LISTS, type EmailList, type UnsubscribeInput } from '@reshelf/contracts';
import { z } from 'zod';
import type { Database } from '../../db/index.ts';
import { AppError } from '../../errors.ts';
import type { Secrets } from '../../secrets.ts';

const INVALID_LINK =
  'This unsubscribe link isn’t valid: it may have been changed or cut short. Copy the whole link from the email and try again, or write to us with “Contact us” at the bottom of the page.';

function payload(subject: string, list: string): string {
  return `${subject}\n${list}`;
}

/** The path and query of a signed unsubscribe link (prefix it with the public origin). */
export function unsubscribePath(secrets: Secrets, subject: string, list: EmailList): string {
  const params = new URLSearchParams({
    u: subject,
    l: list,
    s: secrets.sign('unsubscribe', payload(subject, list)),
  });
  return `/unsubscribe?${params.toString()}`;
}

interface Subject {
  userId: string | null;
  email: string | null;
}

function verify(secrets: Secrets, input: UnsubscribeInput): { subject: Subject; list: EmailList } {
  if (!secrets.verify('unsubscribe', payload(input.u, input.l), input.s)) {
    throw new AppError('BAD_INPUT', INVALID_LINK);
  }
  if (!(EMAIL_LISTS as readonly string[]).includes(input.l)) throw new AppError('BAD_INPUT', INVALID_LINK);
  const list = input.l as EmailList;
  if (z.uuid().safeParse(input.u).success) return { subject: { userId: input.u, email: null }, list };
  if (z.email().safeParse(input.u).success)
    return { subject: { userId: null, email: input.u.toLowerCase() }, list };
  throw new AppError('BAD_INPUT', INVALID_LINK);
}

function mask(email: string): string {
  const [name = '', domain = ''] = email.split('@');
  return `${name.slice(0, 1)}${'•'.repeat(Math.max(name.length - 1, 2))}@${domain}`;
}

export interface UnsubscribeStatus {
  list: EmailList;
  listLabel: string;
  /** Who the link is for, masked ("s•••@example.com"). */
  recipient: string;
  unsubscribed: boolean;
}

async function describe(db: Database, subject: Subject, list: EmailList): Promise<UnsubscribeStatus> {
  let email = subject.email;
  if (subject.userId) {
    const user = await db
      .selectFrom('auth.users')
      .select('email')
      .where('id', '=', subject.userId)
      .executeTakeFirst();
    if (!user)
      throw new AppError('NOT_FOUND', 'This unsubscribe link is for an account that no longer exists.');
    email = user.email;
  }
  let query = db.selectFrom('email_suppressions').select('id').where('list', 'in', [list, 'all']);
  query = subject.userId
    ? query.where('user_id', '=', subject.userId)
    : query.where('user_id', 'is', null).where('email', '=', subject.email);
  const existing = await query.executeTakeFirst();
  return {
    list,
    listLabel: EMAIL_LIST_LABELS[list],
    recipient: email ? mask(email) : 'your account',
    unsubscribed: Boolean(existing),
  };
}

/** What the link will do (and whether it already has), without changing anything. */
export async function checkUnsubscribe(
  db: Database,
  secrets: Secrets,
  input: UnsubscribeInput,
): Promise<UnsubscribeStatus> {
  const { subject, list } = verify(secrets, input);
  return describe(db, subject, list);
}

/** Records the suppression; following the same link again changes nothing. */
export async function confirmUnsubscribe(
  db: Database,
  secrets: Secrets,
  input: UnsubscribeInput,
): Promise<UnsubscribeStatus> {
  const { subject, list } = verify(secrets, input);
  const status = await describe(db, subject, list);
  if (!status.unsubscribed) {
    await db
      .insertInto('email_suppressions')
      .values({ user_id: subject.userId, email: subject.userId ? null : subject.email, list, source: 'link' })
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
  return { ...status, unsubscribed: true };
}
