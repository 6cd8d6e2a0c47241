/**
 * The job photos.sizes (decision 0063): listing photos stored before there were sizes (the
 * demo covers, and any real photo uploaded earlier) get every size in PHOTO_WIDTHS in AVIF and
 * WebP, made from their stored large WebP. New uploads make their sizes themselves (processPhoto),
 * so one pass over the listings is all it takes.
 *
 * - Resumable: listings are walked in id order and the row in photo_size_backfill says how far
 *   the pass has come; a restart goes on from there. A finished pass costs one lookup a round.
 * - Idempotent: only a size whose file is missing is made, and no file that exists is written
 *   again (an old photo keeps its thumbnail, `400.webp`, as it was); a photo with all its sizes
 *   costs a few lookups and no image work.
 * - Bounded: at most `photosPerRun` photos are made a round (the job runner runs its jobs one
 *   after another), in the background queue of the image limiter every image path shares, so an
 *   upload never waits behind the backfill for long and is never refused because of it.
 *
 * Until a photo has its sizes, the storage route answers for a missing size with the photo's
 * thumbnail or large file (storage.route.ts), so a page never shows a broken image meanwhile.
 */
import { PHOTO_FORMATS, PHOTO_WIDTHS, photoSizeKey, SELLING_LIMITS } from '@reshelf/contracts';
import { sql } from 'kysely';
import type { Database } from '../../db/index.ts';
import { photoSizesFromLarge } from '../../platform/images/photos.ts';
import type { StoragePort } from '../../platform/storage/port.ts';
import { photosOf } from './selling.service.ts';

/** Bump when PHOTO_WIDTHS or PHOTO_FORMATS change: the pass starts again from the first listing. */
export const PHOTO_SIZES_VERSION = 1;
/** Photos made in one round (each is a decode and six encodings: about a second of one core). */
export const PHOTOS_PER_RUN = 12;
/** Listings read at a time. */
const LISTINGS_PER_READ = 50;

/**
 * The storage folder of a stored listing photo or demo cover from its address (embedded or
 * hosted), e.g. "listings/<id>/<hex>"; null for anything else (a cover elsewhere).
 */
export function storedPhotoFolder(url: string): string | null {
  const match = new RegExp(
    `(?:^|/)((?:listings/[0-9a-f-]{36}|demo-covers)/[a-z0-9]+)/${SELLING_LIMITS.photoLargePx}\\.webp$`,
  ).exec(url);
  return match?.[1] ?? null;
}

/**
 * Makes the sizes a stored photo is missing: 0 when it has them all (or its large file is gone,
 * when there is nothing to make them from), 1 when it made some.
 */
export async function makeMissingSizes(storage: StoragePort, folder: string): Promise<0 | 1> {
  const keys = PHOTO_WIDTHS.flatMap((width) =>
    PHOTO_FORMATS.map((format) => ({ width, format, key: photoSizeKey(folder, width, format) })),
  );
  const missing = [];
  for (const entry of keys) if (!(await storage.get(entry.key))) missing.push(entry);
  if (missing.length === 0) return 0;
  const large = await storage.get(`${folder}/${SELLING_LIMITS.photoLargePx}.webp`);
  if (!large) return 0;
  const sizes = await photoSizesFromLarge(large.body);
  for (const { width, format, key } of missing) {
    const size = sizes.find((made) => made.name === width && made.format === format)!;
    await storage.put(key, size.body, size.contentType);
  }
  return 1;
}

/** One round of the backfill: how many photos gained sizes. */
export async function backfillPhotoSizes(
  deps: { db: Database; storage: StoragePort },
  options: { photosPerRun?: number } = {},
): Promise<number> {
  const { db, storage } = deps;
  const limit = options.photosPerRun ?? PHOTOS_PER_RUN;
  await db
    .insertInto('photo_size_backfill')
    .values({ version: PHOTO_SIZES_VERSION })
    .onConflict((oc) => oc.column('version').doNothing())
    .execute();
  const state = await db
    .selectFrom('photo_size_backfill')
    .select(['after_listing', 'finished_at'])
    .where('version', '=', PHOTO_SIZES_VERSION)
    .executeTakeFirstOrThrow();
  if (state.finished_at) return 0;

  let after = state.after_listing;
  let made = 0;
  /** Folders looked at this round (a demo cover is shared by every copy of its book). */
  const seen = new Set<string>();
  const save = async (finished: boolean, photos: number) => {
    await db
      .updateTable('photo_size_backfill')
      .set({
        after_listing: after,
        photos: sql<number>`photos + ${photos}`,
        ...(finished ? { finished_at: new Date() } : {}),
      })
      .where('version', '=', PHOTO_SIZES_VERSION)
      .execute();
  };
  while (made < limit) {
    let query = db
      .selectFrom('listings')
      .select(['id', 'photos'])
      .where(sql<boolean>`jsonb_array_length(photos) > 0`)
      .orderBy('id')
      .limit(LISTINGS_PER_READ);
    if (after) query = query.where('id', '>', after);
    const rows = await query.execute();
    if (rows.length === 0) {
      await save(true, 0);
      return made;
    }
    let madeHere = 0;
    for (const row of rows) {
      for (const url of photosOf(row.photos)) {
        const folder = storedPhotoFolder(url);
        if (!folder || seen.has(folder)) continue;
        seen.add(folder);
        madeHere += await makeMissingSizes(storage, folder);
      }
      after = row.id;
      // Stop between listings, so that the next round starts at the first one not done.
      if (made + madeHere >= limit) break;
    }
    made += madeHere;
    await save(false, madeHere);
  }
  return made;
}
