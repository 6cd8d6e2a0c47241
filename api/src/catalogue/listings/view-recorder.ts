/**
 * Listing views, counted without slowing the catalogue: the listing page's call
 * answers at once, the view waits in memory and is written with others in one insert every
 * couple of seconds (or sooner once many wait), one array per column (`insert … select from
 * unnest(…)`), as the request log does. Bots and crawlers are not counted. One view per member
 * (or, signed out, per visitor: a salted hash of address and browser) per listing per day: the
 * table's key, and the same key is skipped while it still waits here.
 *
 * flush() writes everything recorded before the call (tests read the table after it; shutdown
 * calls stop()). While the database is away, views wait for a later flush within a bound; the
 * oldest are dropped beyond it, never the page.
 */
import { sql } from 'kysely';
import { createBatchWriter } from '../../db/batch-writer.ts';
import type { Database } from '../../db/index.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The buffered listing views: the listing page records into it, tests flush it. */
    listingViews: ViewRecorder;
  }
}

export interface ListingView {
  listingId: string;
  /** The member or visitor key (32 characters, no personal data). */
  viewerKey: string;
  /** The signed-in member, whose recommendations follow what they view. */
  viewerId: string | null;
  at: Date;
}

export interface ViewRecorder {
  /** Keeps a view for the next write; false when it was not counted (a bot, or already waiting). */
  record(view: ListingView, userAgent: string | undefined): boolean;
  /** Writes every view recorded so far. */
  flush(): Promise<void>;
  /** Stops the timer and writes what waits. */
  stop(): Promise<void>;
  /** How many views wait. */
  readonly waiting: number;
}

/**
 * Crawlers, link previews, monitors and scripts: not readers. A missing user agent counts as a
 * script. Headless browsers are readers' tools too (and the test suite's), so they count.
 */
const BOT =
  /bot\b|bot\/|crawl|spider|slurp|scrap|preview|facebookexternalhit|embedly|pingdom|uptime|monitor|lighthouse|pagespeed|curl\/|wget\/|python-requests|python-urllib|go-http-client|java\/|okhttp|axios\/|node-fetch|httpclient|libwww|feedfetcher|mediapartners|bingpreview|ia_archiver|semrush|ahrefs|mj12|yandex|baiduspider|duckduckbot|petalbot|bytespider|gptbot|ccbot|claudebot/i;

export function isBot(userAgent: string | undefined): boolean {
  if (!userAgent || userAgent.trim().length < 3) return true;
  return BOT.test(userAgent);
}

/** The day a view counts for, as the table's default (current_date) would give it. */
function dayOf(at: Date): string {
  return at.toISOString().slice(0, 10);
}

async function insertViews(db: Database, batch: ListingView[]): Promise<void> {
  const listings: string[] = [];
  const keys: string[] = [];
  const viewers: (string | null)[] = [];
  const at: string[] = [];
  const days: string[] = [];
  for (const view of batch) {
    listings.push(view.listingId);
    keys.push(view.viewerKey);
    viewers.push(view.viewerId);
    at.push(view.at.toISOString());
    days.push(dayOf(view.at));
  }
  // Drafts are not viewed; a listing or member gone meanwhile is skipped, not a failed batch.
  await sql`
    insert into public.listing_views (listing_id, viewed_on, viewer_key, viewed_at, viewer_id)
    select v.listing_id, v.day, v.viewer_key, v.at,
           (select u.id from auth.users u where u.id = v.viewer_id)
      from unnest(${listings}::uuid[], ${days}::date[], ${keys}::text[], ${at}::timestamptz[],
                  ${viewers}::uuid[]) as v(listing_id, day, viewer_key, at, viewer_id)
      join public.listings l on l.id = v.listing_id and l.status <> 'draft'
    on conflict do nothing`.execute(db);
}

export function createViewRecorder(
  db: Database,
  options: {
    flushEveryMs?: number;
    batchSize?: number;
    maxWaiting?: number;
    onError?: (error: unknown, dropped: number) => void;
  } = {},
): ViewRecorder {
  /** listing|viewer|day of each waiting view: the same view again is not kept twice. */
  const keys = new Set<string>();
  const keyOf = (view: ListingView) => `${view.listingId}|${view.viewerKey}|${dayOf(view.at)}`;
  const buffer = createBatchWriter<ListingView>({
    insert: (batch) => insertViews(db, batch),
    batchSize: options.batchSize ?? 500,
    maxWaiting: options.maxWaiting ?? 20_000,
    flushEveryMs: options.flushEveryMs,
    onError: options.onError,
    onLeave: (view) => keys.delete(keyOf(view)),
  });

  return {
    record(view, userAgent) {
      if (buffer.stopped || isBot(userAgent)) return false;
      const key = keyOf(view);
      if (keys.has(key)) return false;
      keys.add(key);
      return buffer.push(view);
    },
    flush: buffer.flush,
    stop: buffer.stop,
    get waiting() {
      return buffer.waiting;
    },
  };
}
