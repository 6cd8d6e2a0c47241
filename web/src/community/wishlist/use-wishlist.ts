import { useCallback } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { loginPath, pathOf } from '../../account/auth/next-path.ts';
import { useSession } from '../../account/auth/session.ts';
import { notify } from '../../components/ui/notify.ts';
import { apiErrorMessage } from '../../lib/api-errors.ts';
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
  const status = trpc.community.wishlist.status.useQuery(undefined, { enabled: signedIn });
  const mutation = trpc.community.wishlist.toggle.useMutation({
    onMutate: async ({ listingId, wished }) => {
      await utils.community.wishlist.status.cancel();
      const before = utils.community.wishlist.status.getData();
      utils.community.wishlist.status.setData(undefined, (current) => {
        const ids = (current?.listingIds ?? []).filter((id) => id !== listingId);
        return { listingIds: wished ? [listingId, ...ids] : ids };
      });
      return { before };
    },
    onError: (error, _input, context) => {
      utils.community.wishlist.status.setData(undefined, context?.before);
      notify.error(apiErrorMessage(error));
    },
    onSuccess: (_result, { wished }) => {
      void utils.community.wishlist.list.invalidate();
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
