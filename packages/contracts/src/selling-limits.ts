/**
 * Selling's limits and the photo sizes, apart from its schemas (selling.ts): every listing card
 * reads them, and a module that builds zod schemas at load would bring zod into the first load
 * (docs/decisions/0066-the-first-load-holds-what-the-first-screen-runs.md).
 */
import { COMMERCIAL_DEFAULTS } from './constants.ts';

export const SELLING_LIMITS = {
  maxPhotos: 8,
  /** Uploads over this are refused (10 MB). */
  maxPhotoBytes: 10 * 1024 * 1024,
  /** Images with more pixels are refused from their header, before decoding (40 megapixels). */
  maxPhotoPixels: 40_000_000,
  /** Longest edge of the two stored sizes of every photo, in pixels. */
  photoLargePx: 1600,
  photoThumbPx: 400,
  maxTitle: 300,
  maxSubtitle: 300,
  maxAuthors: 20,
  maxAuthorLength: 200,
  maxPublisher: 200,
  maxConditionNotes: 2000,
  maxDescription: 5000,
  minPriceMinor: 1,
  maxPriceMinor: COMMERCIAL_DEFAULTS.maxPriceMinor,
  /** Listings one bulk withdrawal may name. */
  maxBulk: 100,
  /** Saved books per person. */
  maxWishlist: 500,
} as const;

/**
 * Stored photos come in two sizes at keys that differ only in the size: ".../1600.webp" and
 * ".../400.webp". Cards and thumbnails ask for the small one; other URLs are left as they are.
 */
export function photoThumbUrl(url: string): string {
  // A private photo's signed address keeps its signature, which covers both sizes.
  return url.replace(
    new RegExp(`/${SELLING_LIMITS.photoLargePx}\\.(webp|jpg)(?=$|\\?)`),
    `/${SELLING_LIMITS.photoThumbPx}.$1`,
  );
}
