/**
 * The domain error: services throw it with a code, and ONE table (ERRORS below) says what each
 * code is on every surface: the tRPC code (tRPC's error formatter and the /trpc answer), the HTTP
 * status (the REST API under /api/v1 and the raw Fastify routes) and the title the raw routes
 * send as `error` in their JSON body `{ error, message }`. Messages are written for people.
 */
import { TRPCError } from '@trpc/server';

export const ERRORS = {
  BAD_INPUT: { trpc: 'BAD_REQUEST', status: 400, title: 'Bad Request' },
  UNAUTHENTICATED: { trpc: 'UNAUTHORIZED', status: 401, title: 'Unauthorized' },
  FORBIDDEN: { trpc: 'FORBIDDEN', status: 403, title: 'Forbidden' },
  NOT_FOUND: { trpc: 'NOT_FOUND', status: 404, title: 'Not Found' },
  CONFLICT: { trpc: 'CONFLICT', status: 409, title: 'Conflict' },
  GONE: { trpc: 'NOT_FOUND', status: 404, title: 'Not Found' },
  PRECONDITION_FAILED: { trpc: 'PRECONDITION_FAILED', status: 412, title: 'Precondition Failed' },
  PAYLOAD_TOO_LARGE: { trpc: 'PAYLOAD_TOO_LARGE', status: 413, title: 'Payload Too Large' },
  RATE_LIMITED: { trpc: 'TOO_MANY_REQUESTS', status: 429, title: 'Too Many Requests' },
  INTERNAL: { trpc: 'INTERNAL_SERVER_ERROR', status: 500, title: 'Internal Server Error' },
  BAD_GATEWAY: { trpc: 'BAD_GATEWAY', status: 502, title: 'Bad Gateway' },
  UNAVAILABLE: { trpc: 'SERVICE_UNAVAILABLE', status: 503, title: 'Service Unavailable' },
} as const satisfies Record<string, { trpc: TRPCError['code']; status: number; title: string }>;

export type AppErrorCode = keyof typeof ERRORS;

/** What the caller is told when something unexpected failed (a bug): nothing about it. */
export const INTERNAL_MESSAGE = 'Something went wrong on our side. Please try again in a moment.';

/** The table's row for a tRPC code (the first code mapping to it), or null outside the table. */
export function errorOfTRPCCode(code: TRPCError['code']): (typeof ERRORS)[AppErrorCode] | null {
  for (const row of Object.values(ERRORS)) if (row.trpc === code) return row;
  return null;
}

/** The title of an HTTP status for a raw route's `{ error, message }` body. */
export function titleOfStatus(status: number): string {
  for (const row of Object.values(ERRORS)) if (row.status === status) return row.title;
  return status >= 500 ? ERRORS.INTERNAL.title : ERRORS.BAD_INPUT.title;
}

export class AppError extends Error {
  constructor(
    readonly code: AppErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'AppError';
  }

  toTRPC(): TRPCError {
    return new TRPCError({ code: ERRORS[this.code].trpc, message: this.message, cause: this });
  }
}

// ---- infrastructure failures ------------------------------------------------------------------
//
// A database or upstream that cannot be reached is not the caller's fault and says nothing about
// their credentials: it is answered 503 with Retry-After on every surface (tRPC, /api/v1, the raw
// routes), never 401 and never by clearing a session (decision 0024). Errors are classified here,
// once, and turned into the one AppError code UNAVAILABLE.

/** How long a client is asked to wait before trying again after an infrastructure failure. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;
/** ... and after being shed because this instance is overloaded. */
export const OVERLOADED_RETRY_AFTER_SECONDS = 2;

export const DATABASE_UNAVAILABLE_MESSAGE =
  'Reshelf cannot reach its database just now. You are still signed in and nothing was lost: please try again in a moment.';
export const OVERLOADED_MESSAGE = 'Reshelf is very busy just now. Please try again in a few seconds.';

/**
 * Raised by the pool instead of queueing another request for a connection when too many already
 * wait (DATABASE_POOL_MAX_WAITING): this instance is saturated and sheds the request.
 */
export class PoolSaturatedError extends Error {
  readonly code = 'RESHELF_POOL_SATURATED';
  constructor(waiting: number) {
    super(`${waiting} requests already wait for a database connection`);
    this.name = 'PoolSaturatedError';
  }
}

/** PostgreSQL SQLSTATEs that mean the server went away or cannot take us now. */
const UNAVAILABLE_SQLSTATE = /^(08...|57P0[123]|53300)$/;
/** Node's socket errors on the way to the database (or any upstream). */
const UNAVAILABLE_ERRNO = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
/** What node-postgres and pg-pool say when a connection is lost or cannot be had in time. */
const UNAVAILABLE_MESSAGES = [
  'timeout exceeded when trying to connect',
  'connection terminated',
  'connection timeout',
  'client has encountered a connection error and is not queryable',
  // pg, for a client whose connection ended (a transaction's ROLLBACK after the server went).
  'client was closed and is not queryable',
  'cannot use a pool after calling end on the pool',
  'the server closed the connection unexpectedly',
];

