/**
 * The session as the web client sees it. In a browser the session itself lives in httpOnly
 * cookies set by the API (brief section 3): this page never sees a token, and the API renews an
 * expired access cookie on any call. Inside the native app the API client holds bearer tokens
 * and renews them itself (lib/bearer-session.ts, decision 0029). Either way `account.auth.me` answers
 * who is signed in (or `user: null`), and nothing here differs.
 */
import type { MeDto } from '@reshelf/contracts';
import type { QueryClient } from '@tanstack/react-query';
import { getQueryKey } from '@trpc/react-query';
import { trpc } from './trpc.ts';

export type SessionUser = MeDto;

export type SessionState =
  | { status: 'loading'; user: undefined }
  | { status: 'error'; user: undefined; retry: () => void; retrying: boolean }
  | { status: 'signed-out'; user: null }
  | { status: 'signed-in'; user: SessionUser };

/** The cache key of `account.auth.me`, for updating the session from outside React (the query cache). */
export const ME_QUERY_KEY = getQueryKey(trpc.account.auth.me, undefined, 'query');

/** API routers whose answers belong to the signed-in person; forgotten when the person changes. */
const PERSONAL_ROUTERS = new Set([
  'account',
  'admin',
  'globalAdmin',
  'selling',
  'wishlist',
  'notifications',
  'charities',
  'checkout',
  'offers',
  'orders',
  'disputes',
  'basket',
  'recommendations',
]);

export function useSession(): SessionState {
  const me = trpc.account.auth.me.useQuery();
  if (me.data) {
    return me.data.user ? { status: 'signed-in', user: me.data.user } : { status: 'signed-out', user: null };
  }
  if (me.isError) {
    return { status: 'error', user: undefined, retry: () => void me.refetch(), retrying: me.isFetching };
  }
  return { status: 'loading', user: undefined };
}

/** The session query's own path (`account.auth.me`): it is updated in place, never forgotten. */
const ME_PATH = JSON.stringify(ME_QUERY_KEY[0]);

function forgetPersonalData(queryClient: QueryClient): void {
  queryClient.removeQueries({
    predicate: (query) => {
      const path = query.queryKey[0];
      // Since the routers moved under their domains, `account.auth.me` is under `account` too:
      // removing it left the page watching a query that no longer existed, so signing in with
      // the form never left /login.
      if (JSON.stringify(path) === ME_PATH) return false;
      return Array.isArray(path) && PERSONAL_ROUTERS.has(String(path[0]));
    },
  });
}

/** After sign-in or email confirmation: the API has set the cookies; remember who this is. */
export function markSignedIn(queryClient: QueryClient, user: SessionUser): void {
  forgetPersonalData(queryClient);
  queryClient.setQueryData<{ user: SessionUser | null }>(ME_QUERY_KEY, { user });
}

/**
 * The session has ended (signed out, expired, or the password was reset). Guards of signed-in
 * pages react by sending the person to /login?next=<page>.
 */
export function markSignedOut(queryClient: QueryClient, { forgetData = true } = {}): void {
  queryClient.setQueryData<{ user: SessionUser | null }>(ME_QUERY_KEY, { user: null });
  if (forgetData) forgetPersonalData(queryClient);
}

/** Something about the person changed on the server (profile, onboarding): read it again. */
export function refreshSession(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: ME_QUERY_KEY });
}
