/**
 * Listing photos: what an upload is (read from its first bytes, never its name or the type the
 * browser claims), whether it is small enough, and its two web sizes. sharp (libvips, shipped
 * prebuilt inside its npm packages) turns the photo the right way up from its EXIF orientation,
 * fits it inside 1600 px and 400 px squares without enlarging it, and writes WebP. Nothing of
 * the original's metadata is copied: EXIF (with any GPS location), XMP and ICC comments are
 * left behind.
 */
import { PHOTO_TYPES, type PhotoType, SELLING_LIMITS, SELLING_MESSAGES } from '@reshelf/contracts';
import sharp from 'sharp';
import { AppError } from '../../errors.ts';

// One photo at a time per core is plenty; libvips' cache only costs memory here.
sharp.cache(false);

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
  contentType: 'image/webp';
}

export interface ProcessedPhoto {
  sourceType: PhotoType;
  large: PhotoVariant;
  thumb: PhotoVariant;
}

/** Pixels a photo may have (a 100-megapixel camera's worth); more is refused before decoding. */
export const MAX_INPUT_PIXELS = 100_000_000;

/** Checks an uploaded file and makes its web sizes; refusals are AppErrors with the message to show. */
export async function processPhoto(bytes: Buffer): Promise<ProcessedPhoto> {
  if (bytes.length > SELLING_LIMITS.maxPhotoBytes)
    throw new AppError('BAD_INPUT', SELLING_MESSAGES.photoTooBig);
  const sourceType = sniffImageType(bytes);
  if (!sourceType || !(PHOTO_TYPES as readonly string[]).includes(sourceType)) {
    throw new AppError('BAD_INPUT', SELLING_MESSAGES.photoNotImage);
  }
  const variant = async (edge: number, quality: number): Promise<PhotoVariant> => {
    const { data, info } = await sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' })
      .rotate()
      .resize({ width: edge, height: edge, fit: 'inside', withoutEnlargement: true })
      .webp({ quality })
      .toBuffer({ resolveWithObject: true });
    return { body: data, width: info.width, height: info.height, contentType: 'image/webp' };
  };
  try {
    const [large, thumb] = await Promise.all([
      variant(SELLING_LIMITS.photoLargePx, 82),
      variant(SELLING_LIMITS.photoThumbPx, 76),
    ]);
    return { sourceType, large, thumb };
  } catch {
    throw new AppError('BAD_INPUT', SELLING_MESSAGES.photoUnreadable);
  }
}
