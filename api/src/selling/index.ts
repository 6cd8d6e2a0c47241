/**
 * The selling domain's public surface (api/scripts/check-imports.ts): starting a listing, photos
 * of listings (and the backfill of their sizes), and the upload route.
 */
export { backfillPhotoSizes } from './listings/photo-sizes.ts';
export { photoKeysOf, photosOf, type StartResult, startListing } from './listings/selling.service.ts';
export { registerUploadRoutes } from './listings/upload.route.ts';
export { sellingDomainRouter } from './selling.router.ts';
export { businessSellerOf, traderStatus } from './trader/trader.service.ts';
