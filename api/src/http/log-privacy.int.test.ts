/**
 * Logs name the procedure or path and never the input: a staff search by someone's email
 * leaves that email in no log line (pino's request lines) and no request-log row.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/app.ts';
import { createUser } from '../testing/auth.ts';
import { api } from '../testing/client.ts';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});

afterAll(async () => {
  await t.close();
});

describe('request logging', () => {
  it('logs /trpc/<procedure> and the REST path, without the query that carries the input', async () => {
    const staff = await createUser(t.database.handle.db, t.services.identity, 'log-staff@example.com', {
      roles: ['admin'],
    });
    const searched = 'private.person+reshelf@example.org';
    await createUser(t.database.handle.db, t.services.identity, searched);

    const found = await api(t.app, staff.accessToken).staff.users.search.query({ q: searched });
    expect(found.map((user: { email: string }) => user.email)).toEqual([searched]);
    // A batched call, and the REST API with a query string.
    await t.app.inject({
      method: 'GET',
      url: `/trpc/staff.users.search,staff.audit.search?batch=1&input=${encodeURIComponent(
        JSON.stringify({ 0: { q: searched }, 1: { q: searched } }),
      )}`,
      headers: { authorization: `Bearer ${staff.accessToken}` },
    });
    await t.app.inject({
      method: 'GET',
      url: `/api/v1/listings/search?q=${encodeURIComponent(searched)}`,
    });
    await t.app.requestLog.flush();

    const lines = t.logs.map((line) => JSON.parse(line) as { req?: { url?: string } });
    const urls = lines.flatMap((line) => (line.req?.url ? [line.req.url] : []));
    expect(urls).toContain('/trpc/staff.users.search');
    expect(urls).toContain('/trpc/staff.users.search,staff.audit.search');
    expect(urls).toContain('/api/v1/listings/search');
    expect(urls.filter((url) => url.includes('?'))).toEqual([]);

    const encoded = encodeURIComponent(searched);
    for (const text of [searched, encoded, 'private.person', 'private.person%2Breshelf']) {
      expect(t.logs.join('\n')).not.toContain(text);
    }
    const rows = await t.database.handle.db.selectFrom('request_log').select('path').execute();
    expect(rows.map((row) => row.path)).toEqual(
      expect.arrayContaining([
        '/trpc/staff.users.search',
        '/trpc/staff.users.search,staff.audit.search',
        '/api/v1/listings/search',
      ]),
    );
    expect(rows.filter((row) => row.path.includes('private'))).toEqual([]);
  });
});
