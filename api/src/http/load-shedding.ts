/**
 * Load shedding (decision 0024): when this instance is saturated it answers a new request at
 * once with 503 and Retry-After instead of queueing it behind the others, so the requests it does
 * take stay fast and clients (and load balancers) know to come back. Two signals:
 *   - the event loop lags more than MAX_EVENT_LOOP_DELAY_MS (@fastify/under-pressure);
 *   - the database pool has every connection in use and DATABASE_POOL_MAX_WAITING requests
 *     already waiting (the pool itself also refuses further checkouts: db/index.ts).
 * /healthz and /readyz are never shed: they must say whether the process and database are up.
 * The answer has the shape the caller reads: tRPC error envelopes (one per call of a batch) on
 * /trpc, the REST error on /api/v1, JSON elsewhere.
 */
import underPressure from '@fastify/under-pressure';
import { TRPC_ERROR_CODES_BY_KEY } from '@trpc/server/rpc';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { DatabaseHandle } from '../db/index.ts';
import { OVERLOADED_MESSAGE, OVERLOADED_RETRY_AFTER_SECONDS } from '../errors.ts';

const NEVER_SHED = new Set(['/healthz', '/readyz']);

function pathOf(url: string): string {
  return url.split('?', 1)[0] ?? url;
}

/** The tRPC error envelope(s) for a shed call: the client reads `data.code` and the message. */
function trpcBody(request: FastifyRequest): unknown {
  const procedures = decodeURIComponent(pathOf(request.url).slice('/trpc/'.length)) || 'unknown';
  const envelope = (path: string) => ({
    error: {
      message: OVERLOADED_MESSAGE,
      code: TRPC_ERROR_CODES_BY_KEY.SERVICE_UNAVAILABLE,
      data: { code: 'SERVICE_UNAVAILABLE', httpStatus: 503, path },
    },
  });
  const batch = (request.query as Record<string, unknown> | undefined)?.batch;
  return batch === '1' || batch === 'true' ? procedures.split(',').map(envelope) : envelope(procedures);
}

export function shedBody(request: FastifyRequest): unknown {
  const path = pathOf(request.url);
  if (path === '/trpc' || path.startsWith('/trpc/')) return trpcBody(request);
  if (path.startsWith('/api/v1/')) return { code: 'SERVICE_UNAVAILABLE', message: OVERLOADED_MESSAGE };
  return { error: 'Service Unavailable', message: OVERLOADED_MESSAGE };
}

function shed(request: FastifyRequest, reply: FastifyReply, reason: string): unknown {
  request.log.warn({ reason }, 'request shed: overloaded');
  reply.code(503).header('retry-after', String(OVERLOADED_RETRY_AFTER_SECONDS));
  return shedBody(request);
}

export interface LoadSheddingOptions {
  database: Pick<DatabaseHandle, 'saturated'>;
  /** 0 turns the event-loop check off. */
  maxEventLoopDelayMs: number;
}

/** How long after it is ready an instance ignores its event loop's lag (its start-up's own). */
export const STARTUP_GRACE_MS = 2_000;

export async function registerLoadShedding(
  app: FastifyInstance,
  options: LoadSheddingOptions,
): Promise<void> {
  if (options.maxEventLoopDelayMs > 0) {
    // Building the app and loading its code block the loop for a while: that lag is not load,
    // and a fresh instance must not turn away its first requests for it. The lag is judged
    // only from a little after the start, when every sample was taken since.
    let judgeFrom = Number.POSITIVE_INFINITY;
    app.addHook('onReady', async () => {
      judgeFrom = Date.now() + STARTUP_GRACE_MS;
    });
    await app.register(underPressure, {
      maxEventLoopDelay: options.maxEventLoopDelayMs,
      // Sampled often, so shedding starts (and stops) within a fraction of a second.
      sampleInterval: 250,
      pressureHandler: (request, reply, type, value) =>
        NEVER_SHED.has(pathOf(request.url)) || Date.now() < judgeFrom
          ? undefined
          : (shed(request, reply, `${type} ${Math.round(Number(value ?? 0))}`) as never),
    });
  }
  // A plain callback (no promise per request): nearly every request passes at once.
  app.addHook('onRequest', (request, reply, done) => {
    if (NEVER_SHED.has(pathOf(request.url)) || !options.database.saturated()) return done();
    reply.send(shed(request, reply, 'database pool queue full'));
  });
}
