/**
 * The BFF in hosted mode invokes the Edge Functions over HTTP (served by Deno as
 * `supabase functions serve` would) against the same PostgreSQL, and gets the same answers
 * as the in-process adapter. The functions see what hosted functions see today: SUPABASE_URL,
 * SUPABASE_SECRET_KEYS (new-style `sb_secret_…` keys), the legacy SUPABASE_SERVICE_ROLE_KEY,
 * SUPABASE_DB_URL, and the operator's JWT_LEGACY_SECRET. A stand-in for Supabase Auth issues
 * the access tokens (ES256 and RS256 signing keys, published at its JWKS endpoint, or the
 * legacy HS256 secret) and the BFF calls the functions with the new-style secret key. Open
 * Library is a local stand-in too (OPENLIBRARY_SEARCH_URL), so the functions never reach the
 * internet; it can answer with recent books or fail.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  createLocalJWKSet,
  decodeProtectedHeader,
  exportJWK,
  generateKeyPair,
  type JWK,
  type JWTPayload,
  jwtVerify,
  SignJWT,
} from 'jose';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminMetrics } from '../../../../supabase/functions/_shared/admin.ts';
import { SEED_BOOK_COUNT } from '../../../../supabase/functions/_shared/seed.ts';
import { freePort } from '../../db/embedded.ts';
import { createLocalIdentity } from '../../platform/identity/local.ts';
import type { IdentityProvider } from '../../platform/identity/port.ts';
import { createEdgeFunctions } from '../../platform/server-functions/edge-functions.ts';
import { poolClient } from '../../platform/server-functions/server-functions.ts';
import { SNAPSHOT_BOOKS } from '../../seed/books.ts';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { createUser, lastEmailTo } from '../../testing/auth.ts';
import { createBook, createListing } from '../../testing/catalogue.ts';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
/** The new-style secret key the BFF calls with (SUPABASE_SECRET_KEYS' `default`). */
const SECRET_KEY = 'sb_secret_edgeTests_0123456789abcdefABCDEF';
const LEGACY_JWT_SECRET = 'edge-test-legacy-jwt-secret-0123456789abcdef';

let deno: ChildProcess;
let functionsUrl: string;
let t: TestApp;

// Supabase Auth's stand-in: the project's signing keys, their JWKS, and tokens signed with them.
type Alg = 'ES256' | 'RS256' | 'HS256';
type KeyPair = Awaited<ReturnType<typeof generateKeyPair>>;
const signingKeys = new Map<'ES256' | 'RS256', KeyPair & { kid: string; jwk: JWK }>();
let auth: Server;
let authUrl: string;
const jwksRequests: string[] = [];
/** How new sessions are signed: the current signing key, or the legacy secret. */
let signWith: Alg = 'ES256';
/** The legacy service_role key: a JWT with role service_role, signed with the legacy secret. */
let legacyServiceRoleKey: string;

