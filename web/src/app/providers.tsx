import { SECONDARY_TOAST } from '@reshelf/contracts';
import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { type CSSProperties, type ReactNode, useState } from 'react';
import { Toaster } from 'sonner';
import { markSignedOut } from '../features/auth/session.ts';
import { createTrpcClient, trpc } from '../lib/trpc.ts';
import { useIsMobile } from '../lib/use-media-query.ts';
import { createQueryClient } from './query-client.ts';

/** Everything the app needs above the router: the query cache, the API client and toasts. */
export function AppProviders({ children }: { children: ReactNode }) {
  const [queryClient] = useState(() => {
    // Any UNAUTHORIZED answer means the session has ended: mark the person signed out. The
    // guard of a signed-in page then sends them to /login?next=<that page> (history replaced),
    // and the sign-in page brings them back. Their data stays until the next person signs in,
    // so the page being left does not refetch it on its way out.
    const client: QueryClient = createQueryClient({
      onUnauthorized: () => markSignedOut(client, { forgetData: false }),
    });
    return client;
  });
  const [trpcClient] = useState(createTrpcClient);
  return (
    <trpc.Provider client={trpcClient} queryClient={queryClient}>
      <QueryClientProvider client={queryClient}>
        {children}
        <AppToaster />
      </QueryClientProvider>
    </trpc.Provider>
  );
}

/** Sonner toasts (spec section 9, secondary kind): top on small screens, bottom right on larger. */
function AppToaster() {
  const isMobile = useIsMobile();
  return (
    <Toaster
      position={isMobile ? 'top-center' : 'bottom-right'}
      visibleToasts={SECONDARY_TOAST.visible}
      duration={SECONDARY_TOAST.durationMs}
      gap={SECONDARY_TOAST.gapPx}
      offset={SECONDARY_TOAST.offsetPx}
      mobileOffset={SECONDARY_TOAST.mobileOffsetPx}
      style={{ '--width': `${SECONDARY_TOAST.widthPx}px` } as CSSProperties}
      closeButton
    />
  );
}
