/**
 * The seller's steps on their listings (/account/listings). Each hook owns what its step changes
 * in the cache: the seller's listings and counts, and the public listings, are read again. A
 * refusal is a toast unless the page says otherwise.
 */
import { notify } from '../../components/ui/notify.ts';
import { thenRefresh } from '../../kit/index.ts';
import { apiErrorMessage } from '../../lib/api-errors.ts';
import { trpc } from '../../lib/trpc.ts';

type Options<K extends 'withdraw' | 'relist' | 'deleteDraft'> = Parameters<
  (typeof trpc.selling.listings)[K]['useMutation']
>[0];

const toast = { onError: (error: { message: string }) => notify.error(apiErrorMessage(error)) };

function useRefreshListings() {
  const utils = trpc.useUtils();
  return () => {
    void utils.selling.listings.invalidate();
    void utils.catalogue.listings.invalidate();
  };
}

/** Takes listings off sale. */
export function useWithdrawListings(options: Options<'withdraw'> = {}) {
  return trpc.selling.listings.withdraw.useMutation(
    thenRefresh({ ...toast, ...options }, useRefreshListings()),
  );
}

/** Puts a withdrawn listing back on sale. */
export function useRelistListing(options: Options<'relist'> = {}) {
  return trpc.selling.listings.relist.useMutation(
    thenRefresh({ ...toast, ...options }, useRefreshListings()),
  );
}

/** Deletes a draft and its photos. */
export function useDeleteDraft(options: Options<'deleteDraft'> = {}) {
  return trpc.selling.listings.deleteDraft.useMutation(
    thenRefresh({ ...toast, ...options }, useRefreshListings()),
  );
}
