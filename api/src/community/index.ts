/**
 * The community domain's public surface (api/scripts/check-imports.ts): an order's conversation
 * and its photos (disputes use them), review windows, what the jobs run, and what a member's data
 * download reads.
 */
export { communityDomainRouter } from './community.router.ts';
export {
  isThreadPhoto,
  startOrderThread,
  sweepUnsentPhotos,
  usePhotos,
} from './messages/messages.service.ts';
export { registerMessagePhotoRoute } from './messages/photo-upload.route.ts';
export { emailCleanupWithdrawals } from './moderation/staff-listings.service.ts';
export { refreshRecommendations } from './recommendations/recommendations.service.ts';
export { openReviewWindow, publishDueWindows } from './reviews/reviews.service.ts';
export { myFollows } from './social/follows.service.ts';
export { listSavedSearches, runSavedSearchAlerts } from './social/saved-searches.service.ts';
export { kickWantMatcher, matchQueuedWants } from './wants/match.ts';
export { assertWithinWantLimit, demandFor, listWants } from './wants/wants.service.ts';
