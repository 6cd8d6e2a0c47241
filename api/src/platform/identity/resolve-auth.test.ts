import type { FastifyReply, FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import type { AppConfig } from '../../config.ts';
import type { Database } from '../../db/index.ts';
import { AppError, retryAfterOf } from '../../errors.ts';
import { type AccessClaims, IdentityError, type IdentityProvider } from './port.ts';
import { authFailure, resolveAuth } from './resolve-auth.ts';

describe('auth failures that are outages (decision 0024)', () => {
  it('answers the hosted sign-in service not answering as 503 with Retry-After, not as signed out', () => {
    for (const error of [
      new IdentityError(
        'unavailable',
        'We could not reach the sign-in service. Please try again in a moment.',
      ),
      new IdentityError('upstream_error', 'The sign-in service had a problem.', 502),
    ]) {
      const answered = authFailure(error);
      expect(answered).toBeInstanceOf(AppError);
      expect((answered as AppError).code).toBe('UNAVAILABLE');
      expect(retryAfterOf(answered as AppError)).toBeGreaterThan(0);
    }
  });

  it('leaves database errors to be classified by the caller, and everything else as it is', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    expect(authFailure(refused)).toBe(refused);
    const bug = new TypeError('undefined is not a function');
    expect(authFailure(bug)).toBe(bug);
    const expired = new IdentityError('upstream_error', 'Your session has expired.', 401);
    expect(authFailure(expired)).toBe(expired);
  });
});

describe('the suspension lookup of a signed-in request', () => {
  /** A database that records the tables asked about and finds nothing. */
  function recordingDb() {
    const tables: string[] = [];
    const query: object = new Proxy(
      {},
      { get: (_target, key) => (key === 'executeTakeFirst' ? async () => undefined : () => query) },
    );
    const selectFrom = (table: string) => {
      tables.push(table);
      return query;
    };
    const db = { selectFrom } as unknown as Database;
    return { db, tables };
  }
  const signedIn = (claims: Partial<AccessClaims>) =>
    ({
      verify: async () => ({
        userId: 'user-1',
        email: 'a@b.test',
        sessionId: 's-1',
        expiresAt: 1,
        ...claims,
      }),
    }) as unknown as IdentityProvider;
  const request = () =>
    ({
      headers: { authorization: 'Bearer a-token' },
      ip: '127.0.0.1',
      log: { info: () => {} },
    }) as unknown as FastifyRequest;
  const reply = { header: () => reply } as unknown as FastifyReply;

  it('is skipped when the provider read the account with the session (the local provider)', async () => {
    const { db, tables } = recordingDb();
    const state = await resolveAuth(
      request(),
      reply,
      signedIn({ suspensionChecked: true }),
      {} as AppConfig,
      {
        suspensions: db,
      },
    );
    expect(state.claims?.userId).toBe('user-1');
    expect(tables).toEqual([]);
  });

  it('is made for claims the provider did not check (hosted sign-in)', async () => {
    const { db, tables } = recordingDb();
    const state = await resolveAuth(request(), reply, signedIn({}), {} as AppConfig, { suspensions: db });
    expect(state.claims?.userId).toBe('user-1');
    expect(tables).toEqual(['auth.users']);
  });
});
