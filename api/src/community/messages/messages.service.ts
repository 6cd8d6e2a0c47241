/**
 * Messages between members (decision 0035).
 *
 * A thread is about one listing, between its seller and one buyer: questions before buying, and
 * the order afterwards (the thread shows the buyer's latest order on the listing inline, and the
 * offers and order events between them as system lines). One thread per listing and buyer.
 *
 * Who is in a thread: its buyer (the buyer side) and its seller (the seller side); for a
 * charity's listing every member of the charity's team is on the seller side, sharing the
 * charity's inbox. Anyone else is told the thread does not exist. A suspended member never gets
 * this far (their session is refused), and a suspended member cannot be written to.
 *
 * Safety: a block between the two sides (either way) stops new messages, the thread stays to
 * read; members report a message to the staff queue (community/moderation); sending is rate-limited
 * per member; a message that suggests paying outside Reshelf is flagged and the thread warns.
 * Staff read a thread only through a report on one of its messages or a dispute on its order,
 * and every such read is audited.
 *
 * Every message and read receipt publishes a realtime event (ids only) to each member of the
 * thread's user topic, in the same transaction (docs/realtime.md).
 */
import {
  formatPence,
  MESSAGE_LIMITS,
  MESSAGE_TEXTS,
  ORDER_STATUS_LABELS,
  plural,
  type ReportReason,
  shownAllInMinor,
  suggestsOffPlatform,
} from '@reshelf/contracts';
import { sql } from 'kysely';
import type { Database } from '../../db/index.ts';
import { AppError } from '../../errors.ts';
import { enforce, type RateRule } from '../../http/rate-limit.ts';
import { recordAudit } from '../../platform/audit/audit.service.ts';
import { isSuspended } from '../../platform/identity/resolve-auth.ts';
import { markEntityNotificationsRead } from '../../platform/notifications/notifications.service.ts';
import { notify } from '../../platform/notifications/notify.ts';
import { publish, userTopic } from '../../platform/realtime/realtime.ts';
import {
  COMMERCIAL_SETTINGS_SQL,
  commercialSettingsFromText,
} from '../../platform/settings/settings.service.ts';
import type { StoragePort } from '../../platform/storage/port.ts';
import { insertReport, REPORT_RATE } from '../moderation/report-rules.ts';
import { messagePhotoKeys, photoRandomOf, recordUpload, usePhotos } from './photo-uploads.ts';

/** A member writing quickly in a live conversation, not one spamming many. */
export const MESSAGE_RATE: RateRule = { bucket: 'message', limit: 30, windowSeconds: 60 };
export const MESSAGE_DAY_RATE: RateRule = { bucket: 'message-day', limit: 500, windowSeconds: 24 * 60 * 60 };
/** New conversations a member may start in an hour (asking many sellers is fine; not hundreds). */
export const THREAD_START_RATE: RateRule = { bucket: 'message-thread', limit: 30, windowSeconds: 60 * 60 };

/** Listings a member can see on the site, and so ask about. */
const ASKABLE_LISTING_STATUSES = ['active', 'reserved', 'sold'];

export type Side = 'buyer' | 'seller';

interface ThreadRow {
  id: string;
  listing_id: string;
  buyer_id: string;
  seller_id: string;
  charity_id: string | null;
}

const notFound = () => new AppError('NOT_FOUND', MESSAGE_TEXTS.notFound);

/** The charity the member acts for, if any (a person acts for one charity at a time). */
async function charityOf(db: Database, userId: string): Promise<string | null> {
  const row = await db
    .selectFrom('charity_members')
    .select('charity_id')
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row?.charity_id ?? null;
}

async function sideIn(db: Database, userId: string, thread: ThreadRow): Promise<Side | null> {
  if (thread.buyer_id === userId) return 'buyer';
  if (thread.seller_id === userId) return 'seller';
  if (thread.charity_id && (await charityOf(db, userId)) === thread.charity_id) return 'seller';
  return null;
}

async function loadThread(db: Database, threadId: string): Promise<ThreadRow | undefined> {
  return db
    .selectFrom('message_threads')
    .select(['id', 'listing_id', 'buyer_id', 'seller_id', 'charity_id'])
    .where('id', '=', threadId)
    .executeTakeFirst();
}

/** The thread and the caller's side in it; NOT_FOUND for anyone not in it. */
export async function threadFor(
  db: Database,
  userId: string,
  threadId: string,
): Promise<{ thread: ThreadRow; side: Side }> {
  const thread = await loadThread(db, threadId);
  if (!thread) throw notFound();
  const side = await sideIn(db, userId, thread);
  if (!side) throw notFound();
  return { thread, side };
}

