/**
 * The emails of notifications that are not sent by the event's own code (decision 0036), from
 * the job `notifications.email` (every 30 s):
 *
 * - **Wishlist price drops.** The database trigger that writes them cannot render an email, so
 *   the job sends one per notification not yet emailed (a further drop on the same book before
 *   it was read updates the notification and is emailed again).
 * - **Unread messages, as one email.** Not one email per message: once a member's oldest unread
 *   message notification not yet emailed is MESSAGE_DIGEST_DELAY_MINUTES old, every such one of
 *   theirs goes into one email, and all are marked emailed. A message read meanwhile (its
 *   thread opened: `markEntityNotificationsRead`) is left out, so a conversation carried on
 *   live sends nothing.
 *
 * Each batch is claimed (`FOR UPDATE SKIP LOCKED`), queued with `mailer.send(…, { trx })` and
 * marked `emailed_at` in one transaction: nothing is emailed twice, nothing lost. A member who
 * left the list (settings or a link) is skipped here, and the sender would suppress it anyway.
 */
import {
  formatPence,
  MESSAGE_DIGEST_DELAY_MINUTES,
  type ParcelSize,
  plural,
  SHOWN_PRICE_WORDS,
} from '@reshelf/contracts';
import { sql } from 'kysely';
import { liveShownPricer } from '../../commerce/index.ts';
import type { Database } from '../../db/index.ts';
import type { Mailer } from '../../platform/mail/mailer.ts';
import { isSuppressed } from '../../platform/mail/suppressions.ts';
import { layout } from '../../platform/mail/templates.ts';

export interface NotificationMailDeps {
  db: Database;
  mailer: Mailer;
  /** The site's origin, for the links. */
  origin: string;
}

/** At most this many messages are quoted in one digest (the rest are counted). */
export const DIGEST_QUOTED = 5;

function escapeLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

async function emailPriceDrops(deps: NotificationMailDeps, now: Date): Promise<number> {
  return deps.db.transaction().execute(async (trx) => {
    const { rows } = await sql<{
      id: string;
      user_id: string;
      email: string | null;
      data: { oldPriceMinor?: number; newPriceMinor?: number };
      title: string | null;
      slug: string | null;
      status: string | null;
      parcel_size: ParcelSize | null;
      format: string | null;
      page_count: number | null;
    }>`
      select n.id, n.user_id, u.email, n.data, b.title, l.slug, l.status, l.parcel_size, l.format, b.page_count
      from public.notifications n
      join auth.users u on u.id = n.user_id
      left join public.listings l on l.id = n.listing_id
      left join public.books b on b.id = l.book_id
      where n.kind = 'wishlist_price_drop' and n.emailed_at is null and n.created_at <= ${now}
      order by n.created_at
      limit 100
      for update of n skip locked`.execute(trx);
    // The shown prices (decision 0071): the dropped item prices, all-in under today's rule.
    const shown = await liveShownPricer(trx);
    for (const row of rows) {
      const send =
        row.email &&
        row.title &&
        row.slug &&
        row.status === 'active' &&
        row.parcel_size &&
        row.data.newPriceMinor !== undefined &&
        !(await isSuppressed(trx, { userId: row.user_id, email: row.email }, 'wishlist_alerts'));
      if (send) {
        const book = {
          parcelSize: row.parcel_size as ParcelSize,
          format: row.format,
          pageCount: row.page_count,
        };
        const now = shown({ ...book, priceMinor: row.data.newPriceMinor as number });
        const price = formatPence(now.allInMinor);
        const was =
          row.data.oldPriceMinor !== undefined
            ? ` (was ${formatPence(shown({ ...book, priceMinor: row.data.oldPriceMinor }).allInMinor)})`
            : '';
        const action = { label: 'See the book', url: `${deps.origin}/listing/${row.slug}` };
        const lines = [
          `Good news: “${row.title}”, on your wishlist, is now ${price}${was}, ${SHOWN_PRICE_WORDS.including}, ${SHOWN_PRICE_WORDS.postageFrom(now.postageFromMinor)}.`,
          'Books go quickly: buy it now or make an offer before someone else does.',
        ];
        await deps.mailer.send(
          {
            to: row.email as string,
            subject: `Price drop: ${row.title} is now ${price}`,
            text: `${lines.join('\n\n')}\n\n${action.label}: ${action.url}\n`,
            html: layout(lines, action),
            template: 'wishlist_alerts.price_drop',
            userId: row.user_id,
          },
          { trx },
        );
      }
      await trx.updateTable('notifications').set({ emailed_at: now }).where('id', '=', row.id).execute();
    }
    return rows.length;
  });
}