export type InfrastructureFailure = 'database' | 'overloaded';

/**
 * Whether an error (or anything in its cause chain) means the database could not be reached or
 * this instance is overloaded, rather than a fault of the request or a bug.
 */
export function infrastructureFailure(error: unknown, depth = 0): InfrastructureFailure | null {
  if (!error || typeof error !== 'object' || depth > 8) return null;
  if (error instanceof PoolSaturatedError) return 'overloaded';
  if (error instanceof AppError) return null;
  const { code, message, cause, errors } = error as {
    code?: unknown;
    message?: unknown;
    cause?: unknown;
    errors?: unknown;
  };
  if (typeof code === 'string' && (UNAVAILABLE_SQLSTATE.test(code) || UNAVAILABLE_ERRNO.has(code))) {
    return 'database';
  }
  if (typeof message === 'string') {
    const lower = message.toLowerCase();
    if (UNAVAILABLE_MESSAGES.some((text) => lower.includes(text))) return 'database';
  }
  // Connecting to a host with several addresses fails with an AggregateError of each attempt.
  if (Array.isArray(errors)) {
    for (const inner of errors) {
      const found = infrastructureFailure(inner, depth + 1);
      if (found) return found;
    }
  }
  return infrastructureFailure(cause, depth + 1);
}

/** The AppError a caller sees for an infrastructure failure (UNAVAILABLE, with Retry-After). */
export function unavailableError(kind: InfrastructureFailure = 'database', cause?: unknown): AppError {
  return kind === 'overloaded'
    ? new AppError('UNAVAILABLE', OVERLOADED_MESSAGE, {
        retryAfterSeconds: OVERLOADED_RETRY_AFTER_SECONDS,
        cause: cause === undefined ? undefined : String(cause),
      })
    : new AppError('UNAVAILABLE', DATABASE_UNAVAILABLE_MESSAGE, {
        retryAfterSeconds: UNAVAILABLE_RETRY_AFTER_SECONDS,
        cause: cause === undefined ? undefined : String(cause),
      });
}

/**
 * A hosted service the BFF depends on (Supabase Auth, Functions, Storage) that could not be
 * reached, timed out or answered 5xx: an outage like the database's, answered 503 with
 * Retry-After and the adapter's own message (which says which service), never 500 and never
 * "signed out". An adapter's error opts in by carrying `upstreamUnavailable: true`.
 */
export interface UpstreamUnavailable extends Error {
  readonly upstreamUnavailable: true;
}

export function isUpstreamUnavailable(error: unknown): error is UpstreamUnavailable {
  return (
    error instanceof Error &&
    (error as Partial<UpstreamUnavailable>).upstreamUnavailable === true &&
    !(error instanceof AppError)
  );
}

/**
 * The domain error to answer with: an AppError as it is, an infrastructure failure (the
 * database, or a hosted service that is down) as UNAVAILABLE; null for anything else (a bug:
 * answered 500 and logged).
 */
export function asAppError(error: unknown): AppError | null {
  if (error instanceof AppError) return error;
  if (isUpstreamUnavailable(error)) {
    return new AppError('UNAVAILABLE', error.message, {
      retryAfterSeconds: UNAVAILABLE_RETRY_AFTER_SECONDS,
      cause: String(error),
    });
  }
  const kind = infrastructureFailure(error);
  return kind ? unavailableError(kind, error) : null;
}

/** Seconds to put in Retry-After for a domain error, when it has any (503 always does). */
export function retryAfterOf(error: AppError): number | undefined {
  const value = error.details?.retryAfterSeconds;
  if (typeof value === 'number') return value;
  return error.code === 'UNAVAILABLE' ? UNAVAILABLE_RETRY_AFTER_SECONDS : undefined;
}

/**
 * The one log line for a request answered UNAVAILABLE because of an infrastructure failure:
 * shed (the pool's queue was full: the same line as the load shedder's) or the database down.
 */
export function logUnavailable(log: { warn(details: object, message: string): void }, error: unknown): void {
  if (infrastructureFailure(error) === 'overloaded') {
    log.warn({ reason: 'database pool queue full' }, 'request shed: overloaded');
  } else if (isUpstreamUnavailable(error)) {
    log.warn({ err: error }, 'request failed: a hosted service is unavailable');
  } else {
    log.warn({ err: error }, 'request failed: database unavailable');
  }
}
