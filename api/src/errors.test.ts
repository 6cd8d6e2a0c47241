import { STATUS_CODES } from 'node:http';
import { getHTTPStatusCodeFromError } from '@trpc/server/http';
import { describe, expect, it } from 'vitest';
import {
  AppError,
  type AppErrorCode,
  asAppError,
  DATABASE_UNAVAILABLE_MESSAGE,
  ERRORS,
  errorOfTRPCCode,
  infrastructureFailure,
  PoolSaturatedError,
  retryAfterOf,
  titleOfStatus,
  UNAVAILABLE_RETRY_AFTER_SECONDS,
} from './errors.ts';

function withCode(code: string, message = 'x'): Error {
  return Object.assign(new Error(message), { code });
}

describe('the error table', () => {
  it('gives each code one tRPC code, the HTTP status tRPC answers it with, and that status’s title', () => {
    for (const [code, row] of Object.entries(ERRORS)) {
      const error = new AppError(code as AppErrorCode, 'x').toTRPC();
      expect(error.code, code).toBe(row.trpc);
      expect(getHTTPStatusCodeFromError(error), code).toBe(row.status);
      expect(row.title, code).toBe(STATUS_CODES[row.status]);
      expect(errorOfTRPCCode(row.trpc)?.status, code).toBe(row.status);
      expect(titleOfStatus(row.status), code).toBe(row.title);
    }
  });
});

describe('infrastructure failures', () => {
  it('recognises a database that went away or cannot be reached', () => {
    for (const code of ['57P01', '57P02', '57P03', '08006', '08001', '08003', '53300']) {
      expect(infrastructureFailure(withCode(code)), code).toBe('database');
    }
    for (const code of ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE']) {
      expect(infrastructureFailure(withCode(code)), code).toBe('database');
    }
    expect(infrastructureFailure(new Error('timeout exceeded when trying to connect'))).toBe('database');
    expect(infrastructureFailure(new Error('Connection terminated unexpectedly'))).toBe('database');
    expect(infrastructureFailure(new Error('Connection terminated'))).toBe('database');
    // A transaction whose connection died mid-way: kysely's ROLLBACK meets the closed client.
    expect(infrastructureFailure(new Error('Client was closed and is not queryable'))).toBe('database');
    // Connecting to every address of a host failed.
    expect(infrastructureFailure(new AggregateError([withCode('ECONNREFUSED')], ''))).toBe('database');
    // Wrapped by a caller.
    expect(infrastructureFailure(new Error('outer', { cause: withCode('57P01') }))).toBe('database');
    expect(infrastructureFailure(new PoolSaturatedError(20))).toBe('overloaded');
  });

  it('leaves everything else alone: bad SQL, constraint violations, bugs, domain errors', () => {
    for (const code of ['23505', '23514', '42P01', '40001', '22P02', '57014']) {
      expect(infrastructureFailure(withCode(code)), code).toBeNull();
    }
    expect(infrastructureFailure(new TypeError('cannot read properties of undefined'))).toBeNull();
    expect(infrastructureFailure(new AppError('NOT_FOUND', 'Connection terminated'))).toBeNull();
    expect(infrastructureFailure(null)).toBeNull();
    expect(infrastructureFailure('ECONNREFUSED')).toBeNull();
  });

  it('answers an infrastructure failure as UNAVAILABLE with Retry-After, and a bug not at all', () => {
    const error = asAppError(withCode('ECONNREFUSED'));
    expect(error).toBeInstanceOf(AppError);
    expect(error?.code).toBe('UNAVAILABLE');
    expect(error?.message).toBe(DATABASE_UNAVAILABLE_MESSAGE);
    expect(retryAfterOf(error!)).toBe(UNAVAILABLE_RETRY_AFTER_SECONDS);
    expect(asAppError(new PoolSaturatedError(3))?.toTRPC().code).toBe('SERVICE_UNAVAILABLE');
    expect(asAppError(new Error('bug'))).toBeNull();
    const domain = new AppError('CONFLICT', 'taken');
    expect(asAppError(domain)).toBe(domain);
    expect(retryAfterOf(domain)).toBeUndefined();
    // Any 503 says when to come back, even one raised without saying.
    expect(retryAfterOf(new AppError('UNAVAILABLE', 'payments down'))).toBe(UNAVAILABLE_RETRY_AFTER_SECONDS);
  });
});
