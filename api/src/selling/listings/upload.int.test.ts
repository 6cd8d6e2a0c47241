/**
 * Photo uploads through the real app (POST /api/uploads/listing-photo) and the files served
 * back (GET /storage/<key>): real PNG and JPEG files, a text file dressed as a photo, a file
 * over 10 MB, the session and CSRF rules, the photo limit, and nothing stored when refused.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import {
  PHOTO_FORMAT_TYPES,
  PHOTO_FORMATS,
  PHOTO_WIDTHS,
  photoSizeUrl,
  SELLING_LIMITS,
  SELLING_MESSAGES,
  type SellerListing,
} from '@reshelf/contracts';
import sharp from 'sharp';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  IMAGE_BUSY_RETRY_SECONDS,
  IMAGE_WORK_CONCURRENCY,
  IMAGE_WORK_QUEUE,
  imageWork,
} from '../../platform/images/image-work.ts';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { createUser, type TestUser } from '../../testing/auth.ts';
import { createBook } from '../../testing/catalogue.ts';
import { api } from '../../testing/client.ts';
import { photo, solidPng, uploadListingPhoto } from '../../testing/selling.ts';

let t: TestApp;
let seller: TestUser;
let other: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.handle.db;
  seller = await createUser(db, t.services.identity, 'seller@upload.test');
  other = await createUser(db, t.services.identity, 'other@upload.test');
  await createBook(db, { title: 'Middlemarch', authors: ['George Eliot'], isbn13: '9780141439549' });
});

afterAll(async () => {
  await t.close();
});

async function newDraft(user: TestUser = seller): Promise<SellerListing> {
  return (await api(t.app, user.accessToken).selling.listings.start.mutate({ isbn: null })).listing;
}

/** The files one photo is: its large size and every size in both formats. */
const FILES_PER_PHOTO = 1 + PHOTO_WIDTHS.length * PHOTO_FORMATS.length;

/** Every file the embedded storage holds for a listing. */
async function storedFiles(listingId: string): Promise<string[]> {
  const dir = path.join(t.config.dataDir, 'storage', 'listings', listingId);
  try {
    const photos = await readdir(dir);
    return (
      await Promise.all(photos.map(async (p) => (await readdir(path.join(dir, p))).map((f) => `${p}/${f}`)))
    ).flat();
  } catch {
    return [];
  }
}

