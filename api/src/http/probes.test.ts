import { describe, expect, it } from 'vitest';
import { SLOW_REQUEST_MS } from '../platform/request-log/request-log.recorder.ts';
import { PROBE_LOG_EVERY_MS, probeLogLevels } from './probes.ts';

describe("a probe's log level (decision 0070)", () => {
  it('info for the first good answer of each path in a minute, debug for the rest', () => {
    let now = 1_000_000;
    const level = probeLogLevels(PROBE_LOG_EVERY_MS, () => now);
    expect(level('/healthz', 200, 1)).toBe('info');
    expect(level('/healthz', 200, 1)).toBe('debug');
    expect(level('/readyz', 200, 1)).toBe('info');
    now += PROBE_LOG_EVERY_MS - 1;
    expect(level('/healthz', 200, 1)).toBe('debug');
    now += 1;
    expect(level('/healthz', 200, 1)).toBe('info');
    expect(level('/healthz', 200, 1)).toBe('debug');
  });

  it('info, always, for a failed or slow answer', () => {
    const level = probeLogLevels(PROBE_LOG_EVERY_MS, () => 0);
    expect(level('/readyz', 200, 1)).toBe('info');
    expect(level('/readyz', 503, 1)).toBe('info');
    expect(level('/readyz', 503, 1)).toBe('info');
    expect(level('/healthz', 200, 1)).toBe('info');
    expect(level('/healthz', 200, SLOW_REQUEST_MS)).toBe('info');
    expect(level('/healthz', 200, 1)).toBe('debug');
  });
});
