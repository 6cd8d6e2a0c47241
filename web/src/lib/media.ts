import {
  PHOTO_FORMAT_TYPES,
  PHOTO_FORMATS,
  PHOTO_WIDTHS,
  type PhotoFormat,
  photoSizeUrl,
  photoThumbUrl,
} from '@reshelf/contracts';
import { apiUrl } from './api.ts';

/**
 * Where to load an image from. Stored photos come as paths on the API ("/storage/…"), which
 * the web build loads from its own origin and the native app from the API's origin; anything
 * else (a hosted storage URL, a cover elsewhere) is used as it is.
 */
export function mediaUrl(url: string): string {
  return url.startsWith('/storage/') ? apiUrl(url) : url;
}

/** The small size of a stored photo, for cards and thumbnails (the URL itself when there is none). */
export function thumbUrl(url: string): string {
  return mediaUrl(photoThumbUrl(url));
}

/**
 * How wide a photo is shown, for `sizes` (and a preload's `imagesizes`, which must be the same
 * text): one entry per layout, from its classes. The widths are the image's own, inside the
 * card's padding or the page's column, at each breakpoint of the layout.
 */
export const PHOTO_LAYOUT_SIZES = {
  /** ListingGrid's GRID_CLASSES across the page (max-w-6xl, px-4/6/8): 2, 3, then 4 columns, a card's p-3 inside. */
  grid: '(min-width: 1152px) 236px, (min-width: 1024px) calc(25vw - 52px), (min-width: 640px) calc(33.3vw - 51px), calc(50vw - 46px)',
  /** The same grid beside the 16rem filters (ListingsBrowser, from lg). */
  browser:
    '(min-width: 1152px) 164px, (min-width: 1024px) calc(25vw - 124px), (min-width: 640px) calc(33.3vw - 51px), calc(50vw - 46px)',
  /** The listing page's photo: 5/12 of the page beside the details from md, the page's width below. */
  listing: '(min-width: 1152px) 434px, (min-width: 768px) calc(41.7vw - 40px), calc(100vw - 32px)',
} as const;
export type PhotoLayout = keyof typeof PHOTO_LAYOUT_SIZES;

/** A stored photo's `srcset` in one format: every size, by its width. */
export function photoSrcSet(url: string, format: PhotoFormat): string {
  return PHOTO_WIDTHS.map((width) => `${mediaUrl(photoSizeUrl(url, width, format))} ${width}w`).join(', ');
}

/** What the listing page's head preloads for its first photo (the best format: the browser's first choice). */
export function photoPreload(url: string, layout: PhotoLayout) {
  const format = PHOTO_FORMATS[0];
  return {
    srcset: photoSrcSet(url, format),
    sizes: PHOTO_LAYOUT_SIZES[layout],
    type: PHOTO_FORMAT_TYPES[format],
  };
}