/** Everyone who reads the thread: the buyer, the seller, and a charity's whole team. */
async function membersOf(db: Database, thread: ThreadRow): Promise<string[]> {
  const ids = new Set([thread.buyer_id, thread.seller_id]);
  if (thread.charity_id) {
    const team = await db
      .selectFrom('charity_members')
      .select('user_id')
      .where('charity_id', '=', thread.charity_id)
      .execute();
    for (const member of team) ids.add(member.user_id);
  }
  return [...ids];
}

async function blockBetween(db: Database, a: string, b: string): Promise<{ byA: boolean; byB: boolean }> {
  const rows = await db
    .selectFrom('member_blocks')
    .select(['blocker_id'])
    .where((eb) =>
      eb.or([
        eb.and([eb('blocker_id', '=', a), eb('blocked_id', '=', b)]),
        eb.and([eb('blocker_id', '=', b), eb('blocked_id', '=', a)]),
      ]),
    )
    .execute();
  return { byA: rows.some((r) => r.blocker_id === a), byB: rows.some((r) => r.blocker_id === b) };
}

// Starting ---------------------------------------------------------------------------------------

async function openThread(
  db: Database,
  values: { listingId: string; buyerId: string; sellerId: string; charityId: string | null },
): Promise<{ threadId: string; created: boolean }> {
  const existing = await db
    .selectFrom('message_threads')
    .select('id')
    .where('listing_id', '=', values.listingId)
    .where('buyer_id', '=', values.buyerId)
    .executeTakeFirst();
  if (existing) return { threadId: existing.id, created: false };
  const blocks = await blockBetween(db, values.buyerId, values.sellerId);
  if (blocks.byA || blocks.byB) throw new AppError('FORBIDDEN', MESSAGE_TEXTS.blocked);
  await enforce(db, [[THREAD_START_RATE, values.buyerId]]);
  const inserted = await db
    .insertInto('message_threads')
    .values({
      listing_id: values.listingId,
      buyer_id: values.buyerId,
      seller_id: values.sellerId,
      charity_id: values.charityId,
    })
    .onConflict((oc) => oc.columns(['listing_id', 'buyer_id']).doNothing())
    .returning('id')
    .executeTakeFirst();
  if (inserted) return { threadId: inserted.id, created: true };
  // Started at the same moment elsewhere (another tab): that one.
  const row = await db
    .selectFrom('message_threads')
    .select('id')
    .where('listing_id', '=', values.listingId)
    .where('buyer_id', '=', values.buyerId)
    .executeTakeFirstOrThrow();
  return { threadId: row.id, created: false };
}

/** "Message the seller": the caller's thread about a listing, started if need be. */
export async function startListingThread(
  db: Database,
  userId: string,
  listingId: string,
): Promise<{ threadId: string }> {
  const listing = await db
    .selectFrom('listings')
    .select(['id', 'seller_id', 'charity_id', 'status'])
    .where('id', '=', listingId)
    .executeTakeFirst();
  if (!listing || !ASKABLE_LISTING_STATUSES.includes(listing.status)) {
    throw new AppError('NOT_FOUND', MESSAGE_TEXTS.listingGone);
  }
  if (
    listing.seller_id === userId ||
    (listing.charity_id && (await charityOf(db, userId)) === listing.charity_id)
  ) {
    throw new AppError('BAD_INPUT', MESSAGE_TEXTS.ownListing);
  }
  const { threadId } = await openThread(db, {
    listingId: listing.id,
    buyerId: userId,
    sellerId: listing.seller_id,
    charityId: listing.charity_id,
  });
  return { threadId };
}

/**
 * "Message" on an order page (either side): one thread per order, about its first book (an
 * order of several books is one parcel from one seller, so one conversation).
 */
export async function startOrderThread(
  db: Database,
  userId: string,
  orderId: string,
): Promise<{ threadId: string }> {
  const order = await db
    .selectFrom('orders as o')
    .innerJoin('order_items as i', (join) => join.onRef('i.order_id', '=', 'o.id').on('i.position', '=', 1))
    .innerJoin('listings as l', 'l.id', 'i.listing_id')
    .select(['i.listing_id', 'o.buyer_id', 'o.seller_id', 'o.status', 'o.paid_at', 'l.charity_id'])
    .where('o.id', '=', orderId)
    .executeTakeFirst();
  const NOT_FOUND = new AppError(
    'NOT_FOUND',
    'We could not find that order. Check the link, or look in your orders.',
  );
  if (!order || (!order.paid_at && order.status !== 'pending_payment')) throw NOT_FOUND;
  const inOrder =
    order.buyer_id === userId ||
    order.seller_id === userId ||
    (order.charity_id !== null && (await charityOf(db, userId)) === order.charity_id);
  if (!inOrder) throw NOT_FOUND;
  const { threadId } = await openThread(db, {
    listingId: order.listing_id,
    buyerId: order.buyer_id,
    sellerId: order.seller_id,
    charityId: order.charity_id,
  });
  return { threadId };
}

