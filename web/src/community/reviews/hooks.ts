/** Review mutations and the caches they refresh. */
import { thenRefresh } from '../../kit/index.ts';
import { trpc } from '../../lib/trpc.ts';

function useRefresh() {
  const utils = trpc.useUtils();
  return () => {
    void utils.community.reviews.invalidate();
    void utils.account.notifications.invalidate();
  };
}

export function useWriteReview(
  options: Parameters<typeof trpc.community.reviews.member.write.useMutation>[0] = {},
) {
  return trpc.community.reviews.member.write.useMutation(thenRefresh(options, useRefresh()));
}

export function useReplyToReview(
  options: Parameters<typeof trpc.community.reviews.member.reply.useMutation>[0] = {},
) {
  return trpc.community.reviews.member.reply.useMutation(thenRefresh(options, useRefresh()));
}

export function useReportReview() {
  return trpc.community.reviews.member.report.useMutation();
}
