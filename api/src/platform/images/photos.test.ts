/**
 * Photo checks and web sizes on real (tiny, generated) images: the type comes from the bytes,
 * not the name; over 10 MB is refused; sizes fit 1600 px and 400 px without enlarging; the
 * photo is turned upright and its metadata (GPS included) is not copied.
 */
import { PHOTO_FORMATS, PHOTO_WIDTHS, SELLING_LIMITS, SELLING_MESSAGES } from '@reshelf/contracts';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../errors.ts';
import { solidPng } from '../../testing/selling.ts';
import { imageWork } from './image-work.ts';
import { photoSizesFromLarge, processPhoto, sniffImageType } from './photos.ts';

function image(width: number, height: number, colour = '#8c2f24') {
  return sharp({ create: { width, height, channels: 3, background: colour } });
}

async function refusal(bytes: Buffer): Promise<AppError> {
  try {
    await processPhoto(bytes);
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('what a file is', () => {
  it('reads JPEG, PNG and WebP from their first bytes', async () => {
    expect(sniffImageType(await image(4, 4).jpeg().toBuffer())).toBe('image/jpeg');
    expect(sniffImageType(await image(4, 4).png().toBuffer())).toBe('image/png');
    expect(sniffImageType(await image(4, 4).webp().toBuffer())).toBe('image/webp');
  });

  it('refuses a text file whatever it is called, and other image types', async () => {
    expect(sniffImageType(Buffer.from('this is not a photo, honestly'))).toBeNull();
    expect(sniffImageType(Buffer.from('GIF89a......'))).toBeNull();
    expect(sniffImageType(Buffer.from([0xff, 0xd8]))).toBeNull();
    expect(sniffImageType(Buffer.alloc(0))).toBeNull();
    const text = await refusal(Buffer.from('PNG? No: a text file called photo.png\n'));
    expect(text.code).toBe('BAD_INPUT');
    expect(text.message).toBe(SELLING_MESSAGES.photoNotImage);
  });

  it('refuses a file with an image signature that is damaged', async () => {
    const png = await image(20, 20).png().toBuffer();
    const broken = Buffer.concat([png.subarray(0, 40), Buffer.alloc(200, 7)]);
    expect((await refusal(broken)).message).toBe(SELLING_MESSAGES.photoUnreadable);
  });

  it('refuses an image over 40 megapixels from its header, without decoding it', async () => {
    const huge = await solidPng(10_000, 5_000); // 50 megapixels in a file of about 150 KB
    expect(huge.length).toBeLessThan(SELLING_LIMITS.maxPhotoBytes / 10);
    const before = imageWork.stats().started;
    const refused = await refusal(huge);
    expect(refused.code).toBe('BAD_INPUT');
    expect(refused.message).toBe(SELLING_MESSAGES.photoTooManyPixels);
    expect(refused.message).toMatch(/^This image is larger than 40 megapixels\./);
    expect(imageWork.stats().started).toBe(before); // no image work began: nothing was decoded
  });

  it('draws the line at 40,000,000 pixels exactly, by the header', async () => {
    // Only the header matters to the check: a PNG cut off after its IHDR, saying a size.
    const withSize = async (width: number, height: number) => {
      const bytes = Buffer.from((await solidPng(width, 1)).subarray(0, 33)); // signature and IHDR
      bytes.writeUInt32BE(height, 20);
      return bytes;
    };
    expect((await refusal(await withSize(8_000, 5_001))).message).toBe(SELLING_MESSAGES.photoTooManyPixels);
    // Exactly 40 megapixels passes the check, and this file then fails to decode.
    expect((await refusal(await withSize(8_000, 5_000))).message).toBe(SELLING_MESSAGES.photoUnreadable);
  });

  it('refuses anything over 10 MB before looking at it', async () => {
    const big = Buffer.alloc(SELLING_LIMITS.maxPhotoBytes + 1, 0);
    big.set([0xff, 0xd8, 0xff]);
    expect((await refusal(big)).message).toBe(SELLING_MESSAGES.photoTooBig);
  });
});

describe('web sizes', () => {
  it('fits a large photo inside 1600 px and 400 px squares, as WebP', async () => {
    const photo = await processPhoto(await image(3000, 2000).jpeg({ quality: 90 }).toBuffer());
    expect(photo.sourceType).toBe('image/jpeg');
    expect([photo.large.width, photo.large.height]).toEqual([1600, 1067]);
    expect([photo.thumb.width, photo.thumb.height]).toEqual([400, 267]);
    const large = await sharp(photo.large.body).metadata();
    expect([large.format, large.width, large.height]).toEqual(['webp', 1600, 1067]);
    const thumb = await sharp(photo.thumb.body).metadata();
    expect([thumb.format, thumb.width, thumb.height]).toEqual(['webp', 400, 267]);
  });

  it('fits a portrait photo by its height', async () => {
    const photo = await processPhoto(await image(1200, 2400).png().toBuffer());
    expect([photo.large.width, photo.large.height]).toEqual([800, 1600]);
    expect([photo.thumb.width, photo.thumb.height]).toEqual([200, 400]);
  });

  it('never enlarges a small photo', async () => {
    const photo = await processPhoto(await image(120, 90).webp().toBuffer());
    expect([photo.large.width, photo.large.height]).toEqual([120, 90]);
    expect([photo.thumb.width, photo.thumb.height]).toEqual([120, 90]);
  });

  it('turns a photo upright from its EXIF orientation and drops its metadata, GPS included', async () => {
    // 80 × 40 pixels stored, with orientation 6: the camera was turned, so it shows 40 × 80.
    const original = await image(80, 40)
      .jpeg()
      .withMetadata({ orientation: 6 })
      .withExif({
        IFD0: { Make: 'Phone', Model: 'Camera' },
        IFD3: {
          GPSLatitudeRef: 'N',
          GPSLatitude: '51/1 30/1 0/1',
          GPSLongitudeRef: 'W',
          GPSLongitude: '2/1 35/1 0/1',
        },
      })
      .toBuffer();
    const before = await sharp(original).metadata();
    expect(before.orientation).toBe(6);
    expect(before.exif?.length).toBeGreaterThan(100);
    const photo = await processPhoto(original);
    expect([photo.large.width, photo.large.height]).toEqual([40, 80]);
    for (const variant of [photo.large, photo.thumb]) {
      const after = await sharp(variant.body).metadata();
      expect(after.exif).toBeUndefined();
      expect(after.xmp).toBeUndefined();
      expect(after.orientation).toBeUndefined();
      expect(variant.body.includes(Buffer.from('GPS'))).toBe(false);
    }
  });
});

describe('the sizes a listing photo is shown at (decision 0063)', () => {
  /** What each size is, read back from its bytes. */
  async function described(sizes: Awaited<ReturnType<typeof photoSizesFromLarge>>) {
    return Promise.all(
      sizes.map(async (size) => {
        const meta = await sharp(size.body).metadata();
        expect([meta.width, meta.height]).toEqual([size.width, size.height]);
        return `${size.name}.${size.format} ${meta.format} ${size.contentType} ${meta.width}x${meta.height}`;
      }),
    );
  }

  it('makes every width in AVIF and WebP, fitted inside the 3:4 frame, from one decode', async () => {
    const before = imageWork.stats().started;
    const photo = await processPhoto(await image(1500, 2000).jpeg().toBuffer(), { sizes: true });
    expect(imageWork.stats().started).toBe(before + 1);
    expect(photo.sizes).toHaveLength(PHOTO_WIDTHS.length * PHOTO_FORMATS.length);
    expect(await described(photo.sizes)).toEqual([
      '400.avif heif image/avif 400x533',
      '400.webp webp image/webp 400x533',
      '720.avif heif image/avif 720x960',
      '720.webp webp image/webp 720x960',
      '1080.avif heif image/avif 1080x1440',
      '1080.webp webp image/webp 1080x1440',
    ]);
    // The thumbnail is the smallest WebP; the large size is still the 1600 px square's.
    expect(photo.thumb).toBe(photo.sizes.find((size) => size.name === 400 && size.format === 'webp'));
    expect([photo.large.width, photo.large.height]).toEqual([1200, 1600]);
    expect((await sharp(photo.sizes[0]!.body).metadata()).compression).toBe('av1');
  });

  it('fits a wide photo by its width and never enlarges a small one', async () => {
    const wide = await processPhoto(await image(2000, 1000).png().toBuffer(), { sizes: true });
    expect(wide.sizes.map((size) => `${size.width}x${size.height}`)).toEqual([
      '400x200',
      '400x200',
      '720x360',
      '720x360',
      '1080x540',
      '1080x540',
    ]);
    const small = await processPhoto(await image(500, 600).png().toBuffer(), { sizes: true });
    expect(small.sizes.map((size) => size.width)).toEqual([400, 400, 500, 500, 500, 500]);
  });

  it('copies no metadata into any size', async () => {
    const original = await image(600, 800)
      .jpeg()
      .withExif({ IFD0: { Make: 'Phone' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 30/1 0/1' } })
      .toBuffer();
    const photo = await processPhoto(original, { sizes: true });
    for (const size of photo.sizes) {
      const meta = await sharp(size.body).metadata();
      expect(meta.exif).toBeUndefined();
      expect(meta.xmp).toBeUndefined();
      expect(size.body.includes(Buffer.from('GPS'))).toBe(false);
    }
  });

  it('makes no sizes unless asked (a conversation’s photo, a logo)', async () => {
    expect((await processPhoto(await image(60, 80).png().toBuffer())).sizes).toEqual([]);
  });

  it('makes the sizes of a photo already stored from its large WebP', async () => {
    const large = await image(1200, 1600).webp().toBuffer();
    expect(await described(await photoSizesFromLarge(large))).toEqual([
      '400.avif heif image/avif 400x533',
      '400.webp webp image/webp 400x533',
      '720.avif heif image/avif 720x960',
      '720.webp webp image/webp 720x960',
      '1080.avif heif image/avif 1080x1440',
      '1080.webp webp image/webp 1080x1440',
    ]);
  });
});
