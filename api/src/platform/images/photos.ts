/**
 * Listing photos: what an upload is (read from its first bytes, never its name or the type the
 * browser claims), whether it is small enough, and its two web sizes. sharp (libvips, shipped
 * prebuilt inside its npm packages) turns the photo the right way up from its EXIF orientation,
 * fits it inside 1600 px and 400 px squares without enlarging it, and writes WebP. Nothing of
 * the original's metadata is copied: EXIF (with any GPS location), XMP and ICC comments are
 * left behind.
 *
 * Decoding costs what the pixels cost, whatever the file's size (decision 0026): the header is
 * read first and an image over 40 megapixels refused undecoded; the rest is decoded once (the
 * small size is made from the large one), inside the limiter every image path shares.
 */
import { PHOTO_TYPES, type PhotoType, SELLING_LIMITS, SELLING_MESSAGES } from '@reshelf/contracts';
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
  contentType: 'image/webp';
}

export interface ProcessedPhoto {
  sourceType: PhotoType;
  large: PhotoVariant;
  thumb: PhotoVariant;
}

/** Pixels a photo may have; more is refused from the header, before decoding. */
export const MAX_INPUT_PIXELS = SELLING_LIMITS.maxPhotoPixels;

/**
 * Checks an uploaded file and makes its web sizes; refusals are AppErrors with the message to
 * show (BAD_INPUT, or UNAVAILABLE with `retryAfterSeconds` when too many images are waiting).
 */
export async function processPhoto(bytes: Buffer): Promise<ProcessedPhoto> {
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
      // Decoded once, upright, at the large size; the thumbnail is made from that.
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
      const raw = {
        raw: { width: large.info.width, height: large.info.height, channels: large.info.channels },
      };
      const encode = async (image: ReturnType<typeof sharp>, quality: number): Promise<PhotoVariant> => {
        const { data, info } = await image.webp({ quality }).toBuffer({ resolveWithObject: true });
        return { body: data, width: info.width, height: info.height, contentType: 'image/webp' };
      };
      return {
        sourceType,
        large: await encode(sharp(large.data, raw), 82),
        thumb: await encode(
          sharp(large.data, raw).resize({
            width: SELLING_LIMITS.photoThumbPx,
            height: SELLING_LIMITS.photoThumbPx,
            fit: 'inside',
            withoutEnlargement: true,
          }),
          76,
        ),
      };
    } catch {
      throw new AppError('BAD_INPUT', SELLING_MESSAGES.photoUnreadable);
    }
  });
}
