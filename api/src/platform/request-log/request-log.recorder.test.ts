import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import type { Database } from '../../db/index.ts';
import { createRequestLogRecorder } from './request-log.recorder.ts';

/** What the recorder reads of an answer: its 'close' and whether it finished or was cut off. */
function answer() {
  return Object.assign(new EventEmitter(), { writableFinished: false, destroyed: false });
}
const asResponse = (fake: ReturnType<typeof answer>) => fake as unknown as ServerResponse;
const settled = async (promise: Promise<unknown>) => {
  let done = false;
  void promise.then(() => {
    done = true;
  });
  await new Promise((resolve) => setImmediate(resolve));
  return done;
};

describe('the request log recorder', () => {
  // No line is recorded here, so nothing is written: the database is never asked.
  const recorder = () => createRequestLogRecorder({} as Database, { flushEveryMs: 60_000 });

  it('flush() waits for an announced answer until it is cut off, and keeps nothing of it after', async () => {
    const log = recorder();
    const cutOff = answer();
    log.answering(asResponse(cutOff));
    expect(cutOff.listenerCount('close')).toBe(1);
    const flushed = log.flush();
    expect(await settled(flushed)).toBe(false);
    cutOff.emit('close');
    expect(await settled(flushed)).toBe(true);
    // Announced again after it settled (a second onSend): a new entry, settled the same way.
    const finished = answer();
    log.answering(asResponse(finished));
    log.answering(asResponse(finished));
    expect(finished.listenerCount('close')).toBe(1);
    const again = log.flush();
    finished.writableFinished = true;
    finished.emit('close');
    // Finished: its line may follow a few callbacks later, so flush() waits for those first.
    expect(await settled(again)).toBe(true);
    expect(await settled(log.flush())).toBe(true);
    await log.stop();
  });

  it('an answer already gone is not waited for, and stop() lets every announced answer go', async () => {
    const log = recorder();
    const gone = Object.assign(answer(), { destroyed: true });
    log.answering(asResponse(gone));
    expect(gone.listenerCount('close')).toBe(0);
    expect(await settled(log.flush())).toBe(true);
    log.answering(asResponse(answer()));
    await log.stop();
    expect(await settled(log.flush())).toBe(true);
  });
});