// Sending ----------------------------------------------------------------------------------------

/** Unsent photos (photo-uploads.ts): disputes mark their evidence used, the jobs sweep the rest. */
export { sweepUnsentPhotos, usePhotos } from './photo-uploads.ts';

export interface SentMessage {
  id: string;
  createdAt: string;
  offPlatform: boolean;
}

/** Refuses a new message in a thread where one side blocked the other or the other is suspended. */
async function assertCanWrite(db: Database, thread: ThreadRow, side: Side): Promise<void> {
  const blocks = await blockBetween(db, thread.buyer_id, thread.seller_id);
  if (blocks.byA || blocks.byB) throw new AppError('FORBIDDEN', MESSAGE_TEXTS.blocked);
  const recipient = side === 'buyer' ? thread.seller_id : thread.buyer_id;
  if (await isSuspended(db, recipient)) throw new AppError('FORBIDDEN', MESSAGE_TEXTS.recipientSuspended);
}

/** Checks the caller may add a photo to the thread (before the upload is read). */
export async function assertCanAttach(db: Database, userId: string, threadId: string): Promise<void> {
  const { thread, side } = await threadFor(db, userId, threadId);
  await assertCanWrite(db, thread, side);
}

/**
 * Stores a checked photo (platform/images/photos.ts) for a thread; returns its URLs. The upload
 * is recorded first (photo-uploads.ts), so that if it is never sent the sweep deletes its files.
 */
export async function storeMessagePhoto(
  deps: { db: Database; storage: StoragePort },
  upload: { threadId: string; uploaderId: string },
  photo: { large: { body: Buffer; contentType: string }; thumb: { body: Buffer; contentType: string } },
  random: string,
): Promise<{ url: string; thumbUrl: string }> {
  const { storage } = deps;
  const keys = messagePhotoKeys(upload.threadId, random);
  const url = storage.publicUrl(keys.large);
  await recordUpload(deps.db, { keys, url, threadId: upload.threadId, uploaderId: upload.uploaderId });
  await storage.put(keys.large, photo.large.body, photo.large.contentType);
  await storage.put(keys.thumb, photo.thumb.body, photo.thumb.contentType);
  return { url, thumbUrl: storage.publicUrl(keys.thumb) };
}

/** The message photo URLs of a thread: exactly what storeMessagePhoto hands out. */
export function isThreadPhoto(storage: StoragePort, threadId: string, url: string): boolean {
  const random = photoRandomOf(url);
  return Boolean(random) && storage.publicUrl(messagePhotoKeys(threadId, random!).large) === url;
}

export async function sendMessage(
  deps: { db: Database; storage: StoragePort },
  userId: string,
  input: { threadId: string; text: string; photos: string[] },
): Promise<SentMessage> {
  const { db } = deps;
  const { thread, side } = await threadFor(db, userId, input.threadId);
  const text = input.text.trim();
  if (!text && input.photos.length === 0) throw new AppError('BAD_INPUT', MESSAGE_TEXTS.empty);
  if (input.photos.length > MESSAGE_LIMITS.maxPhotos)
    throw new AppError('BAD_INPUT', MESSAGE_TEXTS.tooManyPhotos);
  if (new Set(input.photos).size !== input.photos.length) {
    throw new AppError('BAD_INPUT', 'The same photo is in this message twice.', { field: 'photos' });
  }
  for (const url of input.photos) {
    if (!isThreadPhoto(deps.storage, thread.id, url)) {
      throw new AppError('BAD_INPUT', 'Add photos with the photo button in this conversation.', {
        field: 'photos',
      });
    }
  }
  await assertCanWrite(db, thread, side);
  await enforce(db, [
    [MESSAGE_RATE, userId],
    [MESSAGE_DAY_RATE, userId],
  ]);
  const members = await membersOf(db, thread);
  return db.transaction().execute(async (trx) => {
    // The photos are used now: their upload records go, so the sweep keeps their files.
    await usePhotos(trx, deps.storage, thread.id, input.photos);
    const message = await trx
      .insertInto('messages')
      .values({
        thread_id: thread.id,
        sender_id: userId,
        body: text,
        photos: JSON.stringify(input.photos),
        off_platform: suggestsOffPlatform(text),
      })
      .returning(['id', 'created_at', 'off_platform'])
      .executeTakeFirstOrThrow();
    await trx
      .updateTable('message_threads')
      .set({ last_message_at: message.created_at })
      .where('id', '=', thread.id)
      .execute();
    await publish(trx, { topic: members.map(userTopic), kind: 'message.sent', entityId: message.id });
    // The other side is told in the same transaction: a notification each (the bell, and the
    // unread-message digest emailed after MESSAGE_DIGEST_DELAY_MINUTES unless read by then).
    const recipients = side === 'buyer' ? members.filter((id) => id !== thread.buyer_id) : [thread.buyer_id];
    if (recipients.length > 0) {
      const about = await trx
        .selectFrom('listings as l')
        .innerJoin('books as b', 'b.id', 'l.book_id')
        .select(['b.title'])
        .where('l.id', '=', thread.listing_id)
        .executeTakeFirst();
      const photos = input.photos.length;
      await notify(
        trx,
        recipients.map((recipient) => ({
          userId: recipient,
          kind: 'message_received' as const,
          title: about ? `New message about “${about.title}”` : 'New message',
          body: text || plural(photos, 'Sent a photo.', `Sent ${photos} photos.`),
          link: `/messages/${thread.id}`,
          listingId: thread.listing_id,
          entityId: thread.id,
        })),
      );
    }
    return {
      id: message.id,
      createdAt: message.created_at.toISOString(),
      offPlatform: message.off_platform,
    };
  });
}

