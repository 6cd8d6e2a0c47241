/**
 * Supabase Auth (hosted backend) behind the identity port. The BFF holds the anon and
 * service-role keys; browsers never see either. Supabase sends the confirmation and reset
 * emails itself; its email templates must link to `{{ .RedirectTo }}?token={{ .TokenHash }}`
 * (see docs/hosted-supabase.md).
 *
 * Failures are mapped at this boundary: a request that could not be sent, that timed out, or
 * that Auth answered with a 5xx → `unavailable` (an outage: 503 with Retry-After wherever it
 * surfaces, never 500 and never "signed out"); 401 → `upstream_error` with status 401, which
 * the service turns into UNAUTHORIZED; known 4xx codes → their meaning.
 */
import { randomBytes } from 'node:crypto';
import {
  AuthClient,
  type AuthError,
  type Session as SupabaseSession,
  type User as SupabaseUser,
} from '@supabase/supabase-js';
import { sql } from 'kysely';
import type { Database } from '../../db/index.ts';
import { CLOSED_DISPLAY_NAME, closedEmail, normaliseEmail } from './local.ts';
import {
  type AccessClaims,
  IdentityError,
  type IdentityProvider,
  type IdentityUser,
  type Session,
} from './port.ts';

export interface SupabaseIdentityOptions {
  url: string;
  anonKey: string;
  serviceRoleKey: string;
  db: Database;
  /** Injected in tests to see the exact requests; the global fetch otherwise. */
  fetch?: typeof fetch;
  /** How long one request to Auth may take before it counts as an outage (10 s). */
  timeoutMs?: number;
}

const VERIFY_CACHE_MS = 30_000;
const DEFAULT_TIMEOUT_MS = 10_000;

/** What a person is told when Supabase Auth is down, slow or failing. */
export const AUTH_UNAVAILABLE_MESSAGE =
  'We could not reach the sign-in service. Please try again in a moment.';

/**
 * A fetch that gives up after `timeoutMs`: auth-js has no timeout of its own, and a request
 * that hangs would hold the caller's request for ever. The abort surfaces in auth-js as a
 * retryable fetch error, which maps to `unavailable`.
 */
function withTimeout(send: typeof fetch, timeoutMs: number): typeof fetch {
  return (input, init) => {
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = init?.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
    return send(input, { ...init, signal });
  };
}

function toUser(user: SupabaseUser): IdentityUser {
  return {
    id: user.id,
    email: user.email ?? '',
    emailConfirmed: Boolean(user.email_confirmed_at),
    createdAt: user.created_at,
  };
}

function decodePayload(jwt: string): Record<string, unknown> {
  const part = jwt.split('.')[1];
  if (!part) return {};
  try {
    return JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as Record<string, unknown>;
  } catch {
    return {};
  }
}

function toSession(session: SupabaseSession): Session {
  const payload = decodePayload(session.access_token);
  return {
    accessToken: session.access_token,
    refreshToken: session.refresh_token,
    expiresAt: session.expires_at ?? Math.floor(Date.now() / 1000) + session.expires_in,
    sessionId: typeof payload.session_id === 'string' ? payload.session_id : '',
    user: toUser(session.user),
  };
}

/** Maps a supabase-js error (or a thrown fetch failure) to the port's error. */
export function mapSupabaseError(
  error: AuthError | Error | null | undefined,
  fallback: string,
): IdentityError {
  if (!error) return new IdentityError('upstream_error', fallback);
  const status = 'status' in error ? (error.status as number | undefined) : undefined;
  const code = 'code' in error ? (error.code as string | undefined) : undefined;
  if (status !== undefined && status >= 500) {
    return new IdentityError('unavailable', AUTH_UNAVAILABLE_MESSAGE, status);
  }
  if (error.name === 'AuthRetryableFetchError' || !status) {
    return new IdentityError('unavailable', AUTH_UNAVAILABLE_MESSAGE);
  }
  if (status === 401) return new IdentityError('upstream_error', 'Your session has expired.', 401);
  switch (code) {
    case 'invalid_credentials':
      return new IdentityError('invalid_credentials', 'Incorrect email or password.');
    case 'email_not_confirmed':
      return new IdentityError(
        'email_not_confirmed',
        'Please confirm your email address first: use the link we emailed you, or ask for a new one.',
      );
    case 'refresh_token_already_used':
      return new IdentityError(
        'refresh_token_reused',
        'Your session has ended for your security. Please sign in again.',
      );
    case 'otp_expired':
      return new IdentityError('token_expired', 'This link has expired. Please ask for a new one.');
    case 'weak_password':
      return new IdentityError('weak_password', error.message);
    case 'user_banned':
      return new IdentityError('user_banned', 'This account is suspended.');
    case 'refresh_token_not_found':
    case 'session_not_found':
    case 'bad_jwt':
      return new IdentityError('invalid_token', 'Your session has ended. Please sign in again.');
    default:
      return status === 403 || status === 404 || status === 422 || status === 400
        ? new IdentityError('invalid_token', error.message || fallback, status)
        : new IdentityError('upstream_error', error.message || fallback, status);
  }
}

