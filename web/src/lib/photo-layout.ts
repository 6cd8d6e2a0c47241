/**
 * Where photos are shown, as the browser needs to know it before the page is laid out (decision
 * 0063). Plain data, read by the components (media.ts, StoredPhoto) and by the browser tests.
 */

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

/**
 * The cards whose photos load at once on the search and browse pages: as many as the first
 * screen of a phone shows (the first row of two at 390 px, and the second as it scrolls in),
 * the first fetched first; the rest load as they are scrolled near.
 */
export const FIRST_SCREEN_CARDS = 4;
