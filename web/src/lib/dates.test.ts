import { describe, expect, it } from 'vitest';
import { formatDay, formatTime, formatWhen, timeLeft } from './dates.ts';

describe('formatWhen and formatDay', () => {
  it('show UK time: GMT in winter, BST in summer', () => {
    expect(formatWhen('2026-11-21T14:05:00Z')).toBe('Sat 21 Nov, 14:05');
    expect(formatWhen('2026-07-01T14:05:00Z')).toBe('Wed 1 Jul, 15:05');
    expect(formatDay('2026-03-28T23:30:00Z')).toBe('Sat 28 Mar 2026');
    // 23:30 UTC on 29 March is 00:30 on the 30th in London once the clocks have gone forward.
    expect(formatDay('2026-03-29T23:30:00Z')).toBe('Mon 30 Mar 2026');
    // A book held while its buyer pays: the time alone.
    expect(formatTime('2026-11-21T14:05:00Z')).toBe('14:05');
    expect(formatTime('2026-07-01T14:05:00Z')).toBe('15:05');
  });
});

describe('timeLeft', () => {
  const now = Date.parse('2026-11-21T12:00:00Z');
  const at = (ms: number) => new Date(now + ms).toISOString();
  it('says days from two days, then hours, then minutes', () => {
    expect(timeLeft(at(48 * 3600_000), now)).toBe('2 days');
    expect(timeLeft(at(47 * 3600_000 + 59 * 60_000), now)).toBe('47 hours');
    expect(timeLeft(at(3600_000), now)).toBe('1 hour');
    expect(timeLeft(at(59 * 60_000 + 59_000), now)).toBe('59 minutes');
    expect(timeLeft(at(60_000), now)).toBe('1 minute');
    expect(timeLeft(at(30_000), now)).toBe('under a minute');
  });
  it('is null once the deadline has passed', () => {
    expect(timeLeft(at(0), now)).toBeNull();
    expect(timeLeft(at(-1000), now)).toBeNull();
  });
});
