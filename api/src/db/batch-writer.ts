/**
 * Rows written later, many at a time (the request log, listing views): items wait in memory and
 * go to the database in batches, every `flushEveryMs` or as soon as a batch is full. A write
 * that fails because the database is away or too busy keeps its items (within `maxWaiting`) for
 * the next flush and says so once, not on every flush; any other failure drops that batch and
 * says how many. Beyond `maxWaiting` the oldest items are dropped: a backlog never grows without
 * bound and never holds up the request that made it. Those drops are counted and said once per
 * write, with the count: a push stays a few operations however full the backlog (under a load
 * the database cannot keep up with, a report with an error's stack on every push cost more
 * than the request it recorded).
 *
 * flush() resolves once everything pushed before the call is written (or dropped); stop() ends
 * the timer and writes what waits, and after it nothing more is kept.
 */
import { infrastructureFailure } from '../errors.ts';

export interface BatchWriter<T> {
  /** Keeps an item for the next write; false after stop(). */
  push(item: T): boolean;
  flush(): Promise<void>;
  stop(): Promise<void>;
  readonly waiting: number;
  readonly stopped: boolean;
}

export function createBatchWriter<T>(options: {
  insert: (batch: T[]) => Promise<void>;
  batchSize: number;
  maxWaiting: number;
  flushEveryMs?: number;
  /** A write failed or a backlog overflowed: `dropped` items were given up. */
  onError?: (error: unknown, dropped: number) => void;
  /** Says why a push dropped the oldest item (a full backlog); unreported when absent. */
  overflowError?: string;
  /** An item leaves the buffer: written, given up or dropped. */
  onLeave?: (item: T) => void;
}): BatchWriter<T> {
  const { insert, batchSize, maxWaiting, onError, onLeave } = options;
  let waiting: T[] = [];
  let writing: Promise<void> = Promise.resolve();
  let stopped = false;
  /** The last flush found the database away: said once, not every flush. */
  let deferred = false;
  /** Items a push dropped (the backlog full) since this was last said. */
  let overflowed = 0;
  /** A write queued behind the one under way, not started yet: it will take every item pushed. */
  let queued: Promise<void> | undefined;
  const leave = (items: T[]) => {
    if (onLeave) for (const item of items) onLeave(item);
  };

  const write = async () => {
    queued = undefined;
    if (overflowed > 0) {
      onError?.(new Error(options.overflowError), overflowed);
      overflowed = 0;
    }
    while (waiting.length > 0) {
      const batch = waiting.slice(0, batchSize);
      waiting = waiting.slice(batch.length);
      try {
        await insert(batch);
        leave(batch);
      } catch (error) {
        if (infrastructureFailure(error) && !stopped) {
          // Keep the items (within the bound) for the next flush rather than lose them, and
          // stop trying until then.
          waiting = [...batch, ...waiting];
          const dropped = Math.max(0, waiting.length - maxWaiting);
          if (dropped) {
            leave(waiting.slice(0, dropped));
            waiting = waiting.slice(dropped);
          }
          if (!deferred) onError?.(error, dropped);
          deferred = true;
          return;
        }
        leave(batch);
        onError?.(error, batch.length);
      }
      deferred = false;
    }
  };
  const writeNow = () => {
    queued ??= writing = writing.then(write);
    return queued;
  };
  const timer = setInterval(() => void writeNow(), options.flushEveryMs ?? 2000);
  timer.unref();

  return {
    push(item) {
      if (stopped) return false;
      waiting.push(item);
      if (waiting.length > maxWaiting) {
        // One over the bound (the backlog was full): the oldest goes, without copying the rest.
        const oldest = waiting.shift() as T;
        onLeave?.(oldest);
        if (options.overflowError) overflowed += 1;
      }
      if (waiting.length >= batchSize && !queued) void writeNow();
      return true;
    },
    flush: writeNow,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await writeNow();
    },
    get waiting() {
      return waiting.length;
    },
    get stopped() {
      return stopped;
    },
  };
}
