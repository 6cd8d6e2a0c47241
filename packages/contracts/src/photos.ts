/**
 * The sizes a listing photo is stored in, and where each one is (decision 0063). One fact, one
 * place: the BFF makes these files at upload (and for older photos, the backfill job) and the
 * web asks for them by the same convention, reading both from here.
 *
 * A stored photo is known by the address of its large size, ".../<folder>/1600.webp" (the one
 * kept in the database); every size of it sits in the same folder, named by its width and
 * format: ".../<folder>/720.avif", ".../<folder>/400.webp". The zoom view keeps the 1600 px WebP.
 * Any other address (a hosted cover elsewhere) has no sizes and is used as it is.
 *
 * Builds no schema: every card reads it, and the first load has no zod (decision 0066).
 */
import { SELLING_LIMITS } from './selling-limits.ts';

/**
 * The widths every listing photo is made in, in both formats: a card (about 150 to 240 CSS px,
 * so 400 at 2× on a phone), the listing page's photo (about 360 CSS px on a phone, 430 on a
 * desktop: 720 at 2×) and the same at 3× or a wide desktop (1080). The smallest is the
 * thumbnail (`photoThumbUrl`).
 */
export const PHOTO_WIDTHS = [SELLING_LIMITS.photoThumbPx, 720, 1080] as const;
export type PhotoWidth = (typeof PHOTO_WIDTHS)[number];

/** The formats every width is made in, best first (a browser takes the first it can show). */
export const PHOTO_FORMATS = ['avif', 'webp'] as const;
export type PhotoFormat = (typeof PHOTO_FORMATS)[number];

export const PHOTO_FORMAT_TYPES: Record<PhotoFormat, `image/${PhotoFormat}`> = {
  avif: 'image/avif',
  webp: 'image/webp',
};

/**
 * The frame photos are shown in, a book's 3:4: each width is fitted inside a box of that width
 * and 4/3 of it high, so a photo of that shape or wider is exactly as wide as its name says.
 */
export const PHOTO_FRAME = { width: 3, height: 4 } as const;

/** The large size's file name at the end of an address (a signed address keeps its query). */
const LARGE_FILE = new RegExp(`/${SELLING_LIMITS.photoLargePx}\\.webp(?=$|\\?)`);

/** Whether an address is a stored photo's large size, and so has every size in PHOTO_WIDTHS. */
export function hasPhotoSizes(url: string): boolean {
  return LARGE_FILE.test(url);
}

/** The address of one size of a stored photo (from its large size's address); any other URL as it is. */
export function photoSizeUrl(url: string, width: PhotoWidth, format: PhotoFormat): string {
  return url.replace(LARGE_FILE, `/${width}.${format}`);
}

/** The storage key of one size, from the folder the photo's files share ("listings/<id>/<hex>"). */
export function photoSizeKey(folder: string, width: PhotoWidth, format: PhotoFormat): string {
  return `${folder}/${width}.${format}`;
}
