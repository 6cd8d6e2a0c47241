import {
  type DehydratedState,
  HydrationBoundary,
  type QueryClient,
  QueryClientProvider,
} from '@tanstack/react-query';
import { type ComponentType, type ReactNode, useEffect, useState } from 'react';
import { AccountClosedNotice } from '../account/member/AccountClosedNotice.tsx';
import { SonnerToaster } from '../components/ui/sonner.tsx';
import { markSignedOut } from '../lib/session.ts';
import { createTrpcClient, trpc } from '../lib/trpc.ts';
import { createQueryClient, keepServerErrors } from './query-client.ts';

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

/**
 * The primary toasts' region (Radix's toast, components/ui/toaster.tsx), fetched once the page
 * has been taken over rather than with it (decision 0066): nothing on the server, nothing in the
 * first render in the browser (so hydration matches), then the toaster. A toast raised before
 * it arrives waits in use-toast.ts's store and shows when it mounts.
 */
function PrimaryToaster() {
  const [Loaded, setLoaded] = useState<ComponentType | null>(null);
  useEffect(() => {
    let live = true;
    import('../components/ui/toaster.tsx').then(
      (loaded) => live && setLoaded(() => loaded.Toaster),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, []);
  return Loaded ? <Loaded /> : null;
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
    keepServerErrors(client, dehydratedState);
    return client;
  });
  const [trpcClient] = useState(() => givenTrpc ?? createTrpcClient());
  return (
    <trpc.Provider client={trpcClient} queryClient={queryClient}>
      <QueryClientProvider client={queryClient}>
        <HydrationBoundary state={dehydratedState}>
          {children}
          <PrimaryToaster />
          <SonnerToaster />
          <AccountClosedNotice />
        </HydrationBoundary>
      </QueryClientProvider>
    </trpc.Provider>
  );
}
