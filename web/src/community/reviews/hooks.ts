/** Review mutations and the caches they refresh. */
import { thenRefresh } from '../../kit/index.ts';
import { trpc } from '../../lib/trpc.ts';

function useRefresh() {
  const utils = trpc.useUtils();
  return () => {
    void utils.reviews.invalidate();
    void utils.notifications.invalidate();
  };
}

export function useWriteReview(options: Parameters<typeof trpc.reviews.member.write.useMutation>[0] = {}) {
  return trpc.reviews.member.write.useMutation(thenRefresh(options, useRefresh()));
}

export function useReplyToReview(options: Parameters<typeof trpc.reviews.member.reply.useMutation>[0] = {}) {
  return trpc.reviews.member.reply.useMutation(thenRefresh(options, useRefresh()));
}

export function useReportReview() {
  return trpc.reviews.member.report.useMutation();
}
