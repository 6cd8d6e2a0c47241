/** The community domain's procedures: messages, reviews, moderation, follows and the feed, recommendations. */
import { router } from '../trpc.ts';
import { messagesRouter, staffMessagesRouter } from './messages/messages.router.ts';
import {
  removalsRouter,
  reportsRouter,
  staffAppealsRouter,
  staffReportsRouter,
} from './moderation/reports.router.ts';
import { staffListingsRouter } from './moderation/staff-listings.router.ts';
import { recommendationsRouter } from './recommendations/recommendations.router.ts';
import { reviewsMemberRouter, reviewsPublicRouter, staffReviewsRouter } from './reviews/reviews.router.ts';
import { socialRouter } from './social/social.router.ts';
import { wantsRouter } from './wants/wants.router.ts';

export const communityDomainRouter = router({
  messages: router({ member: messagesRouter, staff: staffMessagesRouter }),
  reviews: router({ member: reviewsMemberRouter, public: reviewsPublicRouter, staff: staffReviewsRouter }),
  moderation: router({
    member: reportsRouter,
    staff: staffReportsRouter,
    listings: staffListingsRouter,
    removals: removalsRouter,
    appeals: staffAppealsRouter,
  }),
  social: socialRouter,
  recommendations: recommendationsRouter,
  wants: wantsRouter,
});
