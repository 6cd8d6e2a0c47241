import { QUERY_CACHE } from '@reshelf/contracts';
import { type DehydratedState, MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { isUnauthorized, shouldRetry } from '../lib/api-errors.ts';

export interface QueryClientOptions {
  /**
   * Called when any query or mutation is answered UNAUTHORIZED: the session has ended (expired,
   * revoked, or signed out elsewhere). The app marks the person signed out, and the guard of a
   * signed-in page then sends them to /login?next=<this page>.
   */
  onUnauthorized?: (error: unknown) => void;
  /** Shows a blocking message (window.alert in the browser). */
  alert?: (message: string) => void;
}

/**
 * A query whose meta carries `sessionExpiredAlert` tells the person in an alert before the app
 * treats the session as ended (spec section 8: the dashboard's metrics on a 401).
 */
export interface AppQueryMeta extends Record<string, unknown> {
  sessionExpiredAlert?: string;
}

/** The spec's cache settings (section 9): fresh 5 minutes, kept 10, one retry, no refetch on focus. */
export function createQueryClient(options: QueryClientOptions = {}): QueryClient {
  const onError = (error: unknown) => {
    if (isUnauthorized(error)) options.onUnauthorized?.(error);
  };
  const onQueryError = (error: unknown, query: { meta?: Record<string, unknown> }) => {
    const message = (query.meta as AppQueryMeta | undefined)?.sessionExpiredAlert;
    if (isUnauthorized(error) && typeof message === 'string') {
      (options.alert ?? ((text: string) => window.alert(text)))(message);
    }
    onError(error);
  };
  return new QueryClient({
    queryCache: new QueryCache({ onError: onQueryError }),
    mutationCache: new MutationCache({ onError }),
    defaultOptions: {
      queries: {
        staleTime: QUERY_CACHE.staleTimeMs,
        gcTime: QUERY_CACHE.gcTimeMs,
        retry: (failureCount, error) => shouldRetry(failureCount, error, QUERY_CACHE.retry),
        refetchOnWindowFocus: QUERY_CACHE.refetchOnWindowFocus,
      },
    },
  });
}

/**
 * A server-rendered page may have been rendered from a not-found answer (web/src/entry-server.tsx):
 * those answers come with the page, and the browser renders from them as the server did. A query
 * holding an error is otherwise asked again when its page mounts, and shows as loading meanwhile,
 * which is not the page the server sent (a hydration mismatch): these are not asked again.
 */
export function keepServerErrors(client: QueryClient, state: DehydratedState | undefined): void {
  for (const query of state?.queries ?? []) {
    if (query.state.status === 'error') client.setQueryDefaults(query.queryKey, { retryOnMount: false });
  }
}
