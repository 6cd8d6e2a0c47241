import type { AppRouter } from '@reshelf/api/router';
import { createTRPCClient, TRPCClientError, type TRPCLink } from '@trpc/client';
import { observable } from '@trpc/server/observable';
import { describe, expect, it, vi } from 'vitest';
import { BearerSession, SESSION_KEY, type TokenStore } from './bearer-session.ts';
import { refreshOverHttp, sessionLink } from './session-link.ts';

const TOKENS = { accessToken: 'access-1', refreshToken: 'refresh-1', expiresAt: 4_000_000_000 };
const USER = { id: 'u1', email: 'buyer@reshelf.test' };

function setUp(answer: (path: string) => { data: unknown } | { error: TRPCClientError<AppRouter> }) {
  const values = new Map<string, string>();
  // The native storage answers later, as the bridge does.
  const later = () => new Promise((resolve) => setTimeout(resolve, 5));
  const store: TokenStore = {
    get: async (key) => values.get(key) ?? null,
    set: async (key, value) => {
      await later();
      values.set(key, value);
    },
    remove: async (key) => {
      await later();
      values.delete(key);
    },
  };
  const session = new BearerSession({ store, refresh: async () => null });
  const paths: string[] = [];
  // Stands in for the HTTP link: answers each operation at once.
  const terminal: TRPCLink<AppRouter> =
    () =>
    ({ op }) =>
      observable((observer) => {
        paths.push(op.path);
        const outcome = answer(op.path);
        if ('error' in outcome) observer.error(outcome.error);
        else {
          observer.next({ result: { type: 'data', data: outcome.data } });
          observer.complete();
        }
        return () => {};
      });
  const client = createTRPCClient<AppRouter>({ links: [sessionLink(session), terminal] });
  return { client, session, values, paths };
}

function unauthorized() {
  return new TRPCClientError<AppRouter>('Please sign in to continue.', {
    result: {
      error: {
        code: -32001,
        message: 'Please sign in to continue.',
        data: { code: 'UNAUTHORIZED', httpStatus: 401, path: 'account.auth.signOut' },
      },
    },
  } as never);
}

describe('sessionLink', () => {
  it('keeps the tokens sign-in hands over before the caller hears of it', async () => {
    const { client, session, values } = setUp(() => ({ data: { user: USER, tokens: TOKENS } }));
    const result = await client.account.auth.signIn.mutate({ email: USER.email, password: 'reshelf-demo' });
    expect(result.user).toEqual(USER);
    expect(JSON.parse(values.get(SESSION_KEY)!)).toMatchObject(TOKENS);
    expect(await session.accessToken()).toBe('access-1');
  });

  it('keeps the tokens an email confirmation hands over', async () => {
    const { client, values } = setUp(() => ({ data: { user: USER, tokens: TOKENS } }));
    await client.account.auth.confirmEmail.mutate({ token: 'x'.repeat(43) });
    expect(values.has(SESSION_KEY)).toBe(true);
  });

  it('forgets them on sign-out and after a password reset', async () => {
    for (const end of ['signOut', 'resetPassword'] as const) {
      const { client, session, values } = setUp(() => ({ data: { ok: true } }));
      await session.set(TOKENS);
      if (end === 'signOut') await client.account.auth.signOut.mutate({ scope: 'local' });
      else
        await client.account.auth.resetPassword.mutate({
          token: 'x'.repeat(43),
          password: 'a-long-new-password',
        });
      expect(values.has(SESSION_KEY), end).toBe(false);
      expect(await session.accessToken(), end).toBeNull();
    }
  });

  it('forgets them when signing out of a session the BFF has already ended', async () => {
    const { client, session, values } = setUp(() => ({ error: unauthorized() }));
    await session.set(TOKENS);
    await expect(client.account.auth.signOut.mutate({ scope: 'local' })).rejects.toThrow('Please sign in');
    expect(values.has(SESSION_KEY)).toBe(false);
  });

  it('leaves them alone for every other call', async () => {
    const { client, session, values } = setUp(() => ({
      data: { user: USER, tokens: { ...TOKENS, accessToken: 'x' } },
    }));
    await session.set(TOKENS);
    await client.account.auth.me.query();
    expect(JSON.parse(values.get(SESSION_KEY)!).accessToken).toBe('access-1');
  });
});

describe('refreshOverHttp', () => {
  function answering(response: () => Response | Promise<Response>) {
    const seen: { url: string; body: unknown; credentials?: RequestCredentials; client: string | null }[] =
      [];
    const fetchImpl = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      seen.push({
        url: String(input),
        body: JSON.parse(String(init?.body)),
        credentials: init?.credentials,
        client: new Headers(init?.headers).get('x-reshelf-client'),
      });
      return response();
    });
    return { refresh: refreshOverHttp('https://api.example/trpc', fetchImpl as typeof fetch), seen };
  }
  const json = (status: number, body: unknown) =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

  it('swaps the refresh token for new tokens, as the app, without cookies', async () => {
    const { refresh, seen } = answering(() =>
      json(200, { result: { data: { user: USER, tokens: TOKENS } } }),
    );
    expect(await refresh('refresh-0')).toEqual(TOKENS);
    expect(seen).toEqual([
      {
        url: 'https://api.example/trpc/account.auth.refresh',
        body: { refreshToken: 'refresh-0' },
        credentials: 'omit',
        client: 'app',
      },
    ]);
  });

  it('answers null when the BFF refuses the refresh token (the session is over)', async () => {
    const { refresh } = answering(() =>
      json(401, {
        error: {
          code: -32001,
          message: 'Your session has expired. Please sign in again.',
          data: { code: 'UNAUTHORIZED', httpStatus: 401 },
        },
      }),
    );
    expect(await refresh('refresh-0')).toBeNull();
  });

  it('throws when the BFF could not say (offline, a server error, too many tries)', async () => {
    const offline = answering(() => Promise.reject(new TypeError('Failed to fetch')));
    await expect(offline.refresh('r')).rejects.toThrow();
    for (const status of [429, 500, 503]) {
      const { refresh } = answering(() =>
        json(status, { error: { code: -32603, message: 'no', data: { code: 'X', httpStatus: status } } }),
      );
      await expect(refresh('r'), String(status)).rejects.toThrow();
    }
  });
});
