/**
 * Image work, bounded (decision 0026). Decoding is the expensive part of an image:
 * its cost follows the pixels, not the file (a 100 KB PNG of one colour can hold 50 megapixels,
 * 150 MB once decoded). So:
 *
 * - `imageDimensions` reads the width and height from the file's header (JPEG, PNG, WebP) with
 *   no decoder at all, so a caller can refuse an image over its pixel limit before decoding it;
 *   sharp's own `limitInputPixels` stays behind it in case a header lies.
 * - `imageWork` is one limiter shared by every path that decodes or draws an image (listing
 *   photos, charity logos, demo covers): at most IMAGE_WORK_CONCURRENCY at a time, at most
 *   IMAGE_WORK_QUEUE waiting; past that a request is refused at once (503 with Retry-After)
 *   rather than queued without end, so a burst of big uploads cannot multiply the memory.
 * - sharp itself: no operation cache (it only costs memory here) and one libvips thread per
 *   image, so the limiter's two images are two threads.
 */
import { SELLING_MESSAGES } from '@reshelf/contracts';
import sharp from 'sharp';
import { AppError } from '../../errors.ts';
import { WorkLimiter } from '../work-limiter.ts';

export { type LimiterStats, WorkLimiter } from '../work-limiter.ts';

sharp.cache(false);
sharp.concurrency(1);

export const IMAGE_WORK_CONCURRENCY = 2;
export const IMAGE_WORK_QUEUE = 16;
/** How long a refused caller is asked to wait before trying again. */
export const IMAGE_BUSY_RETRY_SECONDS = 5;

export interface ImageDimensions {
  width: number;
  height: number;
}

const u16be = (b: Uint8Array, i: number) => (b[i]! << 8) | b[i + 1]!;
const u16le = (b: Uint8Array, i: number) => b[i]! | (b[i + 1]! << 8);
const u24le = (b: Uint8Array, i: number) => b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16);
const u32be = (b: Uint8Array, i: number) =>
  ((b[i]! << 24) >>> 0) + ((b[i + 1]! << 16) | (b[i + 2]! << 8) | b[i + 3]!);
const ascii = (b: Uint8Array, i: number, length: number) =>
  String.fromCharCode(...b.subarray(i, Math.min(b.length, i + length)));

function pngDimensions(b: Uint8Array): ImageDimensions | null {
  // Signature (8), then the IHDR chunk: length (4), "IHDR", width (4), height (4).
  if (b.length < 24 || ascii(b, 12, 4) !== 'IHDR') return null;
  return { width: u32be(b, 16), height: u32be(b, 20) };
}

function webpDimensions(b: Uint8Array): ImageDimensions | null {
  const chunk = ascii(b, 12, 4);
  if (chunk === 'VP8X' && b.length >= 30) {
    return { width: u24le(b, 24) + 1, height: u24le(b, 27) + 1 };
  }
  if (chunk === 'VP8 ' && b.length >= 30) {
    // A key frame: 3 bytes of frame tag, the start code 9d 01 2a, then 14-bit width and height.
    if (b[23] !== 0x9d || b[24] !== 0x01 || b[25] !== 0x2a) return null;
    return { width: u16le(b, 26) & 0x3fff, height: u16le(b, 28) & 0x3fff };
  }
  if (chunk === 'VP8L' && b.length >= 25) {
    if (b[20] !== 0x2f) return null;
    const bits = b[21]! | (b[22]! << 8) | (b[23]! << 16) | (b[24]! << 24);
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  return null;
}

/** Start-of-frame markers: every SOFn but DHT (c4), JPG (c8) and DAC (cc). */
const JPEG_FRAME = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);

function jpegDimensions(b: Uint8Array): ImageDimensions | null {
  let i = 2; // after SOI
  while (i + 4 <= b.length) {
    if (b[i] !== 0xff) return null;
    const marker = b[i + 1]!;
    if (marker === 0xff) {
      i += 1; // fill byte
      continue;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      i += 2; // markers without a length
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) return null; // end of image, or scan data before a frame
    const length = u16be(b, i + 2);
    if (length < 2) return null;
    if (JPEG_FRAME.has(marker)) {
      if (i + 9 > b.length) return null;
      const height = u16be(b, i + 5);
      const width = u16be(b, i + 7);
      // A height of 0 is defined later (DNL), after the data: we will not decode to find out.
      return height && width ? { width, height } : null;
    }
    i += 2 + length;
  }
  return null;
}

/**
 * The width and height a JPEG, PNG or WebP file says it has, read from its header without
 * decoding anything; null when the header is not one we can read.
 */
export function imageDimensions(bytes: Uint8Array): ImageDimensions | null {
  if (bytes[0] === 0xff && bytes[1] === 0xd8) return jpegDimensions(bytes);
  if (ascii(bytes, 1, 3) === 'PNG') return pngDimensions(bytes);
  if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 4) === 'WEBP') return webpDimensions(bytes);
  return null;
}

/** The one limiter every image path goes through. */
export const imageWork = new WorkLimiter(
  IMAGE_WORK_CONCURRENCY,
  IMAGE_WORK_QUEUE,
  () =>
    new AppError('UNAVAILABLE', SELLING_MESSAGES.photoBusy, { retryAfterSeconds: IMAGE_BUSY_RETRY_SECONDS }),
);
