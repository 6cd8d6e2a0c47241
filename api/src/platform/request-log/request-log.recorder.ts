/**
 * Records each API request in `request_log` (the request log on /admin/logs), off the request's
 * path: the answer goes first, the line waits in memory and is written with others in one
 * insert every couple of seconds (or sooner once many wait). The insert sends one array per
 * column (`insert … select from unnest(…)`): seven parameters for the whole batch, not seven
 * per line, so neither Kysely nor PostgreSQL spends per-line work on building and parsing it.
 *
 * Sampling (REQUEST_LOG_SAMPLE=N, off by default): of the fast successful requests (status
 * below 400, quicker than SLOW_REQUEST_MS), one in N is kept; every error and every slow
 * request is always kept, so the log still answers "what failed" and "what was slow". pino's
 * line is written for every request either way.
 *
 * While the database is away or too busy, lines wait for a later flush; if too many wait, the
 * oldest are dropped, never the requests themselves; pino still has every line.
 *
 * What flush() guarantees (tests and shutdown rely on it; nothing needs to wait and hope):
 * once it resolves, the line of every logged request whose answer had started to leave before
 * the call is in the table, unless it was dropped, failed to insert, or the database was away
 * (all reported through onError). The line is made when the answer has finished (onResponse,
 * for the full duration), which can be after the client has it; so the app announces each
 * answer as it starts to leave (`answering`, from onSend) and flush() first waits for those
 * lines, or for the answer to be cut off.
 */
import type { ServerResponse } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { createBatchWriter } from '../../db/batch-writer.ts';
import type { Database } from '../../db/index.ts';
import { pathOf } from '../../logger.ts';

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
  /** A logged request's answer starts to leave (onSend): its line will follow. */
  answering(response: ServerResponse): void;
  /** The line of a finished answer (onResponse), given the same response when announced. */
  record(line: RequestLine, response?: ServerResponse): void;
  /**
   * Writes every line recorded so far and those of every answer announced so far (waiting
   * for them to finish, or to be cut off), then resolves.
   */
  flush(): Promise<void>;
  /** Stops the timer and writes what waits, without waiting for answers still going out. */
  stop(): Promise<void>;
  /** Answers announced whose lines have not come yet (a closed stream must leave none). */
  readonly pending: number;
}

/** Requests worth a line: the API, not the web's files, uploads served back, or health probes. */
const LOGGED = /^\/(?:trpc|api|payments)(?:\/|$)/;

/** The path alone: query strings can carry search terms, emails and tokens. */
export function loggedPath(url: string): string | null {
  const path = pathOf(url);
  return LOGGED.test(path) ? path.slice(0, 2000) : null;
}

/** A request at least this slow is always recorded, whatever the sampling. */
export const SLOW_REQUEST_MS = 500;

/**
 * Whether a line is kept under sampling: every error (400 and up) and every slow request; of
 * the rest, one in `keepOneIn`, counted (not random, so the share is exact).
 */
export function createSampler(keepOneIn: number): (line: RequestLine) => boolean {
  if (!Number.isInteger(keepOneIn) || keepOneIn < 1) {
    throw new Error(`keepOneIn must be a whole number of 1 or more, not ${keepOneIn}`);
  }
  if (keepOneIn === 1) return () => true;
  let count = 0;
  return (line) => {
    if (line.status >= 400 || line.durationMs >= SLOW_REQUEST_MS) return true;
    count = (count + 1) % keepOneIn;
    return count === 1;
  };
}

/** One insert for a whole batch: an array per column, unnested by PostgreSQL. */
async function insertLines(db: Database, batch: RequestLine[]): Promise<void> {
  const at: string[] = [];
  const requestIds: string[] = [];
  const methods: string[] = [];
  const paths: string[] = [];
  const statuses: number[] = [];
  const durations: number[] = [];
  const users: (string | null)[] = [];
  for (const line of batch) {
    at.push(line.at.toISOString());
    requestIds.push(line.requestId);
    methods.push(line.method);
    paths.push(line.path);
    statuses.push(line.status);
    durations.push(line.durationMs);
    users.push(line.userId);
  }
  await sql`
    insert into public.request_log (at, request_id, method, path, status, duration_ms, user_id)
    select * from unnest(
      ${at}::timestamptz[], ${requestIds}::text[], ${methods}::text[], ${paths}::text[],
      ${statuses}::integer[], ${durations}::real[], ${users}::uuid[]
    )
  `.execute(db);
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
    /** Keep one in this many fast successful requests (errors and slow ones always); 1: all. */
    keepOneIn?: number;
    onError?: (error: unknown, dropped: number) => void;
  } = {},
): RequestLogRecorder {
  const keep = createSampler(options.keepOneIn ?? 1);
  const buffer = createBatchWriter<RequestLine>({
    insert: (batch) => insertLines(db, batch),
    batchSize: options.batchSize ?? 200,
    maxWaiting: options.maxWaiting ?? 5000,
    flushEveryMs: options.flushEveryMs,
    onError: options.onError,
    overflowError: 'request log backlog full',
  });
  /**
   * Answers on their way whose lines are not recorded yet. Per request this is a set entry and
   * a shared 'close' listener, nothing more: promises are made only by a flush() that waits.
   */
  const announced = new Set<ServerResponse>();
  /** Flushes waiting, each for the answers announced before it was called. */
  let waiting: { left: Set<ServerResponse>; done: () => void }[] = [];
  const settle = (response: ServerResponse) => {
    if (!announced.delete(response) || waiting.length === 0) return;
    for (const flush of waiting) {
      if (flush.left.delete(response) && flush.left.size === 0) flush.done();
    }
    waiting = waiting.filter((flush) => flush.left.size > 0);
  };
  function closed(this: ServerResponse) {
    // Cut off before it finished: no line will come. Finished: onResponse records it, perhaps a
    // few callbacks after 'close' (async hooks); settle anyway once those have run.
    if (!this.writableFinished) settle(this);
    else setImmediate(settle, this);
  }

  return {
    answering(response) {
      // Already gone (the client hung up first): its 'close' has passed and no line will come.
      if (buffer.stopped || response.destroyed || announced.has(response)) return;
      announced.add(response);
      response.on('close', closed);
    },
    record(line, response) {
      if (response) settle(response);
      if (buffer.stopped || !keep(line)) return;
      buffer.push(line);
    },
    async flush() {
      if (announced.size > 0) {
        await new Promise<void>((done) => waiting.push({ left: new Set(announced), done }));
      }
      await buffer.flush();
    },
    async stop() {
      for (const response of [...announced]) settle(response);
      await buffer.stop();
    },
    get pending() {
      return announced.size;
    },
  };
}
