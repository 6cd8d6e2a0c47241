/** deno test: the Edge Functions' HTTP shell and the shared input rules. */
import { SignJWT } from 'jose';
import {
  adminCleanupListings,
  adminMetrics,
  FunctionInputError,
  parseCleanupInput,
  parseMetricsInput,
  type SqlClient,
} from './admin.ts';
import { createHandler } from './handler.ts';

const SECRET = 'deno-test-jwt-secret-0123456789abcdef';
const PROJECT = 'https://abcdefghijklmnopqrst.supabase.co';
// A project on its legacy JWT secret (auth.test.ts covers the asymmetric signing keys).
const ENV: Record<string, string> = {
  SUPABASE_URL: PROJECT,
  SUPABASE_SERVICE_ROLE_KEY: 'service-key',
  JWT_LEGACY_SECRET: SECRET,
};
const env = (name: string) => ENV[name];

function assertEquals(actual: unknown, expected: unknown) {
  const a = JSON.stringify(actual);
  const e = JSON.stringify(expected);
  if (a !== e) throw new Error(`expected ${e}, got ${a}`);
}

async function token(sub: string): Promise<string> {
  return new SignJWT({ role: 'authenticated' })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(sub)
    .setIssuer(`${PROJECT}/auth/v1`)
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
  createHandler('admin-metrics', ({ sql, body }) => adminMetrics(sql, body), {
    sql: () => fakeSql(staff),
    env,
  });

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

// admin-cleanup-listings: moderators preview, only admins run, a stale confirmation is a 409.

const DIGEST = '0123456789abcdef0123456789abcdef';

function cleanupSql(roles: { staff: boolean; admin: boolean }, calls: unknown[][], fail?: Error): SqlClient {
  return {
    query<Row>(text: string, params: unknown[] = []): Promise<Row[]> {
      if (text.includes('as staff')) return Promise.resolve([{ staff: roles.staff }] as Row[]);
      if (text.includes('as admin')) return Promise.resolve([{ admin: roles.admin }] as Row[]);
      calls.push(params);
      if (fail) return Promise.reject(fail);
      return Promise.resolve([
        {
          duplicates_removed: 1,
          no_image_removed: 2,
          total_deleted: 3,
          digest: DIGEST,
          sample: [],
          listing_ids: params[0] ? '{}' : '{aaaaaaaa-0000-4000-8000-000000000001}',
          run_id: params[0] ? null : 'bbbbbbbb-0000-4000-8000-000000000002',
        },
      ] as Row[]);
    },
  };
}

async function cleanup(roles: { staff: boolean; admin: boolean }, body: string, fail?: Error) {
  const calls: unknown[][] = [];
  const handle = createHandler(
    'admin-cleanup-listings',
    ({ sql, body, userId }) => adminCleanupListings(sql, body, userId),
    { sql: () => cleanupSql(roles, calls, fail), env },
  );
  const response = await handle(
    new Request('http://x/admin-cleanup-listings', {
      method: 'POST',
      headers: { apikey: 'service-key', authorization: `Bearer ${await token('u9')}` },
      body,
    }),
  );
  return { status: response.status, body: await response.json(), calls };
}

Deno.test('cleanup input: {} runs, dry_run previews, expected is a digest, nothing else', () => {
  assertEquals(parseCleanupInput({}), { dryRun: false, expected: null });
  assertEquals(parseCleanupInput({ dry_run: true }), { dryRun: true, expected: null });
  assertEquals(parseCleanupInput({ expected: DIGEST }), { dryRun: false, expected: DIGEST });
  const messages: string[] = [];
  for (const body of [{ dry_run: 'yes' }, { expected: 'abc' }, { dryRun: true }, [1]]) {
    try {
      parseCleanupInput(body);
    } catch (error) {
      if (error instanceof FunctionInputError) messages.push(error.message);
    }
  }
  assertEquals(messages, [
    'dry_run must be true or false',
    'expected must be the digest a dry run answered (32 hex characters)',
    'Unknown field "dryRun": send dry_run and expected only',
    'The body must be a JSON object',
  ]);
});

Deno.test('a moderator may preview the clean-up but not run it', async () => {
  const moderator = { staff: true, admin: false };
  const preview = await cleanup(moderator, '{"dry_run":true}');
  assertEquals(preview.status, 200);
  assertEquals(preview.body.dry_run, true);
  assertEquals(preview.body.listing_ids, []);
  assertEquals(preview.calls, [[true, 'u9', null]]);
  const refused = await cleanup(moderator, '{}');
  assertEquals(
    { status: refused.status, body: refused.body, calls: refused.calls },
    {
      status: 403,
      body: { error: 'Access denied: admin role required' },
      calls: [],
    },
  );
});

Deno.test("an admin runs it, with the preview's digest; a changed set is a 409", async () => {
  const admin = { staff: true, admin: true };
  const ran = await cleanup(admin, JSON.stringify({ expected: DIGEST }));
  assertEquals(ran.status, 200);
  assertEquals(ran.calls, [[false, 'u9', DIGEST]]);
  assertEquals(ran.body.listing_ids, ['aaaaaaaa-0000-4000-8000-000000000001']);
  const changed = Object.assign(new Error('The listings to clean up have changed since the preview.'), {
    code: 'RSCHG',
  });
  const stale = await cleanup(admin, JSON.stringify({ expected: DIGEST }), changed);
  assertEquals(
    { status: stale.status, body: stale.body },
    {
      status: 409,
      body: { error: 'The listings to clean up have changed since the preview.' },
    },
  );
});
