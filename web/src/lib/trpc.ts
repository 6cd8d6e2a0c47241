import type { AppRouter } from '@reshelf/api/router';
import { CLIENT_HEADER } from '@reshelf/contracts';
import { httpBatchLink } from '@trpc/client';
import { createTRPCReact } from '@trpc/react-query';
import { apiUrl } from './api.ts';
import { appSession } from './app-session.ts';
import { APP_CLIENT, sessionLink } from './session-link.ts';

/** Typed React hooks for every API procedure: trpc.catalogue.categories.useQuery(), ... */
export const trpc = createTRPCReact<AppRouter>();

/**
 * The API client. In a browser the session lives in httpOnly cookies set by the API, so they
 * travel with every call, and the client header says "web" (required on cookie-authenticated
 * mutations: CSRF). Inside the native app the client holds bearer tokens instead (decision 0029):
 * the session link keeps and forgets them, the session's fetch sends and renews them.
 */
export function createTrpcClient() {
  const session = appSession();
  if (session) {
    return trpc.createClient({
      links: [
        sessionLink(session),
        httpBatchLink({
          url: apiUrl('/trpc'),
          headers: { [CLIENT_HEADER]: APP_CLIENT },
          fetch: session.fetch,
        }),
      ],
    });
  }
  return trpc.createClient({
    links: [
      httpBatchLink({
        url: apiUrl('/trpc'),
        headers: { [CLIENT_HEADER]: 'web' },
        fetch: (input, init) => fetch(input, { ...init, credentials: 'include' }),
      }),
    ],
  });
}
