/**
 * deno test: who may call an Edge Function. Tokens signed by asymmetric keys (ES256, RS256)
 * whose public halves a local JWKS endpoint serves at <SUPABASE_URL>/auth/v1/.well-known/jwks.json,
 * as Supabase Auth does; tokens signed with a legacy HS256 secret; new-style `sb_secret_…` keys
 * and the legacy service_role key; and every refusal, with its status, message and reason.
 */
import { base64url, exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';
import { adminMetrics, type SqlClient } from './admin.ts';
import { createHandler } from './handler.ts';

function assertEquals(actual: unknown, expected: unknown) {
  const a = JSON.stringify(actual);
  const e = JSON.stringify(expected);
  if (a !== e) throw new Error(`expected ${e}, got ${a}`);
}

const METRICS = { disputes_open: 2, active_listings: 40, buyer_protection_minor: 1234 };
const SECRET_KEY = 'sb_secret_N7UND0UgjKTVK-Uodkm0Hg_xSvEMPvz';
const OTHER_SECRET_KEY = 'sb_secret_automations_0123456789abcdefABCDEF';
const PUBLISHABLE_KEY = 'sb_publishable_ACJWlzQHlZjBrEguHvfOxg_3BJgxAaH';
const LEGACY_SECRET = 'legacy-jwt-secret-with-at-least-32-characters';
const STAFF = '6f1c2a9e-0d4b-4c1e-9a57-3b8e2f0c7d11';
const NOT_STAFF = '0b7e4d2a-5c3f-4e81-8d6a-1f9c0e2b3a44';

function fakeSql(): SqlClient {
  return {
    query<Row>(text: string, params: unknown[] = []): Promise<Row[]> {
      if (text.includes('user_roles')) return Promise.resolve([{ staff: params[0] === STAFF }] as Row[]);
      return Promise.resolve([METRICS] as Row[]);
    },
  };
}

/** A stand-in for Supabase Auth's key discovery endpoint, serving the keys it is given. */
async function startAuth(answer: () => Response) {
  const requests: string[] = [];
  const server = Deno.serve({ hostname: '127.0.0.1', port: 0, onListen: () => {} }, (request) => {
    const path = new URL(request.url).pathname;
    requests.push(path);
    if (path !== '/auth/v1/.well-known/jwks.json') return new Response('not found', { status: 404 });
    return answer();
  });
  return { url: `http://127.0.0.1:${server.addr.port}`, requests, close: () => server.shutdown() };
}

interface SigningKey {
  alg: 'ES256' | 'RS256';
  kid: string;
  privateKey: Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];
  jwk: JWK;
}

async function signingKey(alg: 'ES256' | 'RS256', kid: string): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  return { alg, kid, privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' } };
}

interface Claims {
  sub?: string;
  iss?: string;
  aud?: string;
  /** Seconds from now; negative for a token that has expired. */
  expiresIn?: number;
  role?: string;
}

function mint(key: SigningKey | { alg: 'HS256'; secret: string }, issuer: string, claims: Claims = {}) {
  const now = Math.floor(Date.now() / 1000);
  const jwt = new SignJWT({ role: claims.role ?? 'authenticated', email: 'staff@example.com' })
    .setProtectedHeader(
      'kid' in key ? { alg: key.alg, kid: key.kid, typ: 'JWT' } : { alg: key.alg, typ: 'JWT' },
    )
    .setIssuer(claims.iss ?? issuer)
    .setAudience(claims.aud ?? 'authenticated')
    .setIssuedAt(now - 10)
    .setExpirationTime(now + (claims.expiresIn ?? 3600));
  if (claims.sub !== '') jwt.setSubject(claims.sub ?? STAFF);
  return jwt.sign('privateKey' in key ? key.privateKey : new TextEncoder().encode(key.secret));
}

function call(env: Record<string, string>, headers: Record<string, string>) {
  const handler = createHandler('admin-metrics', ({ sql, body }) => adminMetrics(sql, body), {
    sql: fakeSql,
    env: (name) => env[name],
  });
  return handler(
    new Request('http://functions/admin-metrics', { method: 'POST', headers, body: '{"period":"mtd"}' }),
  ).then(async (response) => ({ status: response.status, body: await response.json() }));
}

const SESSION_EXPIRED = 'Session expired—please sign in';
const API_ONLY = 'admin-metrics is called by the Reshelf API only';
const refusal = (status: number, error: string, reason: string) => ({ status, body: { error, reason } });

