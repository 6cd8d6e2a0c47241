import type { AppRouter } from '@reshelf/api/router';
import { CLIENT_HEADER } from '@reshelf/contracts';
import { httpBatchLink } from '@trpc/client';
import { createTRPCReact } from '@trpc/react-query';
import { apiUrl } from './api.ts';

/** Typed React hooks for every API procedure: trpc.catalogue.categories.useQuery(), ... */
export const trpc = createTRPCReact<AppRouter>();

/** Identifies this client to the API; required on cookie-authenticated mutations (CSRF). */
export const CLIENT_KIND = 'web';

export function createTrpcClient() {
  return trpc.createClient({
    links: [
      httpBatchLink({
        url: apiUrl('/trpc'),
        headers: { [CLIENT_HEADER]: CLIENT_KIND },
        // The session lives in httpOnly cookies set by the API, so they must travel with every call.
        fetch: (input, init) => fetch(input, { ...init, credentials: 'include' }),
      }),
    ],
  });
}
