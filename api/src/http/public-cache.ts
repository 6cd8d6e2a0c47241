/**
 * A short-lived, in-process cache of public catalogue answers (decision 0008). Only GET
 * calls whose every procedure is marked `cache: true` (built with cachedPublicProcedure:
 * public data, the same for every visitor) are cached, by their full URL, and only their
 * 200 answers. Entries also expire after PUBLIC_CACHE_SECONDS. A hit is answered before
 * tRPC runs at all, with the entry's ETag (a 304 when the caller already has it).
 *
 * Invalidation is per key (decision 0042). Each entry carries tags saying what it was read
 * from, and each change notification on 'reshelf_catalogue' (migration 20261125400000) drops
 * only the entries whose tags it names:
 *   listing:<slug>    a listing page (listings.public.bySlug)
 *   seller:<id>       a listing page of that seller (its card shows the seller's name and how
 *                     many listings are on sale), tagged by the procedure (tagPublicAnswer)
 *   category:<slug>   browse or search filtered by that category
 *   lists             every other read of listings: unfiltered browse and search, shelves,
 *                     similar listings, sellers, charities
 *   taxonomy          categories and genres
 *   pages             the site's content pages
 * A change of listings drops `lists`, and the listing pages, sellers and categories it names
 * (a listing's category and that category's parent); a profile change drops `lists` and that
 * seller's listing pages; a page change drops `pages`. Every other change, a notification
 * naming too many rows, one that cannot be read, and a lost LISTEN connection drop everything.
 * An answer computed before a change that touches it is never stored after it.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';

interface Entry {
  body: string;
  contentType: string;
  etag: string;
  tags: readonly string[];
  expiresAt: number;
}

export interface PublicCache {
  readonly size: number;
  /** The last change notification handled (tests wait for theirs: they arrive in commit order). */
  readonly lastNotification: string | undefined;
  /** Drops every entry; answers being computed now will not be stored. */
  invalidate(): void;
  /** Drops the entries a change notification's payload names (everything when it names none). */
  invalidateFor(notification: string): void;
  onRequest(request: FastifyRequest, reply: FastifyReply, done: () => void): void;
  /**
   * The answer to a request onRequest let through (nothing happens for any other): says MISS,
   * and keeps a 200 answer's body unless a change touched it meanwhile.
   */
  answered(
    request: FastifyRequest,
    reply: FastifyReply,
    answer: { status: number; body?: string; contentType?: string; etag?: string },
  ): void;
}

export interface PublicCacheOptions {
  ttlMs: number;
  maxEntries?: number;
  /** Whether a procedure's answer may be shared by every visitor. */
  cacheable: (procedurePath: string) => boolean;
  /** Mount point of tRPC. */
  prefix?: string;
  /** The ETag of a body (the same one public-answers.ts sends). */
  etagOf: (body: string) => string;
}

const pending = new WeakMap<FastifyRequest, { key: string; generation: number }>();
const procedureTags = new WeakMap<FastifyRequest, string[]>();

/**
 * Adds tags to the answer being computed for this request (a procedure knows what it read:
 * the listing page tags its seller). No effect when the answer is not cached.
 */
export function tagPublicAnswer(request: FastifyRequest, ...tags: string[]): void {
  const known = procedureTags.get(request);
  if (known) known.push(...tags);
  else procedureTags.set(request, tags);
}

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

const CATEGORY_FILTERED = new Set([
  'catalogue.listings.browse',
  'catalogue.listings.search',
  'catalogue.books.public.search',
]);

/** What one call's answer is read from (the tags above), from its procedure and input. */
export function callTags(path: string, input: unknown): string[] {
  const fields = input && typeof input === 'object' ? (input as Record<string, unknown>) : {};
  if (path === 'catalogue.listings.bySlug') {
    return typeof fields.slug === 'string' ? [`listing:${fields.slug}`] : ['lists'];
  }
  if (CATEGORY_FILTERED.has(path) && typeof fields.category === 'string' && fields.category !== '') {
    return [`category:${fields.category}`];
  }
  if (path.startsWith('catalogue.taxonomy.public.')) return ['taxonomy'];
  if (path.startsWith('platform.pages.')) return ['pages'];
  return ['lists'];
}

/** The tags of a tRPC GET (every call of a batch), from its URL. */
export function urlTags(url: string, prefix = '/trpc/'): string[] {
  const paths = trpcCallPaths(url, prefix) ?? [];
  const query = new URLSearchParams(url.includes('?') ? url.slice(url.indexOf('?') + 1) : '');
  let input: unknown;
  try {
    const raw = query.get('input');
    input = raw === null ? undefined : JSON.parse(raw);
  } catch {
    // Unreadable input: tRPC refuses the call, and an error is never cached.
    input = undefined;
  }
  const batch = query.get('batch') === '1';
  const tags = paths.flatMap((path, index) =>
    callTags(path, batch ? (input as Record<string, unknown> | undefined)?.[String(index)] : input),
  );
  return [...new Set(tags)];
}

/**
 * The tags a change notification names: null for "everything" (a bare table name, a payload
 * that cannot be read, any table but listings, profiles and pages).
 */
