/**
 * The backfill of photo sizes (decision 0063) through the real app and storage: a photo stored
 * before there were sizes shows meanwhile (the storage route's stand-in), gains every size from
 * the job photos.sizes a few photos a round, resumes where it stopped, and a second pass changes
 * nothing: no file is written again, the old thumbnail is kept as it was.
 */
import { randomBytes } from 'node:crypto';
import {
  PHOTO_FORMAT_TYPES,
  PHOTO_FORMATS,
  PHOTO_WIDTHS,
  photoSizeUrl,
  photoThumbUrl,
} from '@reshelf/contracts';
import sharp from 'sharp';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/index.ts';
import { type JobContext, runJob } from '../../jobs.ts';
import type { StoragePort } from '../../platform/storage/port.ts';
import { STAND_IN_SECONDS } from '../../platform/storage/storage.route.ts';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { createUser } from '../../testing/auth.ts';
import { createBook, createListing } from '../../testing/catalogue.ts';
import { orderDepsFor } from '../../testing/orders.ts';
import { backfillPhotoSizes, PHOTO_SIZES_VERSION, storedPhotoFolder } from './photo-sizes.ts';

let t: TestApp;
let db: Database;
let storage: StoragePort;
let context: JobContext;
let sellerId: string;
let bookId: string;

beforeAll(async () => {
  t = await createTestApp();
  db = t.database.handle.db;
  storage = t.services.storage;
  context = { ...orderDepsFor(t), storage };
  sellerId = (await createUser(db, t.services.identity, 'seller@photo-sizes.test')).id;
  bookId = await createBook(db, { title: 'Persuasion', authors: ['Jane Austen'] });
});

afterAll(async () => {
  await t.close();
});

/** A listing with a photo as uploads stored it before sizes: the large WebP and a 400 px square thumbnail. */
async function oldPhoto(colour: string): Promise<{ listingId: string; url: string; thumb: Buffer }> {
  const listing = await createListing(db, { sellerId, bookId, status: 'draft' });
  const folder = `listings/${listing.id}/${randomBytes(8).toString('hex')}`;
  const pixels = sharp({ create: { width: 900, height: 1200, channels: 3, background: colour } });
  await storage.put(`${folder}/1600.webp`, await pixels.clone().webp().toBuffer(), 'image/webp');
  const thumb = await pixels.clone().resize(300, 400).webp().toBuffer();
  await storage.put(`${folder}/400.webp`, thumb, 'image/webp');
  const url = storage.publicUrl(`${folder}/1600.webp`);
  await db
    .updateTable('listings')
    .set({ photos: JSON.stringify([url]) })
    .where('id', '=', listing.id)
    .execute();
  return { listingId: listing.id, url, thumb };
}

const get = (url: string) => request(t.app.server).get(url).buffer(true);

async function progress() {
  return db
    .selectFrom('photo_size_backfill')
    .select(['after_listing', 'photos', 'finished_at'])
    .where('version', '=', PHOTO_SIZES_VERSION)
    .executeTakeFirst();
}

