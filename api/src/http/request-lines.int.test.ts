/**
 * One log line per request (not Fastify's two), carrying what an operator needs to follow a
 * request: its id, the route or tRPC procedure, the status, the duration and the user. Never
 * the input: a staff search by someone's email leaves that email in no line.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/app.ts';
import { createUser, TEST_PASSWORD, WEB } from '../testing/auth.ts';
import { api as client } from '../testing/client.ts';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});

afterAll(async () => {
  await t.close();
});

interface Line {
  level: number;
  msg: string;
  reqId?: string;
  req?: { method?: string; url?: string };
  route?: string;
  procedure?: string;
  res?: { statusCode?: number };
  responseTime?: number;
  userId?: string | null;
}

const parsed = () => t.logs.map((line) => JSON.parse(line) as Line);

describe('request lines', () => {
  it('writes exactly one line per request with its id, route or procedure, status, duration and user', async () => {
    const staff = await createUser(t.database.handle.db, t.services.identity, 'lines-staff@example.com', {
      roles: ['admin'],
    });
    const searched = 'someone.private+lines@example.org';
    await createUser(t.database.handle.db, t.services.identity, searched);
    t.logs.length = 0;

    const found = await client(t.app, staff.accessToken).staff.users.search.query({ q: searched });
    expect(found).toHaveLength(1);
    const rest = await t.app.inject({
      method: 'GET',
      url: `/api/v1/listings/search?q=${encodeURIComponent(searched)}`,
    });
    expect(rest.statusCode).toBe(200);
    const missing = await t.app.inject({ method: 'GET', url: '/api/nowhere?email=someone.private' });
    expect(missing.statusCode).toBe(404);

    const lines = parsed();
    // Fastify's own pair ("incoming request", "request completed") is off.
    expect(lines.filter((line) => line.msg === 'incoming request')).toEqual([]);
    const requestLines = lines.filter((line) => line.msg === 'request');
    expect(requestLines.map((line) => line.reqId).sort()).toEqual(
      [...new Set(requestLines.map((line) => line.reqId))].sort(),
    );
    expect(requestLines).toHaveLength(3);

    const [trpc, api, notFound] = requestLines;
    expect(trpc).toMatchObject({
      req: { method: 'GET', url: '/trpc/staff.users.search' },
      procedure: 'staff.users.search',
      res: { statusCode: 200 },
      userId: staff.id,
    });
    expect(trpc?.reqId).toMatch(/^[0-9a-f-]{36}$/);
    expect(typeof trpc?.responseTime).toBe('number');
    expect(api).toMatchObject({
      req: { method: 'GET', url: '/api/v1/listings/search' },
      route: '/api/v1/listings/search',
      res: { statusCode: 200 },
      userId: null,
    });
    expect(api?.procedure).toBeUndefined();
    expect(rest.headers['x-request-id']).toBe(api?.reqId);
    expect(notFound).toMatchObject({ req: { url: '/api/nowhere' }, res: { statusCode: 404 }, userId: null });

    const text = t.logs.join('\n');
    for (const secret of [searched, encodeURIComponent(searched), 'someone.private', 'lines-staff@']) {
      expect(text).not.toContain(secret);
    }
  });

  it('names every procedure of a batched call', async () => {
    t.logs.length = 0;
    await t.app.inject({
      method: 'GET',
      url: `/trpc/catalogue.taxonomy.public.categories,catalogue.taxonomy.public.genres?batch=1&input=${encodeURIComponent('{}')}`,
    });
    const [line] = parsed().filter((entry) => entry.msg === 'request');
    expect(line?.procedure).toBe('catalogue.taxonomy.public.categories,catalogue.taxonomy.public.genres');
  });

  it('puts no password, token, cookie or email in any line, with no wildcard redaction', async () => {
    const user = await createUser(t.database.handle.db, t.services.identity, 'creds.owner@example.org');
    t.logs.length = 0;
    const signIn = await t.app.inject({
      method: 'POST',
      url: '/trpc/account.auth.signIn',
      headers: { ...WEB, 'content-type': 'application/json' },
      payload: JSON.stringify({ email: 'creds.owner@example.org', password: TEST_PASSWORD }),
    });
    expect(signIn.statusCode).toBe(200);
    const cookies = [signIn.headers['set-cookie'] ?? []].flat();
    expect(cookies.length).toBeGreaterThan(0);
    const cookieValues = cookies.map((cookie) => cookie.split(';')[0]?.split('=').slice(1).join('=') ?? '');
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/trpc/account.auth.signIn',
      headers: { ...WEB, 'content-type': 'application/json' },
      payload: JSON.stringify({ email: 'creds.owner@example.org', password: 'Wrong-password-in-a-log?' }),
    });
    expect(wrong.statusCode).toBeGreaterThanOrEqual(400);
    await t.app.inject({
      method: 'GET',
      url: '/trpc/account.auth.me',
      headers: { ...WEB, cookie: cookies.map((cookie) => cookie.split(';')[0]).join('; ') },
    });
    await t.app.inject({
      method: 'GET',
      url: '/trpc/account.auth.me',
      headers: { authorization: `Bearer ${user.accessToken}`, 'x-api-key': 'rsk_not-a-real-key-123' },
    });
    await t.app.inject({
      method: 'GET',
      url: '/api/v1/me/tokens',
      headers: { authorization: 'Bearer rsk_refused-api-token-value' },
    });

    const text = t.logs.join('\n');
    expect(parsed().filter((line) => line.msg === 'request')).toHaveLength(5);
    for (const secret of [
      TEST_PASSWORD,
      'Wrong-password-in-a-log?',
      user.accessToken,
      user.refreshToken,
      ...cookieValues.filter((value) => value.length > 8),
      'rsk_not-a-real-key-123',
      'rsk_refused-api-token-value',
      'creds.owner',
    ]) {
      expect(text).not.toContain(secret);
    }
  });
});