/** Senders on the other side of the thread from `side` (whose messages `side` reads). */
function fromOtherSide(thread: ThreadRow, side: Side) {
  return side === 'buyer'
    ? sql<boolean>`m.sender_id <> ${thread.buyer_id}`
    : sql<boolean>`m.sender_id = ${thread.buyer_id}`;
}

/** Read receipts: everything the other side sent, read now. Publishes `message.read` when any was new. */
export async function markThreadRead(
  db: Database,
  userId: string,
  threadId: string,
): Promise<{ marked: number }> {
  const { thread, side } = await threadFor(db, userId, threadId);
  const members = await membersOf(db, thread);
  return db.transaction().execute(async (trx) => {
    const marked = await trx
      .updateTable('messages as m')
      .set({ read_at: sql<Date>`now()` })
      .where('m.thread_id', '=', thread.id)
      .where('m.read_at', 'is', null)
      .where(fromOtherSide(thread, side))
      .returning('m.id')
      .execute();
    if (marked.length > 0) {
      await publish(trx, { topic: members.map(userTopic), kind: 'message.read', entityId: thread.id });
    }
    // Reading the thread reads its message notifications (and keeps them out of the digest),
    // for the reader's whole side: a charity's team shares one inbox.
    const readers = side === 'buyer' ? [thread.buyer_id] : members.filter((id) => id !== thread.buyer_id);
    for (const reader of readers) await markEntityNotificationsRead(trx, reader, thread.id);
    return { marked: marked.length };
  });
}

// Reading ----------------------------------------------------------------------------------------

/** Threads the member reads: as buyer, as seller, or through their charity's team. */
function threadsOf(db: Database, userId: string, charityId: string | null) {
  return db.selectFrom('message_threads as t').where((eb) => {
    const mine = [eb('t.buyer_id', '=', userId), eb('t.seller_id', '=', userId)];
    if (charityId) mine.push(eb('t.charity_id', '=', charityId));
    return eb.or(mine);
  });
}

/** The unread count for a member, `side` chosen per thread (a buyer reads the seller's and back). */
const unreadForViewer = (userId: string) => sql<number>`(
  select count(*)::int from messages m
  where m.thread_id = t.id and m.read_at is null and m.hidden_at is null
    and case when t.buyer_id = ${userId} then m.sender_id <> t.buyer_id else m.sender_id = t.buyer_id end
)`;

