import { describe, expect, it } from 'vitest';
import { createBatchWriter } from './batch-writer.ts';

const away = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });

describe('the batch writer', () => {
  it('writes in batches of at most batchSize, in order, and lets each item go once written', async () => {
    const written: number[][] = [];
    const left: number[] = [];
    const writer = createBatchWriter<number>({
      insert: async (batch) => {
        written.push(batch);
      },
      batchSize: 3,
      maxWaiting: 100,
      flushEveryMs: 60_000,
      onLeave: (item) => left.push(item),
    });
    for (let i = 1; i <= 7; i += 1) writer.push(i);
    await writer.flush();
    expect(written).toEqual([[1, 2, 3], [4, 5, 6], [7]]);
    expect(left).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(writer.waiting).toBe(0);
    await writer.stop();
    expect(writer.push(8)).toBe(false);
  });

  it('keeps items while the database is away, says so once, and writes them when it is back', async () => {
    let up = false;
    const written: number[] = [];
    const errors: [unknown, number][] = [];
    const writer = createBatchWriter<number>({
      insert: async (batch) => {
        if (!up) throw away();
        written.push(...batch);
      },
      batchSize: 2,
      maxWaiting: 3,
      flushEveryMs: 60_000,
      onError: (error, dropped) => errors.push([error, dropped]),
    });
    writer.push(1);
    await writer.flush();
    writer.push(2);
    writer.push(3);
    writer.push(4);
    await writer.flush();
    // Said once; beyond the bound of 3 the oldest (1) was given up.
    expect(errors).toHaveLength(1);
    expect(writer.waiting).toBe(3);
    up = true;
    await writer.flush();
    expect(written).toEqual([2, 3, 4]);
    await writer.stop();
  });

  it('gives up a batch that fails for another reason, and says how many', async () => {
    const errors: number[] = [];
    const left: string[] = [];
    const writer = createBatchWriter<string>({
      insert: async (batch) => {
        if (batch.includes('bad')) throw new Error('invalid input syntax');
      },
      batchSize: 2,
      maxWaiting: 10,
      flushEveryMs: 60_000,
      onError: (_error, dropped) => errors.push(dropped),
      onLeave: (item) => left.push(item),
    });
    for (const item of ['a', 'bad', 'c']) writer.push(item);
    await writer.stop();
    expect(errors).toEqual([2]);
    expect(left).toEqual(['a', 'bad', 'c']);
  });

  it('drops the oldest beyond the bound on push, and says so once per write, with the count, when told why', async () => {
    const errors: [string, number][] = [];
    const left: number[] = [];
    const inserts: number[][] = [];
    const writer = createBatchWriter<number>({
      insert: async (batch) => {
        inserts.push(batch);
      },
      batchSize: 2,
      maxWaiting: 3,
      flushEveryMs: 60_000,
      overflowError: 'backlog full',
      onError: (error, dropped) => errors.push([(error as Error).message, dropped]),
      onLeave: (item) => left.push(item),
    });
    // A burst faster than any write: the newest 3 wait, the 997 before them are dropped.
    for (let i = 1; i <= 1000; i += 1) writer.push(i);
    expect(writer.waiting).toBe(3);
    expect(left).toHaveLength(997);
    // Not a report per push (each with an error's stack): one, with the count, as it writes.
    expect(errors).toEqual([]);
    await writer.flush();
    expect(errors).toEqual([['backlog full', 997]]);
    expect(inserts).toEqual([[998, 999], [1000]]);
    await writer.stop();
    // Without a reason to give, drops are not reported.
    const quiet: unknown[] = [];
    const silent = createBatchWriter<number>({
      insert: async () => {},
      batchSize: 100,
      maxWaiting: 2,
      flushEveryMs: 60_000,
      onError: (error) => quiet.push(error),
    });
    for (let i = 1; i <= 5; i += 1) silent.push(i);
    expect(silent.waiting).toBe(2);
    await silent.stop();
    expect(quiet).toEqual([]);
  });
});
