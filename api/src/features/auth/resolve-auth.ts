/**
 * Who is calling: a bearer token (the app, scripts, integrators) or the session cookies
 * (browsers). An expired access cookie is renewed from the refresh cookie on the way
 * through, so a person's session refreshes without them noticing.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppConfig } from '../../config.ts';
import type { AccessClaims, IdentityProvider } from './identity/types.ts';
import { clearSessionCookies, readSessionCookies, setSessionCookies } from './session-cookies.ts';

export interface AuthState {
  claims: AccessClaims | null;
  via: 'bearer' | 'cookie' | null;
  /** A credential was presented but is not valid (expired, revoked, forged). */
  rejected: boolean;
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
): Promise<AuthState> {
  const bearer = bearerToken(request);
  if (bearer) {
    const claims = await identity.verify(bearer);
    return { claims: claims && { ...claims, accessToken: bearer }, via: 'bearer', rejected: !claims };
  }
  const cookies = readSessionCookies(request, config);
  if (!cookies.access && !cookies.refresh) return { claims: null, via: null, rejected: false };
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
      request.log.info({ reason: (error as Error).message }, 'session refresh refused');
    }
  }
  clearSessionCookies(reply, config);
  return { claims: null, via: 'cookie', rejected: true };
}
