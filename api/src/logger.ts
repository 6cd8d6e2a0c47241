/**
 * pino options shared by the app and its tests. Request lines carry the request id and the
 * path alone (`/trpc/<procedure>`, `/api/v1/...`): never the query string, which carries
 * a tRPC call's input (a staff search by someone's email) and REST search terms.
 *
 * Credentials never reach a log line because nothing that holds them is logged: the request
 * serializer below is a whitelist (method, path, address, user agent: no headers, so no
 * authorization, cookie or API key), responses are logged by status alone, and no log call
 * passes a body or an input. Redaction stays only as a backstop for a log call that names a
 * credential at the top of its object (`{ token }`, `{ headers }`): exact paths, which pino
 * checks only when such a key is present. No wildcard paths (`*.token`, `*.*.password`): those
 * made pino walk every object of every line, about a tenth of a request's CPU.
 */
import type { FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import type { DestinationStream, LoggerOptions } from 'pino';

const SECRET_KEYS = [
  'password',
  'newPassword',
  'currentPassword',
  'token',
  'accessToken',
  'access_token',
  'refreshToken',
  'refresh_token',
  'apiKey',
  'secret',
  'cookie',
  'authorization',
];

/** Exact paths only (no `*`): see above. */
export const REDACT_PATHS = [
  'headers.authorization',
  'headers.cookie',
  'headers["x-api-key"]',
  'headers["set-cookie"]',
  ...SECRET_KEYS,
];

/** A request's path without its query string or fragment: what a log line may say. */
export function pathOf(url: string): string {
  const end = url.search(/[?#]/);
  return end === -1 ? url : url.slice(0, end);
}

interface RequestLike {
  method?: string;
  url?: string;
  ip?: string;
  headers?: Record<string, unknown>;
}

export function loggerOptions(level: string, stream?: DestinationStream): FastifyServerOptions['logger'] {
  const options: LoggerOptions = {
    level,
    redact: { paths: REDACT_PATHS, censor: '[Redacted]' },
    serializers: {
      req(request: RequestLike) {
        // The request id is on every line of the request already (reqId).
        return {
          method: request.method,
          url: request.url ? pathOf(request.url) : undefined,
          remoteAddress: request.ip,
          userAgent: request.headers?.['user-agent'],
        };
      },
    },
  };
  return stream ? { ...options, stream } : options;
}

const LEVEL_LABELS: Record<number, string> = {
  10: 'trace: ',
  20: 'debug: ',
  40: 'warning: ',
  50: 'error: ',
  60: 'fatal: ',
};

/**
 * A pino line (JSON) as a short line for a person at a terminal (`pnpm start` outside
 * production; production and the tests keep JSON, for machines): the local time, then for a
 * request its method, path, status and milliseconds, otherwise the level (when not info) and the
 * message, with an error's message, and its stack only at error level and above.
 */
export function humanLine(json: string): string {
  let entry: {
    time?: number;
    level?: number;
    msg?: string;
    req?: { method?: string; url?: string };
    res?: { statusCode?: number };
    responseTime?: number;
    err?: { message?: string; stack?: string };
  };
  try {
    entry = JSON.parse(json);
  } catch {
    return json.trimEnd();
  }
  const time = new Date(entry.time ?? Date.now()).toTimeString().slice(0, 8);
  if (entry.msg === 'request' && entry.req) {
    return `${time} ${entry.req.method} ${entry.req.url} ${entry.res?.statusCode ?? ''} ${entry.responseTime ?? 0} ms`;
  }
  const level = LEVEL_LABELS[entry.level ?? 30] ?? '';
  const error = entry.err
    ? (entry.level ?? 30) >= 50 && entry.err.stack
      ? `\n${entry.err.stack}`
      : `: ${entry.err.message ?? ''}`
    : '';
  return `${time} ${level}${entry.msg ?? ''}${error}`;
}

/** A pino destination that writes `humanLine`s to `out` (standard output by default). */
export function humanLogStream(out: { write(text: string): unknown } = process.stdout): DestinationStream {
  return {
    write(line: string) {
      out.write(`${humanLine(line)}\n`);
    },
  };
}

/**
 * The one line written for each request once its answer is sent (Fastify's own pair,
 * "incoming request" and "request completed", is off): the request id (`reqId`), method, path
 * without its query (`req`), the route pattern, the tRPC procedure(s) called, the status, the
 * duration in milliseconds and the signed-in user's id. Never the input or anyone's email.
 * At info, but a good health probe's, mostly at debug (http/probes.ts, decision 0070).
 */
export function logRequest(
  request: FastifyRequest,
  reply: FastifyReply,
  userId: string | null,
  level: 'info' | 'debug' = 'info',
): void {
  // pino's own check (not in Fastify's logger type): a line below the level is not even built.
  const log = request.log as FastifyReply['log'] & { isLevelEnabled?(level: string): boolean };
  if (log.isLevelEnabled?.(level) === false) return;
  const url = pathOf(request.url);
  const procedure = url.startsWith('/trpc/') ? url.slice('/trpc/'.length).slice(0, 2000) : undefined;
  request.log[level](
    {
      req: request,
      route: request.routeOptions.url,
      procedure,
      res: { statusCode: reply.statusCode },
      responseTime: Math.round(reply.elapsedTime * 10) / 10,
      userId,
    },
    'request',
  );
}
