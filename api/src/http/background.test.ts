import { describe, expect, it } from 'vitest';
import { createBackgroundWork } from './background.ts';

function deferred() {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('background work', () => {
  it('settles once every tracked piece has, including pieces tracked meanwhile', async () => {
    const work = createBackgroundWork();
    const first = deferred();
    const second = deferred();
    work.track(first.promise);
    let done = false;
    const settled = work.settled().then(() => {
      done = true;
    });
    expect(work.running).toBe(1);
    work.track(second.promise);
    first.resolve();
    await first.promise;
    await new Promise((resolve) => setImmediate(resolve));
    expect(done).toBe(false); // the second is still running
    second.reject(new Error('recorded by the work itself'));
    await settled;
    expect(work.running).toBe(0);
  });

  it('settles at once with nothing running', async () => {
    await createBackgroundWork().settled();
  });
});
