import { describe, expect, it } from 'vitest';
import { backoffDelay } from './backoff.ts';

describe('reconnect backoff', () => {
  const options = { baseMs: 100, capMs: 1_000 };

  it('doubles with each failure, up to the cap', () => {
    const top = (attempt: number) => backoffDelay(attempt, options, () => 1);
    expect([0, 1, 2, 3, 4, 5, 50].map(top)).toEqual([100, 200, 400, 800, 1_000, 1_000, 1_000]);
  });

  it('draws each delay from the upper half of its range, so instances spread out', () => {
    expect(backoffDelay(0, options, () => 0)).toBe(50);
    expect(backoffDelay(3, options, () => 0)).toBe(400);
    expect(backoffDelay(10, options, () => 0)).toBe(500);
    const draws = new Set(Array.from({ length: 50 }, () => backoffDelay(2, options)));
    expect(draws.size).toBeGreaterThan(5);
    for (const delay of draws) {
      expect(delay).toBeGreaterThanOrEqual(200);
      expect(delay).toBeLessThanOrEqual(400);
    }
  });
});
