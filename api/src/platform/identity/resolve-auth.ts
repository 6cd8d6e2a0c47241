/**
 * Who is calling: a bearer token (the app, scripts, integrators) or the session cookies
 * (browsers). An expired access cookie is renewed from the refresh cookie on the way
 * through, so a person's session refreshes without them noticing. A bearer token starting
 * `rsk_` is a personal API token (account/api-tokens), looked up on every request.
 */

import type { ApiTokenScope } from '@reshelf/contracts';
import { countOf } from '@reshelf/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppConfig } from '../../config.ts';
import type { Database } from '../../db/index.ts';
import { AppError, UNAVAILABLE_RETRY_AFTER_SECONDS } from '../../errors.ts';
import { type RateRule, type RateState, release, reserve, tallied, tally } from '../../http/rate-limit.ts';
import type { Secrets } from '../../secrets.ts';
import { API_TOKEN_REJECTIONS, checkApiToken, looksLikeApiToken } from './api-tokens.ts';
import { type AccessClaims, IdentityError, type IdentityProvider } from './port.ts';
import { clearSessionCookies, readSessionCookies, setSessionCookies } from './session-cookies.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Who made the request once auth has been resolved (the request log's user), else null. */
    actorId: string | null;
  }
}

export interface AuthState {
  claims: AccessClaims | null;
  via: 'bearer' | 'cookie' | 'api-token' | null;
  /** A credential was presented but is not valid (expired, revoked, forged). */
  rejected: boolean;
  /** The personal API token the call came with (via 'api-token'). */
  apiToken?: { id: string; scope: ApiTokenScope };
  /**
   * A presented API token was refused: every procedure answers with this, public ones too,
   * so a script learns at once that its token no longer works.
   */
  refusal?: { status: 401 | 429; message: string; retryAfterSeconds?: number };
  /** The credential belongs to a suspended account (staff suspended it on /admin/users). */
  suspended?: boolean;
}

/**
 * Identity failures that say the credential itself is no good (forged, expired, ended, reused,
 * or its account suspended). Only these end a session: anything else (the database or the
 * hosted sign-in service not answering) is an outage, answered 503, and the cookies stay.
 */
function credentialRefused(error: unknown): error is IdentityError {
  if (!(error instanceof IdentityError)) return false;
  switch (error.code) {
    case 'invalid_token':
    case 'token_expired':
    case 'refresh_token_reused':
    case 'user_banned':
    case 'invalid_credentials':
      return true;
    case 'upstream_error':
      return error.status === 401;
    default:
      return false;
  }
}

/**
 * What resolving a caller's credentials failed with, for the caller: the hosted sign-in service
 * not answering is UNAVAILABLE (503 with Retry-After, decision 0024); a database failure goes on
 * as it is, for the caller to classify (errors.ts asAppError), and so does anything else (a bug).
 */
export function authFailure(error: unknown): unknown {
  if (
    error instanceof IdentityError &&
    (error.code === 'unavailable' || (error.code === 'upstream_error' && error.status !== 401))
  ) {
    return new AppError('UNAVAILABLE', error.message, { retryAfterSeconds: UNAVAILABLE_RETRY_AFTER_SECONDS });
  }
  return error;
}

/** What a suspended person is told on their next request, and when they try to sign in. */
export const SUSPENDED_MESSAGE = 'This account is suspended. Contact us if you think this is a mistake.';

/** Whether an account is suspended now (auth.users.banned_until in the future). */
export async function isSuspended(db: Database, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom('auth.users')
    .select('id')
    .where('id', '=', userId)
    .where('banned_until', '>', new Date())
    .executeTakeFirst();
  return Boolean(row);
}

/** Failed API-token lookups per IP: guessing tokens is hopeless anyway, this keeps it quiet. */
export const API_TOKEN_FAILURES: RateRule = {
  bucket: 'api-token-failure',
  limit: 20,
  windowSeconds: 15 * 60,
};