describe('photos stored before there were sizes', () => {
  it('show meanwhile, gain every size a few a round, resume, and a second pass changes nothing', async () => {
    // Whatever else this database holds: this test's pass starts from the first listing.
    await db.deleteFrom('photo_size_backfill').execute();
    const first = await oldPhoto('#8c2f24');
    const second = await oldPhoto('#1f3a5f');

    // Before the job: a size not made yet is answered by the thumbnail or the large file, briefly.
    const early = await get(photoSizeUrl(first.url, 720, 'avif'));
    expect([early.status, early.headers['content-type']]).toEqual([200, 'image/webp']);
    expect(early.headers['cache-control']).toBe(`public, max-age=${STAND_IN_SECONDS}`);
    expect((await sharp(early.body).metadata()).width).toBe(900);
    const small = await get(photoSizeUrl(first.url, 400, 'avif'));
    expect(Buffer.compare(small.body, first.thumb)).toBe(0);
    // A file that is no size of a photo is still a plain 404.
    expect((await get(first.url.replace('1600.webp', '500.avif'))).status).toBe(404);

    // One photo a round: the pass stops after the first listing and resumes after it.
    expect(await backfillPhotoSizes({ db, storage }, { photosPerRun: 1 })).toBe(1);
    expect(await progress()).toMatchObject({ photos: 1, finished_at: null });
    const firstDone = (await progress())!.after_listing!;
    expect([first.listingId, second.listingId]).toContain(firstDone);
    expect(await backfillPhotoSizes({ db, storage }, { photosPerRun: 1 })).toBe(1);
    expect(await runJob(context, 'photos.sizes')).toBe(0);
    expect(await progress()).toMatchObject({ photos: 2, finished_at: expect.any(Date) });

    for (const photo of [first, second]) {
      for (const width of PHOTO_WIDTHS) {
        for (const format of PHOTO_FORMATS) {
          const file = await get(photoSizeUrl(photo.url, width, format));
          expect([width, format, file.status, file.headers['content-type']]).toEqual([
            width,
            format,
            200,
            PHOTO_FORMAT_TYPES[format],
          ]);
          expect(file.headers['cache-control']).toBe('public, max-age=31536000, immutable');
          if (width === 400 && format === 'webp') {
            // The thumbnail it always had is kept as it was (its address is cached for ever).
            expect(Buffer.compare(file.body, photo.thumb)).toBe(0);
          } else {
            const meta = await sharp(file.body).metadata();
            expect(meta.width).toBe(Math.min(width, 900));
            expect(meta.format).toBe(format === 'avif' ? 'heif' : 'webp');
          }
        }
      }
      expect(photoThumbUrl(photo.url)).toBe(photoSizeUrl(photo.url, 400, 'webp'));
    }

    // Finished: a round costs one lookup. Even a pass from the start again writes nothing.
    expect(await runJob(context, 'photos.sizes')).toBe(0);
    await db.deleteFrom('photo_size_backfill').execute();
    const written: string[] = [];
    const counting: StoragePort = {
      ...storage,
      put: async (key, body, type) => {
        written.push(key);
        await storage.put(key, body, type);
      },
    };
    expect(await backfillPhotoSizes({ db, storage: counting })).toBe(0);
    expect(written).toEqual([]);
    expect(await progress()).toMatchObject({ photos: 0, finished_at: expect.any(Date) });
  });

  it('passes over a photo whose files are gone, and addresses that are not stored photos', async () => {
    await db.deleteFrom('photo_size_backfill').execute();
    const gone = await oldPhoto('#3f5a45');
    await storage.delete([
      `${storedPhotoFolder(gone.url)}/1600.webp`,
      `${storedPhotoFolder(gone.url)}/400.webp`,
    ]);
    const elsewhere = await createListing(db, { sellerId, bookId, status: 'draft' });
    await db
      .updateTable('listings')
      .set({ photos: JSON.stringify(['https://covers.example/b/1600.webp.png']) })
      .where('id', '=', elsewhere.id)
      .execute();
    expect(await runJob(context, 'photos.sizes')).toBe(0);
    expect(await progress()).toMatchObject({ finished_at: expect.any(Date) });
    expect((await get(photoSizeUrl(gone.url, 720, 'avif'))).status).toBe(404);
  });

  it('knows a stored photo’s folder on either storage, and nothing else', () => {
    const id = '0b6f3a52-3c55-4d1e-9a51-0f9f4c1f2a10';
    expect(storedPhotoFolder(`/storage/listings/${id}/ab12/1600.webp`)).toBe(`listings/${id}/ab12`);
    expect(
      storedPhotoFolder(`https://x.supabase.co/storage/v1/object/public/b/demo-covers/0f0f/1600.webp`),
    ).toBe('demo-covers/0f0f');
    expect(storedPhotoFolder(`/storage/messages/${id}/ab12/1600.webp`)).toBeNull();
    expect(storedPhotoFolder('https://covers.openlibrary.org/b/isbn/1-L.jpg')).toBeNull();
  });
});