describe('uploading a listing photo', () => {
  it('takes a JPEG, stores 1600 px and 400 px WebP, adds it to the draft and serves it for ever', async () => {
    const draft = await newDraft();
    const jpeg = await photo(3000, 2000, 'jpeg');
    const response = await uploadListingPhoto(
      t.app,
      seller.accessToken,
      draft.id,
      jpeg,
      'IMG_0001.JPG',
      'image/jpeg',
    );
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ width: 1600, height: 1067 });
    expect(response.body.url).toMatch(new RegExp(`^/storage/listings/${draft.id}/[a-f0-9]{16}/1600\\.webp$`));
    expect(response.body.thumbUrl).toBe(response.body.url.replace('/1600.webp', '/400.webp'));
    expect(response.body.listing.photos).toEqual([response.body.url]);
    expect(response.body.listing.missing).not.toContain('photos');

    const large = await request(t.app.server).get(response.body.url);
    expect(large.status).toBe(200);
    expect(large.headers['content-type']).toBe('image/webp');
    expect(large.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(await sharp(large.body).metadata()).toMatchObject({ format: 'webp', width: 1600, height: 1067 });
    const thumb = await request(t.app.server).get(response.body.thumbUrl);
    expect(await sharp(thumb.body).metadata()).toMatchObject({ width: 400, height: 267 });
  });

  it('stores every size in AVIF and WebP, served with its type, cached for ever, without metadata', async () => {
    const draft = await newDraft();
    // A portrait photo, as most photos of a book are: each size is exactly as wide as its name.
    const jpeg = await sharp(await photo(1500, 2000, 'jpeg'))
      .withMetadata({ exif: { IFD0: { Copyright: 'Someone' } } })
      .jpeg()
      .toBuffer();
    const response = await uploadListingPhoto(
      t.app,
      seller.accessToken,
      draft.id,
      jpeg,
      'p.jpg',
      'image/jpeg',
    );
    expect(response.status).toBe(201);
    const url: string = response.body.url;
    const served: string[] = [];
    for (const width of PHOTO_WIDTHS) {
      for (const format of PHOTO_FORMATS) {
        const file = await request(t.app.server)
          .get(photoSizeUrl(url, width, format))
          .buffer(true);
        expect(file.status).toBe(200);
        expect(file.headers['content-type']).toBe(PHOTO_FORMAT_TYPES[format]);
        expect(file.headers['cache-control']).toBe('public, max-age=31536000, immutable');
        const meta = await sharp(file.body).metadata();
        expect(meta).toMatchObject({ format: format === 'avif' ? 'heif' : 'webp', width });
        expect(meta.height).toBe(Math.round((width * 4) / 3));
        expect(meta.exif).toBeUndefined();
        served.push(`${width}.${format}`);
      }
    }
    expect(served).toHaveLength(PHOTO_WIDTHS.length * PHOTO_FORMATS.length);
    // Every file of the photo is in its folder: the large size and each of the sizes, no more.
    const folder = url.split('/').at(-2)!;
    expect((await storedFiles(draft.id)).sort()).toEqual(
      ['1600.webp', ...served].map((file) => `${folder}/${file}`).sort(),
    );
  });

  it('takes a PNG sent with no useful name or type: the bytes decide', async () => {
    const draft = await newDraft();
    const response = await uploadListingPhoto(
      t.app,
      seller.accessToken,
      draft.id,
      await photo(300, 400, 'png'),
      'blob',
      'application/octet-stream',
    );
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ width: 300, height: 400 });
  });

  it('refuses a text file called photo.jpg, with the message, and stores nothing', async () => {
    const draft = await newDraft();
    const response = await uploadListingPhoto(
      t.app,
      seller.accessToken,
      draft.id,
      Buffer.from('Definitely a photo of my book. Trust me.\n'),
      'photo.jpg',
      'image/jpeg',
    );
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: 'Bad Request', message: SELLING_MESSAGES.photoNotImage });
    expect(await storedFiles(draft.id)).toEqual([]);
    expect(
      (await api(t.app, seller.accessToken).selling.listings.get.query({ listingId: draft.id })).photos,
    ).toEqual([]);
  });

  it('refuses a file over 10 MB with 413 and the message', async () => {
    const draft = await newDraft();
    const big = Buffer.alloc(SELLING_LIMITS.maxPhotoBytes + 1024, 0x20);
    big.set([0xff, 0xd8, 0xff, 0xe0]);
    const response = await uploadListingPhoto(
      t.app,
      seller.accessToken,
      draft.id,
      big,
      'huge.jpg',
      'image/jpeg',
    );
    expect(response.status).toBe(413);
    expect(response.body.message).toBe(SELLING_MESSAGES.photoTooBig);
    expect(await storedFiles(draft.id)).toEqual([]);
  });

  it('takes a large photo just under 10 MB (the API’s 1 MB JSON limit does not apply)', async () => {
    const draft = await newDraft();
    // Noise does not compress: a real multi-megabyte PNG.
    const noise = Buffer.alloc(1500 * 1500 * 3);
    for (let i = 0; i < noise.length; i++) noise[i] = (i * 2654435761) >>> 24;
    const png = await sharp(noise, { raw: { width: 1500, height: 1500, channels: 3 } })
      .png({ compressionLevel: 0 })
      .toBuffer();
    expect(png.length).toBeGreaterThan(5 * 1024 * 1024);
    expect(png.length).toBeLessThan(SELLING_LIMITS.maxPhotoBytes);
    const response = await uploadListingPhoto(
      t.app,
      seller.accessToken,
      draft.id,
      png,
      'scan.png',
      'image/png',
    );
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ width: 1500, height: 1500 });
  });

  it('takes at most 8 photos per listing', async () => {
    const draft = await newDraft();
    const small = await photo(20, 20);
    for (let i = 0; i < SELLING_LIMITS.maxPhotos; i++) {
      expect((await uploadListingPhoto(t.app, seller.accessToken, draft.id, small)).status).toBe(201);
    }
    const ninth = await uploadListingPhoto(t.app, seller.accessToken, draft.id, small);
    expect(ninth.status).toBe(400);
    expect(ninth.body.message).toBe(SELLING_MESSAGES.tooManyPhotos);
    expect(await storedFiles(draft.id)).toHaveLength(SELLING_LIMITS.maxPhotos * FILES_PER_PHOTO);
  });

  it('removes a photo and its files; deleting a draft deletes its files', async () => {
    const draft = await newDraft();
    const calls = api(t.app, seller.accessToken);
    const first = (await uploadListingPhoto(t.app, seller.accessToken, draft.id, await photo(30, 30))).body;
    const second = (await uploadListingPhoto(t.app, seller.accessToken, draft.id, await photo(40, 30))).body;
    expect(await storedFiles(draft.id)).toHaveLength(2 * FILES_PER_PHOTO);
    const reordered = await calls.selling.listings.reorderPhotos.mutate({
      listingId: draft.id,
      photos: [second.url, first.url],
    });
    expect(reordered.photos).toEqual([second.url, first.url]);
    const after = await calls.selling.listings.removePhoto.mutate({ listingId: draft.id, url: first.url });
    expect(after.photos).toEqual([second.url]);
    expect((await request(t.app.server).get(first.url)).status).toBe(404);
    expect(await storedFiles(draft.id)).toHaveLength(FILES_PER_PHOTO);
    await calls.selling.listings.deleteDraft.mutate({ listingId: draft.id });
    expect(await storedFiles(draft.id)).toEqual([]);
  });

  it('follows the API’s access rules: signed in, the owner, and the CSRF header for cookie sessions', async () => {
    const draft = await newDraft();
    const png = await photo();
    const url = `/api/uploads/listing-photo?listingId=${draft.id}`;
    // A cookie session (or none) without the client header: refused before anything else.
    const noHeader = await request(t.app.server)
      .post(url)
      .set('cookie', `reshelf_at=${seller.accessToken}`)
      .attach('photo', png, 'a.png');
    expect(noHeader.status).toBe(403);
    expect(noHeader.body.message).toMatch(/x-reshelf-client/);
    // With the header, the cookie session is enough.
    const cookie = await request(t.app.server)
      .post(url)
      .set('cookie', `reshelf_at=${seller.accessToken}`)
      .set('x-reshelf-client', 'web')
      .attach('photo', png, 'a.png');
    expect(cookie.status).toBe(201);
    // From another site: refused.
    const foreign = await request(t.app.server)
      .post(url)
      .set('cookie', `reshelf_at=${seller.accessToken}`)
      .set('x-reshelf-client', 'web')
      .set('origin', 'https://evil.example')
      .attach('photo', png, 'a.png');
    expect(foreign.status).toBe(403);
    // Nobody signed in.
    const anonymous = await request(t.app.server)
      .post(url)
      .set('x-reshelf-client', 'web')
      .attach('photo', png, 'a.png');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.message).toBe('Please sign in to continue.');
    // Someone else's listing, a missing listing id, no file.
    const theirs = await uploadListingPhoto(t.app, other.accessToken, draft.id, png);
    expect(theirs.status).toBe(404);
    expect(theirs.body.message).toBe(SELLING_MESSAGES.notYours);
    const noListing = await request(t.app.server)
      .post('/api/uploads/listing-photo')
      .set('authorization', `Bearer ${seller.accessToken}`)
      .attach('photo', png, 'a.png');
    expect(noListing.status).toBe(400);
    const noFile = await request(t.app.server)
      .post(url)
      .set('authorization', `Bearer ${seller.accessToken}`)
      .field('note', 'no file here');
    expect(noFile.status).toBe(400);
    expect(noFile.body.message).toBe(SELLING_MESSAGES.photoMissingFile);
  });
});

