import type { AppRouter } from '@reshelf/api/router';
import { CLIENT_HEADER } from '@reshelf/contracts';
import {
  httpBatchLink,
  httpSubscriptionLink,
  retryLink,
  splitLink,
  type TRPCClientError,
  type TRPCLink,
} from '@trpc/client';
import { createTRPCReact } from '@trpc/react-query';
import type { inferRouterInputs, inferRouterOutputs } from '@trpc/server';
import { EventSource as FetchEventSource } from 'eventsource';
import { apiUrl } from './api.ts';
import { appSession } from './app-session.ts';
import type { BearerSession } from './bearer-session.ts';
import { APP_CLIENT, sessionLink } from './session-link.ts';

/** Typed React hooks for every API procedure: trpc.catalogue.public.categories.useQuery(), ... */
export const trpc = createTRPCReact<AppRouter>();

/** What each procedure answers: RouterOutputs['commerce']['refunds']['ledger']. The one place pages take API types from. */
export type RouterOutputs = inferRouterOutputs<AppRouter>;
/** What each procedure takes: RouterInputs['commerce']['promotions']['create']. */
export type RouterInputs = inferRouterInputs<AppRouter>;

/** Codes a subscription is not retried after: signing in again (or other input) is needed. */
const FINAL_CODES = new Set([
  'UNAUTHORIZED',
  'FORBIDDEN',
  'BAD_REQUEST',
  'NOT_FOUND',
  'METHOD_NOT_SUPPORTED',
]);

/** The wait before subscribing again after the stream failed `attempt` times: 1, 2, 4 … 30 s. */
export function subscriptionRetryDelayMs(attempt: number): number {
  return Math.min(1000 * 2 ** Math.max(0, attempt - 1), 30_000);
}

/** Whether a failed subscription is opened again (from its last event: retryLink keeps it). */
export function retrySubscription(error: TRPCClientError<AppRouter>): boolean {
  const code = (error.data as { code?: string } | undefined)?.code;
  return !code || !FINAL_CODES.has(code);
}

/**
 * Subscriptions stream over server-sent events (docs/realtime.md). The EventSource reconnects by
 * itself after a dropped stream and sends the last event's id, so the server resumes there;
 * when the stream fails outright (the server answered 503, say) the retry link opens it again,
 * later each time, from the same last event. In a browser the session cookies go with it. The
 * app holds a bearer token instead, which a browser's EventSource cannot send: there it is a
 * fetch-based EventSource (the `eventsource` package) whose every request, reconnections
 * included, goes through the session's fetch, so it carries a fresh token.
 */
function subscriptionLinks(session: BearerSession | null): TRPCLink<AppRouter>[] {
  const url = apiUrl('/trpc');
  return [
    retryLink({
      retry: ({ error }) => retrySubscription(error),
      retryDelayMs: subscriptionRetryDelayMs,
    }),
    session
      ? httpSubscriptionLink({
          url,
          EventSource: FetchEventSource,
          eventSourceOptions: () => ({ fetch: (input, init) => session.fetch(input, init as RequestInit) }),
        })
      : httpSubscriptionLink({ url, eventSourceOptions: () => ({ withCredentials: true }) }),
  ];
}

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
        splitLink({
          condition: (op) => op.type === 'subscription',
          true: subscriptionLinks(session),
          false: httpBatchLink({
            url: apiUrl('/trpc'),
            headers: { [CLIENT_HEADER]: APP_CLIENT },
            fetch: session.fetch,
          }),
        }),
      ],
    });
  }
  return trpc.createClient({
    links: [
      splitLink({
        condition: (op) => op.type === 'subscription',
        true: subscriptionLinks(null),
        false: httpBatchLink({
          url: apiUrl('/trpc'),
          headers: { [CLIENT_HEADER]: 'web' },
          fetch: (input, init) => fetch(input, { ...init, credentials: 'include' }),
        }),
      }),
    ],
  });
}
