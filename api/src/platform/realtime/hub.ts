/**
 * The realtime hub of one BFF instance (decision 0034, docs/realtime.md): one LISTEN connection
 * on `reshelf_realtime`, fanned out in memory to this instance's subscribers.
 *
 * - Subscribers of one topic share a **group**, which reads the topic's new events once per
 *   NOTIFY (coalesced while a read is under way) and hands the read to each of them. So 1,000
 *   open tabs of one topic cost one query per change, not 1,000.
 * - A subscriber that comes back with a cursor (Last-Event-ID) first **catches up** with reads
 *   of its own from that cursor, keeping the group's reads that arrive meanwhile, then goes
 *   live. Nothing is lost and nothing is delivered twice: every read carries its snapshot's
 *   xmin and each subscriber keeps its own cursor (cursor.ts).
 * - After the LISTEN connection is lost and comes back, every group reads again from its
 *   cursor: whatever committed while it was deaf arrives then.
 * - Each subscriber has a bounded queue. A client that does not read (slow, or gone without a
 *   goodbye) fills it; it is then dropped at once, its queue freed, and its stream ended so that
 *   the client reconnects and resumes from the database. Every stream also ends after
 *   `maxConnectionMs` (jittered), so credentials are checked again and connections rebalance
 *   across instances.
 *
 * Reads go through a small limiter, so a burst (a reconnection, a thousand topics in one
 * transaction) never queues more than a few statements on the pool.
 */
import { sql } from 'kysely';
import type { Database, DatabaseHandle } from '../../db/index.ts';
import { Cursor, SEEN_LIMIT, type StoredEvent } from './cursor.ts';
import type { Delivery, RealtimeHub, RealtimeStats, StreamEndReason, SubscribeOptions } from './port.ts';
import { REALTIME_CHANNEL } from './realtime.ts';

export type { Delivery, RealtimeHub, RealtimeStats, StreamEndReason, SubscribeOptions };

/**
 * Why a stream ended on the server's side. Named AbortError, so that tRPC ends the SSE response
 * without its "return" event: the client's EventSource then reconnects with Last-Event-ID.
 */
export class RealtimeStreamEnded extends Error {
  override readonly name = 'AbortError';
  constructor(readonly reason: StreamEndReason) {
    super(`realtime stream ended: ${reason}`);
  }
}

export interface RealtimeHubOptions {
  /** A stream ends after this long (± 10 %), and the client reconnects (5 minutes). */
  maxConnectionMs?: number;
  /** Undelivered events a subscriber may hold before it is dropped (500). */
  queueLimit?: number;
  /** Events per read (500). */
  readLimit?: number;
  /** Reads at once on this instance (3). */
  concurrency?: number;
  /** Before reading again after a failed read, or while a long transaction holds events back. */
  retryMs?: number;
  log?: (message: string, error?: unknown) => void;
}

interface Read {
  events: StoredEvent[];
  xmin: bigint;
  /** False when the read stopped at its limit: more follow. */
  complete: boolean;
}

interface EventRow {
  xmin: string;
  id: string | null;
  txid: string | null;
  topic: string | null;
  kind: string | null;
  entity_id: string | null;
  created_at: Date | null;
}

async function readEvents(db: Database, topic: string, cursor: Cursor, limit: number): Promise<Read> {
  const position = cursor.position;
  const { rows } = await sql<EventRow>`
    with snap as (select pg_snapshot_xmin(pg_current_snapshot()) as xmin)
    select snap.xmin::text as xmin, e.id::text as id, e.txid::text as txid, e.topic, e.kind,
           e.entity_id, e.created_at
    from snap left join lateral (
      select id, txid, topic, kind, entity_id, created_at
      from public.realtime_events
      where topic = ${topic}
        and (txid, id) > (${position.txid}::xid8, ${position.id}::bigint)
        and id <> all(${cursor.seenIds}::bigint[])
      order by txid, id
      limit ${limit}
    ) e on true`.execute(db);
  const events: StoredEvent[] = [];
  for (const row of rows) {
    if (row.id === null) continue;
    events.push({
      id: row.id,
      txid: row.txid as string,
      topic: row.topic as string,
      kind: row.kind as string,
      entityId: row.entity_id,
      createdAt: row.created_at as Date,
    });
  }
  return { events, xmin: BigInt(rows[0]?.xmin ?? '0'), complete: events.length < limit };
}

