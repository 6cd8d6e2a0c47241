import { describe, expect, it } from 'vitest';
import { waiting } from './waiting.ts';

const NOW = Date.parse('2026-11-28T12:00:00Z');
const ago = (ms: number) => new Date(NOW - ms).toISOString();

describe('waiting', () => {
  it('says minutes under an hour, hours under two days, then days', () => {
    expect(waiting(ago(0), NOW)).toBe('waiting 0 min');
    expect(waiting(ago(59 * 60_000), NOW)).toBe('waiting 59 min');
    expect(waiting(ago(3 * 3_600_000 + 59 * 60_000), NOW)).toBe('waiting 3 h');
    expect(waiting(ago(47 * 3_600_000), NOW)).toBe('waiting 47 h');
    expect(waiting(ago(5 * 86_400_000), NOW)).toBe('waiting 5 days');
  });

  it('never says a negative wait (a clock a little ahead)', () => {
    expect(waiting(new Date(NOW + 5_000).toISOString(), NOW)).toBe('waiting 0 min');
  });
});