/**
 * The failures that have happened, beside `API_TOKEN_FAILURES`' slots (which also hold the
 * lookups still under way). A full window of slots with fewer settled failures than the limit
 * is a burst still being checked, not an address to refuse.
 */
export const API_TOKEN_REFUSALS: RateRule = { ...API_TOKEN_FAILURES, bucket: 'api-token-refused' };

/** How long a request waits for a slot while the window is full of lookups still under way. */
export const API_TOKEN_SLOT_WAIT_MS = 5000;

/**
 * Takes a slot for one lookup. When every slot is taken but fewer than the limit have failed,
 * the rest are lookups in flight (a script's burst of working calls gives them back within
 * milliseconds), so this waits for one to come free instead of refusing a token that may work.
 * It stops waiting as soon as the settled failures reach the limit: that address is refused,
 * and nothing past the limit is ever looked up.
 */
async function takeApiTokenSlot(db: Database, ip: string): Promise<RateState> {
  const giveUpAt = Date.now() + API_TOKEN_SLOT_WAIT_MS;
  let pause = 10;
  for (;;) {
    const slot = await reserve(db, API_TOKEN_FAILURES, ip);
    if (slot.allowed) return slot;
    if (Date.now() >= giveUpAt) return slot;
    if ((await tallied(db, API_TOKEN_REFUSALS, ip)) >= API_TOKEN_FAILURES.limit) return slot;
    await new Promise((resolve) => setTimeout(resolve, pause));
    pause = Math.min(pause * 2, 100);
  }
}

export interface ApiTokenAuth {
  db: Database;
  secrets: Secrets;
}

async function resolveApiToken(
  request: FastifyRequest,
  token: string,
  tokens: ApiTokenAuth,
): Promise<AuthState> {
  const ip = request.ip;
  // A failure slot is taken before the token is looked up and given back when it works, so
  // concurrent guesses from one address cannot all be checked before any has counted.
  const limit = await takeApiTokenSlot(tokens.db, ip);
  if (!limit.allowed) {
    const minutes = Math.max(1, Math.ceil(limit.retryAfterSeconds / 60));
    return {
      claims: null,
      via: 'api-token',
      rejected: true,
      refusal: {
        status: 429,
        message: `Too many attempts with API tokens that do not work. Try again in ${countOf(minutes, 'minute', 'minutes')}.`,
        retryAfterSeconds: limit.retryAfterSeconds,
      },
    };
  }
  let check: Awaited<ReturnType<typeof checkApiToken>>;
  try {
    check = await checkApiToken(tokens.db, tokens.secrets, token);
  } catch (error) {
    await release(tokens.db, API_TOKEN_FAILURES, ip, limit).catch(() => {});
    throw error;
  }
  if (check.ok) await release(tokens.db, API_TOKEN_FAILURES, ip, limit);
  if (!check.ok) {
    await tally(tokens.db, API_TOKEN_REFUSALS, ip);
    request.log.info({ reason: check.reason }, 'API token refused');
    return {
      claims: null,
      via: 'api-token',
      rejected: true,
      refusal: { status: 401, message: API_TOKEN_REJECTIONS[check.reason] },
    };
  }
  return {
    claims: {
      userId: check.userId,
      email: check.email,
      sessionId: check.tokenId,
      expiresAt: Math.floor(check.expiresAt.getTime() / 1000),
    },
    via: 'api-token',
    rejected: false,
    apiToken: { id: check.tokenId, scope: check.scope },
  };
}

export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match?.[1];
}

export function requestInfo(request: FastifyRequest) {
  return { userAgent: request.headers['user-agent'], ip: request.ip };
}

