import { dehydrate, hydrate, QueryClient, QueryObserver } from '@tanstack/react-query';
import { TRPCClientError } from '@trpc/client';
import { describe, expect, it } from 'vitest';
import { createQueryClient, keepServerErrors } from './query-client.ts';

// biome-ignore lint/suspicious/noExplicitAny: a hand-made error shape, as the API would send it.
function apiError(code: string, httpStatus: number): TRPCClientError<any> {
  return new TRPCClientError('failed', {
    result: { error: { message: 'failed', code: -32000, data: { code, httpStatus } } } as never,
  });
}

describe('query client', () => {
  it('alerts before ending the session when a query asks for it (the dashboard metrics on a 401)', async () => {
    const events: string[] = [];
    const client = createQueryClient({
      alert: (message) => events.push(`alert: ${message}`),
      onUnauthorized: () => events.push('signed out'),
    });
    const fail = (key: string, error: unknown, meta?: Record<string, unknown>) =>
      client
        .fetchQuery({ queryKey: [key], queryFn: () => Promise.reject(error), retry: false, meta })
        .catch(() => undefined);

    await fail('metrics', apiError('UNAUTHORIZED', 401), {
      sessionExpiredAlert: 'Session expired—please sign in',
    });
    expect(events).toEqual(['alert: Session expired—please sign in', 'signed out']);

    // Other queries end the session without an alert; other errors do neither.
    await fail('other', apiError('UNAUTHORIZED', 401));
    await fail('metrics-500', apiError('INTERNAL_SERVER_ERROR', 500), { sessionExpiredAlert: 'x' });
    expect(events).toEqual(['alert: Session expired—please sign in', 'signed out', 'signed out']);
  });

  it('renders a not-found answer a server-rendered page came with as it is, and does not ask again on mount', async () => {
    // The server's cache: the listing's query answered "not found" (web/src/entry-server.tsx).
    const server = new QueryClient();
    const queryKey = [['catalogue', 'listings', 'bySlug'], { input: { slug: 'gone' }, type: 'query' }];
    const error = {
      name: 'TRPCClientError',
      message: 'That listing does not exist.',
      data: { code: 'NOT_FOUND', httpStatus: 404 },
    };
    server
      .getQueryCache()
      .build(server, { queryKey })
      .setState({ status: 'error', error, errorUpdatedAt: 1 });
    const state = JSON.parse(
      JSON.stringify(dehydrate(server, { shouldDehydrateQuery: (query) => query.state.status === 'error' })),
    );

    const mount = (client: QueryClient) => {
      hydrate(client, state);
      let asked = 0;
      const options = client.defaultQueryOptions({ queryKey, queryFn: async () => (asked += 1) });
      // As useQuery renders it: the result it expects on mount.
      options._optimisticResults = 'optimistic';
      const observer = new QueryObserver(client, options);
      const first = observer.getOptimisticResult(options);
      const unsubscribe = observer.subscribe(() => {});
      unsubscribe();
      return { status: first.status, error: first.error, asked };
    };
    const kept = createQueryClient();
    keepServerErrors(kept, state);
    expect(mount(kept)).toEqual({ status: 'error', error, asked: 0 });
    // Without it the first render would be "loading" (not the server's page) while it asks again.
    expect(mount(createQueryClient())).toMatchObject({ status: 'pending', asked: 1 });
  });
});
