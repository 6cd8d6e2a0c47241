import { QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { SonnerToaster } from '../components/ui/sonner.tsx';
import { Toaster } from '../components/ui/toaster.tsx';
import { createTrpcClient, trpc } from '../lib/trpc.ts';
import { createQueryClient } from './query-client.ts';

/** Everything the app needs above the router: the query cache, the API client and both toast systems. */
export function AppProviders({ children }: { children: ReactNode }) {
  const [queryClient] = useState(createQueryClient);
  const [trpcClient] = useState(createTrpcClient);
  return (
    <trpc.Provider client={trpcClient} queryClient={queryClient}>
      <QueryClientProvider client={queryClient}>
        {children}
        <Toaster />
        <SonnerToaster />
      </QueryClientProvider>
    </trpc.Provider>
  );
}
