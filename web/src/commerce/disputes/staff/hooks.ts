/** The staff dispute actions, each with the caches it changes. */
import { trpc } from '../../../lib/trpc.ts';

type ResolveOptions = Parameters<typeof trpc.commerce.disputes.legacy.resolve.useMutation>[0];

/**
 * Resolve a dispute (refund the buyer or release to the seller). On success the queues, the
 * order and the dashboard's figures reload; on a refusal the queues do (someone else may have
 * resolved it first).
 */
export function useResolveDispute(options: ResolveOptions = {}) {
  const utils = trpc.useUtils();
  return trpc.commerce.disputes.legacy.resolve.useMutation({
    ...options,
    onSuccess: (...args) => {
      void utils.commerce.disputes.legacy.invalidate();
      void utils.staff.dashboard.metrics.invalidate();
      return options.onSuccess?.(...args);
    },
    onError: (...args) => {
      void utils.commerce.disputes.legacy.invalidate();
      return options.onError?.(...args);
    },
  });
}
