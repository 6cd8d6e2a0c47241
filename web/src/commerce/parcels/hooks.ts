/**
 * An order's parcels (issue 37): the tracking both sides see, the seller's "Get label" and
 * "It came back". Each step reads the order and its parcels again.
 */
import { thenRefresh } from '../../kit/index.ts';
import { trpc } from '../../lib/trpc.ts';

/** Reads the order (lists, details) and its parcels again. */
function useRefreshParcels() {
  const utils = trpc.useUtils();
  return () => {
    void utils.commerce.orders.member.invalidate();
    void utils.commerce.parcels.member.invalidate();
  };
}

/** Every parcel of the order, with its scans newest first. */
export function useOrderParcels(orderId: string) {
  return trpc.commerce.parcels.member.forOrder.useQuery({ orderId }, { staleTime: 0 });
}

type Options<K extends 'getLabel' | 'confirmReturned'> = Parameters<
  (typeof trpc.commerce.parcels.seller)[K]['useMutation']
>[0];

/** "Get label": buys the label once; a failure keeps the sale and may be tried again. */
export function useGetLabel(options: Options<'getLabel'> = {}) {
  return trpc.commerce.parcels.seller.getLabel.useMutation(
    thenRefresh(options, useRefreshParcels(), 'onSettled'),
  );
}

/** The parcel came back to the seller: the buyer is refunded in full. */
export function useConfirmReturned(options: Options<'confirmReturned'> = {}) {
  return trpc.commerce.parcels.seller.confirmReturned.useMutation(
    thenRefresh(options, useRefreshParcels(), 'onSettled'),
  );
}