/** A cursor at "now" for a topic: what is visible already counts as seen. */
async function cursorNow(db: Database, topic: string): Promise<Cursor> {
  const { rows } = await sql<{ xmin: string; id: string | null; txid: string | null }>`
    with snap as (select pg_snapshot_xmin(pg_current_snapshot()) as xmin)
    select snap.xmin::text as xmin, e.id::text as id, e.txid::text as txid
    from snap left join lateral (
      select id, txid from public.realtime_events where topic = ${topic} and txid >= snap.xmin
      order by txid, id limit ${SEEN_LIMIT}
    ) e on true`.execute(db);
  const seen = rows.flatMap((row) => (row.id && row.txid ? [{ id: row.id, txid: row.txid }] : []));
  return Cursor.at(BigInt(rows[0]?.xmin ?? '0'), seen);
}

/** At most `size` tasks at once. */
function createLimiter(size: number) {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async function run<T>(task: () => Promise<T>): Promise<T> {
    if (active >= size) await new Promise<void>((resolve) => waiting.push(resolve));
    active += 1;
    try {
      return await task();
    } finally {
      active -= 1;
      waiting.shift()?.();
    }
  };
}

export function createRealtimeHub(
  database: Pick<DatabaseHandle, 'db' | 'listen'>,
  options: RealtimeHubOptions = {},
): RealtimeHub & { start(): Promise<void> } {
  const db = database.db;
  const maxConnectionMs = options.maxConnectionMs ?? 5 * 60_000;
  const queueLimit = options.queueLimit ?? 500;
  const readLimit = options.readLimit ?? 500;
  const retryMs = options.retryMs ?? 1_000;
  const log = options.log ?? (() => {});
  const limit = createLimiter(options.concurrency ?? 3);
  const groups = new Map<string, Group>();
  const subscribers = new Set<Subscriber>();
  let listening = false;
  let closed = false;
  let dropped = 0;

  class Group {
    cursor: Cursor | undefined;
    readonly members = new Set<Subscriber>();
    readonly ready: Promise<void>;
    private reading = false;
    private again = false;
    private retry: NodeJS.Timeout | undefined;
    closed = false;

    constructor(readonly topic: string) {
      this.ready = this.establish();
    }

    private async establish(): Promise<void> {
      for (let attempt = 0; ; attempt++) {
        try {
          this.cursor = await limit(() => cursorNow(db, this.topic));
          if (this.again) this.poke();
          return;
        } catch (error) {
          if (this.closed) return;
          log(`realtime: cannot read topic ${this.topic} yet`, error);
          await new Promise((resolve) => setTimeout(resolve, Math.min(retryMs * 2 ** attempt, 30_000)));
          if (this.closed) return;
        }
      }
    }

    /** Something new may have committed: read (now, or again after the read under way). */
    poke(): void {
      if (this.closed) return;
      if (!this.cursor || this.reading) {
        this.again = true;
        return;
      }
      this.reading = true;
      void this.drain();
    }

    private async drain(): Promise<void> {
      const cursor = this.cursor as Cursor;
      try {
        do {
          this.again = false;
          const read = await limit(() => readEvents(db, this.topic, cursor, readLimit));
          if (this.closed) return;
          const { held } = cursor.take(read.events, read.xmin, read.complete, { cursors: false });
          for (const member of [...this.members]) member.offer(read);
          if (held) {
            // A long transaction holds xmin back: read again in a moment, not in a loop.
            this.later();
            return;
          }
          if (!read.complete) this.again = true;
        } while (this.again && !this.closed);
      } catch (error) {
        if (this.closed) return;
        log(`realtime: reading topic ${this.topic} failed; trying again`, error);
        this.later();
      } finally {
        this.reading = false;
      }
    }

    private later(): void {
      clearTimeout(this.retry);
      this.retry = setTimeout(() => this.poke(), retryMs);
      this.retry.unref();
    }

    close(): void {
      this.closed = true;
      clearTimeout(this.retry);
    }
  }

  class Subscriber {
    readonly queue: Delivery[] = [];
    ended: RealtimeStreamEnded | null = null;
    /** live: takes the group's reads; catching-up: keeps them for later; behind: ignores them. */
    state: 'live' | 'catching-up' | 'behind' = 'behind';
    private kept: Read[] = [];
    private keptEvents = 0;
    private wake: (() => void) | undefined;
    private timers: NodeJS.Timeout[] = [];

    constructor(
      readonly group: Group,
      private cursor: Cursor | null,
    ) {}

    async start(): Promise<void> {
      const ends = maxConnectionMs * (0.9 + Math.random() * 0.2);
      const timer = setTimeout(() => this.end('max-duration'), ends);
      timer.unref();
      this.timers.push(timer);
      this.group.members.add(this);
      if (this.cursor) {
        // Reads of the group from now on are kept while we catch up on our own.
        await this.catchUp();
        return;
      }
      await this.group.ready;
      if (this.ended) return;
      // From now: the group's position, taken in the same tick as its next reads will be offered.
      this.cursor = (this.group.cursor as Cursor).copy();
      this.state = 'live';
    }

    /** A read of the group. */
    offer(read: Read): void {
      if (this.ended) return;
      if (this.state === 'live') this.take(read);
      else if (this.state === 'catching-up') {
        this.kept.push(read);
        this.keptEvents += read.events.length;
        if (this.keptEvents > queueLimit) this.end('overflow');
      }
    }

    private take(read: Read): void {
      const { deliveries, held } = (this.cursor as Cursor).take(read.events, read.xmin, read.complete);
      if (deliveries.length > 0) {
        this.queue.push(...deliveries);
        if (this.queue.length > queueLimit) {
          this.end('overflow');
          return;
        }
        this.signal();
      }
      if (held) this.fallBehind();
    }

    /** Events were left for later (a long transaction): read them on our own in a moment. */
    private fallBehind(): void {
      this.state = 'behind';
      const timer = setTimeout(() => void this.catchUp(), retryMs);
      timer.unref();
      this.timers.push(timer);
    }

    private async catchUp(): Promise<void> {
      this.state = 'catching-up';
      this.kept = [];
      this.keptEvents = 0;
      await this.group.ready;
      let failures = 0;
      while (!this.ended) {
        // Catching up waits for the client to read: a long backlog never piles up in memory.
        while (!this.ended && this.queue.length >= queueLimit / 2) await this.drained();
        if (this.ended) return;
        let read: Read;
        try {
          read = await limit(() => readEvents(db, this.group.topic, this.cursor as Cursor, readLimit));
        } catch (error) {
          failures += 1;
          log(`realtime: catching up on ${this.group.topic} failed; trying again`, error);
          await new Promise((resolve) => setTimeout(resolve, Math.min(retryMs * 2 ** failures, 30_000)));
          continue;
        }
        if (this.ended) return;
        this.take(read);
        if (this.state !== 'catching-up') return; // held back: behind, another catch-up comes
        if (read.complete) break;
      }
      if (this.ended) return;
      const kept = this.kept;
      this.kept = [];
      this.keptEvents = 0;
      this.state = 'live';
      for (const read of kept) {
        if (this.ended || this.state !== 'live') break;
        this.take(read);
      }
    }

    private drainWaiters: (() => void)[] = [];
    private drained(): Promise<void> {
      return new Promise((resolve) => this.drainWaiters.push(resolve));
    }

    /** The generator took an event. */
    shifted(): void {
      if (this.queue.length < queueLimit / 2) for (const resolve of this.drainWaiters.splice(0)) resolve();
    }

    private signal(): void {
      const wake = this.wake;
      this.wake = undefined;
      wake?.();
    }

    /** Resolves when there is something to deliver, the stream ended, or the client left. */
    changed(signal?: AbortSignal): Promise<void> {
      if (this.queue.length > 0 || this.ended || signal?.aborted) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const onAbort = () => resolve();
        signal?.addEventListener('abort', onAbort, { once: true });
        this.wake = () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        };
      });
    }

    end(reason: StreamEndReason): void {
      if (this.ended) return;
      this.ended = new RealtimeStreamEnded(reason);
      if (reason === 'overflow') {
        dropped += 1;
        this.queue.length = 0;
      }
      this.kept = [];
      this.leave();
      for (const resolve of this.drainWaiters.splice(0)) resolve();
      this.signal();
    }

    /** Out of the group (and the group gone with its last member), timers stopped. */
    leave(): void {
      for (const timer of this.timers) clearTimeout(timer);
      this.timers = [];
      subscribers.delete(this);
      this.group.members.delete(this);
      if (this.group.members.size === 0 && groups.get(this.group.topic) === this.group) {
        groups.delete(this.group.topic);
        this.group.close();
      }
    }
  }

  function onNotify(payload: string): void {
    let topic: unknown;
    try {
      topic = (JSON.parse(payload) as { topic?: unknown }).topic;
    } catch {
      return;
    }
    if (typeof topic === 'string') groups.get(topic)?.poke();
  }

  function refresh(): void {
    for (const group of groups.values()) group.poke();
  }

  let stopListening: (() => Promise<void>) | undefined;
  let retryListen: NodeJS.Timeout | undefined;
  async function listen(): Promise<void> {
    try {
      const stop = await database.listen(REALTIME_CHANNEL, onNotify, () => {
        listening = true;
        // (Re)connected: anything may have committed while no one listened.
        refresh();
      });
      if (closed) await stop();
      else stopListening = stop;
    } catch (error) {
      if (closed) return;
      log('realtime: cannot LISTEN yet (trying again in 5 s)', error);
      retryListen = setTimeout(() => void listen(), 5_000);
      retryListen.unref();
    }
  }

  async function* subscribe(options: SubscribeOptions): AsyncGenerator<Delivery, void, undefined> {
    if (closed) throw new RealtimeStreamEnded('closing');
    const cursor = options.lastEventId ? Cursor.parse(options.lastEventId) : null;
    let group = groups.get(options.topic);
    if (!group) {
      group = new Group(options.topic);
      groups.set(options.topic, group);
    }
    const subscriber = new Subscriber(group, cursor);
    subscribers.add(subscriber);
    const { signal } = options;
    const onAbort = () => subscriber.end('closing');
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      void subscriber.start();
      while (!signal?.aborted) {
        const next = subscriber.queue.shift();
        if (next) {
          subscriber.shifted();
          yield next;
          continue;
        }
        if (subscriber.ended) {
          if (signal?.aborted) return;
          throw subscriber.ended;
        }
        await subscriber.changed(signal);
      }
    } finally {
      signal?.removeEventListener('abort', onAbort);
      if (!subscriber.ended) subscriber.end('closing');
      subscriber.leave();
    }
  }

  return {
    start: listen,
    subscribe,
    refresh,
    stats() {
      let queued = 0;
      let live = 0;
      for (const subscriber of subscribers) {
        queued += subscriber.queue.length;
        if (subscriber.state === 'live') live += 1;
      }
      return { subscribers: subscribers.size, live, topics: groups.size, listening, queued, dropped };
    },
    async close() {
      closed = true;
      clearTimeout(retryListen);
      for (const subscriber of [...subscribers]) subscriber.end('closing');
      await stopListening?.();
      listening = false;
    },
  };
}
