/**
 * The selling domain's public surface (api/scripts/check-imports.ts): starting a listing and the
 * book columns a charity's bulk upload fills, photos of listings, and the upload route.
 */
export { bookColumns } from './listings/book-columns.ts';
export { photoKeysOf, photosOf, type StartResult, startListing } from './listings/selling.service.ts';
export { registerUploadRoutes } from './listings/upload.route.ts';
export { sellingDomainRouter } from './selling.router.ts';
