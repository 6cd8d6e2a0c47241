/**
 * CSRF protection (brief §3, decision 0029). What a forged cross-site request could ride on is
 * the browser's ambient credential, the session cookies; a bearer token is never sent by the
 * browser on its own, so a bearer request cannot be forged. For every POST under this guard:
 *
 * - session cookies are honoured only from the site's own origin (the request's own, or
 *   PUBLIC_ORIGIN): from anywhere else a request carrying them is refused, bearer token or not
 *   (no client of ours sends both cross-origin, and refusing keeps a bearer call from setting
 *   or clearing the site's cookies, e.g. signing a browser into another account);
 * - a bearer token without session cookies passes from any origin (the app, scripts);
 * - anything else must carry the client header (which a cross-site form cannot set) and come
 *   from the site's own origin, or from the Capacitor app's origins (APP_ORIGINS), where it can
 *   only be the app signing in or refreshing, with no cookie to ride on.
 */
import { CLIENT_HEADER } from '@reshelf/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppConfig } from '../config.ts';
import { ERRORS } from '../errors.ts';
import { readSessionCookies } from '../platform/identity/session-cookies.ts';
import { isAppOrigin } from './cors.ts';

/** The site's own origins: where the web client runs and cookie sessions are honoured. */
export function allowedOrigins(config: AppConfig, request: FastifyRequest): Set<string> {
  const origins = new Set<string>([`${request.protocol}://${request.host}`]);
  if (config.publicOrigin) origins.add(new URL(config.publicOrigin).origin);
  return origins;
}

export function csrfGuard(config: AppConfig) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.method !== 'POST') return;
    const origin = request.headers.origin;
    const site = origin === undefined || allowedOrigins(config, request).has(origin);
    const session = readSessionCookies(request, config);
    const cookies = Boolean(session.access || session.refresh);
    const bearer = /^Bearer\s/i.test(request.headers.authorization ?? '');

    if (cookies && !site) {
      return reply.code(403).send({
        error: ERRORS.FORBIDDEN.title,
        message: bearer
          ? `Requests from ${origin} cannot carry the site's session cookies.`
          : `Requests from ${origin} are not accepted.`,
      });
    }
    if (bearer) return;
    if (!request.headers[CLIENT_HEADER]) {
      return reply.code(403).send({
        error: ERRORS.FORBIDDEN.title,
        message: `Requests that change something must send the ${CLIENT_HEADER} header, or authenticate with a bearer token.`,
      });
    }
    if (!site && !isAppOrigin(origin)) {
      return reply
        .code(403)
        .send({ error: ERRORS.FORBIDDEN.title, message: `Requests from ${origin} are not accepted.` });
    }
  };
}