export function notificationTags(notification: string): Set<string> | null {
  const colon = notification.indexOf(':');
  const table = colon === -1 ? notification : notification.slice(0, colon);
  if (table === 'pages') return new Set(['pages']);
  if (colon === -1 || (table !== 'listings' && table !== 'profiles')) return null;
  let detail: { slugs?: unknown; sellers?: unknown; categories?: unknown };
  try {
    detail = JSON.parse(notification.slice(colon + 1));
  } catch {
    return null;
  }
  const strings = (value: unknown): string[] | null =>
    Array.isArray(value) && value.every((item) => typeof item === 'string') ? value : null;
  const sellers = strings(detail.sellers);
  if (!sellers) return null;
  const tags = new Set(['lists', ...sellers.map((id) => `seller:${id}`)]);
  if (table === 'profiles') return tags;
  const slugs = strings(detail.slugs);
  const categories = strings(detail.categories);
  if (!slugs || !categories) return null;
  for (const slug of slugs) tags.add(`listing:${slug}`);
  for (const slug of categories) tags.add(`category:${slug}`);
  return tags;
}

/** Recent invalidations, so that an answer computed across one is not stored after it. */
const REMEMBERED_INVALIDATIONS = 256;

export function createPublicCache(options: PublicCacheOptions): PublicCache {
  const maxEntries = options.maxEntries ?? 5_000;
  const prefix = `${options.prefix ?? '/trpc'}/`;
  const entries = new Map<string, Entry>();
  let generation = 0;
  // generation → what it dropped (null: everything), oldest first.
  const recent: { generation: number; tags: Set<string> | null }[] = [];

  function keyFor(request: FastifyRequest): string | undefined {
    // A call with an API token is answered by the procedure, so a revoked token is refused at once.
    if (/^Bearer\s+rsk_/i.test(request.headers.authorization ?? '')) return undefined;
    return isPublicCall(request, options.cacheable, prefix) ? request.url : undefined;
  }

  function remember(tags: Set<string> | null) {
    generation += 1;
    recent.push({ generation, tags });
    if (recent.length > REMEMBERED_INVALIDATIONS) recent.shift();
  }

  /** Whether an invalidation since `since` touched an answer with these tags. */
  function touchedSince(since: number, tags: readonly string[]): boolean {
    if (since === generation) return false;
    const oldest = recent[0];
    if (!oldest || oldest.generation > since + 1) return true; // Forgotten: assume touched.
    for (const change of recent) {
      if (change.generation <= since) continue;
      if (change.tags === null || tags.some((tag) => change.tags?.has(tag))) return true;
    }
    return false;
  }

  function invalidate() {
    remember(null);
    entries.clear();
  }

  let lastNotification: string | undefined;

  return {
    get size() {
      return entries.size;
    },

    get lastNotification() {
      return lastNotification;
    },

    invalidate,

    invalidateFor(notification) {
      lastNotification = notification;
      const tags = notificationTags(notification);
      if (!tags) {
        invalidate();
        return;
      }
      remember(tags);
      for (const [key, entry] of entries) {
        if (entry.tags.some((tag) => tags.has(tag))) entries.delete(key);
      }
    },

    // A plain callback (no promise per request): a hit is answered here, anything else goes on.
    onRequest(request, reply, done) {
      const key = keyFor(request);
      if (!key) return done();
      const entry = entries.get(key);
      if (entry && entry.expiresAt > Date.now()) {
        // Most recently used goes to the back, so eviction takes the coldest first.
        entries.delete(key);
        entries.set(key, entry);
        reply.header('x-cache', 'HIT').header('etag', entry.etag);
        if (etagMatches(request.headers['if-none-match'], entry.etag)) {
          reply.code(304).send();
          return;
        }
        reply.code(200).header('content-type', entry.contentType).send(entry.body);
        return;
      }
      if (entry) entries.delete(key);
      pending.set(request, { key, generation });
      done();
    },

    answered(request, reply, answer) {
      const marker = pending.get(request);
      if (!marker) return;
      pending.delete(request);
      reply.header('x-cache', 'MISS');
      if (answer.status !== 200 || answer.body === undefined) return;
      const tags = [...new Set([...urlTags(marker.key, prefix), ...(procedureTags.get(request) ?? [])])];
      // An answer computed before a change must not outlive it.
      if (touchedSince(marker.generation, tags)) return;
      entries.set(marker.key, {
        body: answer.body,
        contentType: answer.contentType ?? 'application/json',
        etag: answer.etag ?? options.etagOf(answer.body),
        tags,
        expiresAt: Date.now() + options.ttlMs,
      });
      while (entries.size > maxEntries) {
        const oldest = entries.keys().next().value;
        if (oldest === undefined) break;
        entries.delete(oldest);
      }
    },
  };
}

/** If-None-Match against an ETag, by weak comparison (RFC 9110 13.1.2): `W/` is ignored. */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const opaque = etag.replace(/^W\//, '');
  return ifNoneMatch
    .split(',')
    .map((tag) => tag.trim())
    .some((tag) => tag === '*' || tag.replace(/^W\//, '') === opaque);
}
