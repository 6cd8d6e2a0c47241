/**
 * A counting semaphore with a bounded queue, for work that costs a thread or a lot of memory
 * each (decoding images: decision 0026; hashing passwords: decision 0057).
 */

export interface LimiterStats {
  /** Jobs running now, and waiting now. */
  active: number;
  queued: number;
  /** Since the last reset: the most running at once, jobs started, and callers refused. */
  maxActive: number;
  started: number;
  refused: number;
}

/**
 * A counting semaphore with a bounded queue: `run` starts the work when a slot is free, waits
 * in line (first come, first served) when not, and is refused when the line is full — unless
 * the caller is background work that must wait its turn whatever (it never refuses).
 */
export class WorkLimiter {
  #active = 0;
  #queue: (() => void)[] = [];
  #stats = { maxActive: 0, started: 0, refused: 0 };

  constructor(
    readonly concurrency: number,
    readonly maxQueued: number,
    private readonly busy: () => Error,
  ) {}

  async run<T>(work: () => Promise<T>, options: { background?: boolean } = {}): Promise<T> {
    if (this.#active >= this.concurrency) {
      if (!options.background && this.#queue.length >= this.maxQueued) {
        this.#stats.refused += 1;
        throw this.busy();
      }
      await new Promise<void>((resolve) => this.#queue.push(resolve));
    } else {
      this.#active += 1;
    }
    // Here the slot is ours: either taken above or handed over by the job that finished.
    this.#stats.started += 1;
    this.#stats.maxActive = Math.max(this.#stats.maxActive, this.#active);
    try {
      return await work();
    } finally {
      const next = this.#queue.shift();
      if (next) next();
      else this.#active -= 1;
    }
  }

  stats(): LimiterStats {
    return { active: this.#active, queued: this.#queue.length, ...this.#stats };
  }

  resetStats(): void {
    this.#stats = { maxActive: this.#active, started: 0, refused: 0 };
  }
}