async function startAuth(): Promise<string> {
  for (const [alg, kid] of [
    ['ES256', 'es256-current'],
    ['RS256', 'rs256-previous'],
  ] as const) {
    const pair = await generateKeyPair(alg, { extractable: true });
    signingKeys.set(alg, {
      ...pair,
      kid,
      jwk: { ...(await exportJWK(pair.publicKey)), kid, alg, use: 'sig' },
    });
  }
  auth = createServer((req, res) => {
    jwksRequests.push(req.url ?? '');
    if (req.url !== '/auth/v1/.well-known/jwks.json') {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ keys: [...signingKeys.values()].map((key) => key.jwk) }));
  });
  await new Promise<void>((resolve) => auth.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(auth.address() as AddressInfo).port}`;
}

/** An access token as Supabase Auth issues it (claims as in its JWT guide). */
async function accessToken(
  userId: string,
  email: string,
  alg: Alg,
  overrides: { iss?: string; key?: KeyPair & { kid: string } } = {},
): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const key = overrides.key ?? (alg === 'HS256' ? undefined : signingKeys.get(alg));
  const jwt = new SignJWT({ email, role: 'authenticated', aal: 'aal1', session_id: crypto.randomUUID() })
    .setProtectedHeader(key ? { alg, kid: key.kid, typ: 'JWT' } : { alg, typ: 'JWT' })
    .setSubject(userId)
    .setIssuer(overrides.iss ?? `${authUrl}/auth/v1`)
    .setAudience('authenticated')
    .setIssuedAt(now)
    .setExpirationTime(now + 3600);
  return jwt.sign(key ? key.privateKey : new TextEncoder().encode(LEGACY_JWT_SECRET));
}

/**
 * The BFF's identity port as hosted mode has it: accounts in auth.users (the local provider
 * makes them), sessions signed by Supabase Auth's stand-in (ES256/RS256 or the legacy secret).
 */
function supabaseStyleIdentity(local: IdentityProvider): IdentityProvider {
  const jwks = () => createLocalJWKSet({ keys: [...signingKeys.values()].map((key) => key.jwk) });
  return {
    ...local,
    async signIn(email, password, info) {
      const session = await local.signIn(email, password, info);
      return { ...session, accessToken: await accessToken(session.user.id, email, signWith) };
    },
    async verify(token) {
      let payload: JWTPayload;
      try {
        const legacy = decodeProtectedHeader(token).alg === 'HS256';
        const options = { issuer: `${authUrl}/auth/v1`, audience: 'authenticated' };
        ({ payload } = legacy
          ? await jwtVerify(token, new TextEncoder().encode(LEGACY_JWT_SECRET), options)
          : await jwtVerify(token, jwks(), options));
      } catch {
        return null;
      }
      if (!payload.sub || !payload.exp || typeof payload.session_id !== 'string') return null;
      return {
        userId: payload.sub,
        email: String(payload.email ?? ''),
        sessionId: payload.session_id,
        expiresAt: payload.exp,
      };
    },
  };
}

// Open Library's stand-in: 30 recent books (valid 979 ISBN-13s, covers), or a failure.
let openLibrary: Server;
let openLibraryUrl: string;
let openLibraryUp = true;
const openLibraryRequests: string[] = [];

function isbn13(first12: string): string {
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += Number(first12[i]) * (i % 2 === 0 ? 1 : 3);
  return first12 + String((10 - (sum % 10)) % 10);
}

const RECENT_BOOKS = Array.from({ length: 30 }, (_, n) => ({
  title: `A Recent Novel ${n + 1}`,
  author_name: [`Recent Author ${n + 1}`],
  isbn: ['not-an-isbn', isbn13(`97988800${String(n).padStart(4, '0')}`)],
  cover_i: 9000 + n,
  first_publish_year: 2025,
}));

async function startOpenLibrary(): Promise<string> {
  openLibrary = createServer((req, res) => {
    openLibraryRequests.push(req.url ?? '');
    if (!openLibraryUp) {
      res.writeHead(503).end('down for maintenance');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ numFound: RECENT_BOOKS.length, docs: RECENT_BOOKS }));
  });
  await new Promise<void>((resolve) => openLibrary.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(openLibrary.address() as AddressInfo).port}/search.json?q=recent`;
}

