import { describe, expect, it } from 'vitest';
import { isChunkLoadError, RETRY_WINDOW_MS, shouldReload } from './preload-recovery.ts';

describe('preload recovery decision', () => {
  const now = 1_800_000_000_000;

  it('reloads on the first failure', () => {
    expect(shouldReload(null, now)).toBe(true);
  });

  it('does not reload again right after an automatic reload: the error page shows instead', () => {
    expect(shouldReload(now - 1500, now)).toBe(false);
    expect(shouldReload(now - 59_999, now)).toBe(false);
  });

  it('reloads again for a failure a minute or more later (a later deploy)', () => {
    expect(RETRY_WINDOW_MS).toBe(60_000);
    expect(shouldReload(now - 60_000, now)).toBe(true);
  });

  it('treats an unreadable or future marker as stale', () => {
    expect(shouldReload(Number.NaN, now)).toBe(true);
    expect(shouldReload(now + 5000, now)).toBe(true);
  });
});

describe('isChunkLoadError', () => {
  it('recognises the browsers’ failed dynamic import messages', () => {
    for (const message of [
      'Failed to fetch dynamically imported module: https://reshelf.example/assets/HomePage-x.js',
      'error loading dynamically imported module: https://reshelf.example/assets/HomePage-x.js',
      'Importing a module script failed.',
      'Unable to preload CSS for /assets/HomePage-x.css',
    ]) {
      expect(isChunkLoadError(new TypeError(message))).toBe(true);
    }
  });

  it('ignores other errors', () => {
    expect(isChunkLoadError(new Error('Cannot read properties of undefined'))).toBe(false);
    expect(isChunkLoadError('Failed to fetch dynamically imported module')).toBe(false);
  });
});