export interface ThreadSummary {
  id: string;
  side: Side;
  counterpartName: string;
  listing: {
    id: string;
    slug: string | null;
    title: string;
    imageUrl: string | null;
    /** The seller's asking price (the seller's side shows it). */
    priceMinor: number | null;
    /** What the buyer must pay for it, buyer protection included (decision 0071). */
    allInMinor: number | null;
    status: string;
  };
  lastMessage: { text: string; fromMe: boolean; at: string } | null;
  unread: number;
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

function threadSummaryQuery(db: Database, userId: string, charityId: string | null) {
  return threadsOf(db, userId, charityId)
    .innerJoin('listings as l', 'l.id', 't.listing_id')
    .leftJoin('books as b', 'b.id', 'l.book_id')
    .leftJoin('profiles as bp', 'bp.id', 't.buyer_id')
    .leftJoin('profiles as sp', 'sp.id', 't.seller_id')
    .leftJoin('charities as c', 'c.id', 't.charity_id')
    .leftJoinLateral(
      (eb) =>
        eb
          .selectFrom('messages as lm')
          .select(['lm.body', 'lm.photos', 'lm.sender_id', 'lm.created_at', 'lm.hidden_at'])
          .whereRef('lm.thread_id', '=', 't.id')
          .orderBy('lm.created_at', 'desc')
          .orderBy('lm.id', 'desc')
          .limit(1)
          .as('last'),
      (join) => join.onTrue(),
    )
    .select([
      't.id',
      't.buyer_id',
      't.last_message_at',
      'l.id as listing_id',
      'l.slug',
      'l.status as listing_status',
      'l.price_minor',
      'l.parcel_size',
      sql<string | null>`${sql.raw(COMMERCIAL_SETTINGS_SQL)}`.as('settings'),
      'b.title',
      'b.cover_url',
      sql<string | null>`l.photos ->> 0`.as('photo_url'),
      'bp.display_name as buyer_name',
      'sp.display_name as seller_name',
      'c.name as charity_name',
      'last.body as last_body',
      'last.photos as last_photos',
      'last.sender_id as last_sender',
      'last.created_at as last_at',
      'last.hidden_at as last_hidden',
      unreadForViewer(userId).as('unread'),
    ]);
}

type SummaryRow = NonNullable<Awaited<ReturnType<ReturnType<typeof threadSummaryQuery>['executeTakeFirst']>>>;

function toSummary(row: SummaryRow, userId: string): ThreadSummary {
  const side: Side = row.buyer_id === userId ? 'buyer' : 'seller';
  const sellerName = row.charity_name ?? row.seller_name ?? 'Seller';
  const photos = Array.isArray(row.last_photos) ? row.last_photos.length : 0;
  const lastText = row.last_hidden
    ? 'Message removed by Reshelf'
    : row.last_body
      ? row.last_body
      : photos > 0
        ? plural(photos, 'Photo', `${photos} photos`)
        : '';
  return {
    id: row.id,
    side,
    counterpartName: side === 'buyer' ? sellerName : (row.buyer_name ?? 'Buyer'),
    listing: {
      id: row.listing_id,
      slug: row.slug,
      title: row.title ?? 'Untitled book',
      imageUrl: row.photo_url ?? row.cover_url ?? null,
      priceMinor: row.price_minor,
      allInMinor:
        row.price_minor === null || row.price_minor <= 0 || row.parcel_size === null
          ? null
          : shownAllInMinor(row.price_minor, commercialSettingsFromText(row.settings)),
      status: row.listing_status,
    },
    lastMessage: row.last_at
      ? {
          text: lastText.length > 140 ? `${lastText.slice(0, 139)}…` : lastText,
          fromMe: row.last_sender === userId,
          at: row.last_at.toISOString(),
        }
      : null,
    unread: row.unread,
  };
}

/** The member's inbox, newest conversation first; `q` finds a book title or a member's name. */
export async function listThreads(
  db: Database,
  userId: string,
  input: { q?: string | undefined; limit?: number | undefined },
): Promise<ThreadSummary[]> {
  const charityId = await charityOf(db, userId);
  let query = threadSummaryQuery(db, userId, charityId).where('t.last_message_at', 'is not', null);
  const q = input.q?.trim();
  if (q) {
    const like = `%${escapeLike(q)}%`;
    query = query.where((eb) =>
      eb.or([
        eb('b.title', 'ilike', like),
        eb.and([eb('t.buyer_id', '<>', userId), eb('bp.display_name', 'ilike', like)]),
        eb.and([eb('t.buyer_id', '=', userId), eb('sp.display_name', 'ilike', like)]),
        eb.and([eb('t.buyer_id', '=', userId), eb('c.name', 'ilike', like)]),
      ]),
    );
  }
  const rows = await query
    .orderBy('t.last_message_at', 'desc')
    .orderBy('t.id', 'desc')
    .limit(input.limit ?? MESSAGE_LIMITS.pageSize)
    .execute();
  return rows.map((row) => toSummary(row, userId));
}

/** One thread's summary for the caller (the live stream's payload); null when not theirs. */
export async function threadSummaryFor(
  db: Database,
  userId: string,
  threadId: string,
): Promise<ThreadSummary | null> {
  const charityId = await charityOf(db, userId);
  const row = await threadSummaryQuery(db, userId, charityId).where('t.id', '=', threadId).executeTakeFirst();
  return row ? toSummary(row, userId) : null;
}

/** The thread a message belongs to, when the member reads that thread (for the live stream). */
export async function threadOfMessage(
  db: Database,
  userId: string,
  messageId: string,
): Promise<string | null> {
  const row = await db
    .selectFrom('messages')
    .select('thread_id')
    .where('id', '=', messageId)
    .executeTakeFirst();
  if (!row) return null;
  const thread = await loadThread(db, row.thread_id);
  if (!thread || !(await sideIn(db, userId, thread))) return null;
  return thread.id;
}

/** Unread messages across the member's conversations (the header link and the tab title). */
export async function unreadCount(
  db: Database,
  userId: string,
): Promise<{ messages: number; threads: number }> {
  const charityId = await charityOf(db, userId);
  const row = await threadsOf(db, userId, charityId)
    .select([
      sql<number>`coalesce(sum(${unreadForViewer(userId)}), 0)::int`.as('messages'),
      sql<number>`count(*) filter (where ${unreadForViewer(userId)} > 0)::int`.as('threads'),
    ])
    .executeTakeFirstOrThrow();
  return { messages: row.messages, threads: row.threads };
}

export interface ThreadMessage {
  id: string;
  kind: 'message';
  fromMe: boolean;
  senderSide: Side;
  senderName: string;
  text: string | null;
  photos: string[];
  hidden: boolean;
  offPlatform: boolean;
  at: string;
  readAt: string | null;
  /** The viewer has reported it and our team has not closed the report yet. */
  reportedByMe: boolean;
}

export interface SystemLine {
  id: string;
  kind: 'system';
  text: string;
  at: string;
}

export interface ThreadView {
  id: string;
  side: Side | 'staff';
  buyerName: string;
  sellerName: string;
  counterpartName: string;
  listing: ThreadSummary['listing'];
  order: { id: string; reference: string; status: string; statusLabel: string } | null;
  blockedByMe: boolean;
  blockedByThem: boolean;
  canWrite: boolean;
  offPlatformWarning: boolean;
  entries: Array<ThreadMessage | SystemLine>;
}

/** At most this many messages are shown (the newest). */
const THREAD_MESSAGES_SHOWN = 500;

function offerLine(
  offer: { made_by: string; amount_minor: number; status: string; round: number },
  viewer: Side | 'staff',
): string {
  const who = offer.made_by === viewer ? 'You' : offer.made_by === 'buyer' ? 'The buyer' : 'The seller';
  const verb = offer.round > 1 || offer.made_by === 'seller' ? 'countered with' : 'offered';
  const outcome: Record<string, string> = {
    pending: '',
    accepted: ' — accepted',
    declined: ' — declined',
    expired: ' — expired',
    countered: ' — countered',
    withdrawn: ' — withdrawn',
    purchased: ' — bought',
    lapsed: ' — not paid in time',
  };
  return `${who} ${verb} ${formatPence(offer.amount_minor)}${outcome[offer.status] ?? ''}`;
}

async function buildThreadView(
  db: Database,
  thread: ThreadRow,
  viewer: { id: string; side: Side | 'staff' },
): Promise<ThreadView> {
  const summaryRow = await threadSummaryQuery(db, thread.buyer_id, null)
    .where('t.id', '=', thread.id)
    .executeTakeFirstOrThrow();
  const sellerName = summaryRow.charity_name ?? summaryRow.seller_name ?? 'Seller';
  const buyerName = summaryRow.buyer_name ?? 'Buyer';
  const [messages, offers, orders, blocks, recipientSuspended] = await Promise.all([
    db
      .selectFrom('messages as m')
      .leftJoin('profiles as p', 'p.id', 'm.sender_id')
      .select([
        'm.id',
        'm.sender_id',
        'm.body',
        'm.photos',
        'm.off_platform',
        'm.created_at',
        'm.read_at',
        'm.hidden_at',
        'p.display_name',
      ])
      .where('m.thread_id', '=', thread.id)
      .orderBy('m.created_at', 'desc')
      .orderBy('m.id', 'desc')
      .limit(THREAD_MESSAGES_SHOWN)
      .execute(),
    db
      .selectFrom('offers')
      .select(['id', 'made_by', 'amount_minor', 'status', 'round', 'created_at'])
      .where('listing_id', '=', thread.listing_id)
      .where('buyer_id', '=', thread.buyer_id)
      .orderBy('created_at')
      .execute(),
    db
      .selectFrom('orders')
      .select(['id', 'reference', 'status', 'paid_at', 'created_at'])
      .where('id', 'in', (eb) =>
        eb.selectFrom('order_items').select('order_id').where('listing_id', '=', thread.listing_id),
      )
      .where('buyer_id', '=', thread.buyer_id)
      .orderBy('created_at', 'desc')
      .execute(),
    blockBetween(db, thread.buyer_id, thread.seller_id),
    isSuspended(db, viewer.side === 'buyer' ? thread.seller_id : thread.buyer_id),
  ]);
  const visibleOrders = orders.filter((o) => o.paid_at || o.status === 'pending_payment');
  const events = visibleOrders.length
    ? await db
        .selectFrom('order_events')
        .select(['id', 'order_id', 'from_status', 'to_status', 'note', 'created_at'])
        .where(
          'order_id',
          'in',
          visibleOrders.map((o) => o.id),
        )
        .orderBy('created_at')
        .execute()
    : [];
  const reportedByMe = new Set(
    viewer.side === 'staff' || messages.length === 0
      ? []
      : (
          await db
            .selectFrom('reports')
            .select('message_id')
            .where('reporter_id', '=', viewer.id)
            .where('status', '=', 'open')
            .where(
              'message_id',
              'in',
              messages.map((m) => m.id),
            )
            .execute()
        ).map((row) => row.message_id),
  );
  const entries: Array<ThreadMessage | SystemLine> = [];
  for (const m of messages.reverse()) {
    const senderSide: Side = m.sender_id === thread.buyer_id ? 'buyer' : 'seller';
    const hidden = m.hidden_at !== null;
    entries.push({
      id: m.id,
      kind: 'message',
      fromMe: m.sender_id === viewer.id,
      senderSide,
      senderName:
        senderSide === 'buyer' ? buyerName : thread.charity_id ? sellerName : (m.display_name ?? sellerName),
      // Staff see what was hidden (they are reviewing it); members see that it was removed.
      text: hidden && viewer.side !== 'staff' ? null : m.body,
      photos: hidden && viewer.side !== 'staff' ? [] : ((m.photos as string[] | null) ?? []),
      hidden,
      offPlatform: m.off_platform,
      at: m.created_at.toISOString(),
      readAt: m.read_at?.toISOString() ?? null,
      reportedByMe: reportedByMe.has(m.id),
    });
  }
  for (const offer of offers) {
    entries.push({
      id: `offer:${offer.id}`,
      kind: 'system',
      text: offerLine(offer, viewer.side),
      at: offer.created_at.toISOString(),
    });
  }
  for (const event of events) {
    const order = visibleOrders.find((o) => o.id === event.order_id);
    entries.push({
      id: `order-event:${event.id}`,
      kind: 'system',
      // A step within a status (a dispute's answer, a return's tracking) says what happened.
      text: `Order ${order?.reference ?? ''}: ${
        event.from_status === event.to_status && event.note
          ? event.note
          : (ORDER_STATUS_LABELS[event.to_status] ?? event.to_status)
      }`.replace('  ', ' '),
      at: event.created_at.toISOString(),
    });
  }
  entries.sort((a, b) => a.at.localeCompare(b.at));
  const latest = visibleOrders[0];
  const blockedByMe = viewer.side === 'buyer' ? blocks.byA : viewer.side === 'seller' ? blocks.byB : false;
  const blockedByThem = viewer.side === 'buyer' ? blocks.byB : viewer.side === 'seller' ? blocks.byA : false;
  return {
    id: thread.id,
    side: viewer.side,
    buyerName,
    sellerName,
    counterpartName: viewer.side === 'buyer' ? sellerName : buyerName,
    listing: toSummary(summaryRow, thread.buyer_id).listing,
    order: latest
      ? {
          id: latest.id,
          reference: latest.reference,
          status: latest.status,
          statusLabel: ORDER_STATUS_LABELS[latest.status] ?? latest.status,
        }
      : null,
    blockedByMe,
    blockedByThem,
    canWrite: viewer.side !== 'staff' && !blocks.byA && !blocks.byB && !recipientSuspended,
    offPlatformWarning: messages.some((m) => m.off_platform && m.hidden_at === null),
    entries,
  };
}

export async function getThread(db: Database, userId: string, threadId: string): Promise<ThreadView> {
  const { thread, side } = await threadFor(db, userId, threadId);
  return buildThreadView(db, thread, { id: userId, side });
}

// Blocking ---------------------------------------------------------------------------------------

/** The two accounts a block in this thread is between: the caller's side, then the other. */
function blockPair(thread: ThreadRow, side: Side): [string, string] {
  return side === 'buyer' ? [thread.buyer_id, thread.seller_id] : [thread.seller_id, thread.buyer_id];
}

/** Blocks the other member of the thread: no new messages either way, in any thread between them. */
export async function blockMember(db: Database, userId: string, threadId: string): Promise<void> {
  const { thread, side } = await threadFor(db, userId, threadId);
  const [blocker, blocked] = blockPair(thread, side);
  const members = await membersOf(db, thread);
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('member_blocks')
      .values({ blocker_id: blocker, blocked_id: blocked })
      .onConflict((oc) => oc.columns(['blocker_id', 'blocked_id']).doNothing())
      .execute();
    await publish(trx, { topic: members.map(userTopic), kind: 'message.blocked', entityId: thread.id });
  });
}