describe('image work, bounded (decision 0026)', () => {
  it('refuses a 50-megapixel PNG from its header with the message, and never decodes it', async () => {
    const draft = await newDraft();
    const huge = await solidPng(10_000, 5_000);
    expect(huge.length).toBeLessThan(1024 * 1024); // a small file: one colour deflates to nothing
    const before = imageWork.stats().started;
    const response = await uploadListingPhoto(
      t.app,
      seller.accessToken,
      draft.id,
      huge,
      'huge.png',
      'image/png',
    );
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: 'Bad Request', message: SELLING_MESSAGES.photoTooManyPixels });
    expect(response.body.message).toMatch(/^This image is larger than 40 megapixels\./);
    expect(imageWork.stats().started).toBe(before);
    expect(await storedFiles(draft.id)).toEqual([]);
    // A charity's logo goes the same way.
    const logo = await request(t.app.server)
      .post('/api/uploads/charity-logo')
      .set('authorization', `Bearer ${seller.accessToken}`)
      .attach('file', huge, { filename: 'logo.png', contentType: 'image/png' });
    expect(logo.status).toBe(400);
    expect(logo.body.message).toBe(SELLING_MESSAGES.photoTooManyPixels);
    expect(imageWork.stats().started).toBe(before);
  });

  it('takes 12 large uploads at once, two decoding at a time, with memory bounded', async () => {
    // 36 megapixels each, under the limit: 108 MB apiece once decoded.
    const big = await solidPng(6_000, 6_000);
    const drafts = await Promise.all(Array.from({ length: 12 }, () => newDraft()));
    imageWork.resetStats();
    const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 5);
    const started = performance.now();
    let responses: Awaited<ReturnType<typeof uploadListingPhoto>>[];
    try {
      responses = await Promise.all(
        drafts.map((draft, n) =>
          uploadListingPhoto(t.app, seller.accessToken, draft.id, big, `big-${n}.png`, 'image/png'),
        ),
      );
    } finally {
      clearInterval(sampler);
    }
    peak = Math.max(peak, process.memoryUsage().rss);
    const after = process.memoryUsage().rss;
    const stats = imageWork.stats();
    console.info(
      `12 uploads of 36 MP: ${Math.round(performance.now() - started)} ms; RSS ${mb(before)} MB before, ` +
        `${mb(peak)} MB at most (+${mb(peak - before)} MB), ${mb(after)} MB after; ` +
        `at most ${stats.maxActive} decoding at once`,
    );
    expect(responses.map((response) => response.status)).toEqual(Array(12).fill(201));
    expect(responses[0]!.body).toMatchObject({ width: 1600, height: 1600 });
    expect(stats).toMatchObject({ started: 12, refused: 0, active: 0, queued: 0 });
    expect(stats.maxActive).toBeLessThanOrEqual(IMAGE_WORK_CONCURRENCY);
    // Twelve decoded at once would be 1.3 GB; two at a time stays far below even that of one run.
    expect(peak - before).toBeLessThan(500 * 1024 * 1024);
  });

  it('answers 503 with Retry-After while too many images are waiting, and takes them again after', async () => {
    const draft = await newDraft();
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const held = Array.from({ length: IMAGE_WORK_CONCURRENCY + IMAGE_WORK_QUEUE }, () =>
      imageWork.run(() => released),
    );
    try {
      const response = await uploadListingPhoto(
        t.app,
        seller.accessToken,
        draft.id,
        await photo(),
        'p.png',
        'image/png',
      );
      expect(response.status).toBe(503);
      expect(response.headers['retry-after']).toBe(String(IMAGE_BUSY_RETRY_SECONDS));
      expect(response.body).toEqual({ error: 'Service Unavailable', message: SELLING_MESSAGES.photoBusy });
      expect(await storedFiles(draft.id)).toEqual([]);
    } finally {
      release();
      await Promise.all(held);
    }
    const again = await uploadListingPhoto(
      t.app,
      seller.accessToken,
      draft.id,
      await photo(),
      'p.png',
      'image/png',
    );
    expect(again.status).toBe(201);
  });
});

describe('serving stored files', () => {
  it('answers 404 for missing files and for anything that tries to leave the storage folder', async () => {
    for (const url of [
      '/storage/listings/nothing/here/1600.webp',
      '/storage/../app.secret',
      '/storage/..%2F..%2Fpackage.json',
      '/storage/listings/%2e%2e/%2e%2e/package.json',
      '/storage/',
      '/storage/UPPER/case.webp',
    ]) {
      const response = await request(t.app.server).get(url);
      expect(response.status, url).toBe(404);
      expect(response.headers['content-type'] ?? '', url).not.toMatch(/image/);
    }
  });
});
