/**
 * The charities domain's public surface (api/scripts/check-imports.ts): its procedures and the
 * charity upload route.
 */
export { charitiesRouter } from './charities.router.ts';
export { registerCharityUploadRoutes } from './charity-uploads.route.ts';