export async function unblockMember(db: Database, userId: string, threadId: string): Promise<void> {
  const { thread, side } = await threadFor(db, userId, threadId);
  const [blocker, blocked] = blockPair(thread, side);
  const members = await membersOf(db, thread);
  await db.transaction().execute(async (trx) => {
    await trx
      .deleteFrom('member_blocks')
      .where('blocker_id', '=', blocker)
      .where('blocked_id', '=', blocked)
      .execute();
    await publish(trx, { topic: members.map(userTopic), kind: 'message.blocked', entityId: thread.id });
  });
}

// Reporting --------------------------------------------------------------------------------------

/** Reports a message the other side sent to the staff queue (one open report per member and message). */
export async function reportMessage(
  db: Database,
  userId: string,
  input: { messageId: string; reason: ReportReason; details: string | null },
): Promise<{ id: string }> {
  const message = await db
    .selectFrom('messages')
    .select(['thread_id', 'sender_id', 'hidden_at'])
    .where('id', '=', input.messageId)
    .executeTakeFirst();
  const NOT_FOUND = new AppError('NOT_FOUND', 'We could not find that message.');
  if (!message) throw NOT_FOUND;
  const thread = await loadThread(db, message.thread_id);
  const side = thread ? await sideIn(db, userId, thread) : null;
  if (!thread || !side) throw NOT_FOUND;
  const senderSide: Side = message.sender_id === thread.buyer_id ? 'buyer' : 'seller';
  if (senderSide === side) throw new AppError('FORBIDDEN', 'You can’t report your own message.');
  if (message.hidden_at) throw new AppError('CONFLICT', 'Our team has already removed this message.');
  await enforce(db, [[REPORT_RATE, userId]]);
  return insertReport(db, userId, { messageId: input.messageId }, input);
}

