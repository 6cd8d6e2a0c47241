import { useCallback } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { notify } from '../../components/ui/notify.ts';
import { apiErrorMessage } from '../../lib/api-errors.ts';
import { loginPath, pathOf } from '../../lib/next-path.ts';
import { useSession } from '../../lib/session.ts';
import { trpc } from '../../lib/trpc.ts';

/**
 * The signed-in person's wishlist for the hearts on cards and listing pages: one small query
 * (the ids they saved) shared by every heart on the page, fetched per person and never part of
 * the cached public answers. A tap changes the heart at once and puts it back if the API says no.
 * Signed out, a tap goes to /login and comes back here.
 */
export function useWishlist() {
  const session = useSession();
  const signedIn = session.status === 'signed-in';
  const utils = trpc.useUtils();
  const navigate = useNavigate();
  const location = useLocation();
  const status = trpc.catalogue.wishlist.status.useQuery(undefined, { enabled: signedIn });
  const mutation = trpc.catalogue.wishlist.toggle.useMutation({
    onMutate: async ({ listingId, wished }) => {
      await utils.catalogue.wishlist.status.cancel();
      const before = utils.catalogue.wishlist.status.getData();
      utils.catalogue.wishlist.status.setData(undefined, (current) => {
        const ids = (current?.listingIds ?? []).filter((id) => id !== listingId);
        return { listingIds: wished ? [listingId, ...ids] : ids };
      });
      return { before };
    },
    onError: (error, _input, context) => {
      utils.catalogue.wishlist.status.setData(undefined, context?.before);
      notify.error(apiErrorMessage(error));
    },
    onSuccess: (_result, { wished }) => {
      void utils.catalogue.wishlist.list.invalidate();
      notify.success(wished ? 'Saved to your wishlist' : 'Removed from your wishlist');
    },
  });
  const wishedIds = status.data?.listingIds;
  const isWished = useCallback((listingId: string) => wishedIds?.includes(listingId) ?? false, [wishedIds]);
  const { mutate } = mutation;
  const toggle = useCallback(
    (listingId: string) => {
      if (!signedIn) {
        navigate(loginPath(pathOf(location)));
        return;
      }
      mutate({ listingId, wished: !(wishedIds?.includes(listingId) ?? false) });
    },
    [signedIn, navigate, location, mutate, wishedIds],
  );
  return { isWished, toggle, signedIn, ready: !signedIn || status.isSuccess };
}
