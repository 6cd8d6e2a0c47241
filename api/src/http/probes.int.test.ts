/**
 * The health probes take the shortest path a route of the app has: no access check (public,
 * declared only), no compression hooks, one onSend and one onResponse (the app's own, plain
 * callbacks); and still answer with what every other answer carries: the request id, the
 * security headers with no-store, CORS for admitted origins, and one log line.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/app.ts';

let t: TestApp;
const SITE = 'https://reshelf.example';

beforeAll(async () => {
  t = await createTestApp({ env: { PUBLIC_ORIGIN: SITE } });
});

afterAll(async () => {
  await t.close();
});

/** The hooks Fastify runs for `GET <url>`, by name, with how many functions each. */
function hooksOf(url: string): Record<string, number> {
  const lines = t.app.printRoutes({ commonPrefix: false, includeHooks: true }).split('\n');
  const start = lines.findIndex((line) => line.includes(`${url} (`) && /\bGET\b/.test(line));
  expect(start, `${url} is a route`).toBeGreaterThanOrEqual(0);
  const hooks: Record<string, number> = {};
  for (const line of lines.slice(start + 1)) {
    const match = /•\s+\((\w+)\)\s+(\[.*\])/.exec(line);
    if (!match) break;
    hooks[match[1] as string] = (JSON.parse(match[2] as string) as string[]).length;
  }
  return hooks;
}

describe('the health probes', () => {
  it('run no access check and no compression hooks: only the global ones', () => {
    // Another raw route of the app, for comparison: compression's onRequest and onSend besides.
    const other = hooksOf('/sitemap.xml');
    expect(other.preHandler).toBe(1);
    for (const url of ['/healthz', '/readyz']) {
      const hooks = hooksOf(url);
      expect(hooks.preHandler, url).toBeUndefined();
      expect(hooks.onRequest, url).toBe((other.onRequest ?? 0) - 1);
      expect(hooks.onSend, url).toBe((other.onSend ?? 0) - 1);
      expect(hooks.onResponse, url).toBe(1);
    }
  });

  it('answer with the request id, the security headers and no-store, as every answer does', async () => {
    const health = await t.app.inject({
      method: 'GET',
      url: '/healthz',
      headers: { 'x-request-id': 'probe-1' },
    });
    expect(health.statusCode).toBe(200);
    expect(health.json()).toEqual({ status: 'ok' });
    expect(health.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(health.headers['x-request-id']).toBe('probe-1');
    const other = await t.app.inject({ method: 'GET', url: '/api/nowhere' });
    for (const name of [
      'content-security-policy',
      'referrer-policy',
      'x-content-type-options',
      'x-frame-options',
      'cache-control',
    ]) {
      expect(health.headers[name], name).toBeDefined();
      expect(health.headers[name], name).toBe(other.headers[name]);
    }
    expect(health.headers['cache-control']).toBe('no-store');
    const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.json()).toEqual({ status: 'ready', database: true });
    expect(ready.headers['cache-control']).toBe('no-store');
  });

  it('send the same CORS headers as the plugin does on every other route', async () => {
    const cors = (headers: Record<string, unknown>) =>
      Object.fromEntries(
        Object.entries(headers).filter(([name]) => name.startsWith('access-control-') || name === 'vary'),
      );
    for (const origin of [SITE, 'capacitor://localhost', 'https://evil.example', undefined]) {
      const headers = origin ? { origin } : {};
      const probe = await t.app.inject({ method: 'GET', url: '/healthz', headers });
      // A route of the app's own with a small answer (no compression, so no accept-encoding in Vary).
      const other = await t.app.inject({ method: 'GET', url: '/api/nowhere', headers });
      expect(cors(probe.headers), String(origin)).toEqual(cors(other.headers));
    }
  });

  it('log the first good answer of each minute at info and the rest at debug (decision 0070), with no request-log row', async () => {
    // An app of its own, logging at debug, so that both levels are seen.
    const own = await createTestApp({ env: { PUBLIC_ORIGIN: SITE, LOG_LEVEL: 'debug' } });
    try {
      for (const id of ['probe-1', 'probe-2', 'probe-3']) {
        await own.app.inject({
          method: 'GET',
          url: '/healthz?token=probe-secret',
          headers: { 'x-request-id': id },
        });
      }
      await own.app.inject({ method: 'GET', url: '/readyz', headers: { 'x-request-id': 'ready-1' } });
      await own.app.inject({ method: 'GET', url: '/api/nowhere', headers: { 'x-request-id': 'other-1' } });
      const lines = own.logs
        .map(
          (line) =>
            JSON.parse(line) as { msg: string; level: number; reqId?: string; req?: { url?: string } },
        )
        .filter((line) => line.msg === 'request')
        .map((line) => [line.reqId, line.level, line.req?.url]);
      expect(lines).toEqual([
        ['probe-1', 30, '/healthz'],
        ['probe-2', 20, '/healthz'],
        ['probe-3', 20, '/healthz'],
        ['ready-1', 30, '/readyz'],
        // Every other request: at info, always.
        ['other-1', 30, '/api/nowhere'],
      ]);
      expect(own.logs.join('\n')).not.toContain('probe-secret');
      await own.app.requestLog.flush();
      const rows = await own.database.handle.db
        .selectFrom('request_log')
        .select('request_id')
        .where('request_id', 'in', ['probe-1', 'probe-2', 'ready-1', 'other-1'])
        .execute();
      expect(rows.map((row) => row.request_id)).toEqual(['other-1']);
    } finally {
      await own.close();
    }
  });
});
