/**
 * A subscriber as the native app and scripts are: tRPC's httpSubscriptionLink over a
 * fetch-based EventSource (the `eventsource` package) that sends `Authorization: Bearer`,
 * against a listening app. It records what arrives; tests wait for conditions on it.
 */
import type { TRPCClientError } from '@trpc/client';
import { createTRPCClient, httpLink, httpSubscriptionLink, splitLink } from '@trpc/client';
import { EventSource } from 'eventsource';
import type { AppRouter } from '../router.ts';
import { until } from './until.ts';

export interface Received<T> {
  id: string;
  data: T;
}

export interface TestSubscription<T> {
  received: Received<T>[];
  errors: TRPCClientError<AppRouter>[];
  /** Times the stream (re)connected ("started" and every "pending" state after "connecting"). */
  connections: number;
  /** Waits until `count` events in all have arrived. */
  waitFor(count: number, what?: string): Promise<Received<T>[]>;
  /** The cursor of the last event received. */
  lastEventId(): string | undefined;
  close(): void;
}

export function testClient(baseUrl: string, token?: string | null) {
  const withToken = (init: RequestInit = {}): RequestInit => {
    const headers = new Headers(init.headers);
    if (token) headers.set('authorization', `Bearer ${token}`);
    return { ...init, headers };
  };
  return createTRPCClient<AppRouter>({
    links: [
      splitLink({
        condition: (op) => op.type === 'subscription',
        true: httpSubscriptionLink({
          url: `${baseUrl}/trpc`,
          EventSource,
          eventSourceOptions: () => ({
            fetch: (url, init) => fetch(url, withToken(init as RequestInit)),
          }),
        }),
        false: httpLink({
          url: `${baseUrl}/trpc`,
          headers: { 'x-reshelf-client': 'script' },
          fetch: (url, init) => fetch(url, withToken(init as RequestInit)),
        }),
      }),
    ],
  });
}

/** Subscribes to `platform.realtime.events` (or another subscription, through `subscribe`). */
export function recordSubscription<T>(
  subscribe: (handlers: {
    onData(value: unknown): void;
    onError(error: TRPCClientError<AppRouter>): void;
    onConnectionStateChange(state: { state: string }): void;
  }) => { unsubscribe(): void },
): TestSubscription<T> {
  const received: Received<T>[] = [];
  const errors: TRPCClientError<AppRouter>[] = [];
  let connections = 0;
  const subscription = subscribe({
    onData(value) {
      const tracked = value as { id: string; data: T };
      received.push({ id: tracked.id, data: tracked.data });
    },
    onError(error) {
      errors.push(error);
    },
    onConnectionStateChange(state) {
      if (state.state === 'pending') connections += 1;
    },
  });
  const result: TestSubscription<T> = {
    received,
    errors,
    get connections() {
      return connections;
    },
    async waitFor(count, what = `${count} events`) {
      await until(() => errors.length > 0 || received.length >= count, what);
      if (errors.length > 0) throw errors[0];
      return received;
    },
    lastEventId: () => received.at(-1)?.id,
    close: () => subscription.unsubscribe(),
  };
  return result;
}
