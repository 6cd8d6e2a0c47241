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
 * admitted origins, and a log line, as every answer does: at info when the probe failed or was
 * slow and for the first good answer of each path in a minute, at debug for the rest (decision
 * 0070, `probeLogLevels`).
 */
import type { FastifyInstance } from 'fastify';
import type { DatabaseHandle } from '../db/index.ts';
import { SLOW_REQUEST_MS } from '../platform/request-log/request-log.recorder.ts';

export const PROBE_PATHS: ReadonlySet<string> = new Set(['/healthz', '/readyz']);

/** A path's good probe answers are logged at info at most once in this long (decision 0070). */
export const PROBE_LOG_EVERY_MS = 60_000;

/**
 * The level of a probe's request line (decision 0070). Info, always, when it failed (400 and
 * up: /readyz without its database) or was slow (SLOW_REQUEST_MS), as any request; of the good
 * answers, the first of each path in `everyMs`, so the log shows the probes still arrive; the
 * rest at debug (LOG_LEVEL=debug shows every one). A load balancer asks every few seconds and
 * a benchmark thousands of times a second: a line for each cost more than the probe itself.
 */
export function probeLogLevels(
  everyMs = PROBE_LOG_EVERY_MS,
  now: () => number = Date.now,
): (path: string, status: number, durationMs: number) => 'info' | 'debug' {
  const lastInfo = new Map<string, number>();
  return (path, status, durationMs) => {
    if (status >= 400 || durationMs >= SLOW_REQUEST_MS) return 'info';
    const at = now();
    const last = lastInfo.get(path);
    if (last !== undefined && at - last < everyMs) return 'debug';
    lastInfo.set(path, at);
    return 'info';
  };
}

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
