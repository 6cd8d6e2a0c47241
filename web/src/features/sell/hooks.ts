/**
 * The seller's steps on their listings (/account/listings). Each hook owns what its step changes
 * in the cache: the seller's listings and counts, and the public listings, are read again.
 */
import { notify } from '../../components/ui/notify.ts';
import { apiErrorMessage } from '../../lib/api-errors.ts';
import { trpc } from '../../lib/trpc.ts';

type Withdraw = ReturnType<typeof trpc.selling.withdraw.useMutation>;
type Relist = ReturnType<typeof trpc.selling.relist.useMutation>;

function useRefreshListings() {
  const utils = trpc.useUtils();
  return () => {
    void utils.selling.invalidate();
    void utils.listings.invalidate();
  };
}

/** Takes listings off sale; a refusal of the whole request is a toast. */
export function useWithdrawListings({
  onSuccess,
}: {
  onSuccess?: (result: NonNullable<Withdraw['data']>) => void;
}) {
  const refresh = useRefreshListings();
  return trpc.selling.withdraw.useMutation({
    onSuccess: (result) => {
      refresh();
      onSuccess?.(result);
    },
    onError: (error) => notify.error(apiErrorMessage(error)),
  });
}

/** Puts a withdrawn listing back on sale; a refusal is a toast. */
export function useRelistListing({
  onSuccess,
}: {
  onSuccess?: (listing: NonNullable<Relist['data']>) => void;
}) {
  const refresh = useRefreshListings();
  return trpc.selling.relist.useMutation({
    onSuccess: (listing) => {
      refresh();
      onSuccess?.(listing);
    },
    onError: (error) => notify.error(apiErrorMessage(error)),
  });
}

/** Deletes a draft and its photos; a refusal is a toast. */
export function useDeleteDraft({ onSuccess }: { onSuccess?: () => void }) {
  const refresh = useRefreshListings();
  return trpc.selling.deleteDraft.useMutation({
    onSuccess: () => {
      refresh();
      onSuccess?.();
    },
    onError: (error) => notify.error(apiErrorMessage(error)),
  });
}