// Staff ------------------------------------------------------------------------------------------

export const STAFF_NEEDS_REASON =
  'Staff read a conversation only through a report on one of its messages or a dispute on its order.';

/**
 * A staff member reads a thread through a report on one of its messages, or a dispute on an
 * order for its listing and buyer; the read is audited (who, which thread, through what).
 */
export async function staffReadThread(
  db: Database,
  staffId: string,
  input: { threadId: string; reportId?: string | undefined; disputeId?: string | undefined },
): Promise<ThreadView> {
  const thread = await loadThread(db, input.threadId);
  if (!thread) throw notFound();
  let through: Record<string, string> | null = null;
  if (input.reportId) {
    const report = await db
      .selectFrom('reports as r')
      .innerJoin('messages as m', 'm.id', 'r.message_id')
      .select(['r.id'])
      .where('r.id', '=', input.reportId)
      .where('m.thread_id', '=', thread.id)
      .executeTakeFirst();
    if (report) through = { reportId: report.id };
  } else if (input.disputeId) {
    const dispute = await db
      .selectFrom('disputes as d')
      .innerJoin('orders as o', 'o.id', 'd.order_id')
      .select(['d.id'])
      .where('d.id', '=', input.disputeId)
      // The thread is about one of the disputed order's books.
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom('order_items as i')
            .select('i.id')
            .whereRef('i.order_id', '=', 'o.id')
            .where('i.listing_id', '=', thread.listing_id),
        ),
      )
      .where('o.buyer_id', '=', thread.buyer_id)
      .executeTakeFirst();
    if (dispute) through = { disputeId: dispute.id };
  }
  if (!through) throw new AppError('FORBIDDEN', STAFF_NEEDS_REASON);
  const view = await buildThreadView(db, thread, { id: staffId, side: 'staff' });
  await recordAudit(db, {
    actorId: staffId,
    action: 'message_thread.read',
    targetType: 'message_thread',
    targetId: thread.id,
    details: through,
  });
  return view;
}

