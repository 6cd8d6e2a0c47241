import { TRPCClientError } from '@trpc/client';
import { describe, expect, it } from 'vitest';
import {
  apiErrorCode,
  apiErrorMessage,
  apiFieldErrors,
  CONNECTION_PROBLEM,
  isUnauthorized,
  shouldRetry,
} from './api-errors.ts';

// biome-ignore lint/suspicious/noExplicitAny: a hand-made error shape, as the API would send it.
function apiError(message: string, data: Record<string, unknown>): TRPCClientError<any> {
  return new TRPCClientError(message, { result: { error: { message, code: -32000, data } } as never });
}

describe('api errors', () => {
  const unauthorized = apiError('Please sign in to continue.', { code: 'UNAUTHORIZED', httpStatus: 401 });
  const offline = new TRPCClientError('Failed to fetch');

  it('reads the tRPC code and the server message', () => {
    expect(apiErrorCode(unauthorized)).toBe('UNAUTHORIZED');
    expect(isUnauthorized(unauthorized)).toBe(true);
    expect(apiErrorMessage(unauthorized)).toBe('Please sign in to continue.');
  });

  it('says it is the connection when the API never answered', () => {
    expect(apiErrorCode(offline)).toBeUndefined();
    expect(isUnauthorized(offline)).toBe(false);
    expect(apiErrorMessage(offline)).toBe(CONNECTION_PROBLEM);
    expect(apiErrorMessage(new Error('boom'))).toBe(CONNECTION_PROBLEM);
  });

  it('picks the first message per field from the server validation', () => {
    const invalid = apiError('password: Use at least 10 characters', {
      code: 'BAD_REQUEST',
      httpStatus: 400,
      zodError: { formErrors: [], fieldErrors: { password: ['Use at least 10 characters', 'other'] } },
    });
    expect(apiFieldErrors(invalid)).toEqual({ password: 'Use at least 10 characters' });
    expect(apiFieldErrors(unauthorized)).toEqual({});
  });

  it('retries once, and only what could succeed on a second try', () => {
    expect(shouldRetry(0, offline, 1)).toBe(true);
    expect(shouldRetry(1, offline, 1)).toBe(false);
    expect(shouldRetry(0, apiError('oops', { code: 'INTERNAL_SERVER_ERROR', httpStatus: 500 }), 1)).toBe(
      true,
    );
    expect(shouldRetry(0, unauthorized, 1)).toBe(false);
    expect(shouldRetry(0, apiError('no', { code: 'FORBIDDEN', httpStatus: 403 }), 1)).toBe(false);
  });
});
