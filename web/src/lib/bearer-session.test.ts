import { describe, expect, it, vi } from 'vitest';
import {
  BearerSession,
  RENEW_BEFORE_EXPIRY_MS,
  renewAt,
  SESSION_KEY,
  type SessionTokens,
  type TokenStore,
} from './bearer-session.ts';

const T0 = Date.UTC(2026, 10, 24, 9, 0, 0);

function memoryStore(initial: Record<string, string> = {}) {
  const values = new Map(Object.entries(initial));
  const store: TokenStore = {
    get: async (key) => values.get(key) ?? null,
    set: async (key, value) => void values.set(key, value),
    remove: async (key) => void values.delete(key),
  };
  return { store, values };
}

/** A JWT-shaped token (only its claims are read here) issued at `iat` for `life` seconds. */
function jwt(name: string, iat: number, life = 900): string {
  const claims = btoa(JSON.stringify({ sub: name, iat, exp: iat + life }))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
  return `e30.${claims}.sig-${name}`;
}

function tokens(name: string, issuedAtMs = T0, life = 900): SessionTokens {
  const iat = Math.floor(issuedAtMs / 1000);
  return { accessToken: jwt(name, iat, life), refreshToken: `refresh-${name}`, expiresAt: iat + life };
}

function setUp(
  options: { held?: SessionTokens; refresh?: (token: string) => Promise<SessionTokens | null> } = {},
) {
  let now = T0;
  const { store, values } = memoryStore(
    options.held
      ? { [SESSION_KEY]: JSON.stringify({ ...options.held, renewAt: renewAt(options.held, T0) }) }
      : {},
  );
  const refresh = vi.fn(options.refresh ?? (async () => tokens('renewed', now)));
  const calls: { url: string; authorization: string | null; credentials: RequestCredentials | undefined }[] =
    [];
  const answers: Response[] = [];
  const fetchImpl = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const headers = new Headers(init?.headers);
    calls.push({
      url: String(input),
      authorization: headers.get('authorization'),
      credentials: init?.credentials,
    });
    return answers.shift() ?? new Response('{}', { status: 200 });
  });
  const session = new BearerSession({ store, refresh, now: () => now, fetch: fetchImpl as typeof fetch });
  return {
    session,
    values,
    refresh,
    calls,
    answers,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

const refused = (status: number) =>
  new Response('{}', { status, headers: { 'www-authenticate': 'Bearer error="invalid_token"' } });

describe('BearerSession', () => {
  it('has no token until signed in, then keeps the tokens in the store', async () => {
    const { session, values } = setUp();
    expect(await session.accessToken()).toBeNull();
    await session.set(tokens('first'));
    expect(await session.accessToken()).toBe(tokens('first').accessToken);
    expect(JSON.parse(values.get(SESSION_KEY)!)).toMatchObject({ refreshToken: 'refresh-first' });
  });

  it('reads the tokens kept from the last launch', async () => {
    const { session, refresh } = setUp({ held: tokens('kept') });
    expect(await session.accessToken()).toBe(tokens('kept').accessToken);
    expect(refresh).not.toHaveBeenCalled();
  });

  it('forgets an unreadable stored value', async () => {
    const { store, values } = memoryStore({ [SESSION_KEY]: '{"accessToken":' });
    const session = new BearerSession({ store, refresh: async () => null });
    expect(await session.accessToken()).toBeNull();
    expect(values.has(SESSION_KEY)).toBe(false);
  });

  it('carries on in memory when the storage refuses (read as empty, writes lost)', async () => {
    const refuse = async () => {
      throw new Error('"Preferences" plugin is not implemented on ios');
    };
    const session = new BearerSession({
      store: { get: refuse, set: refuse, remove: refuse },
      refresh: async () => null,
    });
    expect(await session.accessToken()).toBeNull();
    await session.set(tokens('memory'));
    expect(await session.accessToken()).toBe(tokens('memory').accessToken);
    await session.clear();
    expect(await session.accessToken()).toBeNull();
  });

  it('renews shortly before the access token expires, not sooner', async () => {
    const { session, refresh, values, advance } = setUp({ held: tokens('kept') });
    advance(900_000 - RENEW_BEFORE_EXPIRY_MS - 1);
    expect(await session.accessToken()).toBe(tokens('kept').accessToken);
    expect(refresh).not.toHaveBeenCalled();
    advance(1);
    const renewed = await session.accessToken();
    expect(refresh).toHaveBeenCalledExactlyOnceWith('refresh-kept');
    expect(renewed).toBe(tokens('renewed', T0 + 900_000 - RENEW_BEFORE_EXPIRY_MS).accessToken);
    expect(JSON.parse(values.get(SESSION_KEY)!)).toMatchObject({ refreshToken: 'refresh-renewed' });
  });

  it('times renewal by the token’s own lifetime, whatever the device’s clock says', () => {
    // Issued "now" by a server whose clock is an hour behind this device's.
    const skewed = tokens('skewed', T0 - 3_600_000);
    expect(renewAt(skewed, T0)).toBe(T0 + 900_000 - RENEW_BEFORE_EXPIRY_MS);
    // A token that says nothing of its lifetime: by expiresAt.
    const opaque = { accessToken: 'opaque', refreshToken: 'r', expiresAt: T0 / 1000 + 600 };
    expect(renewAt(opaque, T0)).toBe(T0 + 600_000 - RENEW_BEFORE_EXPIRY_MS);
  });

  it('renews once for every call that needs it at the same time (refresh tokens work once)', async () => {
    let release: (value: SessionTokens) => void = () => {};
    const { session, refresh, advance } = setUp({
      held: tokens('kept'),
      refresh: () => new Promise((resolve) => (release = resolve)),
    });
    advance(900_000);
    const waiting = Promise.all([1, 2, 3, 4, 5].map(() => session.accessToken()));
    await vi.waitFor(() => expect(refresh).toHaveBeenCalledTimes(1));
    release(tokens('shared', T0 + 900_000));
    expect(new Set(await waiting)).toEqual(new Set([tokens('shared', T0 + 900_000).accessToken]));
    expect(refresh).toHaveBeenCalledTimes(1);
  });

  it('forgets the tokens when the BFF says the session is over', async () => {
    const { session, values, advance } = setUp({ held: tokens('kept'), refresh: async () => null });
    advance(900_000);
    expect(await session.accessToken()).toBeNull();
    expect(values.has(SESSION_KEY)).toBe(false);
  });

  it('keeps the tokens when the BFF could not be asked (offline), for the next try', async () => {
    const { session, values, advance } = setUp({
      held: tokens('kept'),
      refresh: async () => {
        throw new TypeError('Failed to fetch');
      },
    });
    advance(900_000);
    await expect(session.accessToken()).rejects.toThrow('Failed to fetch');
    expect(values.has(SESSION_KEY)).toBe(true);
  });

  it('forgets the tokens on clear()', async () => {
    const { session, values } = setUp({ held: tokens('kept') });
    await session.clear();
    expect(await session.accessToken()).toBeNull();
    expect(values.size).toBe(0);
  });
});

describe('BearerSession.fetch', () => {
  it('sends the bearer token and no cookies; nothing when signed out', async () => {
    const { session, calls } = setUp({ held: tokens('kept') });
    await session.fetch('https://api.example/trpc/account.auth.me', {
      headers: { 'x-reshelf-client': 'app' },
    });
    expect(calls).toEqual([
      {
        url: 'https://api.example/trpc/account.auth.me',
        authorization: `Bearer ${tokens('kept').accessToken}`,
        credentials: 'omit',
      },
    ]);
    await session.clear();
    await session.fetch('https://api.example/trpc/account.auth.me');
    expect(calls[1]).toMatchObject({ authorization: null, credentials: 'omit' });
  });

  it('on a refused token renews once and sends a read again', async () => {
    const { session, calls, answers, refresh } = setUp({ held: tokens('kept') });
    answers.push(refused(200), refused(200));
    const response = await session.fetch('https://api.example/trpc/account.auth.me');
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(calls.map((call) => call.authorization)).toEqual([
      `Bearer ${tokens('kept').accessToken}`,
      `Bearer ${tokens('renewed').accessToken}`,
    ]);
    // Refused again: that answer stands (once, not a loop).
    expect(response.status).toBe(200);
    expect(calls).toHaveLength(2);
  });

  it('sends a mutation again only when it was refused whole (401)', async () => {
    const { session, calls, answers } = setUp({ held: tokens('kept') });
    answers.push(refused(401));
    const retried = await session.fetch('https://api.example/trpc/commerce.orders.member.confirm', {
      method: 'POST',
      body: '{}',
    });
    expect(retried.status).toBe(200);
    expect(calls).toHaveLength(2);

    answers.push(refused(207));
    const kept = await session.fetch('https://api.example/trpc/a,b?batch=1', { method: 'POST', body: '{}' });
    expect(kept.status).toBe(207);
    expect(calls).toHaveLength(3);
  });

  it('sends the read again without a token once the session turns out to be over', async () => {
    const { session, calls, answers, values } = setUp({ held: tokens('kept'), refresh: async () => null });
    answers.push(refused(200));
    await session.fetch('https://api.example/trpc/account.auth.me');
    expect(calls.map((call) => call.authorization)).toEqual([`Bearer ${tokens('kept').accessToken}`, null]);
    expect(values.has(SESSION_KEY)).toBe(false);
  });
});