async function startFunctions(databaseUrl: string): Promise<string> {
  const port = await freePort();
  deno = spawn(
    path.join(ROOT, 'node_modules/.bin/deno'),
    [
      'run',
      '--allow-net',
      '--allow-env',
      '--allow-read',
      '--allow-sys',
      '--config',
      'supabase/functions/deno.json',
      'supabase/functions/serve-all.ts',
      String(port),
    ],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        // What hosted functions are given by default, and the one secret the operator sets.
        SUPABASE_URL: authUrl,
        SUPABASE_DB_URL: databaseUrl,
        SUPABASE_SECRET_KEYS: JSON.stringify({ default: SECRET_KEY }),
        SUPABASE_SERVICE_ROLE_KEY: legacyServiceRoleKey,
        JWT_LEGACY_SECRET: LEGACY_JWT_SECRET,
        OPENLIBRARY_SEARCH_URL: openLibraryUrl,
        NO_COLOR: '1',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Deno did not start:\n${output}`)), 90_000);
    const onData = (chunk: Buffer) => {
      output += chunk;
      if (output.includes(`functions listening on ${port}`)) {
        clearTimeout(timer);
        resolve();
      }
    };
    deno.stdout!.on('data', onData);
    deno.stderr!.on('data', onData);
    deno.on('exit', (code) => reject(new Error(`Deno exited (${code}):\n${output}`)));
  });
  return `http://127.0.0.1:${port}`;
}

beforeAll(async () => {
  openLibraryUrl = await startOpenLibrary();
  authUrl = await startAuth();
  legacyServiceRoleKey = await new SignJWT({ role: 'service_role' })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer('supabase')
    .setIssuedAt()
    .sign(new TextEncoder().encode(LEGACY_JWT_SECRET));
  t = await createTestApp({
    services: async (defaults, database) => {
      functionsUrl = await startFunctions(database.url);
      return {
        ...defaults,
        identity: supabaseStyleIdentity(
          createLocalIdentity({
            db: database.handle.db,
            secrets: { key: () => Buffer.alloc(32), sign: () => '', verify: () => false },
            mailer: defaults.mailer,
          }),
        ),
        functions: createEdgeFunctions({ url: functionsUrl, serviceRoleKey: SECRET_KEY }),
      };
    },
  });
}, 120_000);

afterAll(async () => {
  deno?.kill('SIGTERM');
  openLibrary?.close();
  auth?.close();
  await t?.close();
});

describe('Edge Functions over HTTP (hosted mode)', () => {
  it('answers admin.metrics through admin-metrics with the same numbers as in-process', async () => {
    const db = t.database.handle.db;
    const staff = await createUser(db, t.services.identity, 'edge-staff@example.com', { roles: ['admin'] });
    for (const period of ['today', 'mtd', 'last30', 'ytd'] as const) {
      const response = await request(t.app.server)
        .get(`/trpc/staff.dashboard.metrics?input=${encodeURIComponent(JSON.stringify({ period }))}`)
        .set('authorization', `Bearer ${staff.accessToken}`);
      expect(response.status).toBe(200);
      expect(response.body.result.data).toEqual(
        await adminMetrics(poolClient(t.database.handle.pool), { period }),
      );
    }
    // An ES256 session, checked by the functions against the project's JWKS, fetched once.
    expect(jwksRequests).toEqual(['/auth/v1/.well-known/jwks.json']);
  });

  it('previews admin-cleanup-listings through the function for a moderator; only an admin runs it', async () => {
    const db = t.database.handle.db;
    // The moderator's session is signed by the previous (RS256) key, still in the JWKS.
    signWith = 'RS256';
    const moderator = await createUser(db, t.services.identity, 'edge-cleanup@example.com', {
      roles: ['moderator'],
    });
    signWith = 'ES256';
    expect(decodeProtectedHeader(moderator.accessToken)).toMatchObject({
      alg: 'RS256',
      kid: 'rs256-previous',
    });
    const admin = await createUser(db, t.services.identity, 'edge-cleanup-admin@example.com', {
      roles: ['admin'],
    });
    // A listing with no photo and no cover, from a seller of its own.
    const seller = await createUser(db, t.services.identity, 'edge-cleanup-seller@example.com');
    const listing = await createListing(db, {
      sellerId: seller.id,
      bookId: await createBook(db, { title: 'An Edge Case Without A Cover' }),
    });

    const preview = await request(t.app.server)
      .get('/trpc/staff.dashboard.cleanupPreview')
      .set('authorization', `Bearer ${moderator.accessToken}`);
    expect(preview.status).toBe(200);
    expect(preview.body.result.data).toMatchObject({
      duplicates_removed: 0,
      no_image_removed: 1,
      total_deleted: 1,
    });
    expect(preview.body.result.data.sample[0]).toMatchObject({ listing_id: listing.id, rule: 'no_image' });

    const refused = await request(t.app.server)
      .post('/trpc/staff.dashboard.cleanupListings')
      .set('authorization', `Bearer ${moderator.accessToken}`)
      .send({});
    expect(refused.status).toBe(403);
    // The function checks again: a moderator calling it directly is refused too.
    const direct = await fetch(`${functionsUrl}/functions/v1/admin-cleanup-listings`, {
      method: 'POST',
      headers: { apikey: SECRET_KEY, authorization: `Bearer ${moderator.accessToken}` },
      body: '{}',
    });
    expect(direct.status).toBe(403);
    expect(await direct.json()).toEqual({ error: 'Access denied: admin role required' });

    const ran = await request(t.app.server)
      .post('/trpc/staff.dashboard.cleanupListings')
      .set('authorization', `Bearer ${admin.accessToken}`)
      .send({ expected: preview.body.result.data.digest });
    expect(ran.status).toBe(200);
    expect(ran.body.result.data).toEqual({ duplicates_removed: 0, no_image_removed: 1, total_deleted: 1 });
    const after = await db
      .selectFrom('listings')
      .select('status')
      .where('id', '=', listing.id)
      .executeTakeFirst();
    expect(after?.status).toBe('removed');
    expect((await lastEmailTo(db, seller.email))?.template).toBe('listing_removed');
  });

  it('refuses callers without a secret key, without a valid session, or without a staff role', async () => {
    const buyer = await createUser(t.database.handle.db, t.services.identity, 'edge-buyer@example.com');
    const staff = await createUser(t.database.handle.db, t.services.identity, 'edge-input@example.com', {
      roles: ['admin'],
    });
    const post = (headers: Record<string, string>, body = '{"period":"mtd"}') =>
      fetch(`${functionsUrl}/functions/v1/admin-metrics`, { method: 'POST', headers, body });
    const answer = async (response: Response) => ({ status: response.status, body: await response.json() });
    const apiOnly = (reason: string) => ({
      status: 401,
      body: { error: 'admin-metrics is called by the Reshelf API only', reason },
    });
    const sessionExpired = (reason: string) => ({
      status: 401,
      body: { error: 'Session expired—please sign in', reason },
    });

    // The key: one of the project's secret keys, new-style or the legacy service_role key.
    expect(await answer(await post({ authorization: `Bearer ${staff.accessToken}` }))).toEqual(
      apiOnly('missing_key'),
    );
    expect(
      await answer(
        await post({
          apikey: 'sb_publishable_notASecretKey012345',
          authorization: `Bearer ${staff.accessToken}`,
        }),
      ),
    ).toEqual(apiOnly('wrong_key'));
    expect(
      (await post({ apikey: legacyServiceRoleKey, authorization: `Bearer ${staff.accessToken}` })).status,
    ).toBe(200);

    // The session: signed by one of the project's keys, for this project, not expired.
    const stranger = Object.assign(await generateKeyPair('ES256'), { kid: 'es256-current' });
    const refusals: [string, string][] = [
      ['malformed_token', 'not-a-jwt'],
      ['bad_signature', await accessToken(staff.id, staff.email, 'ES256', { key: stranger })],
      [
        'wrong_issuer',
        await accessToken(staff.id, staff.email, 'ES256', { iss: 'https://another.supabase.co/auth/v1' }),
      ],
    ];
    for (const [reason, token] of refusals) {
      expect({
        reason,
        ...(await answer(await post({ apikey: SECRET_KEY, authorization: `Bearer ${token}` }))),
      }).toEqual({
        reason,
        ...sessionExpired(reason),
      });
    }

    const forbidden = await post({ apikey: SECRET_KEY, authorization: `Bearer ${buyer.accessToken}` });
    expect(await answer(forbidden)).toEqual({
      status: 403,
      body: { error: "You don't have permission to access the admin portal with your current account." },
    });
    const badPeriod = await post(
      { apikey: SECRET_KEY, authorization: `Bearer ${staff.accessToken}` },
      '{"period":"fortnight"}',
    );
    expect(await answer(badPeriod)).toEqual({
      status: 400,
      body: { error: 'period must be one of today, mtd, last30, ytd' },
    });
  });

  it('seeds through seed-openlibrary-recent: Open Library first, the snapshot when it is down', async () => {
    const db = t.database.handle.db;
    // A project still on its legacy JWT secret: an HS256 session, checked with JWT_LEGACY_SECRET.
    signWith = 'HS256';
    const staff = await createUser(db, t.services.identity, 'edge-seed@example.com', { roles: ['admin'] });
    signWith = 'ES256';
    expect(decodeProtectedHeader(staff.accessToken).alg).toBe('HS256');
    const seed = (reset: boolean) =>
      request(t.app.server)
        .post(reset ? '/trpc/staff.dashboard.resetAndSeed' : '/trpc/staff.dashboard.seed')
        .set('authorization', `Bearer ${staff.accessToken}`)
        .send(reset ? {} : { reset: false });
    const seededBooks = () =>
      db
        .selectFrom('books')
        .innerJoin('seed_items', 'seed_items.row_id', 'books.id')
        .select(['books.isbn13', 'books.title', 'books.cover_url'])
        .where('seed_items.kind', '=', 'book')
        .execute();

    const first = await seed(false);
    expect(first.status).toBe(200);
    expect(first.body.result.data).toEqual({ listings: 40, orders: 24 });
    expect(openLibraryRequests).toEqual(['/search.json?q=recent']);
    const fromOpenLibrary = await seededBooks();
    expect(fromOpenLibrary).toHaveLength(SEED_BOOK_COUNT);
    // The 30 recent books with their covers, topped up with 10 from the snapshot.
    expect(fromOpenLibrary.filter((book) => book.title.startsWith('A Recent Novel'))).toHaveLength(30);
    expect(
      fromOpenLibrary.filter((book) => book.cover_url?.startsWith('https://covers.openlibrary.org/b/id/9')),
    ).toHaveLength(30);

    // Open Library's books have covers: their listings are left without a generated one.
    const withCovers = await db
      .selectFrom('listings')
      .innerJoin('seed_items', 'seed_items.row_id', 'listings.id')
      .innerJoin('books', 'books.id', 'listings.book_id')
      .select(['listings.photos', 'books.cover_url'])
      .where('seed_items.kind', '=', 'listing')
      .execute();
    expect(
      withCovers.filter((row) => row.cover_url).every((row) => (row.photos as string[]).length === 0),
    ).toBe(true);
    expect(
      withCovers.filter((row) => !row.cover_url).every((row) => (row.photos as string[]).length === 1),
    ).toBe(true);

    // Seeding again without reset adds nothing.
    expect((await seed(false)).body.result.data).toEqual({ listings: 0, orders: 0 });

    openLibraryUp = false;
    const again = await seed(true);
    expect(again.status).toBe(200);
    expect(again.body.result.data).toEqual({ listings: 40, orders: 24 });
    const fromSnapshot = await seededBooks();
    expect(new Set(fromSnapshot.map((book) => book.isbn13))).toEqual(
      new Set(SNAPSHOT_BOOKS.slice(0, SEED_BOOK_COUNT).map((book) => book.isbn13)),
    );
    expect(fromSnapshot.every((book) => book.cover_url === null)).toBe(true);
    // The Edge Function cannot draw: the BFF gave the seeded listings (books without a cover)
    // their generated covers through the storage port, as it does in-process.
    const seededListings = await db
      .selectFrom('listings')
      .innerJoin('seed_items', 'seed_items.row_id', 'listings.id')
      .select('listings.photos')
      .where('seed_items.kind', 'in', ['listing', 'sold_listing'])
      .execute();
    expect(seededListings).toHaveLength(64);
    for (const { photos } of seededListings) {
      const [url] = photos as string[];
      expect(url).toMatch(/^\/storage\/demo-covers\/[0-9a-f]{16}\/1600\.webp$/);
      expect(await t.services.storage.get(url!.slice('/storage/'.length))).toMatchObject({
        contentType: 'image/webp',
      });
    }
    // The reset removed the Open Library books the first seed made.
    const leftovers = await db
      .selectFrom('books')
      .select('id')
      .where('title', 'like', 'A Recent Novel%')
      .execute();
    expect(leftovers).toHaveLength(0);

    // The cards read the seeded data through admin-metrics.
    const metrics = await request(t.app.server)
      .get(`/trpc/staff.dashboard.metrics?input=${encodeURIComponent(JSON.stringify({ period: 'today' }))}`)
      .set('authorization', `Bearer ${staff.accessToken}`);
    expect(metrics.body.result.data.disputes_open).toBe(4);
    expect(metrics.body.result.data.buyer_protection_minor).toBeGreaterThan(0);

    const badInput = await fetch(`${functionsUrl}/functions/v1/seed-openlibrary-recent`, {
      method: 'POST',
      headers: { apikey: SECRET_KEY, authorization: `Bearer ${staff.accessToken}` },
      body: '{"reset":"yes"}',
    });
    expect(badInput.status).toBe(400);
    expect(await badInput.json()).toEqual({ error: 'reset must be true or false' });
  });
});
