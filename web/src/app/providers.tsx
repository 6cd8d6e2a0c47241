import { SECONDARY_TOAST } from '@reshelf/contracts';
import { QueryClientProvider } from '@tanstack/react-query';
import { type CSSProperties, type ReactNode, useState } from 'react';
import { Toaster } from 'sonner';
import { createTrpcClient, trpc } from '../lib/trpc.ts';
import { useIsMobile } from '../lib/use-media-query.ts';
import { createQueryClient } from './query-client.ts';

/** Everything the app needs above the router: the query cache, the API client and toasts. */
export function AppProviders({ children }: { children: ReactNode }) {
  const [queryClient] = useState(createQueryClient);
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
