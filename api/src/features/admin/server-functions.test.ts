/** The hosted server-functions adapter's requests and failure kinds (spec §8). */
import { describe, expect, it } from 'vitest';
import { AppError } from '../../errors.ts';
import { createEdgeFunctions } from './edge-functions.ts';

function adapter(reply: (url: string, init: RequestInit) => Response | Promise<Response>) {
  const sent: { url: string; init: RequestInit }[] = [];
  const functions = createEdgeFunctions({
    url: 'https://proj.supabase.co/',
    serviceRoleKey: 'service-key',
    fetch: (async (url: string, init: RequestInit) => {
      sent.push({ url, init });
      return reply(url, init);
    }) as typeof fetch,
  });
  return { functions, sent };
}

const caller = { accessToken: 'caller-jwt' };
const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

async function failure(reply: () => Response | Promise<Response>): Promise<AppError> {
  const { functions } = adapter(reply);
  try {
    await functions.adminMetrics({ period: 'mtd' }, caller);
  } catch (error) {
    return error as AppError;
  }
  throw new Error('expected a failure');
}

describe('Edge Functions adapter', () => {
  it('posts to /functions/v1/<name> with the service key and the caller’s token', async () => {
    const { functions, sent } = adapter(() =>
      json(200, { disputes_open: 1, active_listings: 2, buyer_protection_minor: 3 }),
    );
    expect(await functions.adminMetrics({ period: 'ytd' }, caller)).toEqual({
      disputes_open: 1,
      active_listings: 2,
      buyer_protection_minor: 3,
    });
    expect(sent[0]!.url).toBe('https://proj.supabase.co/functions/v1/admin-metrics');
    expect(sent[0]!.init.method).toBe('POST');
    expect(sent[0]!.init.headers).toMatchObject({
      apikey: 'service-key',
      authorization: 'Bearer caller-jwt',
    });
    expect(JSON.parse(String(sent[0]!.init.body))).toEqual({ period: 'ytd' });
  });

  it('maps "failed to send" to 503', async () => {
    const error = await failure(() => {
      throw new TypeError('fetch failed');
    });
    expect(error).toBeInstanceOf(AppError);
    expect(error.code).toBe('UNAVAILABLE');
    expect(error.message).toBe('Could not reach the admin-metrics function. Please try again in a moment.');
  });

  it('maps a relay error to 502', async () => {
    const error = await failure(() => json(500, { error: 'relay' }, { 'x-relay-error': 'true' }));
    expect(error.code).toBe('BAD_GATEWAY');
    expect(error.message).toMatch(/relay error/);
  });

  it('maps non-2xx answers: 401 to UNAUTHORIZED, 403, 400 with the function’s message, others to 502', async () => {
    expect(await failure(() => json(401, { error: 'x' }))).toMatchObject({
      code: 'UNAUTHENTICATED',
      message: 'Session expired—please sign in',
    });
    expect(await failure(() => json(403, { error: 'no' }))).toMatchObject({
      code: 'FORBIDDEN',
      message: 'no',
    });
    expect(
      await failure(() => json(400, { error: 'period must be one of today, mtd, last30, ytd' })),
    ).toMatchObject({
      code: 'BAD_INPUT',
      message: 'period must be one of today, mtd, last30, ytd',
    });
    expect(await failure(() => json(500, { error: 'admin-metrics failed' }))).toMatchObject({
      code: 'BAD_GATEWAY',
      message: 'admin-metrics failed (HTTP 500): admin-metrics failed',
    });
  });

  it('refuses to call without the caller’s token', async () => {
    const { functions, sent } = adapter(() => json(200, {}));
    await expect(functions.adminCleanupListings({ dryRun: true }, {})).rejects.toMatchObject({
      code: 'UNAUTHENTICATED',
    });
    expect(sent).toHaveLength(0);
  });

  it('sends admin-cleanup-listings {dry_run, expected}; a 409 (stale confirmation) becomes CONFLICT', async () => {
    const { functions, sent } = adapter(() => json(409, { error: 'The listings to clean up have changed' }));
    await expect(
      functions.adminCleanupListings({ dryRun: false, expected: 'a'.repeat(32) }, caller),
    ).rejects.toMatchObject({ code: 'CONFLICT', message: 'The listings to clean up have changed' });
    expect(sent[0]!.url).toBe('https://proj.supabase.co/functions/v1/admin-cleanup-listings');
    expect(JSON.parse(String(sent[0]!.init.body))).toEqual({ dry_run: false, expected: 'a'.repeat(32) });
    const preview = adapter(() => json(200, {}));
    await preview.functions.adminCleanupListings({ dryRun: true }, caller);
    expect(JSON.parse(String(preview.sent[0]!.init.body))).toEqual({ dry_run: true });
  });

  it('sends seed-openlibrary-recent {reset} and maps its failures the same way', async () => {
    const { functions, sent } = adapter(() => json(200, { listings: 40, orders: 24 }));
    expect(await functions.seedOpenLibraryRecent({ reset: true }, caller)).toEqual({
      listings: 40,
      orders: 24,
    });
    expect(sent[0]!.url).toBe('https://proj.supabase.co/functions/v1/seed-openlibrary-recent');
    expect(JSON.parse(String(sent[0]!.init.body))).toEqual({ reset: true });

    const failing = (reply: () => Response | Promise<Response>) =>
      adapter(reply).functions.seedOpenLibraryRecent({ reset: false }, caller);
    await expect(
      failing(() => {
        throw new TypeError('fetch failed');
      }),
    ).rejects.toMatchObject({
      code: 'UNAVAILABLE',
      message: 'Could not reach the seed-openlibrary-recent function. Please try again in a moment.',
    });
    await expect(failing(() => json(502, {}, { 'x-relay-error': 'true' }))).rejects.toMatchObject({
      code: 'BAD_GATEWAY',
    });
    await expect(failing(() => json(401, { error: 'expired' }))).rejects.toMatchObject({
      code: 'UNAUTHENTICATED',
      message: 'Session expired—please sign in',
    });
    await expect(failing(() => json(500, { error: 'seed-openlibrary-recent failed' }))).rejects.toMatchObject(
      {
        code: 'BAD_GATEWAY',
        message: 'seed-openlibrary-recent failed (HTTP 500): seed-openlibrary-recent failed',
      },
    );
  });
});
