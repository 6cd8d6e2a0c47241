/**
 * On an order's own page: the review it is waiting for from the member, while its window is open
 *. A window opens when the order completes, so the member's reviews to write
 * (`community.reviews.member.pending`, the list /account/reviews shows) are read, afresh, once the
 * page shows the order completed (the buyer may have just said everything is OK); nothing when
 * this order is not among them.
 */
import { trpc } from '../../lib/trpc.ts';
import { WriteReview } from './WriteReview.tsx';

export function OrderReviewPrompt({ orderId, completed }: { orderId: string; completed: boolean }) {
  const pending = trpc.community.reviews.member.pending.useQuery(undefined, {
    enabled: completed,
    staleTime: 0,
  });
  const waiting = completed ? pending.data?.find((review) => review.orderId === orderId) : undefined;
  return waiting ? <WriteReview pending={waiting} as="section" /> : null;
}
