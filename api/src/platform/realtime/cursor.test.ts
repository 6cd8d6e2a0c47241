import { describe, expect, it } from 'vitest';
import { Cursor, CursorError, SEEN_LIMIT, type StoredEvent } from './cursor.ts';

function event(id: number, txid: number): StoredEvent {
  return {
    id: String(id),
    txid: String(txid),
    topic: 'user:00000000-0000-4000-8000-000000000001',
    kind: 'test.event',
    entityId: null,
    createdAt: new Date(0),
  };
}

const ids = (deliveries: { event: StoredEvent }[]) => deliveries.map((d) => Number(d.event.id));

describe('realtime cursor', () => {
  it('delivers a read once, and resumes after any event without loss or repeat', () => {
    const cursor = Cursor.at(100n);
    // Two transactions finished (txid 100, 101); xmin has passed both.
    const read = [event(1, 100), event(2, 100), event(3, 101)];
    const { deliveries } = cursor.take(read, 102n, true);
    expect(ids(deliveries)).toEqual([1, 2, 3]);
    expect(ids(cursor.take(read, 102n, true).deliveries)).toEqual([]);
    // Resuming from each delivery's cursor yields exactly the events after it.
    for (const [index, delivery] of deliveries.entries()) {
      const resumed = Cursor.parse(delivery.cursor);
      expect(ids(resumed.take(read, 102n, true).deliveries)).toEqual(ids(deliveries.slice(index + 1)));
    }
    expect(cursor.toString()).toBe('102:0');
  });

  it('does not skip an event whose transaction commits after a later id (ids are not commit order)', () => {
    const cursor = Cursor.at(100n);
    // Transaction 100 took id 10 and is still open (xmin 100); transaction 101 took id 11 and committed.
    const first = cursor.take([event(11, 101)], 100n, true);
    expect(ids(first.deliveries)).toEqual([11]);
    const resumeAfter11 = first.deliveries[0]!.cursor;
    expect(resumeAfter11).toBe('100:0:101.11');
    // Transaction 100 commits: id 10 is new, id 11 is not delivered again.
    const second = cursor.take([event(10, 100), event(11, 101)], 102n, true);
    expect(ids(second.deliveries)).toEqual([10]);
    expect(cursor.toString()).toBe('102:0');
    // A client that left right after 11 still gets 10, and only 10.
    expect(
      ids(Cursor.parse(resumeAfter11).take([event(10, 100), event(11, 101)], 102n, true).deliveries),
    ).toEqual([10]);
  });

  it('stops at a read cut short by its limit, and carries on from there', () => {
    const cursor = Cursor.at(1n);
    const first = cursor.take([event(1, 5), event(2, 6)], 50n, false);
    expect(ids(first.deliveries)).toEqual([1, 2]);
    expect(cursor.toString()).toBe('6:2');
    expect(ids(cursor.take([event(3, 7)], 50n, true).deliveries)).toEqual([3]);
    expect(cursor.toString()).toBe('50:0');
  });

  it('holds unsettled events back once it remembers SEEN_LIMIT of them', () => {
    const cursor = Cursor.at(10n);
    const many = Array.from({ length: SEEN_LIMIT + 5 }, (_, i) => event(i + 1, 10 + i));
    const { deliveries, held } = cursor.take(many, 10n, true);
    expect(held).toBe(true);
    expect(deliveries).toHaveLength(SEEN_LIMIT);
    // Once their transactions have finished the rest arrive, and the cursor is short again.
    const later = cursor.take(many, 1000n, true);
    expect(ids(later.deliveries)).toEqual(ids(many.slice(SEEN_LIMIT).map((e) => ({ event: e }))));
    expect(cursor.toString()).toBe('1000:0');
  });

  it('refuses what it did not write', () => {
    for (const text of [
      '',
      '12',
      'a:b',
      '1:2:3',
      '1:2:3.4.5',
      '-1:0',
      `${2n ** 64n}:0`,
      `1:0:${'1.1,'.repeat(200)}1.1`,
    ]) {
      expect(() => Cursor.parse(text), text).toThrow(CursorError);
    }
    expect(Cursor.parse('7421:3:7422.9').toString()).toBe('7421:3:7422.9');
  });
});
