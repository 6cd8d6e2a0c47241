import { QUERY_CACHE } from '@reshelf/contracts';
import { QueryClient } from '@tanstack/react-query';

/** The spec's cache settings (section 9): fresh 5 minutes, kept 10, one retry, no refetch on focus. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: QUERY_CACHE.staleTimeMs,
        gcTime: QUERY_CACHE.gcTimeMs,
        retry: QUERY_CACHE.retry,
        refetchOnWindowFocus: QUERY_CACHE.refetchOnWindowFocus,
      },
    },
  });
}
