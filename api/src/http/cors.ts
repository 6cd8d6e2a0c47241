/**
 * Cross-origin access to the BFF. Browsers on the site itself need none (same origin); the
 * Capacitor app's web view runs on its own origin and calls the BFF with a bearer token, so its
 * origins are admitted, with the site's public origin when one is configured. Every other origin
 * gets no CORS headers, so browsers keep its pages from reading any answer.
 */
import fastifyCors from '@fastify/cors';
import { CLIENT_HEADER } from '@reshelf/contracts';
import type { FastifyInstance } from 'fastify';
import type { AppConfig } from '../config.ts';

/** The Capacitor web view's origins: iOS (capacitor://) and Android (https, its default scheme). */
export const APP_ORIGINS = ['capacitor://localhost', 'https://localhost'] as const;

/** The value (an Origin header, say) names one of the Capacitor app's web views. */
export function isAppOrigin(origin: string | null | undefined): origin is (typeof APP_ORIGINS)[number] {
  return typeof origin === 'string' && (APP_ORIGINS as readonly string[]).includes(origin);
}

/**
 * Last-Event-ID: the app's EventSource (a fetch-based ponyfill, so that it can send the bearer
 * token) resumes a subscription with it after a reconnection (docs/realtime.md).
 */
export const CORS_ALLOWED_HEADERS = [
  CLIENT_HEADER,
  'authorization',
  'content-type',
  'last-event-id',
] as const;
export const CORS_METHODS = ['GET', 'HEAD', 'POST'] as const;
/**
 * Answer headers the app may read: the request id (for support), and WWW-Authenticate, which
 * says a bearer token was refused so the app refreshes it (resolve-auth.ts).
 */
export const CORS_EXPOSED_HEADERS = ['x-request-id', 'www-authenticate'] as const;
/** How long a browser may reuse a preflight answer (seconds). */
export const CORS_MAX_AGE_SECONDS = 600;

export function allowedOrigins(config: Pick<AppConfig, 'publicOrigin'>): string[] {
  const origins: string[] = [...APP_ORIGINS];
  // An Origin header never has a path or a trailing slash: compare origins, not the raw setting.
  if (config.publicOrigin) origins.push(new URL(config.publicOrigin).origin);
  return origins;
}

export async function registerCors(
  app: FastifyInstance,
  config: Pick<AppConfig, 'publicOrigin'>,
): Promise<void> {
  const origins = new Set(allowedOrigins(config));
  // The plugin's own OPTIONS * route (preflights are answered in its hook, before any route):
  // public, declared as every door's level is (http/access.ts).
  app.addHook('onRoute', (route) => {
    if (route.method === 'OPTIONS' && route.url === '*' && !route.config?.access) {
      route.config = { ...route.config, access: 'public' };
    }
  });
  await app.register(fastifyCors, {
    origin: (origin, callback) => callback(null, origin !== undefined && origins.has(origin)),
    credentials: true,
    methods: [...CORS_METHODS],
    allowedHeaders: [...CORS_ALLOWED_HEADERS],
    exposedHeaders: [...CORS_EXPOSED_HEADERS],
    maxAge: CORS_MAX_AGE_SECONDS,
  });
}
