import { describe, expect, it } from 'vitest';

describe('zod-config', () => {
  it('turns off zod’s eval fast path for every schema built after it, without importing zod', async () => {
    const scope = globalThis as { __zod_globalConfig?: Record<string, unknown> };
    const before = { ...scope.__zod_globalConfig };
    delete scope.__zod_globalConfig?.jitless;
    await import('./zod-config.ts');
    const { z } = await import('zod');
    expect(z.config().jitless).toBe(true);
    // And a schema built now parses without it (no CSP probe; the answer is the same).
    expect(z.object({ a: z.number() }).parse({ a: 1, b: 2 })).toEqual({ a: 1 });
    Object.assign(scope.__zod_globalConfig ?? {}, before);
  });
});
