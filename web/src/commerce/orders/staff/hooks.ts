/** The staff order actions, each with the caches it changes: pages never invalidate by hand. */
import { trpc } from '../../../lib/trpc.ts';

type RefundOptions = Parameters<typeof trpc.commerce.orders.staff.refund.useMutation>[0];

/** Refund an order (in full or in part): afterwards its page, the order lists and the dashboard's figures reload. */
export function useRefundOrder(options: RefundOptions = {}) {
  const utils = trpc.useUtils();
  return trpc.commerce.orders.staff.refund.useMutation({
    ...options,
    onSuccess: (...args) => {
      // The order's page (commerce.orders.staff.order), the order lists.
      void utils.commerce.orders.staff.invalidate();
      void utils.staff.dashboard.metrics.invalidate();
      return options.onSuccess?.(...args);
    },
  });
}
