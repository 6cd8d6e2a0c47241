/**
 * Records each API request in `request_log` (the request log on /admin/logs), off the request's
 * path: the answer goes first, the line waits in memory and is written with others in one
 * insert every couple of seconds (or sooner once many wait). While the database is away or too
 * busy, lines wait for a later flush; if too many wait, the oldest are dropped, never the requests
 * themselves; pino still has every line.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Database } from '../../db/index.ts';
import { infrastructureFailure } from '../../errors.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Tests flush it to read what was recorded. */
    requestLog: RequestLogRecorder;
  }
}

export interface RequestLine {
  at: Date;
  requestId: string;
  method: string;
  path: string;
  status: number;
  durationMs: number;
  userId: string | null;
}

export interface RequestLogRecorder {
  record(line: RequestLine): void;
  /** Writes what waits now (tests, and shutdown). */
  flush(): Promise<void>;
  stop(): Promise<void>;
}

/** Requests worth a line: the API, not the web's files, uploads served back, or health probes. */
const LOGGED = /^\/(?:trpc|api|payments)(?:\/|$)/;

/** The path alone: query strings can carry search terms, emails and tokens. */
export function loggedPath(url: string): string | null {
  const path = url.split('?', 1)[0] ?? '';
  return LOGGED.test(path) ? path.slice(0, 2000) : null;
}

export function requestLine(
  request: FastifyRequest,
  reply: FastifyReply,
  userId: string | null,
): RequestLine | null {
  const path = loggedPath(request.url);
  if (!path) return null;
  return {
    at: new Date(),
    requestId: String(request.id).slice(0, 200),
    method: request.method,
    path,
    status: reply.statusCode,
    durationMs: Math.round(reply.elapsedTime * 10) / 10,
    userId,
  };
}

export function createRequestLogRecorder(
  db: Database,
  options: {
    flushEveryMs?: number;
    batchSize?: number;
    maxWaiting?: number;
    onError?: (error: unknown, dropped: number) => void;
  } = {},
): RequestLogRecorder {
  const batchSize = options.batchSize ?? 200;
  const maxWaiting = options.maxWaiting ?? 5000;
  let waiting: RequestLine[] = [];
  let writing: Promise<void> = Promise.resolve();
  let stopped = false;
  /** The last flush found the database away: said once, not every flush. */
  let deferred = false;

  const write = async () => {
    while (waiting.length > 0) {
      const batch = waiting.slice(0, batchSize);
      waiting = waiting.slice(batch.length);
      try {
        await db
          .insertInto('request_log')
          .values(
            batch.map((line) => ({
              at: line.at,
              request_id: line.requestId,
              method: line.method,
              path: line.path,
              status: line.status,
              duration_ms: line.durationMs,
              user_id: line.userId,
            })),
          )
          .execute();
      } catch (error) {
        if (infrastructureFailure(error) && !stopped) {
          // The database is away or too busy: keep the lines (within the bound) for the next
          // flush rather than lose them, and stop trying until then.
          waiting = [...batch, ...waiting];
          const dropped = Math.max(0, waiting.length - maxWaiting);
          if (dropped) waiting = waiting.slice(dropped);
          if (!deferred) options.onError?.(error, dropped);
          deferred = true;
          return;
        }
        options.onError?.(error, batch.length);
      }
      deferred = false;
    }
  };
  const flush = () => {
    writing = writing.then(write);
    return writing;
  };
  const timer = setInterval(() => void flush(), options.flushEveryMs ?? 2000);
  timer.unref();

  return {
    record(line) {
      if (stopped) return;
      waiting.push(line);
      if (waiting.length > maxWaiting) {
        const dropped = waiting.length - maxWaiting;
        waiting = waiting.slice(dropped);
        options.onError?.(new Error('request log backlog full'), dropped);
      }
      if (waiting.length >= batchSize) void flush();
    },
    flush,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await flush();
    },
  };
}
