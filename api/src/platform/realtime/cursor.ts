/**
 * Where a subscriber stands in its topic's events: the id `tracked()` gives every event, which
 * a reconnecting client sends back (Last-Event-ID) so that it gets exactly what it missed.
 *
 * Event ids come from a sequence, but transactions commit in any order: one may take id 10,
 * another id 11 and commit first. So a cursor is not "the last id seen". Every event row keeps
 * its transaction's id (`txid`, xid8), and every read of events also reads the snapshot's xmin:
 * every transaction older than xmin has finished, so every event it wrote is visible in that
 * read, and an event written later always has a txid at or above it. A cursor is:
 *
 *   (txid, id)  every event ordered at or before this position, by (txid, id), has been seen;
 *   seen        the ids of events seen beyond it (from transactions that had not all finished).
 *
 * Written `txid:id`, or `txid:id:txid.id,txid.id` with what was seen beyond it, e.g. `7421:0`
 * or `7421:0:7423.88`. `seen` stays small: an event
 * leaves it as soon as a read's xmin passes its transaction; while a long transaction holds
 * xmin back, at most SEEN_LIMIT unsettled events are delivered and the rest wait for it.
 */

/** An event as read for a subscriber (ids as decimal strings: they are bigints). */
export interface StoredEvent {
  id: string;
  txid: string;
  topic: string;
  kind: string;
  entityId: string | null;
  createdAt: Date;
}

/** At most this many unsettled events beyond the position (the cursor's length stays bounded). */
export const SEEN_LIMIT = 100;

const DIGITS = /^\d{1,20}$/;
const MAX_BIGINT_64 = 2n ** 64n - 1n;

export class CursorError extends Error {}

function parseNumber(text: string): bigint {
  if (!DIGITS.test(text)) throw new CursorError('not a number');
  const value = BigInt(text);
  if (value > MAX_BIGINT_64) throw new CursorError('out of range');
  return value;
}

export class Cursor {
  private constructor(
    /** The position: every event at or before (txid, id) has been seen. */
    private txid: bigint,
    private id: bigint,
    /** Events seen beyond the position: id → txid. */
    private readonly seen: Map<string, bigint>,
  ) {}

  /** A cursor at "now": every event visible in a read with this xmin, and these ids, seen. */
  static at(xmin: bigint, seen: { id: string; txid: string }[] = []): Cursor {
    return new Cursor(xmin, 0n, new Map(seen.map((event) => [event.id, BigInt(event.txid)])));
  }

  /** A cursor a client sent back; throws CursorError when it is not one of ours. */
  static parse(text: string): Cursor {
    if (text.length > 4096) throw new CursorError('too long');
    const parts = text.split(':');
    if (parts.length < 2 || parts.length > 3) throw new CursorError('malformed');
    const txid = parseNumber(parts[0] ?? '');
    const id = parseNumber(parts[1] ?? '');
    const seen = new Map<string, bigint>();
    if (parts.length === 3) {
      const pairs = (parts[2] ?? '').split(',');
      if (pairs.length > SEEN_LIMIT) throw new CursorError('too many ids');
      for (const pair of pairs) {
        const [seenTxid, seenId, ...rest] = pair.split('.');
        if (rest.length > 0) throw new CursorError('malformed');
        seen.set(String(parseNumber(seenId ?? '')), parseNumber(seenTxid ?? ''));
      }
    }
    return new Cursor(txid, id, seen);
  }

  copy(): Cursor {
    return new Cursor(this.txid, this.id, new Map(this.seen));
  }

  toString(): string {
    const head = `${this.txid}:${this.id}`;
    if (this.seen.size === 0) return head;
    const pairs = [...this.seen.entries()]
      .sort(([a], [b]) => (BigInt(a) < BigInt(b) ? -1 : 1))
      .map(([id, txid]) => `${txid}.${id}`);
    return `${head}:${pairs.join(',')}`;
  }

  /** The position, for the next read: events after it by (txid, id). */
  get position(): { txid: string; id: string } {
    return { txid: String(this.txid), id: String(this.id) };
  }

  /** Ids seen beyond the position, for the next read (`id <> all(this)`). */
  get seenIds(): string[] {
    return [...this.seen.keys()];
  }

  get seenCount(): number {
    return this.seen.size;
  }

  /** Whether this event has been seen. */
  covers(event: { id: string; txid: string }): boolean {
    const txid = BigInt(event.txid);
    if (txid < this.txid) return true;
    if (txid === this.txid && BigInt(event.id) <= this.id) return true;
    return this.seen.has(event.id);
  }

  /** Moves the position forwards to (txid, id) (never back) and forgets ids it now covers. */
  private advance(txid: bigint, id: bigint): void {
    if (txid < this.txid || (txid === this.txid && id <= this.id)) return;
    this.txid = txid;
    this.id = id;
    for (const [seenId, seenTxid] of this.seen) {
      if (seenTxid < txid || (seenTxid === txid && BigInt(seenId) <= id)) this.seen.delete(seenId);
    }
  }

  /**
   * Takes one read's events (ordered by txid, then id) and the xmin of its snapshot. Answers
   * the events not seen yet, each with the cursor to resume from once it has been delivered,
   * and leaves this cursor after all of them. `complete` is false when the read stopped at its
   * limit (more may follow). `held` says unsettled events were left for a later read because
   * `seen` is full. (The hub's own group cursor passes no limit and wants no cursor strings.)
   */
  take(
    events: readonly StoredEvent[],
    xmin: bigint,
    complete: boolean,
    options: { seenLimit?: number; cursors?: boolean } = {},
  ): { deliveries: { cursor: string; event: StoredEvent }[]; held: boolean } {
    const seenLimit = options.seenLimit ?? SEEN_LIMIT;
    const fresh = events.filter((event) => !this.covers(event));
    const deliveries: { cursor: string; event: StoredEvent }[] = [];
    let held = false;
    for (const [index, event] of fresh.entries()) {
      const txid = BigInt(event.txid);
      const settled = txid < xmin;
      if (settled) {
        // Its transaction and every older one have finished: all their events were in this
        // read, in order, so the position may move to this very event.
        this.advance(txid, BigInt(event.id));
      } else {
        // Settled events sort first, so from here on all of them have been taken.
        if (this.seen.size >= seenLimit) {
          held = true;
          break;
        }
        this.advance(xmin, 0n);
        this.seen.set(event.id, txid);
      }
      if (index === fresh.length - 1 && complete) this.advance(xmin, 0n);
      deliveries.push({ cursor: options.cursors === false ? '' : this.toString(), event });
    }
    if (complete && !held) this.advance(xmin, 0n);
    return { deliveries, held };
  }
}
