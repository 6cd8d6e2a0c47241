/**
 * In-app notifications (decision 0036): the member's list (newest first, by keyset), the unread
 * count for the bell, marking read. Written by `notify` (notify.ts) in the transaction of each
 * event, and by a database trigger for wishlist news (migration 20261121170000, whose words
 * are made here when read, from the book's current title).
 */
import {
  type AppNotification,
  type NotificationKind,
  type NotificationList,
  notificationText,
  type ParcelSize,
  type ShownPrice,
  shownAllInMinor,
  shownPrice,
} from '@reshelf/contracts';
import { sql } from 'kysely';
import type { Database } from '../../db/index.ts';
import { AppError } from '../../errors.ts';
import { publish, userTopic } from '../realtime/realtime.ts';
import { COMMERCIAL_SETTINGS_SQL, commercialSettingsFromText } from '../settings/settings.service.ts';
import { NOTIFICATION_EVENTS } from './notify.ts';

interface NotificationRow {
  id: string;
  kind: NotificationKind;
  title: string | null;
  body: string | null;
  link: string | null;
  data: { oldPriceMinor?: number; newPriceMinor?: number; priceMinor?: number };
  read_at: Date | null;
  created_at: Date;
  /** created_at to the microsecond, UTC (a JavaScript Date keeps milliseconds only). */
  at_us: string;
  slug: string | null;
  status: string | null;
  book_title: string | null;
  authors: string[] | null;
  isbn13: string | null;
  photo_url: string | null;
  cover_url: string | null;
  parcel_size: ParcelSize | null;
  format: string | null;
  page_count: number | null;
  /** COMMERCIAL_SETTINGS_SQL's text: the rules a price drop's shown prices follow. */
  settings: string | null;
}

/** A price drop's shown prices (decision 0071): the item prices the trigger kept, all-in today. */
function dropPrices(row: NotificationRow): { now?: ShownPrice; wasAllInMinor?: number } {
  const { newPriceMinor, oldPriceMinor } = row.data;
  if (newPriceMinor === undefined || row.parcel_size === null) return {};
  const rules = commercialSettingsFromText(row.settings);
  const book = { parcelSize: row.parcel_size, format: row.format, pageCount: row.page_count };
  const now = shownPrice({ ...book, priceMinor: newPriceMinor }, rules);
  if (oldPriceMinor === undefined) return { now };
  return { now, wasAllInMinor: shownAllInMinor(oldPriceMinor, rules) };
}

function toNotification(row: NotificationRow): AppNotification {
  const wishlist = row.kind === 'wishlist_price_drop' || row.kind === 'wishlist_sold';
  const bookTitle = row.book_title ?? 'A book on your wishlist';
  const text = wishlist
    ? notificationText(row.kind as 'wishlist_price_drop' | 'wishlist_sold', {
        title: bookTitle,
        ...dropPrices(row),
      })
    : { title: row.title ?? '', body: row.body ?? '' };
  const listingSlug = row.status && row.status !== 'draft' ? row.slug : null;
  return {
    id: row.id,
    kind: row.kind,
    title: text.title,
    body: text.body,
    link: row.link ?? (wishlist && listingSlug ? `/listing/${listingSlug}` : null),
    listing: row.book_title
      ? {
          slug: listingSlug,
          title: bookTitle,
          authors: row.authors ?? [],
          isbn13: row.isbn13,
          photoUrl: row.photo_url,
          coverUrl: row.cover_url,
        }
      : null,
    read: row.read_at !== null,
    createdAt: row.created_at.toISOString(),
  };
}

function pageCursor(row: { at_us: string; id: string }): string {
  return `${row.at_us}_${row.id}`;
}

/** The member's notifications, newest first, `limit` at a time (`cursor`: the last page's `nextCursor`). */
export async function listNotifications(
  db: Database,
  userId: string,
  page: { limit: number; cursor?: string | null },
): Promise<NotificationList> {
  let before: { at: string; id: string } | null = null;
  if (page.cursor) {
    const [at, id] = page.cursor.split('_');
    const date = new Date(at ?? '');
    if (Number.isNaN(date.getTime()) || !id) {
      throw new AppError('BAD_INPUT', 'That page of notifications does not exist: start from the first.');
    }
    before = { at: at as string, id };
  }
  const [{ rows }, unread] = await Promise.all([
    sql<NotificationRow>`
      select n.id, n.kind, n.title, n.body, n.link, n.data, n.read_at, n.created_at,
        to_char(n.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as at_us,
        l.slug, l.status, b.title as book_title, b.authors, b.isbn13,
        l.photos ->> 0 as photo_url, b.cover_url, l.parcel_size, l.format, b.page_count,
        ${sql.raw(COMMERCIAL_SETTINGS_SQL)} as settings
      from public.notifications n
      left join public.orders o on o.id = n.order_id
      left join public.offers f on f.id = n.offer_id
      left join public.listings l on l.id = coalesce(
        n.listing_id,
        (select i.listing_id from public.order_items i where i.order_id = o.id order by i.position limit 1),
        f.listing_id)
      left join public.books b on b.id = l.book_id
      where n.user_id = ${userId}
        ${before ? sql`and (n.created_at, n.id) < (${before.at}::timestamptz, ${before.id}::uuid)` : sql``}
      order by n.created_at desc, n.id desc
      limit ${page.limit + 1}`.execute(db),
    unreadCount(db, userId),
  ]);
  const items = rows.slice(0, page.limit);
  const last = items.at(-1);
  return {
    items: items.map(toNotification),
    unread,
    nextCursor: rows.length > page.limit && last ? pageCursor(last) : null,
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

/**
 * Marks the given notifications (or all of them) read; answers how many are still unread. The
 * member's other tabs and apps hear of it (their bells go down too).
 */
export async function markRead(db: Database, userId: string, ids: string[] | 'all'): Promise<number> {
  return db.transaction().execute(async (trx) => {
    let query = trx
      .updateTable('notifications')
      .set({ read_at: new Date() })
      .where('user_id', '=', userId)
      .where('read_at', 'is', null);
    if (ids !== 'all') query = query.where('id', 'in', ids);
    const result = await query.executeTakeFirst();
    if (Number(result.numUpdatedRows) > 0) {
      await publish(trx, { topic: userTopic(userId), kind: NOTIFICATION_EVENTS.read });
    }
    return unreadCount(trx, userId);
  });
}

/**
 * For the messages feature: a member read a thread, so its unread-message notifications are
 * read too (and left out of the unread-message email). Call it on the transaction that marks
 * the thread read; `entityId` is what the notifications were written with (the thread's id).
 */
export async function markEntityNotificationsRead(
  trx: Database,
  userId: string,
  entityId: string,
): Promise<void> {
  const result = await trx
    .updateTable('notifications')
    .set({ read_at: new Date() })
    .where('user_id', '=', userId)
    .where('entity_id', '=', entityId)
    .where('read_at', 'is', null)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) > 0) {
    await publish(trx, { topic: userTopic(userId), kind: NOTIFICATION_EVENTS.read });
  }
}

/** The kind of one of the member's own notifications (undefined for anyone else's, or none). */
export async function ownNotificationKind(
  db: Database,
  userId: string,
  id: string,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('notifications')
    .select('kind')
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row?.kind;
}
