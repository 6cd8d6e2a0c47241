/**
 * Waits for a condition that work after an answer makes true: the public cache storing an
 * answer, a database NOTIFY dropping it. It passes as soon as the condition holds; its budget
 * is most of an integration test's 30 s, so a busy machine makes it slower, never red.
 * Where the work itself can be awaited (requestLog.flush(), app.background.settled()), await
 * that instead.
 */
import { vi } from 'vitest';

export const UNTIL_TIMEOUT_MS = 25_000;

export async function until(
  check: () => Promise<boolean> | boolean,
  what: string,
  timeoutMs = UNTIL_TIMEOUT_MS,
): Promise<void> {
  await vi.waitFor(
    async () => {
      if (!(await check())) throw new Error(`still waiting for ${what}`);
    },
    { timeout: timeoutMs, interval: 25 },
  );
}
