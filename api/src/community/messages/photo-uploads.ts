/**
 * Photos uploaded to a conversation but never sent (decision 0035, "Unsent photos").
 *
 * A photo for a message, or for a report's or a seller's contest's evidence (commerce/disputes),
 * is stored as soon as the member picks it (photo-upload.route.ts) and only later sent. So that a
 * photo removed before sending, or a page closed, does not stay in storage for ever, every upload
 * is recorded in `message_photo_uploads` (before its files are written: a record without files is
 * harmless, files without a record would never be found again, as the storage port cannot list).
 * The transaction that writes a message, report or contest removes the records of the photos it
 * uses (`usePhotos`), and the job `message_photos.sweep` (`sweepUnsentPhotos`) deletes the files
 * of uploads left unused for UNSENT_PHOTO_HOURS, then their records.
 */
import { MESSAGE_TEXTS, UNSENT_PHOTO_HOURS } from '@reshelf/contracts';
import { sql, type Transaction } from 'kysely';
import type { DB } from '../../db/database.generated.ts';
import type { Database } from '../../db/index.ts';
import { AppError } from '../../errors.ts';
import type { StoragePort } from '../../platform/storage/port.ts';

type Executor = Database | Transaction<DB>;

/** Where a thread's photos are stored: the key prefix, chosen by the BFF. */
export function photoPrefix(threadId: string): string {
  return `messages/${threadId}/`;
}

/** The two stored sizes of one message photo. */
export function messagePhotoKeys(threadId: string, random: string): { large: string; thumb: string } {
  const prefix = `${photoPrefix(threadId)}${random}`;
  return { large: `${prefix}/1600.webp`, thumb: `${prefix}/400.webp` };
}

/** The random part of a message photo URL (what storeMessagePhoto hands out), or null. */
export function photoRandomOf(url: string): string | null {
  return /\/([0-9a-f]{16})\/1600\.webp$/.exec(url)?.[1] ?? null;
}

/** Records an upload before its files are written (the sweep deletes them if it is never used). */
export async function recordUpload(
  db: Executor,
  upload: { keys: { large: string; thumb: string }; url: string; threadId: string; uploaderId: string },
): Promise<void> {
  await db
    .insertInto('message_photo_uploads')
    .values({
      large_key: upload.keys.large,
      thumb_key: upload.keys.thumb,
      url: upload.url,
      thread_id: upload.threadId,
      uploaded_by: upload.uploaderId,
    })
    .execute();
}

/**
 * In the transaction that writes a message, report or contest carrying `urls` (already checked
 * to be the thread's own photos): removes their upload records, so the sweep never deletes them.
 * The record locks the upload against a sweep running now; a photo with no record was either sent
 * before (or uploaded before records were kept), and is taken if its files are still there, or
 * swept (a page left open past UNSENT_PHOTO_HOURS), and is refused: the member adds it again.
 */
export async function usePhotos(
  trx: Transaction<DB>,
  storage: StoragePort,
  threadId: string,
  urls: string[],
): Promise<void> {
  if (urls.length === 0) return;
  const claimed = await trx
    .deleteFrom('message_photo_uploads')
    .where('url', 'in', urls)
    .where('thread_id', '=', threadId)
    .returning('url')
    .execute();
  const recorded = new Set(claimed.map((row) => row.url));
  for (const url of urls) {
    if (recorded.has(url)) continue;
    const random = photoRandomOf(url);
    const present = random ? await storage.get(messagePhotoKeys(threadId, random).large) : null;
    if (!present) throw new AppError('BAD_INPUT', MESSAGE_TEXTS.photoGone, { field: 'photos' });
  }
}

/** Uploads looked at per transaction of the sweep, and transactions per run. */
export const SWEEP_BATCH = 50;
const SWEEP_BATCHES_PER_RUN = 20;

/**
 * The job message_photos.sweep: deletes the files (both sizes) of every upload recorded more than
 * UNSENT_PHOTO_HOURS ago and still unused, then its record; answers how many records went.
 *
 * In batches of SWEEP_BATCH, oldest first, each in a transaction holding its records (FOR UPDATE
 * SKIP LOCKED, so a message sending one of them waits for the batch, then finds it gone and is
 * refused rather than pointing at deleted files). Belt and braces: an upload whose URL a message
 * of its thread or a dispute (report or contest photos) carries keeps its files; only its stale
 * record goes. Files are deleted one upload at a time: when storage refuses, that record stays
 * (and is tried again on the next run) and the others carry on. Idempotent: a run after a
 * complete one finds nothing, and deleting a key already gone is not an error.
 */
export async function sweepUnsentPhotos(context: {
  db: Database;
  storage: StoragePort;
  log?: (message: string, error?: unknown) => void;
}): Promise<number> {
  const { db, storage } = context;
  const cutoff = new Date(Date.now() - UNSENT_PHOTO_HOURS * 3_600_000);
  let removed = 0;
  let after: { createdAt: Date; largeKey: string } | null = null;
  for (let batch = 0; batch < SWEEP_BATCHES_PER_RUN; batch += 1) {
    const from = after;
    const outcome = await db.transaction().execute(async (trx) => {
      let query = trx
        .selectFrom('message_photo_uploads')
        .select(['large_key', 'thumb_key', 'url', 'thread_id', 'created_at'])
        .where('created_at', '<', cutoff);
      if (from) {
        query = query.where((eb) =>
          eb.or([
            eb('created_at', '>', from.createdAt),
            eb.and([eb('created_at', '=', from.createdAt), eb('large_key', '>', from.largeKey)]),
          ]),
        );
      }
      const due = await query
        .orderBy('created_at')
        .orderBy('large_key')
        .limit(SWEEP_BATCH)
        .forUpdate()
        .skipLocked()
        .execute();
      if (due.length === 0) return { seen: 0, removed: 0, last: null };
      const used = new Set(await referencedUrls(trx, due));
      const gone: string[] = [];
      for (const upload of due) {
        if (!used.has(upload.url)) {
          try {
            await storage.delete([upload.large_key, upload.thumb_key]);
          } catch (error) {
            context.log?.(
              `message photo ${upload.large_key}: storage delete failed, kept for the next run`,
              error,
            );
            continue;
          }
        }
        gone.push(upload.large_key);
      }
      if (gone.length > 0)
        await trx.deleteFrom('message_photo_uploads').where('large_key', 'in', gone).execute();
      const last = due.at(-1)!;
      return {
        seen: due.length,
        removed: gone.length,
        last: { createdAt: last.created_at, largeKey: last.large_key },
      };
    });
    removed += outcome.removed;
    if (outcome.seen < SWEEP_BATCH || !outcome.last) break;
    after = outcome.last;
  }
  return removed;
}

/** The URLs among `uploads` that a message of their thread, or a dispute, carries. */
async function referencedUrls(
  trx: Transaction<DB>,
  uploads: { url: string; thread_id: string }[],
): Promise<string[]> {
  const { rows } = await sql<{ url: string }>`
    select u.url from (
      select unnest(${sql.val(uploads.map((upload) => upload.url))}::text[]) as url,
             unnest(${sql.val(uploads.map((upload) => upload.thread_id))}::uuid[]) as thread_id
    ) u
    where exists (
        select 1 from messages m
        where m.thread_id = u.thread_id and m.photos @> jsonb_build_array(u.url)
      )
      or exists (
        select 1 from disputes d
        where u.url = any (d.photos) or u.url = any (d.seller_photos)
      )`.execute(trx);
  return rows.map((row) => row.url);
}