/**
 * The confirmation redirect always carries a query (`next`, "/" when there is nowhere to go
 * on to), because the Confirm signup template appends `&token={{ .TokenHash }}` to it
 * (docs/hosted-supabase.md): the page then reads the token and `next` alike.
 */
function confirmRedirect(url: string): string {
  const target = new URL(url);
  if (!target.searchParams.has('next')) target.searchParams.set('next', '/');
  return target.toString();
}

export function createSupabaseIdentity(options: SupabaseIdentityOptions): IdentityProvider {
  // Only the auth client: the full supabase-js client also opens realtime, which needs a
  // WebSocket that Node 20 does not have.
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const client = (key: string) =>
    new AuthClient({
      url: `${options.url.replace(/\/$/, '')}/auth/v1`,
      headers: { apikey: key, Authorization: `Bearer ${key}` },
      persistSession: false,
      autoRefreshToken: false,
      detectSessionInUrl: false,
      fetch: withTimeout(options.fetch ?? ((input, init) => fetch(input, init)), timeoutMs),
    });
  const anon = { auth: client(options.anonKey) };
  const admin = { auth: client(options.serviceRoleKey) };
  const verified = new Map<string, { claims: AccessClaims; until: number }>();

  type Result<T> = { data: T; error: null } | { data: unknown; error: AuthError };

  async function call<T>(work: () => Promise<Result<T>>, fallback: string): Promise<T> {
    let result: Result<T>;
    try {
      result = await work();
    } catch (error) {
      throw mapSupabaseError(error as Error, fallback);
    }
    if (result.error) throw mapSupabaseError(result.error, fallback);
    return result.data as T;
  }

  async function signOutToken(token: string, scope: 'local' | 'global', fallback: string) {
    await call(async () => {
      const { error } = await admin.auth.admin.signOut(token, scope);
      return error ? { data: null, error } : { data: null, error: null };
    }, fallback);
  }

  return {
    kind: 'supabase',

    async signUp(input, links) {
      await call(
        () =>
          anon.auth.signUp({
            email: normaliseEmail(input.email),
            password: input.password,
            options: {
              data: { display_name: input.displayName },
              emailRedirectTo: confirmRedirect(links.confirmUrl),
            },
          }),
        'Sign-up failed',
      );
    },

    async resendConfirmation(email, links) {
      await call(
        () =>
          anon.auth.resend({
            type: 'signup',
            email: normaliseEmail(email),
            options: { emailRedirectTo: confirmRedirect(links.confirmUrl) },
          }),
        'Could not resend the confirmation email',
      );
    },

    async confirmEmail(token) {
      const data = await call(
        () => anon.auth.verifyOtp({ token_hash: token, type: 'email' }),
        'Confirmation failed',
      );
      if (!data.session) throw new IdentityError('invalid_token', 'This confirmation link is not valid.');
      return toSession(data.session);
    },

    async signIn(email, password) {
      const data = await call(
        () => anon.auth.signInWithPassword({ email: normaliseEmail(email), password }),
        'Sign-in failed',
      );
      return toSession(data.session);
    },

    async refresh(refreshToken) {
      const data = await call(
        () => anon.auth.refreshSession({ refresh_token: refreshToken }),
        'Refresh failed',
      );
      if (!data.session)
        throw new IdentityError('invalid_token', 'Your session has ended. Please sign in again.');
      return toSession(data.session);
    },

    async verify(accessToken) {
      const cached = verified.get(accessToken);
      if (cached && cached.until > Date.now()) return cached.claims;
      let user: SupabaseUser;
      try {
        user = (await call(() => admin.auth.getUser(accessToken), 'Token check failed')).user;
      } catch (error) {
        // An outage is reported as one; only a refused token means "not signed in".
        if (error instanceof IdentityError && error.code === 'unavailable') throw error;
        return null;
      }
      const payload = decodePayload(accessToken);
      const claims: AccessClaims = {
        userId: user.id,
        email: user.email ?? '',
        sessionId: typeof payload.session_id === 'string' ? payload.session_id : '',
        expiresAt: typeof payload.exp === 'number' ? payload.exp : 0,
        accessToken,
      };
      if (verified.size > 10_000) verified.clear();
      verified.set(accessToken, {
        claims,
        until: Math.min(Date.now() + VERIFY_CACHE_MS, claims.expiresAt * 1000),
      });
      return claims;
    },

    async signOut(claims, scope) {
      if (!claims.accessToken) return;
      for (const [token, entry] of verified)
        if (entry.claims.userId === claims.userId) verified.delete(token);
      await signOutToken(claims.accessToken, scope, 'Sign-out failed');
    },

    async requestPasswordReset(email, links) {
      await call(
        () => anon.auth.resetPasswordForEmail(normaliseEmail(email), { redirectTo: links.resetUrl }),
        'Could not send the reset email',
      );
    },

    async passwordLink(email, links) {
      const data = await call(
        () =>
          admin.auth.admin.generateLink({
            type: 'recovery',
            email: normaliseEmail(email),
            options: { redirectTo: links.resetUrl },
          }),
        'Could not make a password link',
      );
      // What the Reset password template makes of it: {{ .RedirectTo }}?token={{ .TokenHash }}.
      const link = new URL(links.resetUrl);
      link.searchParams.set('token', data.properties.hashed_token);
      return link.toString();
    },

    async resetPassword(token, newPassword) {
      const data = await call(
        () => anon.auth.verifyOtp({ token_hash: token, type: 'recovery' }),
        'Reset failed',
      );
      if (!data.session || !data.user)
        throw new IdentityError('invalid_token', 'This password reset link is not valid.');
      const userId = data.user.id;
      await call(() => admin.auth.admin.updateUserById(userId, { password: newPassword }), 'Reset failed');
      await signOutToken(data.session.access_token, 'global', 'Reset failed');
      verified.clear();
      return { userId };
    },

    async getUser(userId) {
      try {
        const data = await call(() => admin.auth.admin.getUserById(userId), 'User lookup failed');
        return toUser(data.user);
      } catch (error) {
        if (error instanceof IdentityError && error.code === 'invalid_token') return null;
        throw error;
      }
    },

    async ensureUser(input) {
      const email = normaliseEmail(input.email);
      const existing = await options.db
        .selectFrom('auth.users')
        .select('id')
        .where('email', '=', email)
        .executeTakeFirst();
      if (existing) {
        await call(
          () =>
            admin.auth.admin.updateUserById(existing.id, { password: input.password, email_confirm: true }),
          'Could not update the user',
        );
        return { id: existing.id };
      }
      const data = await call(
        () =>
          admin.auth.admin.createUser({
            email,
            password: input.password,
            email_confirm: true,
            user_metadata: { display_name: input.displayName },
          }),
        'Could not create the user',
      );
      return { id: data.user.id };
    },

    async closeUser(userId, { claims } = {}) {
      // Every session of the account ends first, while the caller's token still works (the
      // admin API ends sessions only through a user's JWT). Already ended is fine.
      if (claims?.accessToken) {
        try {
          await signOutToken(claims.accessToken, 'global', 'Sign-out failed');
        } catch (error) {
          if (!(error instanceof IdentityError && error.code === 'invalid_token')) throw error;
        }
      }
      for (const [token, entry] of verified) if (entry.claims.userId === userId) verified.delete(token);
      // Never a delete of the auth.users row (orders and payments reference it): the address is
      // replaced by a placeholder that frees the real one, the password by one nobody knows, and
      // the account is banned for a hundred years, which also refuses any refresh token left.
      await call(
        () =>
          admin.auth.admin.updateUserById(userId, {
            email: closedEmail(userId),
            email_confirm: true,
            password: randomBytes(32).toString('base64url'),
            ban_duration: '876000h',
            user_metadata: { display_name: CLOSED_DISPLAY_NAME },
          }),
        'Could not close the account',
      );
    },

    async ensurePasswordlessUser(input) {
      const email = normaliseEmail(input.email);
      const existingId = async () =>
        (
          await options.db
            .selectFrom('auth.users')
            .select('id')
            .where(sql<string>`lower(email)`, '=', email)
            .executeTakeFirst()
        )?.id;
      const found = await existingId();
      if (found) return { id: found, created: false };
      try {
        // No password: Auth stores none, so nobody can sign in as this account.
        const data = await call(
          () =>
            admin.auth.admin.createUser({
              email,
              email_confirm: true,
              user_metadata: { display_name: input.displayName },
            }),
          'Could not create the user',
        );
        return { id: data.user.id, created: true };
      } catch (error) {
        // Made meanwhile by someone else (a second seed at the same moment): use theirs.
        const raced = error instanceof IdentityError && error.status === 422 ? await existingId() : undefined;
        if (raced) return { id: raced, created: false };
        throw error;
      }
    },
  };
}
