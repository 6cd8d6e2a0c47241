/**
 * Work a request starts and leaves running after its answer (a covers backfill's lookups).
 * Each piece is tracked until it settles, so that a test can wait for exactly that work to be
 * done (`app.background.settled()`) instead of polling with a time budget. The work records its
 * own failures; a rejection here is only kept from going unhandled.
 */
declare module 'fastify' {
  interface FastifyInstance {
    /** Work left running after answers; tests await settled(). */
    background: BackgroundWork;
  }
}

export interface BackgroundWork {
  /** Keeps track of work that goes on after the answer. */
  track(work: Promise<unknown>): void;
  /** Resolves once every piece of work tracked so far, and any it tracked meanwhile, has settled. */
  settled(): Promise<void>;
  /** How many pieces are still running. */
  readonly running: number;
}

export function createBackgroundWork(): BackgroundWork {
  const running = new Set<Promise<unknown>>();
  return {
    track(work) {
      const tracked = work.then(
        () => undefined,
        () => undefined,
      );
      running.add(tracked);
      void tracked.then(() => running.delete(tracked));
    },
    async settled() {
      while (running.size > 0) await Promise.all([...running]);
    },
    get running() {
      return running.size;
    },
  };
}
