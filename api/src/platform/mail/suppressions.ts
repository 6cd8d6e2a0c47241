/**
 * Who left which email list (decision 0028, and 0036 for preferences): one table,
 * `email_suppressions`, written by an unsubscribe link (source `link`), by the member's email
 * settings (`settings`) or by staff, and read by the sender before every non-essential email.
 * A row for the list `all` leaves every list. A row may name the account, or only an address
 * (a link followed for someone without an account).
 */
import type { EmailList } from '@reshelf/contracts';
import type { Database } from '../../db/index.ts';

export interface Recipient {
  userId: string | null;
  email: string | null;
}

/** Whether the recipient left `list` (or every list). */
export async function isSuppressed(db: Database, recipient: Recipient, list: EmailList): Promise<boolean> {
  const found = await db
    .selectFrom('email_suppressions')
    .select('id')
    .where('list', 'in', [list, 'all'])
    .where((eb) =>
      eb.or([
        ...(recipient.userId ? [eb('user_id', '=', recipient.userId)] : []),
        ...(recipient.email ? [eb.and([eb('user_id', 'is', null), eb('email', '=', recipient.email)])] : []),
      ]),
    )
    .executeTakeFirst();
  return Boolean(found);
}

/** The member's address for an email on `list`, or null when they have none or left the list. */
export async function listRecipient(db: Database, userId: string, list: EmailList): Promise<string | null> {
  const user = await db.selectFrom('auth.users').select('email').where('id', '=', userId).executeTakeFirst();
  const email = user?.email ?? null;
  if (!email || (await isSuppressed(db, { userId, email }, list))) return null;
  return email;
}
