import {
  PHOTO_FORMAT_TYPES,
  PHOTO_FORMATS,
  PHOTO_WIDTHS,
  type PhotoFormat,
  photoSizeUrl,
  photoThumbUrl,
} from '@reshelf/contracts';
import { apiUrl } from './api.ts';
import { PHOTO_LAYOUT_SIZES, type PhotoLayout } from './photo-layout.ts';

export { FIRST_SCREEN_CARDS, PHOTO_LAYOUT_SIZES, type PhotoLayout } from './photo-layout.ts';

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
