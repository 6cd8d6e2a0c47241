/**
 * Publishing realtime events (decision 0034, docs/realtime.md). A feature calls `publish` on the
 * transaction of the change the event is about: the event exists exactly when the change
 * committed, every BFF instance hears of it then (a NOTIFY from the insert), and a client that
 * was away gets it when it reconnects. An event carries ids only; whoever receives it reads the
 * thing itself, with the reader's own access checks.
 */
import { z } from 'zod';
import type { Database } from '../../db/index.ts';

/** The channel the events table's trigger NOTIFYs: `{"topic": "...", "id": <largest new id>}`. */
export const REALTIME_CHANNEL = 'reshelf_realtime';

/** One member's own topic: everything addressed to them (notifications, messages, offers…). */
export function userTopic(userId: string): string {
  return `user:${userId}`;
}

export const topicSchema = z
  .string()
  .regex(/^[a-z][a-z_]{0,30}:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, 'not a topic');

/** What happened, `feature.what` (e.g. `notification.created`, `message.sent`). */
export const eventKindSchema = z
  .string()
  .max(64)
  .regex(/^[a-z][a-z_]*(\.[a-z][a-z_]*)*$/, 'not an event kind');

export interface PublishedEvent {
  /** One topic or several (e.g. every member of a charity's team). */
  topic: string | string[];
  kind: string;
  /** The thing it is about (a notification, a thread, an order…), read by the receiver. */
  entityId?: string | null;
}

/**
 * Records events on the caller's transaction. Call it inside the transaction of the change;
 * without one the events stand alone (and are as durable).
 */
export async function publish(trx: Database, events: PublishedEvent | PublishedEvent[]): Promise<void> {
  const rows = (Array.isArray(events) ? events : [events]).flatMap((event) => {
    const kind = eventKindSchema.parse(event.kind);
    const topics = Array.isArray(event.topic) ? event.topic : [event.topic];
    return [...new Set(topics)].map((topic) => ({
      topic: topicSchema.parse(topic),
      kind,
      entity_id: event.entityId ?? null,
    }));
  });
  if (rows.length === 0) return;
  await trx.insertInto('realtime_events').values(rows).execute();
}

/** How long events are kept for clients to resume from (the notifications themselves stay). */
export const REALTIME_EVENTS_KEPT_DAYS = 7;

/** The prune job: events older than the retention, at most `limit` a run. */
export async function pruneRealtimeEvents(db: Database, limit = 10_000): Promise<number> {
  const cutoff = new Date(Date.now() - REALTIME_EVENTS_KEPT_DAYS * 24 * 60 * 60 * 1000);
  const result = await db
    .deleteFrom('realtime_events')
    .where(
      'id',
      'in',
      db
        .selectFrom('realtime_events')
        .select('id')
        .where('created_at', '<', cutoff)
        .orderBy('created_at')
        .limit(limit),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
