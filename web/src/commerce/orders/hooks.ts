/**
 * The buyer's and the seller's steps on an order. Each hook owns what its step changes in the
 * cache: after every step the order, its lists, the payouts and any offer it came from are read
 * again. Pages pass only what they show (a toast, closing a dialog).
 */
import { thenRefresh } from '../../kit/index.ts';
import { trpc } from '../../lib/trpc.ts';

/** Reads the orders (lists, details, payouts) and the offers again. */
export function useRefreshOrders() {
  const utils = trpc.useUtils();
  return () => {
    void utils.commerce.orders.member.invalidate();
    void utils.commerce.offers.member.invalidate();
  };
}

type Options<K extends 'dispatch' | 'cancel' | 'markArrived' | 'confirm' | 'withdrawReport'> = Parameters<
  (typeof trpc.commerce.orders.member)[K]['useMutation']
>[0];

/** The seller posts it: carrier and tracking reference. */
export function useDispatchOrder(options: Options<'dispatch'> = {}) {
  return trpc.commerce.orders.member.dispatch.useMutation(thenRefresh(options, useRefreshOrders()));
}

/** The seller cannot send it: the order is cancelled and the buyer refunded. */
export function useCancelOrder(options: Options<'cancel'> = {}) {
  return trpc.commerce.orders.member.cancel.useMutation(thenRefresh(options, useRefreshOrders()));
}

/** The buyer says it arrived. A refusal also reads the order again (it may have moved on). */
export function useMarkArrived(options: Options<'markArrived'> = {}) {
  return trpc.commerce.orders.member.markArrived.useMutation(
    thenRefresh(options, useRefreshOrders(), 'onSettled'),
  );
}

/** The buyer says everything is OK: the order completes and the seller is paid. */
export function useConfirmOrder(options: Options<'confirm'> = {}) {
  return trpc.commerce.orders.member.confirm.useMutation(thenRefresh(options, useRefreshOrders()));
}

/** The buyer withdraws their report: the order completes. */
export function useWithdrawOrderReport(options: Options<'withdrawReport'> = {}) {
  return trpc.commerce.orders.member.withdrawReport.useMutation(thenRefresh(options, useRefreshOrders()));
}