Deno.test('tokens signed by the project’s asymmetric keys, checked against its JWKS', async (t) => {
  const es256 = await signingKey('ES256', 'es256-current');
  const rs256 = await signingKey('RS256', 'rs256-previous');
  const stranger = await signingKey('ES256', 'not-in-the-jwks');
  const impostor = await signingKey('ES256', 'es256-current'); // the current kid, another key
  const auth = await startAuth(() => Response.json({ keys: [es256.jwk, rs256.jwk] }));
  const issuer = `${auth.url}/auth/v1`;
  // Hosted functions get SUPABASE_URL, SUPABASE_SECRET_KEYS (name → sb_secret_… key) and,
  // while legacy keys are on, SUPABASE_SERVICE_ROLE_KEY. No JWT secret.
  const legacyServiceRole = await mint({ alg: 'HS256', secret: LEGACY_SECRET }, 'supabase', {
    role: 'service_role',
    sub: '',
  });
  const env = {
    SUPABASE_URL: `${auth.url}/`,
    SUPABASE_SECRET_KEYS: JSON.stringify({ default: SECRET_KEY, automations: OTHER_SECRET_KEY }),
    SUPABASE_SERVICE_ROLE_KEY: legacyServiceRole,
  };
  try {
    await t.step('ES256 with a new-style secret key: the metrics', async () => {
      const token = await mint(es256, issuer);
      assertEquals(await call(env, { apikey: SECRET_KEY, authorization: `Bearer ${token}` }), {
        status: 200,
        body: METRICS,
      });
    });

    await t.step('RS256 with the legacy service_role key, and any of the named secret keys', async () => {
      const token = await mint(rs256, issuer);
      for (const apikey of [legacyServiceRole, OTHER_SECRET_KEY]) {
        assertEquals((await call(env, { apikey, authorization: `Bearer ${token}` })).status, 200);
      }
    });

    await t.step('the key set is fetched once and cached', () => {
      assertEquals(auth.requests, ['/auth/v1/.well-known/jwks.json']);
    });

    await t.step('a valid token of someone who is not staff: 403', async () => {
      const token = await mint(es256, issuer, { sub: NOT_STAFF });
      assertEquals(await call(env, { apikey: SECRET_KEY, authorization: `Bearer ${token}` }), {
        status: 403,
        body: { error: "You don't have permission to access the admin portal with your current account." },
      });
    });

    await t.step('each refusal of the token: 401 with the spec’s message and the reason', async () => {
      const cases: [string, Promise<string> | string][] = [
        ['wrong_issuer', mint(es256, issuer, { iss: 'https://another-project.supabase.co/auth/v1' })],
        ['wrong_audience', mint(es256, issuer, { aud: 'anon' })],
        ['token_expired', mint(es256, issuer, { expiresIn: -60 })],
        ['unknown_key', mint(stranger, issuer)],
        ['bad_signature', mint(impostor, issuer)],
        // An HS256 token while the function has no legacy secret to check it with.
        ['legacy_secret_not_configured', mint({ alg: 'HS256', secret: LEGACY_SECRET }, issuer)],
        // The service_role JWT is a key, not a person's session: it names nobody.
        ['legacy_secret_not_configured', legacyServiceRole],
        ['malformed_token', 'not-a-jwt'],
        // alg "none" and algorithms Supabase Auth never signs with.
        [
          'unsupported_algorithm',
          `${base64url.encode('{"alg":"none"}')}.${base64url.encode(`{"sub":"${STAFF}"}`)}.`,
        ],
        [
          'unsupported_algorithm',
          new SignJWT({}).setProtectedHeader({ alg: 'HS512' }).sign(new TextEncoder().encode(LEGACY_SECRET)),
        ],
      ];
      for (const [reason, token] of cases) {
        const answer = await call(env, { apikey: SECRET_KEY, authorization: `Bearer ${await token}` });
        assertEquals({ reason, answer }, { reason, answer: refusal(401, SESSION_EXPIRED, reason) });
      }
      assertEquals(await call(env, { apikey: SECRET_KEY }), refusal(401, SESSION_EXPIRED, 'missing_token'));
    });

    await t.step('each refusal of the key: 401, before the token is looked at', async () => {
      const token = await mint(es256, issuer);
      const cases: [string, Record<string, string>][] = [
        ['missing_key', { authorization: `Bearer ${token}` }],
        ['wrong_key', { apikey: PUBLISHABLE_KEY, authorization: `Bearer ${token}` }],
        ['wrong_key', { apikey: `${SECRET_KEY}x`, authorization: `Bearer ${token}` }],
        // The person's own token is not a key either.
        ['wrong_key', { apikey: token, authorization: `Bearer ${token}` }],
      ];
      for (const [reason, headers] of cases) {
        assertEquals(
          { reason, answer: await call(env, headers) },
          { reason, answer: refusal(401, API_ONLY, reason) },
        );
      }
    });

    await t.step('JWT_ISSUER names Auth’s issuer when it is not SUPABASE_URL/auth/v1', async () => {
      const token = await mint(es256, issuer, { iss: 'http://127.0.0.1:54321/auth/v1' });
      const headers = { apikey: SECRET_KEY, authorization: `Bearer ${token}` };
      assertEquals((await call(env, headers)).body.reason, 'wrong_issuer');
      assertEquals(
        (await call({ ...env, JWT_ISSUER: 'http://127.0.0.1:54321/auth/v1' }, headers)).status,
        200,
      );
    });
  } finally {
    await auth.close();
  }
});

