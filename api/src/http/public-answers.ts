/**
 * HTTP caching of public answers (decision 0042): a GET of public catalogue data, the same for
 * every visitor (request.publicAnswer: cached public tRPC procedures, /api/v1 public GETs),
 * answered 200, carries
 *   ETag: W/"…"                 a hash of the body; If-None-Match with it is answered 304
 *                               with no body;
 *   Cache-Control: public, max-age=0, must-revalidate, s-maxage=10
 *                               browsers ask again every time (a 304 costs no body), so a
 *                               seller who just changed a listing never sees the old one;
 *                               a shared cache (a CDN) may answer for 10 seconds;
 *   CDN-Cache-Control: public, max-age=10, stale-while-revalidate=30
 *                               (RFC 9213, read by CDNs only): the short lifetime, and a
 *                               stale copy served while it fetches the new one.
 * Errors and every other answer are left alone (security-headers.ts makes private answers
 * no-store). Runs before compression, so the ETag is the identity body's; it also hands each
 * answer to the in-process public cache (public-cache.ts), which sends the same ETag on a hit.
 */
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { etagMatches, type PublicCache } from './public-cache.ts';

export const PUBLIC_CACHE_CONTROL = 'public, max-age=0, must-revalidate, s-maxage=10';
export const PUBLIC_CDN_CACHE_CONTROL = 'public, max-age=10, stale-while-revalidate=30';

/** A weak validator: the same body, the same tag (compressed or not). */
export function etagOf(body: string): string {
  return `W/"${createHash('sha1').update(body).digest('base64url')}"`;
}

function cacheHeaders(reply: FastifyReply) {
  reply.header('cache-control', PUBLIC_CACHE_CONTROL).header('cdn-cache-control', PUBLIC_CDN_CACHE_CONTROL);
}

export function publicAnswers(options: { cache?: PublicCache } = {}) {
  const { cache } = options;
  return async function onSend(request: FastifyRequest, reply: FastifyReply, payload: unknown) {
    if (!request.publicAnswer || request.method !== 'GET') return payload;
    // A hit of the public cache: its ETag is already set (and a 304 already decided).
    if (reply.hasHeader('etag')) {
      if (reply.statusCode === 200 || reply.statusCode === 304) cacheHeaders(reply);
      return payload;
    }
    let status = reply.statusCode;
    let body: string | undefined;
    if (payload instanceof Response) {
      // tRPC's fetch adapter answers with a Response: its own status counts.
      status = payload.status;
      if (status === 200) {
        body = await payload.text();
        reply.code(200);
        for (const [name, value] of payload.headers) reply.header(name, value);
      }
    } else if (typeof payload === 'string') {
      body = payload;
    } else if (Buffer.isBuffer(payload)) {
      body = payload.toString('utf8');
    }
    if (status !== 200 || body === undefined) {
      cache?.answered(request, reply, { status });
      return payload;
    }
    const etag = etagOf(body);
    const contentType = String(reply.getHeader('content-type') ?? 'application/json');
    cache?.answered(request, reply, { status, body, contentType, etag });
    reply.header('etag', etag);
    cacheHeaders(reply);
    if (etagMatches(request.headers['if-none-match'], etag)) {
      reply.code(304).removeHeader('content-length');
      return null;
    }
    return body;
  };
}
