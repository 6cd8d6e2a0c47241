/**
 * The realtime port (decision 0034, docs/realtime.md): the events of a topic, streamed to this
 * instance's subscribers. The implementation is platform/realtime/hub.ts (LISTEN/NOTIFY).
 */
import type { StoredEvent } from './cursor.ts';

export interface Delivery {
  /** The cursor to resume from once this event has been delivered (tracked()'s id). */
  cursor: string;
  event: StoredEvent;
}

export type StreamEndReason = 'max-duration' | 'overflow' | 'closing';

export interface RealtimeStats {
  subscribers: number;
  /** Subscribers caught up and taking their group's reads. */
  live: number;
  topics: number;
  listening: boolean;
  /** Events waiting in subscribers' queues. */
  queued: number;
  /** Subscribers dropped for not reading. */
  dropped: number;
}

export interface SubscribeOptions {
  topic: string;
  /** A cursor from an earlier stream (already checked with isCursor); null: from now. */
  lastEventId?: string | null;
  signal?: AbortSignal;
}

export interface RealtimeHub {
  /** The events of one topic, from the cursor or from now. The caller checks access first. */
  subscribe(options: SubscribeOptions): AsyncGenerator<Delivery, void, undefined>;
  stats(): RealtimeStats;
  /** Reads every topic again now (as after a lost LISTEN connection); tests use it. */
  refresh(): void;
  /** Ends every stream (their clients reconnect elsewhere) and stops listening. */
  close(): Promise<void>;
}
