/**
 * Email preferences (decision 0036) are the email lists a member has left: the same
 * `email_suppressions` rows an unsubscribe link writes and the sender reads, so a switch in
 * /account/settings and the link in an email are one mechanism. Only the optional lists can be
 * left; everything else about orders, offers, money and the account is always emailed.
 */
import {
  EMAIL_LISTS,
  type EmailPreferences,
  OPTIONAL_EMAIL_LISTS,
  type OptionalEmailList,
} from '@reshelf/contracts';
import type { Database } from '../../db/index.ts';
import { AppError } from '../../errors.ts';
import { isSuppressed } from '../../platform/mail/suppressions.ts';

async function emailOf(db: Database, userId: string): Promise<string | null> {
  const user = await db.selectFrom('auth.users').select('email').where('id', '=', userId).executeTakeFirst();
  if (!user) throw new AppError('NOT_FOUND', 'We could not find your account.');
  return user.email;
}

export async function getEmailPreferences(db: Database, userId: string): Promise<EmailPreferences> {
  const email = await emailOf(db, userId);
  const entries = await Promise.all(
    OPTIONAL_EMAIL_LISTS.map(
      async (list) => [list, !(await isSuppressed(db, { userId, email }, list))] as const,
    ),
  );
  return { lists: Object.fromEntries(entries) as EmailPreferences['lists'] };
}

/**
 * Leaves a list, or joins it again: joining removes the member's rows for it, whether their
 * settings or a link wrote them (by account or by address). One who had left every list
 * ("all") stays out of the others.
 */
export async function setEmailPreference(
  db: Database,
  userId: string,
  list: OptionalEmailList,
  enabled: boolean,
): Promise<EmailPreferences> {
  await db.transaction().execute(async (trx) => {
    const email = await emailOf(trx, userId);
    if (!enabled) {
      await trx
        .insertInto('email_suppressions')
        .values({ user_id: userId, list, source: 'settings' })
        .onConflict((oc) => oc.columns(['user_id', 'list']).where('user_id', 'is not', null).doNothing())
        .execute();
      return;
    }
    const mine = (lists: string[]) =>
      trx
        .deleteFrom('email_suppressions')
        .where('list', 'in', lists)
        .where((eb) =>
          eb.or([
            eb('user_id', '=', userId),
            ...(email ? [eb.and([eb('user_id', 'is', null), eb('email', '=', email)])] : []),
          ]),
        );
    const leftAll = await mine(['all']).returning('id').execute();
    if (leftAll.length > 0) {
      // Out of every list before: still out of all the others.
      const others = EMAIL_LISTS.filter((other) => other !== 'all' && other !== list);
      await trx
        .insertInto('email_suppressions')
        .values(others.map((other) => ({ user_id: userId, list: other, source: 'settings' })))
        .onConflict((oc) => oc.columns(['user_id', 'list']).where('user_id', 'is not', null).doNothing())
        .execute();
    }
    await mine([list]).execute();
  });
  return getEmailPreferences(db, userId);
}