/**
 * The conversation between a dispute's buyer and seller about its order, read by staff through
 * the dispute (audited); null when they never wrote to each other. The order's thread is about
 * its first book; failing that, the one about the earliest of its books they wrote about.
 */
export async function staffReadDisputeThread(
  db: Database,
  staffId: string,
  disputeId: string,
): Promise<ThreadView | null> {
  const dispute = await db
    .selectFrom('disputes as d')
    .innerJoin('orders as o', 'o.id', 'd.order_id')
    .leftJoin('order_items as i', 'i.order_id', 'o.id')
    .leftJoin('message_threads as t', (join) =>
      join.onRef('t.listing_id', '=', 'i.listing_id').onRef('t.buyer_id', '=', 'o.buyer_id'),
    )
    .select(['d.id', 't.id as thread_id'])
    .where('d.id', '=', disputeId)
    .orderBy(sql`t.id is null`)
    .orderBy('i.position')
    .limit(1)
    .executeTakeFirst();
  if (!dispute) throw new AppError('NOT_FOUND', 'We could not find that dispute.');
  if (!dispute.thread_id) return null;
  return staffReadThread(db, staffId, { threadId: dispute.thread_id, disputeId });
}

/** The conversation a reported message is in (for the staff reports queue's link). */
export async function threadOfReportedMessage(db: Database, messageId: string): Promise<string | null> {
  const row = await db
    .selectFrom('messages')
    .select('thread_id')
    .where('id', '=', messageId)
    .executeTakeFirst();
  return row?.thread_id ?? null;
}
