/**
 * The buyer's and the seller's steps on an order. Each hook owns what its step changes in the
 * cache: after every step the order, its lists, the payouts and any offer it came from are read
 * again. Pages pass only what they show (a toast, closing a dialog).
 */
import { trpc } from '../../lib/trpc.ts';

type Callbacks = { onSuccess?: () => void; onError?: (error: unknown) => void };

/** Reads the orders (lists, details, payouts) and the offers again. */
export function useRefreshOrders() {
  const utils = trpc.useUtils();
  return () => {
    void utils.orders.invalidate();
    void utils.offers.invalidate();
  };
}

/** The seller posts it: carrier and tracking reference. */
export function useDispatchOrder({ onSuccess, onError }: Callbacks = {}) {
  const refresh = useRefreshOrders();
  return trpc.orders.dispatch.useMutation({
    onSuccess: () => {
      refresh();
      onSuccess?.();
    },
    onError,
  });
}

/** The seller cannot send it: the order is cancelled and the buyer refunded. */
export function useCancelOrder({ onSuccess, onError }: Callbacks = {}) {
  const refresh = useRefreshOrders();
  return trpc.orders.cancel.useMutation({
    onSuccess: () => {
      refresh();
      onSuccess?.();
    },
    onError,
  });
}

/** The buyer says it arrived. A refusal also reads the order again (it may have moved on). */
export function useMarkArrived({ onSuccess, onError }: Callbacks = {}) {
  const refresh = useRefreshOrders();
  return trpc.orders.markArrived.useMutation({
    onSuccess: () => {
      refresh();
      onSuccess?.();
    },
    onError: (error) => {
      refresh();
      onError?.(error);
    },
  });
}

/** The buyer says everything is OK: the order completes and the seller is paid. */
export function useConfirmOrder({ onSuccess, onError }: Callbacks = {}) {
  const refresh = useRefreshOrders();
  return trpc.orders.confirm.useMutation({
    onSuccess: () => {
      refresh();
      onSuccess?.();
    },
    onError,
  });
}

/** The buyer reports a problem (not as described, or not arrived). */
export function useReportOrderProblem({ onSuccess, onError }: Callbacks = {}) {
  const refresh = useRefreshOrders();
  return trpc.orders.reportProblem.useMutation({
    onSuccess: () => {
      refresh();
      onSuccess?.();
    },
    onError,
  });
}

/** The buyer withdraws their report: the order completes. */
export function useWithdrawOrderReport({ onSuccess, onError }: Callbacks = {}) {
  const refresh = useRefreshOrders();
  return trpc.orders.withdrawReport.useMutation({
    onSuccess: () => {
      refresh();
      onSuccess?.();
    },
    onError,
  });
}
