/** The catalogue's widgets other domains show (the web's import rule: api/scripts/check-imports.ts). */
export { ListingCard } from './listings/ListingCard.tsx';
export { GRID_CLASSES, ListingGrid } from './listings/ListingGrid.tsx';
export { ListingsBrowser } from './listings/ListingsBrowser.tsx';
export { leadPicture, leadThumb } from './listings/listing-images.ts';
export { ShownPriceNote } from './listings/ShownPrice.tsx';
