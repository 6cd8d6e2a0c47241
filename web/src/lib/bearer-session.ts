/**
 * The session inside the native app (decision 0029). The app's web view runs on its own origin
 * (capacitor://localhost, https://localhost), where the BFF's cookies would be cross-site, so
 * the app holds the tokens itself: `account.auth.signIn` hands them over, they are kept in the
 * platform's storage (Capacitor Preferences, see app-session.ts) with a copy in memory, every
 * call carries `Authorization: Bearer`, the access token is renewed shortly before it expires,
 * and they are forgotten on sign-out.
 *
 * Renewal swaps the refresh token for new tokens, and each refresh token works once, so there is
 * never more than one renewal under way: every call that needs one waits for the same.
 */

export interface SessionTokens {
  accessToken: string;
  refreshToken: string;
  /** When the access token expires, in seconds since the epoch by the server's clock. */
  expiresAt: number;
}

/** The tokens as held, with when to renew them by this device's clock (milliseconds). */
interface HeldSession extends SessionTokens {
  renewAt: number;
}

/** Where the tokens are kept between launches (the shape of Capacitor Preferences). */
export interface TokenStore {
  get(key: string): Promise<string | null>;
  set(key: string, value: string): Promise<void>;
  remove(key: string): Promise<void>;
}

/**
 * Asks the BFF for new tokens: resolves with them, or with null when it says the session is
 * over (the refresh token used, expired or revoked); throws when it could not be asked (offline),
 * in which case the tokens are kept for the next try.
 */
export type Refresher = (refreshToken: string) => Promise<SessionTokens | null>;

/** The storage key of the held session. */
export const SESSION_KEY = 'reshelf.session';

/** Renew this long before the access token expires (or at three quarters of a shorter life). */
export const RENEW_BEFORE_EXPIRY_MS = 60_000;

/** The BFF's answer to any request whose bearer token it refused (RFC 6750). */
const INVALID_TOKEN = /\berror="invalid_token"/i;

/** The access token's lifetime from its own claims (exp − iat), in milliseconds, if it says. */
function claimedLifetimeMs(accessToken: string): number | undefined {
  const payload = accessToken.split('.')[1];
  if (!payload) return undefined;
  try {
    const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/'));
    const claims = JSON.parse(json) as { iat?: unknown; exp?: unknown };
    if (typeof claims.iat !== 'number' || typeof claims.exp !== 'number') return undefined;
    return (claims.exp - claims.iat) * 1000;
  } catch {
    return undefined;
  }
}

/**
 * When to renew tokens received at `now`. The token's own lifetime counted from now keeps a
 * device whose clock is wrong from renewing on every call (or never); without one, `expiresAt`.
 */
export function renewAt(tokens: SessionTokens, now: number): number {
  const lifetime = claimedLifetimeMs(tokens.accessToken) ?? tokens.expiresAt * 1000 - now;
  const margin = Math.min(RENEW_BEFORE_EXPIRY_MS, Math.max(0, lifetime) / 4);
  return now + lifetime - margin;
}

function readHeld(raw: string | null): HeldSession | null {
  if (!raw) return null;
  try {
    const value = JSON.parse(raw) as Partial<HeldSession>;
    if (
      typeof value.accessToken === 'string' &&
      typeof value.refreshToken === 'string' &&
      typeof value.expiresAt === 'number' &&
      typeof value.renewAt === 'number'
    ) {
      return {
        accessToken: value.accessToken,
        refreshToken: value.refreshToken,
        expiresAt: value.expiresAt,
        renewAt: value.renewAt,
      };
    }
  } catch {
    // Unreadable: as if there were none.
  }
  return null;
}

export interface BearerSessionOptions {
  store: TokenStore;
  refresh: Refresher;
  now?: () => number;
  fetch?: typeof fetch;
}

export class BearerSession {
  private held: HeldSession | null = null;
  private loading: Promise<void> | undefined;
  private renewing: Promise<string | null> | undefined;

  constructor(private readonly options: BearerSessionOptions) {}

  private now(): number {
    return (this.options.now ?? Date.now)();
  }

