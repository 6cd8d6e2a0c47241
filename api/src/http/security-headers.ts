/**
 * Security headers on every answer (decision 0025):
 *
 *   Content-Security-Policy    what a page may load and run: scripts only from this site (no
 *                              inline script; any inline script the built index.html has is
 *                              allowed by its sha256, computed at start), styles from this
 *                              site and inline (React and Radix set style attributes and
 *                              <style> elements), images from this site, data: and blob:
 *                              (previews of photos being uploaded) and any https: address
 *                              (charities list photos by URL; Open Library covers), connections
 *                              to this site (and the Supabase project in hosted mode), frames
 *                              of this site only, and framed only by this site
 *                              (/admin/accessibility runs axe on the site's pages in frames);
 *                              forms post here, and may end at the Capacitor app's origins.
 *                              Sent in every mode, so the browser tests run under it.
 *   Strict-Transport-Security  production with an https:// PUBLIC_ORIGIN only.
 *   Referrer-Policy            strict-origin-when-cross-origin: other sites see our origin,
 *                              never a path (which can hold a search or a token).
 *   Cache-Control: no-store    on API answers (/trpc, /api, /payments, health), unless the
 *                              answer is public (a GET of cacheable public procedures only) or
 *                              the route chose its own.
 * An answer that sets its own Content-Security-Policy (stored files: `sandbox`) keeps it.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppConfig } from '../config.ts';
import { APP_ORIGINS } from './cors.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The answer is public data, the same for everyone (no `Cache-Control: no-store`). */
    publicAnswer: boolean;
  }
}

/** Script types a browser does not run: data blocks need no hash. */
const DATA_BLOCK = /^(application\/(ld\+)?json|text\/plain)$/i;

/** sha256 sources ('sha256-…') of the inline scripts in an HTML page. */
export function inlineScriptHashes(html: string): string[] {
  const hashes: string[] = [];
  for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi)) {
    const attributes = match[1] ?? '';
    if (/\bsrc\s*=/i.test(attributes)) continue;
    const type = /\btype\s*=\s*["']?([^"'\s>]+)/i.exec(attributes)?.[1];
    if (type && DATA_BLOCK.test(type)) continue;
    const body = match[2] ?? '';
    hashes.push(`'sha256-${createHash('sha256').update(body, 'utf8').digest('base64')}'`);
  }
  return [...new Set(hashes)];
}

export function contentSecurityPolicy(config: AppConfig, scriptHashes: string[] = []): string {
  const supabase = config.supabase ? new URL(config.supabase.url).origin : null;
  const https = new URL(config.siteOrigin).protocol === 'https:';
  const directives: [string, ...string[]][] = [
    ['default-src', "'self'"],
    ['script-src', "'self'", ...scriptHashes],
    ['style-src', "'self'", "'unsafe-inline'"],
    ['img-src', "'self'", 'data:', 'blob:', 'https:'],
    ['font-src', "'self'", 'data:'],
    ['connect-src', "'self'", ...(supabase ? [supabase] : [])],
    ['media-src', "'self'", 'blob:'],
    ['frame-src', "'self'"],
    ['frame-ancestors', "'self'"],
    // The test payment page's buttons end in a redirect back to the Capacitor app when the
    // checkout began there (a form's redirects count as its action).
    ['form-action', "'self'", ...APP_ORIGINS],
    ['base-uri', "'self'"],
    ['object-src', "'none'"],
    ['worker-src', "'self'", 'blob:'],
    ['manifest-src', "'self'"],
  ];
  // Only where the site is https: on http://localhost it would send every asset to https.
  if (config.env === 'production' && https) directives.push(['upgrade-insecure-requests']);
  return directives.map((directive) => directive.join(' ')).join('; ');
}

const API_PATH = /^\/(?:trpc|api|payments|healthz|readyz)(?:[/?]|$)/;

export interface SecurityHeaders {
  /** The policy pages are sent with. */
  readonly csp: string;
  /** Sets the headers on an answer about to be sent (for a scope's own onSend). */
  apply(request: FastifyRequest, reply: FastifyReply): void;
  onSend(request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown>;
}

/** The headers for this configuration, with the inline-script hashes of the built index.html. */
export function securityHeaders(config: AppConfig, indexHtmlPath?: string): SecurityHeaders {
  const hashes =
    indexHtmlPath && existsSync(indexHtmlPath) ? inlineScriptHashes(readFileSync(indexHtmlPath, 'utf8')) : [];
  const csp = contentSecurityPolicy(config, hashes);
  const hsts = config.env === 'production' && new URL(config.siteOrigin).protocol === 'https:';
  const apply = (request: FastifyRequest, reply: FastifyReply) => {
    if (!reply.hasHeader('content-security-policy')) reply.header('content-security-policy', csp);
    reply.header('referrer-policy', 'strict-origin-when-cross-origin');
    reply.header('x-content-type-options', 'nosniff');
    // SAMEORIGIN, not DENY: /admin/accessibility runs axe on the site's own pages in iframes.
    reply.header('x-frame-options', 'SAMEORIGIN');
    if (hsts) reply.header('strict-transport-security', 'max-age=31536000');
    if (API_PATH.test(request.url) && !request.publicAnswer && !reply.hasHeader('cache-control')) {
      reply.header('cache-control', 'no-store');
    }
  };
  return {
    csp,
    apply,
    async onSend(request, reply, payload) {
      apply(request, reply);
      return payload;
    },
  };
}
