import { photoThumbUrl } from '@reshelf/contracts';
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