export async function resolveAuth(
  request: FastifyRequest,
  reply: FastifyReply,
  identity: IdentityProvider,
  config: AppConfig,
  options: {
    /** Accept personal API tokens (rsk_…) as bearer tokens. */
    apiTokens?: ApiTokenAuth;
    /** Read the session cookies (browsers); the REST API takes bearer tokens only. */
    cookies?: boolean;
    /**
     * Check on every request that the account is not suspended, so a suspension ends an
     * existing session at once (the hosted provider's access tokens stay valid until expiry).
     */
    suspensions?: Database;
  } = {},
): Promise<AuthState> {
  let state: AuthState;
  try {
    state = await resolveCredentials(request, reply, identity, config, options);
    if (
      state.claims &&
      options.suspensions &&
      !state.claims.suspensionChecked &&
      (await isSuspended(options.suspensions, state.claims.userId))
    ) {
      if (state.via === 'cookie') clearSessionCookies(reply, config);
      state = { claims: null, via: state.via, rejected: true, suspended: true };
    }
  } catch (error) {
    // Nothing was decided about the credential, so no cookie is cleared. (Cookies a refresh
    // already renewed before the failure still go out with the error: the old ones are spent.)
    throw authFailure(error);
  }
  if (state.rejected && state.via !== 'cookie' && state.refusal?.status !== 429) {
    // RFC 6750: the bearer token presented is no good (expired, revoked, forged). Said on every
    // answer, public ones too, so the app knows to refresh once rather than carry on signed out.
    reply.header('www-authenticate', INVALID_TOKEN_CHALLENGE);
  }
  request.actorId = state.claims?.userId ?? null;
  return state;
}

/** The challenge sent with any answer to a request whose bearer token was refused. */
export const INVALID_TOKEN_CHALLENGE = 'Bearer error="invalid_token"';

/**
 * Whether a request presents no credential resolveAuth reads: no bearer token and, where cookies
 * count, neither session cookie. Such a caller is anonymous without any lookup (the lean /trpc
 * path answers a query's declared anonymous answer on this alone).
 */
export function presentsNoCredential(request: FastifyRequest, config: AppConfig, cookies = true): boolean {
  if (bearerToken(request)) return false;
  if (!cookies) return true;
  const session = readSessionCookies(request, config);
  return !session.access && !session.refresh;
}

async function resolveCredentials(
  request: FastifyRequest,
  reply: FastifyReply,
  identity: IdentityProvider,
  config: AppConfig,
  options: { apiTokens?: ApiTokenAuth; cookies?: boolean },
): Promise<AuthState> {
  if (presentsNoCredential(request, config, options.cookies !== false)) {
    return { claims: null, via: null, rejected: false };
  }
  const bearer = bearerToken(request);
  if (bearer && options.apiTokens && looksLikeApiToken(bearer)) {
    return resolveApiToken(request, bearer, options.apiTokens);
  }
  if (bearer) {
    const claims = await identity.verify(bearer);
    return { claims: claims && { ...claims, accessToken: bearer }, via: 'bearer', rejected: !claims };
  }
  // No bearer token, so at least one session cookie (presentsNoCredential).
  const cookies = readSessionCookies(request, config);
  if (cookies.access) {
    const claims = await identity.verify(cookies.access);
    if (claims) return { claims: { ...claims, accessToken: cookies.access }, via: 'cookie', rejected: false };
  }
  if (cookies.refresh) {
    try {
      const session = await identity.refresh(cookies.refresh, requestInfo(request));
      setSessionCookies(reply, config, session);
      return {
        claims: {
          userId: session.user.id,
          email: session.user.email,
          sessionId: session.sessionId,
          expiresAt: session.expiresAt,
          accessToken: session.accessToken,
        },
        via: 'cookie',
        rejected: false,
      };
    } catch (error) {
      // Only a refused refresh token ends the session; an outage is reported as one.
      if (!credentialRefused(error)) throw error;
      request.log.info({ reason: error.message }, 'session refresh refused');
      if (error.code === 'user_banned') {
        clearSessionCookies(reply, config);
        return { claims: null, via: 'cookie', rejected: true, suspended: true };
      }
    }
  }
  clearSessionCookies(reply, config);
  return { claims: null, via: 'cookie', rejected: true };
}
