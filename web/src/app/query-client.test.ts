import { TRPCClientError } from '@trpc/client';
import { describe, expect, it } from 'vitest';
import { createQueryClient } from './query-client.ts';

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
});