Deno.test('a project on the legacy JWT secret: HS256 tokens with JWT_LEGACY_SECRET', async () => {
  const issuer = 'https://abcdefghijklmnopqrst.supabase.co/auth/v1';
  const env = {
    SUPABASE_URL: 'https://abcdefghijklmnopqrst.supabase.co',
    SUPABASE_SERVICE_ROLE_KEY: 'legacy-service-role-jwt',
    JWT_LEGACY_SECRET: LEGACY_SECRET,
  };
  const call200 = (token: string) =>
    call(env, { apikey: 'legacy-service-role-jwt', authorization: `Bearer ${token}` });
  assertEquals(await call200(await mint({ alg: 'HS256', secret: LEGACY_SECRET }, issuer)), {
    status: 200,
    body: METRICS,
  });
  const refusals: [string, string][] = [
    ['bad_signature', await mint({ alg: 'HS256', secret: `${LEGACY_SECRET}-not` }, issuer)],
    ['token_expired', await mint({ alg: 'HS256', secret: LEGACY_SECRET }, issuer, { expiresIn: -1 })],
    ['wrong_audience', await mint({ alg: 'HS256', secret: LEGACY_SECRET }, issuer, { aud: 'service_role' })],
    ['invalid_claim_sub', await mint({ alg: 'HS256', secret: LEGACY_SECRET }, issuer, { sub: '' })],
  ];
  for (const [reason, token] of refusals) {
    assertEquals(
      { reason, answer: await call200(token) },
      { reason, answer: refusal(401, SESSION_EXPIRED, reason) },
    );
  }
});

Deno.test('signing keys that cannot be fetched: 503, not an expired session', async () => {
  const key = await signingKey('ES256', 'k1');
  const down = await startAuth(() => new Response('upstream connect error', { status: 502 }));
  const notJson = await startAuth(() => new Response('<html>maintenance</html>', { status: 200 }));
  const gone = await startAuth(() => Response.json({ keys: [key.jwk] }));
  await gone.close(); // nothing listens there any more
  try {
    for (const auth of [down, notJson, gone]) {
      const env = { SUPABASE_URL: auth.url, SUPABASE_SECRET_KEYS: JSON.stringify({ default: SECRET_KEY }) };
      const token = await mint(key, `${auth.url}/auth/v1`);
      assertEquals(
        await call(env, { apikey: SECRET_KEY, authorization: `Bearer ${token}` }),
        refusal(
          503,
          "Could not check your session: the project's signing keys could not be fetched. Please try again in a moment.",
          'jwks_unavailable',
        ),
      );
    }
  } finally {
    await down.close();
    await notJson.close();
  }
});

Deno.test('a function missing its secrets says which: 500', async () => {
  const token = 'irrelevant';
  const headers = { apikey: SECRET_KEY, authorization: `Bearer ${token}` };
  assertEquals(
    await call({ SUPABASE_URL: 'https://x.supabase.co' }, headers),
    refusal(
      500,
      'No secret key is configured for this function: SUPABASE_SECRET_KEYS or SUPABASE_SERVICE_ROLE_KEY',
      'misconfigured',
    ),
  );
  assertEquals(
    await call({ SUPABASE_URL: 'https://x.supabase.co', SUPABASE_SECRET_KEYS: SECRET_KEY }, headers),
    refusal(500, 'SUPABASE_SECRET_KEYS must be a JSON object of key names and secret keys', 'misconfigured'),
  );
  assertEquals(
    await call({ SUPABASE_SECRET_KEYS: JSON.stringify({ default: SECRET_KEY }) }, headers),
    refusal(500, 'SUPABASE_URL is not set for this function', 'misconfigured'),
  );
});