  /**
   * Reads the tokens kept from the last launch, once; every other method waits for it. Storage
   * that cannot be read counts as empty: the person signs in again, and the app carries on.
   */
  load(): Promise<void> {
    this.loading ??= (async () => {
      const raw = await this.options.store.get(SESSION_KEY).catch(() => null);
      this.held = readHeld(raw);
      if (raw && !this.held) await this.forget();
    })();
    return this.loading;
  }

  /**
   * Storage that refuses a write leaves the copy in memory to carry the session until the app
   * closes; a removal it refuses is harmless, as the BFF has ended that session (its refresh
   * will be refused and the tokens forgotten then).
   */
  private async keep(held: HeldSession): Promise<void> {
    await this.options.store.set(SESSION_KEY, JSON.stringify(held)).catch(() => undefined);
  }

  private async forget(): Promise<void> {
    await this.options.store.remove(SESSION_KEY).catch(() => undefined);
  }

  /** Whether tokens are held (signed in, as far as this device knows). */
  async signedIn(): Promise<boolean> {
    await this.load();
    return this.held !== null;
  }

  /** Keeps new tokens (signed in, or renewed). */
  async set(tokens: SessionTokens): Promise<void> {
    await this.load();
    const held = { ...tokens, renewAt: renewAt(tokens, this.now()) };
    this.held = held;
    await this.keep(held);
  }

  /** Forgets the tokens (signed out, or the session ended). */
  async clear(): Promise<void> {
    await this.load();
    this.held = null;
    await this.forget();
  }

  /** The access token to send now, renewed first when it is about to expire; null when signed out. */
  async accessToken(): Promise<string | null> {
    await this.load();
    const held = this.held;
    if (!held) return null;
    if (this.now() < held.renewAt) return held.accessToken;
    return this.renew(held.accessToken);
  }

  /**
   * Swaps the refresh token for new tokens, once however many calls ask at the same time.
   * `stale` is the access token the caller found wanting: if it has been replaced meanwhile,
   * the replacement is the answer. Resolves with the new access token, or null when the BFF says
   * the session is over (the tokens are then forgotten).
   */
  async renew(stale: string): Promise<string | null> {
    await this.load();
    if (this.renewing) return this.renewing;
    const held = this.held;
    if (!held) return null;
    if (held.accessToken !== stale) return held.accessToken;
    const renewing: Promise<string | null> = Promise.resolve()
      .then(async () => {
        const tokens = await this.options.refresh(held.refreshToken);
        // Signed out (or in again) while the refresh was under way: that stands.
        if (this.held !== held) return this.held?.accessToken ?? null;
        if (!tokens) {
          await this.clear();
          return null;
        }
        await this.set(tokens);
        return tokens.accessToken;
      })
      .finally(() => {
        if (this.renewing === renewing) this.renewing = undefined;
      });
    this.renewing = renewing;
    return renewing;
  }

  /**
   * `fetch` for calls to the BFF: the bearer token on, cookies off. When the BFF refuses the
   * token (WWW-Authenticate: Bearer error="invalid_token") the session is renewed once and the
   * request sent again, if nothing can have happened the first time: a read (GET), or a request
   * refused whole (401). A mutation batch answered otherwise keeps its answer.
   */
  readonly fetch = async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const send = this.options.fetch ?? globalThis.fetch;
    const token = await this.accessToken();
    const response = await send(input, withBearer(init, token));
    if (!token || !INVALID_TOKEN.test(response.headers.get('www-authenticate') ?? '')) return response;
    const renewed = await this.renew(token);
    const method = (init.method ?? 'GET').toUpperCase();
    if (method !== 'GET' && response.status !== 401) return response;
    return send(input, withBearer(init, renewed));
  };
}

/** The request with this bearer token (or none) and without cookies. */
export function withBearer(init: RequestInit, token: string | null): RequestInit {
  const headers = new Headers(init.headers);
  if (token) headers.set('authorization', `Bearer ${token}`);
  else headers.delete('authorization');
  return { ...init, headers, credentials: 'omit' };
}
