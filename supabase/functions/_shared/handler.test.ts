/** deno test: the Edge Functions' HTTP shell and the shared input rules. */
import { SignJWT } from 'jose';
import { adminMetrics, FunctionInputError, parseMetricsInput, type SqlClient } from './admin.ts';
import { createHandler } from './handler.ts';

const SECRET = 'deno-test-jwt-secret-0123456789abcdef';
Deno.env.set('SUPABASE_SERVICE_ROLE_KEY', 'service-key');
Deno.env.set('SUPABASE_JWT_SECRET', SECRET);

function assertEquals(actual: unknown, expected: unknown) {
  const a = JSON.stringify(actual);
  const e = JSON.stringify(expected);
  if (a !== e) throw new Error(`expected ${e}, got ${a}`);
}

async function token(sub: string): Promise<string> {
  return new SignJWT({ role: 'authenticated' })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(sub)
    .setAudience('authenticated')
    .setExpirationTime('1h')
    .sign(new TextEncoder().encode(SECRET));
}

function fakeSql(
  staff: boolean,
  metrics = { disputes_open: 2, active_listings: 40, buyer_protection_minor: 1234 },
): SqlClient {
  return {
    query<Row>(text: string): Promise<Row[]> {
      if (text.includes('user_roles')) return Promise.resolve([{ staff }] as Row[]);
      return Promise.resolve([metrics] as Row[]);
    },
  };
}

const handler = (staff: boolean) =>
  createHandler('admin-metrics', ({ sql, body }) => adminMetrics(sql, body), { sql: () => fakeSql(staff) });

async function post(staff: boolean, headers: Record<string, string>, body = '{"period":"ytd"}') {
  const response = await handler(staff)(
    new Request('http://x/admin-metrics', { method: 'POST', headers, body }),
  );
  return { status: response.status, body: await response.json() };
}

Deno.test('period defaults to mtd and must be one of the four', () => {
  assertEquals(parseMetricsInput({}), { period: 'mtd' });
  assertEquals(parseMetricsInput({ period: 'last30' }), { period: 'last30' });
  let message = '';
  try {
    parseMetricsInput({ period: 'week' });
  } catch (error) {
    if (error instanceof FunctionInputError) message = error.message;
  }
  assertEquals(message, 'period must be one of today, mtd, last30, ytd');
});

Deno.test('a staff member with the service key gets the metrics', async () => {
  const response = await post(true, { apikey: 'service-key', authorization: `Bearer ${await token('u1')}` });
  assertEquals(response, {
    status: 200,
    body: { disputes_open: 2, active_listings: 40, buyer_protection_minor: 1234 },
  });
});

Deno.test('only POST, only with the service key, only with a valid token, only staff', async () => {
  const get = await handler(true)(new Request('http://x/admin-metrics'));
  assertEquals(get.status, 405);
  assertEquals((await post(true, { authorization: `Bearer ${await token('u1')}` })).status, 401);
  assertEquals(
    (await post(true, { apikey: 'service-key', authorization: 'Bearer forged.token.here' })).status,
    401,
  );
  const forbidden = await post(false, {
    apikey: 'service-key',
    authorization: `Bearer ${await token('u2')}`,
  });
  assertEquals(forbidden.status, 403);
});

Deno.test('bad input is a 400 with a message', async () => {
  const headers = { apikey: 'service-key', authorization: `Bearer ${await token('u1')}` };
  assertEquals(await post(true, headers, '{"period":"week"}'), {
    status: 400,
    body: { error: 'period must be one of today, mtd, last30, ytd' },
  });
  assertEquals(await post(true, headers, '{not json'), {
    status: 400,
    body: { error: 'The request body is not valid JSON' },
  });
});
