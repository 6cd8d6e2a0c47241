/**
 * A short-lived, in-process cache of public catalogue answers (decision 0008). Only GET
 * calls whose every procedure is marked `cache: true` (built with cachedPublicProcedure:
 * public data, the same for every visitor) are cached, by their full URL, and only their
 * 200 answers. Any change to catalogue tables NOTIFYs every instance, which drops the whole
 * cache at once; entries also expire after PUBLIC_CACHE_SECONDS. A hit is answered before
 * tRPC runs at all.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';

interface Entry {
  body: string;
  contentType: string;
  expiresAt: number;
}

export interface PublicCache {
  readonly size: number;
  /** Drops every entry; answers being computed now will not be stored. */
  invalidate(): void;
  onRequest(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined>;
  onSend(request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown>;
}

export interface PublicCacheOptions {
  ttlMs: number;
  maxEntries?: number;
  /** Whether a procedure's answer may be shared by every visitor. */
  cacheable: (procedurePath: string) => boolean;
  /** Mount point of tRPC. */
  prefix?: string;
}

const pending = new WeakMap<FastifyRequest, { key: string; generation: number }>();

/** The procedures a tRPC call names (a batch names several), or undefined if unreadable. */
export function trpcCallPaths(url: string, prefix = '/trpc/'): string[] | undefined {
  if (!url.startsWith(prefix)) return undefined;
  const end = url.indexOf('?');
  const segment = url.slice(prefix.length, end === -1 ? undefined : end);
  try {
    return decodeURIComponent(segment).split(',');
  } catch {
    return undefined;
  }
}

/** A GET whose every procedure answers public data, the same for everyone. */
export function isPublicCall(
  request: FastifyRequest,
  cacheable: (procedurePath: string) => boolean,
  prefix = '/trpc/',
): boolean {
  if (request.method !== 'GET') return false;
  const paths = trpcCallPaths(request.url, prefix);
  return Boolean(paths && paths.length > 0 && paths.every(cacheable));
}

export function createPublicCache(options: PublicCacheOptions): PublicCache {
  const maxEntries = options.maxEntries ?? 5_000;
  const prefix = `${options.prefix ?? '/trpc'}/`;
  const entries = new Map<string, Entry>();
  let generation = 0;

  function keyFor(request: FastifyRequest): string | undefined {
    // A call with an API token is answered by the procedure, so a revoked token is refused at once.
    if (/^Bearer\s+rsk_/i.test(request.headers.authorization ?? '')) return undefined;
    return isPublicCall(request, options.cacheable, prefix) ? request.url : undefined;
  }

  return {
    get size() {
      return entries.size;
    },

    invalidate() {
      generation += 1;
      entries.clear();
    },

    async onRequest(request, reply) {
      const key = keyFor(request);
      if (!key) return undefined;
      const entry = entries.get(key);
      if (entry && entry.expiresAt > Date.now()) {
        // Most recently used goes to the back, so eviction takes the coldest first.
        entries.delete(key);
        entries.set(key, entry);
        return reply
          .code(200)
          .header('content-type', entry.contentType)
          .header('x-cache', 'HIT')
          .send(entry.body);
      }
      if (entry) entries.delete(key);
      pending.set(request, { key, generation });
      return undefined;
    },

    async onSend(request, reply, payload) {
      const marker = pending.get(request);
      if (!marker) return payload;
      pending.delete(request);
      reply.header('x-cache', 'MISS');
      // The lean path (http/trpc-lean.ts) answers with the JSON's bytes; the stock plugin with a
      // fetch Response, whose own status is the one that counts.
      let body: Promise<string>;
      let contentType: string;
      if (Buffer.isBuffer(payload) || typeof payload === 'string') {
        if (reply.statusCode !== 200) return payload;
        body = Promise.resolve(payload.toString());
        contentType = String(reply.getHeader('content-type') ?? 'application/json');
      } else {
        if (!(payload instanceof Response) || payload.status !== 200) return payload;
        contentType = payload.headers.get('content-type') ?? 'application/json';
        body = payload.clone().text();
      }
      void body.then(
        (text) => {
          // An answer computed before a change must not outlive it.
          if (marker.generation !== generation) return;
          entries.set(marker.key, { body: text, contentType, expiresAt: Date.now() + options.ttlMs });
          while (entries.size > maxEntries) {
            const oldest = entries.keys().next().value;
            if (oldest === undefined) break;
            entries.delete(oldest);
          }
        },
        () => {},
      );
      return payload;
    },
  };
}
