import {
  type DehydratedState,
  HydrationBoundary,
  type QueryClient,
  QueryClientProvider,
} from '@tanstack/react-query';
import { lazy, type ReactNode, Suspense, useEffect, useState } from 'react';
import { markSignedOut } from '../features/auth/session.ts';
import { createTrpcClient, trpc } from '../lib/trpc.ts';
import { createQueryClient } from './query-client.ts';

const Toasters = lazy(async () => ({ default: (await import('./toasters.tsx')).Toasters }));

/**
 * The toasts' viewports (Radix and Sonner), mounted once the page is up: their code is not in
 * the first load, and a server-rendered page hydrates without them. A toast raised before they
 * arrive is kept by its store and shown when they do (use-toast.ts's store; Sonner replays).
 */
function LateToasters() {
  const [ready, setReady] = useState(false);
  useEffect(() => setReady(true), []);
  return ready ? (
    <Suspense fallback={null}>
      <Toasters />
    </Suspense>
  ) : null;
}

type TrpcClient = ReturnType<typeof createTrpcClient>;

export interface AppProvidersProps {
  children: ReactNode;
  /** Server rendering: the request's own cache, already holding the page's answers. */
  queryClient?: QueryClient;
  /** Server rendering: a client that is never called (the answers are in the cache). */
  trpcClient?: TrpcClient;
  /** The answers the server rendered the page with (web/src/entry-server.tsx), for hydration. */
  dehydratedState?: DehydratedState | undefined;
}

/** Everything the app needs above the router: the query cache, the API client and both toast systems. */
export function AppProviders({
  children,
  queryClient: given,
  trpcClient: givenTrpc,
  dehydratedState,
}: AppProvidersProps) {
  const [queryClient] = useState(() => {
    if (given) return given;
    // Any UNAUTHORIZED answer means the session has ended: mark the person signed out. The
    // guard of a signed-in page then sends them to /login?next=<that page> (history replaced),
    // and the sign-in page brings them back. Their data stays until the next person signs in,
    // so the page being left does not refetch it on its way out.
    const client: QueryClient = createQueryClient({
      onUnauthorized: () => markSignedOut(client, { forgetData: false }),
    });
    return client;
  });
  const [trpcClient] = useState(() => givenTrpc ?? createTrpcClient());
  return (
    <trpc.Provider client={trpcClient} queryClient={queryClient}>
      <QueryClientProvider client={queryClient}>
        <HydrationBoundary state={dehydratedState}>
          {children}
          <LateToasters />
        </HydrationBoundary>
      </QueryClientProvider>
    </trpc.Provider>
  );
}