interface DigestRow {
  id: string;
  title: string;
  body: string;
  link: string | null;
  created_at: Date;
}

async function emailMessageDigests(deps: NotificationMailDeps, now: Date): Promise<number> {
  const due = new Date(now.getTime() - MESSAGE_DIGEST_DELAY_MINUTES * 60_000);
  // Members with an unread, un-emailed message notification old enough.
  const members = await deps.db
    .selectFrom('notifications')
    .select('user_id')
    .where('kind', '=', 'message_received')
    .where('emailed_at', 'is', null)
    .where('read_at', 'is', null)
    .where('created_at', '<=', due)
    .groupBy('user_id')
    .limit(100)
    .execute();
  let emailed = 0;
  for (const { user_id: userId } of members) {
    emailed += await deps.db.transaction().execute(async (trx) => {
      const { rows } = await sql<DigestRow>`
        select id, title, body, link, created_at from public.notifications
        where user_id = ${userId} and kind = 'message_received' and emailed_at is null and read_at is null
          and created_at <= ${now}
        order by created_at
        for update skip locked`.execute(trx);
      // Another instance took them, or they were read meanwhile.
      if (rows.length === 0 || (rows[0] as DigestRow).created_at > due) return 0;
      const user = await trx
        .selectFrom('auth.users')
        .select('email')
        .where('id', '=', userId)
        .executeTakeFirst();
      const email = user?.email ?? null;
      if (email && !(await isSuppressed(trx, { userId, email }, 'messages'))) {
        const links = new Set(rows.map((row) => row.link ?? '/messages'));
        const action = {
          label: rows.length === 1 ? 'Read and reply' : 'Read your messages',
          url: `${deps.origin}${links.size === 1 ? [...links][0] : '/messages'}`,
        };
        const quoted = rows
          .slice(-DIGEST_QUOTED)
          .map((row) => `${escapeLine(row.title)}: ${escapeLine(row.body)}`);
        const more = rows.length - quoted.length;
        const lines = [
          plural(
            rows.length,
            'You have an unread message on Reshelf.',
            `You have ${rows.length} unread messages on Reshelf.`,
          ),
          ...quoted,
          ...(more > 0 ? [`And ${more} more.`] : []),
          'Replying quickly helps books find their readers.',
        ];
        await deps.mailer.send(
          {
            to: email,
            subject: plural(
              rows.length,
              `Unread message: ${escapeLine((rows[0] as DigestRow).title)}`,
              `You have ${rows.length} unread messages`,
            ),
            text: `${lines.join('\n\n')}\n\n${action.label}: ${action.url}\n`,
            html: layout(lines, action),
            template: 'messages.digest',
            userId,
          },
          { trx },
        );
      }
      await trx
        .updateTable('notifications')
        .set({ emailed_at: now })
        .where(
          'id',
          'in',
          rows.map((row) => row.id),
        )
        .execute();
      return rows.length;
    });
  }
  return emailed;
}

/** The job: price-drop emails and unread-message digests that are due; answers rows handled. */
export async function emailDueNotifications(deps: NotificationMailDeps, now = new Date()): Promise<number> {
  return (await emailPriceDrops(deps, now)) + (await emailMessageDigests(deps, now));
}
