/** The community domain's widgets other domains show (the web's import rule: api/scripts/check-imports.ts). */
export { MessageOrderButton, MessageSellerButton } from './messages/MessageButtons.tsx';
export { StaffConversation } from './messages/StaffConversation.tsx';
export { ReportCharity } from './moderation/ReportCharity.tsx';
export { ReportDialog } from './moderation/ReportDialog.tsx';
export { ReportListing } from './moderation/ReportListing.tsx';
export { ReportProfile } from './moderation/ReportProfile.tsx';
export { RecommendedShelf } from './recommendations/RecommendedShelf.tsx';
export { OrderReviewPrompt } from './reviews/OrderReviewPrompt.tsx';
export {
  CharityRatingSummary,
  CharityReviewsSection,
  SellerRatingFor,
  SellerRatingSummary,
  SellerReviewsSection,
  useSellerRatings,
} from './reviews/Reviews.tsx';
export { FollowButton } from './social/FollowButton.tsx';
export { SaveSearchButton } from './social/SaveSearchButton.tsx';
export { DemandNote, useIsbnDemand } from './wants/DemandNote.tsx';
export { WantButton } from './wants/WantButton.tsx';
