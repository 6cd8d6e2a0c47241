/**
 * Listing photos: what an upload is (read from its first bytes, never its name or the type the
 * browser claims), whether it is small enough, and its web sizes. sharp (libvips, shipped
 * prebuilt inside its npm packages) turns the photo the right way up from its EXIF orientation,
 * fits it inside a 1600 px square without enlarging it (the zoom view's WebP), and, for a
 * listing's photo, makes every size in PHOTO_WIDTHS in AVIF and WebP (decision 0063; the
 * smallest WebP is the thumbnail every photo has). Nothing of the original's metadata is copied:
 * EXIF (with any GPS location), XMP and ICC comments are left behind.
 *
 * Decoding costs what the pixels cost, whatever the file's size (decision 0026): the header is
 * read first and an image over 40 megapixels refused undecoded; the rest is decoded once (every
 * smaller size is made from the large one's pixels), inside the limiter every image path shares.
 *
 * AVIF is slow to encode: `effort` 1 of 0–9 (sharp's default, 4, took 2.4 s for the 720 px size
 * alone; effort 1 makes the three sizes in about 0.4 s, within 5% of effort 2's bytes: decision
 * 0063 has the figures).
 */
import {
  PHOTO_FORMAT_TYPES,
  PHOTO_FORMATS,
  PHOTO_FRAME,
  PHOTO_TYPES,
  PHOTO_WIDTHS,
  type PhotoFormat,
  type PhotoType,
  type PhotoWidth,
  SELLING_LIMITS,
  SELLING_MESSAGES,
} from '@reshelf/contracts';
import sharp from 'sharp';
import { AppError } from '../../errors.ts';
import { imageDimensions, imageWork } from './image-work.ts';

