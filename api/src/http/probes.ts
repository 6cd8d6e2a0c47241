/**
 * The health probes: `GET /healthz` (the process answers) and `GET /readyz` (and its database
 * does). A load balancer asks every few seconds and a benchmark thousands of times a second, so
 * they do as little as a route of this app can: public, they read no credential and run no
 * access check (requireAccess's preHandler does nothing for 'public', so they only declare the
 * level, for the access matrix); registered before the compression plugin, so they carry no
 * compression hooks (their answers are a few bytes); `/healthz`'s body is serialized once, at
 * start. The app's global hooks still run for them, each a plain callback that lets a probe
 * through at once: never shed, no text guard, no request-log row (`loggedPath`); the answer
 * carries the request id, the security headers with `Cache-Control: no-store`, CORS for the
 * admitted origins, and one log line, as every answer does.
 */
import type { FastifyInstance } from 'fastify';
import type { DatabaseHandle } from '../db/index.ts';

export const PROBE_PATHS: ReadonlySet<string> = new Set(['/healthz', '/readyz']);

/** Registers the probes: call before registerCompression. */
export function registerProbes(app: FastifyInstance, database: Pick<DatabaseHandle, 'ping'>): void {
  const open = { config: { access: 'public' as const } };
  const healthy = JSON.stringify({ status: 'ok' });
  app.get('/healthz', open, (_request, reply) => {
    reply.type('application/json; charset=utf-8').send(healthy);
  });
  app.get('/readyz', open, async (_request, reply) => {
    const ok = await database.ping();
    return reply.code(ok ? 200 : 503).send({ status: ok ? 'ready' : 'unavailable', database: ok });
  });
}
