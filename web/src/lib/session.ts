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

/**
 * When the person changes, every answer read for the one before goes: personal data is spread over
 * every domain (orders, the basket, a listing's "saved" state…), so nothing is kept but the
 * session itself, whose query the page is watching (removing it would leave the page on a query
 * nobody updates: the sign-in page would never see the person signed in).
 */
function forgetPersonalData(queryClient: QueryClient): void {
  const me = JSON.stringify(ME_QUERY_KEY);
  queryClient.removeQueries({ predicate: (query) => JSON.stringify(query.queryKey) !== me });
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
