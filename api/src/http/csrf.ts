/**
 * CSRF protection for cookie-authenticated calls (brief §3). A POST to /trpc that is not
 * authenticated by a bearer token must carry the client header (which a cross-site form
 * cannot set) and, when the browser sends an Origin, come from our own origin.
 */
import { CLIENT_HEADER } from '@reshelf/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppConfig } from '../config.ts';

export function allowedOrigins(config: AppConfig, request: FastifyRequest): Set<string> {
  const origins = new Set<string>([`${request.protocol}://${request.host}`]);
  if (config.publicOrigin) origins.add(new URL(config.publicOrigin).origin);
  return origins;
}

export function csrfGuard(config: AppConfig) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.method !== 'POST') return;
    if (/^Bearer\s/i.test(request.headers.authorization ?? '')) return;
    const origin = request.headers.origin;
    if (!request.headers[CLIENT_HEADER]) {
      return reply.code(403).send({
        error: 'Forbidden',
        message: `Requests that change something must send the ${CLIENT_HEADER} header, or authenticate with a bearer token.`,
      });
    }
    if (origin && !allowedOrigins(config, request).has(origin)) {
      return reply
        .code(403)
        .send({ error: 'Forbidden', message: `Requests from ${origin} are not accepted.` });
    }
  };
}