/** The image type of a file from its signature, or null when it is not one we accept. */
export function sniffImageType(bytes: Uint8Array): PhotoType | null {
  const starts = (signature: number[], offset = 0) =>
    bytes.length >= offset + signature.length && signature.every((byte, i) => bytes[offset + i] === byte);
  if (starts([0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  // RIFF....WEBP
  if (starts([0x52, 0x49, 0x46, 0x46]) && starts([0x57, 0x45, 0x42, 0x50], 8)) return 'image/webp';
  return null;
}

export interface PhotoVariant {
  body: Buffer;
  width: number;
  height: number;
  contentType: 'image/webp' | 'image/avif';
}

/** One of a photo's sizes: the width it is named by (PHOTO_WIDTHS) and its format. */
export interface PhotoSize extends PhotoVariant {
  name: PhotoWidth;
  format: PhotoFormat;
}

export interface ProcessedPhoto {
  sourceType: PhotoType;
  large: PhotoVariant;
  thumb: PhotoVariant;
  /** Every size in PHOTO_WIDTHS × PHOTO_FORMATS (the thumbnail among them), when asked for. */
  sizes: PhotoSize[];
}

/** How each format is written: quality, and for AVIF the effort (see the header). */
const ENCODING = {
  large: { quality: 82 },
  webp: { quality: 78 },
  avif: { quality: 50, effort: 1, chromaSubsampling: '4:2:0' },
} as const;

type Raw = { data: Buffer; info: { width: number; height: number; channels: 1 | 2 | 3 | 4 } };

async function encode(image: ReturnType<typeof sharp>, format: PhotoFormat | 'large'): Promise<PhotoVariant> {
  const encoded =
    format === 'avif'
      ? image.avif(ENCODING.avif)
      : image.webp(format === 'large' ? ENCODING.large : ENCODING.webp);
  const { data, info } = await encoded.toBuffer({ resolveWithObject: true });
  return {
    body: data,
    width: info.width,
    height: info.height,
    contentType: format === 'avif' ? PHOTO_FORMAT_TYPES.avif : PHOTO_FORMAT_TYPES.webp,
  };
}

/** One width from decoded pixels: fitted inside width × 4/3 width (the frame), never enlarged. */
function resized(raw: Raw, width: PhotoWidth) {
  return sharp(raw.data, { raw: raw.info }).resize({
    width,
    height: Math.round((width * PHOTO_FRAME.height) / PHOTO_FRAME.width),
    fit: 'inside',
    withoutEnlargement: true,
  });
}

/**
 * Every size in PHOTO_WIDTHS × PHOTO_FORMATS from a photo's decoded pixels, one after another
 * (one libvips thread: the limiter's slot is the bound on CPU and memory). A photo narrower than
 * a width is not enlarged: every width it fits inside whole is one encoding, stored under each name.
 */
export async function makePhotoSizes(raw: Raw): Promise<PhotoSize[]> {
  const { width, height } = raw.info;
  const whole = new Map<PhotoFormat, PhotoVariant>();
  const sizes: PhotoSize[] = [];
  for (const name of PHOTO_WIDTHS) {
    const fitsWhole = width <= name && height * PHOTO_FRAME.width <= name * PHOTO_FRAME.height;
    for (const format of PHOTO_FORMATS) {
      let variant = fitsWhole ? whole.get(format) : undefined;
      if (!variant) {
        variant = await encode(resized(raw, name), format);
        if (fitsWhole) whole.set(format, variant);
      }
      sizes.push({ ...variant, name, format });
    }
  }
  return sizes;
}

/**
 * The sizes of a photo already stored (its large WebP's bytes): the backfill's work for photos
 * stored before there were sizes (decision 0063). Inside the shared limiter, in the background
 * (waiting its turn behind uploads rather than refused).
 */
export async function photoSizesFromLarge(large: Buffer): Promise<PhotoSize[]> {
  return imageWork.run(
    async () => {
      const raw = await sharp(large, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' })
        .raw()
        .toBuffer({ resolveWithObject: true });
      return makePhotoSizes(raw as Raw);
    },
    { background: true },
  );
}

/** Pixels a photo may have; more is refused from the header, before decoding. */
export const MAX_INPUT_PIXELS = SELLING_LIMITS.maxPhotoPixels;

/**
 * Checks an uploaded file and makes its web sizes; refusals are AppErrors with the message to
 * show (BAD_INPUT, or UNAVAILABLE with `retryAfterSeconds` when too many images are waiting).
 */
export async function processPhoto(
  bytes: Buffer,
  options: { sizes?: boolean } = {},
): Promise<ProcessedPhoto> {
  if (bytes.length > SELLING_LIMITS.maxPhotoBytes)
    throw new AppError('BAD_INPUT', SELLING_MESSAGES.photoTooBig);
  const sourceType = sniffImageType(bytes);
  if (!sourceType || !(PHOTO_TYPES as readonly string[]).includes(sourceType)) {
    throw new AppError('BAD_INPUT', SELLING_MESSAGES.photoNotImage);
  }
  const size = imageDimensions(bytes);
  if (!size || size.width === 0 || size.height === 0) {
    throw new AppError('BAD_INPUT', SELLING_MESSAGES.photoUnreadable);
  }
  if (size.width * size.height > MAX_INPUT_PIXELS) {
    throw new AppError('BAD_INPUT', SELLING_MESSAGES.photoTooManyPixels, { ...size });
  }
  return imageWork.run(async () => {
    try {
      // Decoded once, upright, at the large size; every smaller size is made from that.
      const large = await sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' })
        .rotate()
        .resize({
          width: SELLING_LIMITS.photoLargePx,
          height: SELLING_LIMITS.photoLargePx,
          fit: 'inside',
          withoutEnlargement: true,
        })
        .raw()
        .toBuffer({ resolveWithObject: true });
      const raw = large as Raw;
      if (options.sizes) {
        const sizes = await makePhotoSizes(raw);
        const thumb = sizes.find(
          (size) => size.name === SELLING_LIMITS.photoThumbPx && size.format === 'webp',
        )!;
        return { sourceType, large: await encode(sharp(raw.data, { raw: raw.info }), 'large'), thumb, sizes };
      }
      return {
        sourceType,
        large: await encode(sharp(raw.data, { raw: raw.info }), 'large'),
        // Without the sizes (a conversation's photo, a logo): the thumbnail fits a 400 px square.
        thumb: await encode(
          sharp(raw.data, { raw: raw.info }).resize({
            width: SELLING_LIMITS.photoThumbPx,
            height: SELLING_LIMITS.photoThumbPx,
            fit: 'inside',
            withoutEnlargement: true,
          }),
          'webp',
        ),
        sizes: [],
      };
    } catch {
      throw new AppError('BAD_INPUT', SELLING_MESSAGES.photoUnreadable);
    }
  });
}
