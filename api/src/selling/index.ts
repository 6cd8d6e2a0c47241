/**
 * The selling domain's public surface (api/scripts/check-imports.ts): starting a listing, photos
 * of listings, and the upload route.
 */
export { photoKeysOf, photosOf, type StartResult, startListing } from './listings/selling.service.ts';
export { registerUploadRoutes } from './listings/upload.route.ts';
export { sellingDomainRouter } from './selling.router.ts';
