/**
 * In-app notifications. They are written by a database trigger in the same transaction as the
 * change they are about (migration 20261121170000: a wished-for listing's price drops, or it
 * sells), so none is lost and none is sent for a change that rolled back. The words are made
 * here, when read, from the book's current title.
 */
import { type AppNotification, type NotificationKind, notificationText } from '@reshelf/contracts';
import { sql } from 'kysely';
import type { Database } from '../../db/index.ts';

interface NotificationRow {
  id: string;
  kind: NotificationKind;
  data: { oldPriceMinor?: number; newPriceMinor?: number; priceMinor?: number };
  read_at: Date | null;
  created_at: Date;
  slug: string | null;
  status: string | null;
  title: string | null;
  authors: string[] | null;
  isbn13: string | null;
  photo_url: string | null;
  cover_url: string | null;
}

export async function listNotifications(
  db: Database,
  userId: string,
  limit: number,
): Promise<{ items: AppNotification[]; unread: number; hasMore: boolean }> {
  const [{ rows }, unread] = await Promise.all([
    sql<NotificationRow>`
      select n.id, n.kind, n.data, n.read_at, n.created_at, l.slug, l.status, b.title, b.authors, b.isbn13,
        l.photos ->> 0 as photo_url, b.cover_url
      from public.notifications n
      left join public.listings l on l.id = n.listing_id
      left join public.books b on b.id = l.book_id
      where n.user_id = ${userId}
      order by n.created_at desc, n.id desc
      limit ${limit + 1}`.execute(db),
    unreadCount(db, userId),
  ]);
  return {
    items: rows.slice(0, limit).map((row) => {
      const title = row.title ?? 'A book on your wishlist';
      const text = notificationText(row.kind, {
        title,
        oldPriceMinor: row.data.oldPriceMinor,
        newPriceMinor: row.data.newPriceMinor,
      });
      return {
        id: row.id,
        kind: row.kind,
        title: text.title,
        body: text.body,
        listing: row.title
          ? {
              slug: row.status && row.status !== 'draft' ? row.slug : null,
              title,
              authors: row.authors ?? [],
              isbn13: row.isbn13,
              photoUrl: row.photo_url,
              coverUrl: row.cover_url,
            }
          : null,
        read: row.read_at !== null,
        createdAt: row.created_at.toISOString(),
      };
    }),
    unread,
    hasMore: rows.length > limit,
  };
}

export async function unreadCount(db: Database, userId: string): Promise<number> {
  const row = await db
    .selectFrom('notifications')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .where('read_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Marks the given notifications (or all of them) read; answers how many are still unread. */
export async function markRead(db: Database, userId: string, ids: string[] | 'all'): Promise<number> {
  let query = db
    .updateTable('notifications')
    .set({ read_at: new Date() })
    .where('user_id', '=', userId)
    .where('read_at', 'is', null);
  if (ids !== 'all') {
    if (ids.length === 0) return unreadCount(db, userId);
    query = query.where('id', 'in', ids);
  }
  await query.execute();
  return unreadCount(db, userId);
}
