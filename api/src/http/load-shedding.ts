/**
 * Load shedding (decision 0024): when this instance is saturated it answers a new request at
 * once with 503 and Retry-After instead of queueing it behind the others, so the requests it does
 * take stay fast and clients (and load balancers) know to come back. Two signals:
 *   - the event loop lags more than MAX_EVENT_LOOP_DELAY_MS (@fastify/under-pressure);
 *   - the database pool has every connection in use and DATABASE_POOL_MAX_WAITING requests
 *     already waiting (the pool itself also refuses further checkouts: db/index.ts).
 * /healthz and /readyz are never shed: they must say whether the process and database are up.
 * Nor are files (a phone loading /trending under load got ten 503s, nine of them
 * covers): the built web's (`/assets/…` and every file at its root, the favicon and icons) and
 * stored photos (`/storage/…`). They need no database, cost next to nothing, and a page the
 * browser already has is broken without its styles, code and pictures.
 * The answer has the shape the caller reads: tRPC error envelopes (one per call of a batch) on
 * /trpc, the REST error on /api/v1, a short page saying so (which tries again by itself) for a
 * person's browser asking for a page, JSON elsewhere.
 */
import { existsSync, readdirSync } from 'node:fs';
import underPressure from '@fastify/under-pressure';
import { TRPC_ERROR_CODES_BY_KEY } from '@trpc/server/rpc';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { DatabaseHandle } from '../db/index.ts';
import { OVERLOADED_MESSAGE, OVERLOADED_RETRY_AFTER_SECONDS } from '../errors.ts';
import { STORAGE_PATH } from '../platform/storage/port.ts';
import { isApiPath, pathOf } from './paths.ts';

const NEVER_SHED = new Set(['/healthz', '/readyz']);
const FILE_PREFIXES = ['/assets/', `${STORAGE_PATH}/`];

/** The paths never shed: the probes, files under FILE_PREFIXES, and the web's root files. */
function sparing(webRootFiles: Iterable<string>): (url: string) => boolean {
  const exact = new Set([...NEVER_SHED, ...webRootFiles]);
  return (url) => {
    const path = pathOf(url);
    return exact.has(path) || FILE_PREFIXES.some((prefix) => path.startsWith(prefix));
  };
}

/** The paths of the files at the root of the built web (`/favicon.svg`…), not the shell itself. */
export function webRootFiles(webDist: string): string[] {
  if (!existsSync(webDist)) return [];
  return readdirSync(webDist, { withFileTypes: true })
    .filter((entry) => entry.isFile() && !entry.name.startsWith('index.html'))
    .map((entry) => `/${entry.name}`);
}

/** A person's browser asking for a page (not the API, not a file): it is shown a page. */
function wantsPage(request: FastifyRequest): boolean {
  return (
    (request.method === 'GET' || request.method === 'HEAD') &&
    !isApiPath(request.url) &&
    String(request.headers.accept ?? '').includes('text/html')
  );
}

/** The page a shed page request gets: what happened, and it asks again by itself. */
const BUSY_PAGE = `<!doctype html>
<html lang="en-GB">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="refresh" content="${OVERLOADED_RETRY_AFTER_SECONDS}">
<meta name="robots" content="noindex">
<title>Reshelf is busy</title>
<style>body{margin:0;min-height:100vh;display:grid;place-items:center;font:16px/1.5 system-ui,sans-serif;color:#2b2622;background:#faf7f2}main{max-width:28rem;padding:1.5rem}h1{font-family:Georgia,serif;font-size:1.6rem;margin:0 0 .5rem}</style>
</head>
<body><main><h1>Reshelf is busy</h1><p>${OVERLOADED_MESSAGE}</p><p>This page tries again by itself in ${OVERLOADED_RETRY_AFTER_SECONDS} seconds.</p></main></body>
</html>
`;

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
  if (wantsPage(request)) {
    reply.header('content-type', 'text/html; charset=utf-8').header('cache-control', 'no-store');
    return BUSY_PAGE;
  }
  return shedBody(request);
}

export interface LoadSheddingOptions {
  database: Pick<DatabaseHandle, 'saturated'>;
  /** 0 turns the event-loop check off. */
  maxEventLoopDelayMs: number;
  /** The built web's root files (`webRootFiles`), never shed. */
  webRootFiles?: string[];
}

/** How long after it is ready an instance ignores its event loop's lag (its start-up's own). */
export const STARTUP_GRACE_MS = 2_000;

export async function registerLoadShedding(
  app: FastifyInstance,
  options: LoadSheddingOptions,
): Promise<void> {
  const spared = sparing(options.webRootFiles ?? []);
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
        spared(request.url) || Date.now() < judgeFrom
          ? undefined
          : (shed(request, reply, `${type} ${Math.round(Number(value ?? 0))}`) as never),
    });
  }
  // A plain callback (no promise per request): nearly every request passes at once.
  app.addHook('onRequest', (request, reply, done) => {
    if (spared(request.url) || !options.database.saturated()) return done();
    reply.send(shed(request, reply, 'database pool queue full'));
  });
}
