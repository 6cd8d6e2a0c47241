/**
 * pino options shared by the app and its tests. Request lines carry the request id;
 * credentials never reach a log line: authorization and cookie headers, set-cookie,
 * password and token fields, and token-like query parameters are redacted.
 */
import type { FastifyServerOptions } from 'fastify';
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
];

export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'headers.cookie',
  ...SECRET_KEYS.flatMap((key) => [key, `*.${key}`, `*.*.${key}`]),
];

const SENSITIVE_QUERY = /([?&](?:token|access_token|refresh_token|code|password|key|signature)=)[^&#]*/gi;

export function redactUrl(url: string): string {
  return url.replace(SENSITIVE_QUERY, '$1[Redacted]');
}

interface RequestLike {
  id?: string;
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
        return {
          id: request.id,
          method: request.method,
          url: request.url ? redactUrl(request.url) : undefined,
          remoteAddress: request.ip,
          userAgent: request.headers?.['user-agent'],
        };
      },
    },
  };
  return stream ? { ...options, stream } : options;
}
