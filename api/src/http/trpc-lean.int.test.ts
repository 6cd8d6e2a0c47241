/**
 * Conformance of the lean tRPC path (http/trpc-lean.ts, decision 0040) with tRPC's stock Fastify
 * plugin: two instances of the app on one database, one per path, and every request sent to
 * both. The requests are the real clients' own: the web client's (httpBatchLink, the client
 * header, cookies; batched GET queries and POST mutations) and the ops CLI's (httpLink, a
 * personal API token), made with @trpc/client itself, plus the refusals they meet (400 from zod
 * and from the NUL guard, 401, 403, 404, 405, 412, 429, 503 while PostgreSQL is away) and
 * malformed requests no client of ours sends. Each answer pair must agree on the status, the
 * headers a client or cache reads, and the body, byte for byte.
 */
import { brotliDecompressSync } from 'node:zlib';
import { CLIENT_HEADER } from '@reshelf/contracts';
import { createTRPCClient, httpBatchLink, httpLink } from '@trpc/client';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { type AppConfig, loadConfig } from '../config.ts';
import { createDatabase, type DatabaseHandle } from '../db/index.ts';
import { createApiToken } from '../platform/identity/api-tokens.ts';
import { type AppRouter, appRouter } from '../router.ts';
import { createSecrets } from '../secrets.ts';
import { seedReferenceData } from '../seed/demo.ts';
import { createServices } from '../services.ts';
import { createUser, TEST_PASSWORD, type TestUser } from '../testing/auth.ts';
import { createBook, createListing } from '../testing/catalogue.ts';
import { createTestDatabase, type TestDatabase } from '../testing/db.ts';
import { type DatabaseProxy, startDatabaseProxy } from '../testing/db-proxy.ts';
import type { Meta } from '../trpc.ts';

/** The headers a client, a proxy or a cache reads. */
const COMPARED_HEADERS = [
  'content-type',
  'cache-control',
  'vary',
  'retry-after',
  'set-cookie',
  'content-encoding',
  'x-cache',
  'www-authenticate',
] as const;

interface Sent {
  method: 'GET' | 'POST' | 'HEAD';
  url: string;
  headers: Record<string, string>;
  payload?: string;
}

/** One answer, as plain data. */
interface Answer {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: Buffer;
}

interface Exchange {
  sent: Sent;
  stock: Answer;
  lean: Answer;
}

let database: TestDatabase;
let proxy: DatabaseProxy;
let handle: DatabaseHandle;
let stockApp: FastifyInstance;
let leanApp: FastifyInstance;
let member: TestUser;
let memberCookie: string;
let listingSlug: string;
let listingId: string;
let opsToken: string;
let readToken: string;
const exchanges: Exchange[] = [];

async function appWith(config: AppConfig) {
  const secrets = createSecrets('test-secret-that-is-long-enough-for-hkdf-0123456789');
  const services = await createServices(config, handle, secrets);
  const app = await buildApp({ config, database: handle, secrets, services });
  await app.ready();
  return { app, services, secrets };
}

function answer(response: LightMyRequestResponse): Answer {
  return { status: response.statusCode, headers: { ...response.headers }, body: response.rawPayload };
}

/** One request to both apps, the stock one first. */
async function both(sent: Sent): Promise<Exchange> {
  const stock = answer(await stockApp.inject(sent));
  const lean = answer(await leanApp.inject(sent));
  const exchange = { sent, stock, lean };
  exchanges.push(exchange);
  return exchange;
}

/**
 * Times the server reads from its clock as it answers (a browse page's `asOf`, an export's period
 * end): the two answers are made milliseconds apart, so these are compared as instants within a
 * second of each other, and every other byte exactly.
 */
const CLOCK_FIELDS = /"(asOf|to)":"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z)"/g;

/** What must agree: status, the compared headers, and the body (as text, for a readable diff). */
function comparable({ status, headers, body }: Answer) {
  const picked: Record<string, unknown> = {};
  for (const name of COMPARED_HEADERS) picked[name] = headers[name];
  const clock: number[] = [];
  const text = body.toString('utf8').replace(CLOCK_FIELDS, (_match, field: string, iso: string) => {
    clock.push(Date.parse(iso));
    return `"${field}":"<clock>"`;
  });
  return { status, headers: picked, body: text, clock };
}

function expectSameAnswer({ sent, stock, lean }: Exchange) {
  const where = `${sent.method} ${sent.url}`;
  const { clock: leanClock, ...leanRest } = comparable(lean);
  const { clock: stockClock, ...stockRest } = comparable(stock);
  expect(leanRest, where).toEqual(stockRest);
  expect(Buffer.compare(Buffer.from(leanRest.body), Buffer.from(stockRest.body)), `${where}: bytes`).toBe(0);
  expect(leanClock.length, `${where}: clock fields`).toBe(stockClock.length);
  leanClock.forEach((instant, index) => {
    expect(Math.abs(instant - (stockClock[index] ?? 0)), `${where}: clock field ${index}`).toBeLessThan(1000);
  });
  // Without clock fields, the raw bytes themselves.
  if (stockClock.length === 0) expect(Buffer.compare(lean.body, stock.body), `${where}: body bytes`).toBe(0);
}

/** A fetch for @trpc/client that sends every request to both apps and hands back the stock answer. */
function dualFetch(extra: Record<string, string>) {
  return async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = new URL(String(input));
    const headers: Record<string, string> = {};
    new Headers(init?.headers).forEach((value, key) => {
      headers[key] = value;
    });
    Object.assign(headers, extra);
    const { stock } = await both({
      method: (init?.method ?? 'GET') as 'GET' | 'POST',
      url: `${url.pathname}${url.search}`,
      headers,
      ...(typeof init?.body === 'string' ? { payload: init.body } : {}),
    });
    const answerHeaders = new Headers();
    for (const [key, value] of Object.entries(stock.headers)) {
      if (value === undefined) continue;
      for (const one of Array.isArray(value) ? value : [value]) answerHeaders.append(key, String(one));
    }
    return new Response(stock.status === 204 ? null : new Uint8Array(stock.body), {
      status: stock.status,
      headers: answerHeaders,
    });
  };
}

/** The web client as web/src/lib/trpc.ts makes it: batched, the client header, cookies. */
function webClient(cookie?: string) {
  return createTRPCClient<AppRouter>({
    links: [
      httpBatchLink({
        url: 'http://localhost/trpc',
        headers: { [CLIENT_HEADER]: 'web' },
        fetch: dualFetch(cookie ? { cookie } : {}),
      }),
    ],
  });
}

/** The ops CLI as api/scripts/ops.ts makes it: one request per call, a bearer API token. */
function opsClient(token: string) {
  return createTRPCClient<AppRouter>({
    links: [
      httpLink({
        url: 'http://localhost/trpc',
        headers: { authorization: `Bearer ${token}` },
        fetch: dualFetch({}),
      }),
    ],
  });
}

/** Runs calls that may be refused; the answers are compared, not the outcomes. */
async function settle(...calls: Promise<unknown>[]) {
  await Promise.allSettled(calls);
}

/** Every exchange since `from` agreed, and there was at least one. */
function expectAllSame(from: number) {
  const recent = exchanges.slice(from);
  expect(recent.length).toBeGreaterThan(0);
  for (const exchange of recent) expectSameAnswer(exchange);
  return recent;
}

beforeAll(async () => {
  database = await createTestDatabase();
  await seedReferenceData(database.handle.db);
  proxy = await startDatabaseProxy(database.appUrl);
  handle = createDatabase(proxy.url, { max: 8 });
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATABASE_URL: proxy.url,
    WEB_DIST: 'api/.no-web-dist',
  });
  expect(config.trpcPath).toBe('lean');
  const stock = await appWith({ ...config, trpcPath: 'stock' });
  const lean = await appWith(config);
  stockApp = stock.app;
  leanApp = lean.app;
  expect(stockApp.trpcPath.path).toBe('stock');
  expect(leanApp.trpcPath.path).toBe('lean');

  const db = database.handle.db;
  member = await createUser(db, stock.services.identity, 'lean-member@example.com');
  const opsAdmin = await createUser(db, stock.services.identity, 'lean-ops@example.com', {
    roles: ['admin'],
    tier: 'ops_admin',
  });
  opsToken = (
    await createApiToken(db, stock.secrets, opsAdmin.id, {
      name: 'ops',
      scope: 'read_write',
      expiresInDays: 7,
    })
  ).token;
  readToken = (
    await createApiToken(db, stock.secrets, opsAdmin.id, { name: 'read', scope: 'read', expiresInDays: 7 })
  ).token;
  const bookId = await createBook(db, { title: 'The Lean Path', authors: ['A. Writer'] });
  const listing = await createListing(db, { sellerId: member.id, bookId, price: 750 });
  listingSlug = listing.slug;
  listingId = listing.id;

  // A browser session: the cookies the sign-in sets.
  const signedIn = await stockApp.inject({
    method: 'POST',
    url: '/trpc/account.auth.signIn',
    headers: { [CLIENT_HEADER]: 'web', 'content-type': 'application/json' },
    payload: JSON.stringify({ email: member.email, password: TEST_PASSWORD }),
  });
  expect(signedIn.statusCode).toBe(200);
  memberCookie = signedIn.cookies.map((cookie) => `${cookie.name}=${cookie.value}`).join('; ');
});

afterAll(async () => {
  await stockApp?.close();
  await leanApp?.close();
  await handle?.close();
  await proxy?.close();
  await database?.drop();
});

describe('the lean tRPC path answers as the stock plugin does', () => {
  it('the comparison itself notices one changed byte, header or status', async () => {
    const exchange = await both({ method: 'GET', url: '/trpc/account.auth.me', headers: {} });
    expectSameAnswer(exchange);
    expect(exchange.stock.body.toString()).toBe('{"result":{"data":{"user":null}}}');
    const changed = (patch: Partial<Answer>) => ({ ...exchange, lean: { ...exchange.lean, ...patch } });
    const body = Buffer.from(exchange.stock.body.toString().replace('"data"', '"date"'));
    expect(() => expectSameAnswer(changed({ body }))).toThrow();
    expect(() =>
      expectSameAnswer(changed({ headers: { ...exchange.lean.headers, vary: 'accept' } })),
    ).toThrow();
    expect(() => expectSameAnswer(changed({ status: 207 }))).toThrow();
  });

  it("the web client's batched queries, anonymous: catalogue pages, a missing listing (207), the NUL guard", async () => {
    const from = exchanges.length;
    const leanBefore = leanApp.trpcPath.lean;
    const web = webClient();
    await settle(
      web.account.auth.me.query(),
      web.catalogue.taxonomy.public.categories.query(),
      web.catalogue.discovery.public.home.query(),
      web.catalogue.listings.browse.query({}),
      web.catalogue.listings.bySlug.query({ slug: listingSlug }),
    );
    await settle(web.catalogue.listings.bySlug.query({ slug: listingSlug }), web.account.auth.me.query());
    await settle(
      web.catalogue.listings.bySlug.query({ slug: 'no-such-listing' }),
      web.catalogue.listings.similar.query({ slug: listingSlug }),
    );
    await settle(web.catalogue.listings.search.query({ q: 'lean' }));
    await settle(web.catalogue.listings.search.query({ q: 'a\u0000b' }));
    await settle(web.catalogue.listings.bySlug.query({ slug: '' }), web.account.auth.me.query());
    const recent = expectAllSame(from);
    expect(recent.map((exchange) => exchange.stock.status)).toEqual(expect.arrayContaining([200, 207, 400]));
    expect(recent.some((exchange) => exchange.sent.url.includes('batch=1'))).toBe(true);
    // The lean app answered every one of them itself.
    expect(leanApp.trpcPath.lean - leanBefore).toBe(recent.length);
  });

  it("the web client's mutations and refusals: 400, 401, 403, cookies cleared, the CSRF header", async () => {
    const from = exchanges.length;
    const anonymous = webClient();
    await settle(anonymous.catalogue.listings.recordView.mutate({ listingId }));
    await settle(anonymous.catalogue.listings.recordView.mutate({ listingId: 'not-an-id' }));
    await settle(anonymous.account.notifications.unreadCount.query());
    await settle(anonymous.account.notifications.markRead.mutate({ ids: 'all' }));
    await settle(anonymous.account.auth.signOut.mutate({}));
    // Wrong password: 400 with the identity's message.
    await settle(anonymous.account.auth.signIn.mutate({ email: member.email, password: 'not-the-password' }));

    const signedIn = webClient(memberCookie);
    await settle(
      signedIn.account.auth.me.query(),
      signedIn.account.notifications.unreadCount.query(),
      signedIn.account.notifications.emailPreferences.query(),
      signedIn.catalogue.wishlist.status.query(),
    );
    await settle(signedIn.account.notifications.markRead.mutate({ ids: 'all' }));
    await settle(signedIn.staff.dashboard.metrics.query({ period: 'today' }));
    const recent = expectAllSame(from);
    expect(recent.map((exchange) => exchange.stock.status)).toEqual(
      expect.arrayContaining([200, 400, 401, 403]),
    );

    // A cookie mutation without the client header: refused by the CSRF guard before tRPC.
    expectSameAnswer(
      await both({
        method: 'POST',
        url: '/trpc/account.notifications.markRead',
        headers: { cookie: memberCookie, 'content-type': 'application/json' },
        payload: JSON.stringify({ ids: 'all' }),
      }),
    );
  });

  it('412 and 429 from the sign-in and confirmation flows', async () => {
    const email = 'lean-unconfirmed@example.com';
    const signUp = await stockApp.inject({
      method: 'POST',
      url: '/trpc/account.auth.signUp',
      headers: { [CLIENT_HEADER]: 'web', 'content-type': 'application/json' },
      payload: JSON.stringify({ email, password: TEST_PASSWORD, displayName: 'Unconfirmed' }),
    });
    expect(signUp.statusCode).toBe(200);
    const from = exchanges.length;
    const web = webClient();
    await settle(web.account.auth.signIn.mutate({ email, password: TEST_PASSWORD }));
    expect(exchanges.at(-1)?.stock.status).toBe(412);
    // The confirmation email may be asked for a few times, then 429 with Retry-After.
    for (let attempt = 0; attempt < 10; attempt += 1) {
      const resent = await stockApp.inject({
        method: 'POST',
        url: '/trpc/account.auth.resendConfirmation',
        headers: { [CLIENT_HEADER]: 'web', 'content-type': 'application/json' },
        payload: JSON.stringify({ email }),
      });
      if (resent.statusCode === 429) break;
    }
    await settle(web.account.auth.resendConfirmation.mutate({ email }));
    const limited = exchanges.at(-1);
    expect(limited?.stock.status).toBe(429);
    expect(limited?.stock.headers['retry-after']).toBeDefined();
    // The window's remaining seconds may tick between the two answers: compare the rest exactly.
    const seconds = (response: Answer) => Number(response.headers['retry-after']);
    expect(Math.abs(seconds(limited!.lean) - seconds(limited!.stock))).toBeLessThanOrEqual(1);
    for (const exchange of exchanges.slice(from, -1)) expectSameAnswer(exchange);
    const withoutRetry = (response: Answer) => {
      const { headers, clock: _clock, ...rest } = comparable(response);
      return { ...rest, headers: { ...headers, 'retry-after': 'compared above' } };
    };
    expect(withoutRetry(limited!.lean)).toEqual(withoutRetry(limited!.stock));
  });

  it("the ops CLI's calls with an API token, and a read-only token's refused mutation", async () => {
    const from = exchanges.length;
    const ops = opsClient(opsToken);
    await settle(ops.staff.dashboard.cleanupPreview.query());
    await settle(ops.staff.ops.exportOrders.query({ period: 'mtd' }));
    await settle(ops.staff.ops.exportOrders.query({ period: 'never' as never }));
    await settle(ops.staff.ops.revokeRole.mutate({ email: member.email, role: 'moderator' }));
    await settle(ops.staff.ops.grantRole.mutate({ email: member.email, role: 'nobody' as never }));
    await settle(
      ops.staff.ops.createStaffUser.mutate({ email: 'not an email', displayName: 'X', role: 'moderator' }),
    );
    await settle(
      opsClient(readToken).staff.ops.revokeRole.mutate({ email: member.email, role: 'moderator' }),
    );
    await settle(opsClient('rsk_not_a_real_token_at_all_0000000000').account.auth.me.query());
    const recent = expectAllSame(from);
    expect(recent.map((exchange) => exchange.stock.status)).toEqual(
      expect.arrayContaining([200, 400, 401, 403]),
    );
  });

  it('malformed requests: unknown procedures, wrong methods, bad JSON, bad batches, other methods', async () => {
    const from = exchanges.length;
    const json = { 'content-type': 'application/json', [CLIENT_HEADER]: 'web' };
    const input = (value: unknown) => encodeURIComponent(JSON.stringify(value));
    const requests: Sent[] = [
      { method: 'GET', url: '/trpc/no.such.procedure', headers: {} },
      { method: 'GET', url: '/trpc/account.auth.me,no.such.procedure?batch=1&input=%7B%7D', headers: {} },
      {
        method: 'GET',
        url: `/trpc/catalogue.listings.bySlug?input=${input({ slug: listingSlug })}`,
        headers: {},
      },
      { method: 'GET', url: '/trpc/catalogue.listings.bySlug?input=%7Bnot-json', headers: {} },
      {
        method: 'GET',
        url: '/trpc/catalogue.listings.bySlug,account.auth.me?batch=1&input=%5B1%5D',
        headers: {},
      },
      { method: 'GET', url: '/trpc/catalogue.listings.bySlug?batch=1&input=5', headers: {} },
      { method: 'GET', url: '/trpc/catalogue.listings.bySlug', headers: {} },
      { method: 'GET', url: '/trpc/account.auth.signOut', headers: {} },
      { method: 'POST', url: '/trpc/account.auth.me', headers: json, payload: '{}' },
      { method: 'POST', url: '/trpc/account.auth.signOut', headers: json, payload: '{"scope":' },
      { method: 'POST', url: '/trpc/account.auth.signOut?batch=1', headers: json, payload: '{"0":{}}' },
      { method: 'POST', url: '/trpc/account.auth.signOut', headers: json },
      {
        method: 'POST',
        url: '/trpc/account.auth.signOut',
        headers: { ...json, 'content-type': 'text/plain' },
        payload: '{}',
      },
      { method: 'GET', url: '/trpc/account.auth.me%2Cauth.me?batch=1', headers: {} },
      {
        method: 'GET',
        url: '/trpc/account.auth.me?batch=1&input=%7B%7D&connectionParams=%7B%7D',
        headers: {},
      },
      { method: 'HEAD', url: '/trpc/account.auth.me', headers: {} },
      {
        method: 'GET',
        url: `/trpc/catalogue.listings.search?input=${input({ q: 'x'.repeat(3000) })}`,
        headers: { 'accept-encoding': 'identity' },
      },
    ];
    for (const sent of requests) await both(sent);
    expectAllSame(from);
  });

  it('an answer of 1 KB or more is compressed by both, to the same JSON', async () => {
    const sent: Sent = {
      method: 'GET',
      url: '/trpc/catalogue.taxonomy.public.categories',
      headers: { 'accept-encoding': 'br' },
    };
    const stock = answer(await stockApp.inject(sent));
    const lean = answer(await leanApp.inject(sent));
    expect(stock.headers['content-encoding']).toBe('br');
    expect(lean.headers['content-encoding']).toBe('br');
    expect(lean.headers.vary).toBe(stock.headers.vary);
    expect(brotliDecompressSync(lean.body).toString()).toBe(brotliDecompressSync(stock.body).toString());
  });

  it('503 with Retry-After while PostgreSQL is away, single and batched', async () => {
    const from = exchanges.length;
    proxy.cut();
    try {
      const signedIn = webClient(memberCookie);
      await settle(signedIn.account.auth.me.query());
      await settle(signedIn.account.auth.me.query(), signedIn.account.notifications.unreadCount.query());
      await settle(signedIn.account.notifications.markRead.mutate({ ids: 'all' }));
      await settle(webClient().catalogue.listings.bySlug.query({ slug: listingSlug }));
    } finally {
      proxy.restore();
    }
    const recent = expectAllSame(from);
    expect(recent.every((exchange) => exchange.stock.status === 503)).toBe(true);
    expect(recent.every((exchange) => exchange.stock.headers['retry-after'] !== undefined)).toBe(true);
  });
});

/**
 * A query that declares its answer to anyone without a credential (meta.anonymousAnswer): the
 * lean path sends it without a context or a procedure call. Every such procedure is asked on
 * both apps (the stock plugin always runs the procedure), and the two answers must agree on
 * everything: the status, every header (security, cache, CORS, the request id we send) and the
 * body, byte for byte; a caller with a credential still goes through the procedure.
 */
describe('a declared anonymous answer is sent without calling the procedure', () => {
  /**
   * Every header except the transport's: the date, the connection, and the framing (the stock
   * plugin streams its answer chunked, the lean path sends a Content-Length: decision 0040).
   */
  const everyHeader = (response: Answer) => {
    const {
      date: _date,
      connection: _connection,
      'content-length': _length,
      'transfer-encoding': _chunked,
      ...rest
    } = response.headers;
    return { status: response.status, headers: rest, body: response.body.toString('utf8') };
  };
  const expectIdentical = ({ sent, stock, lean }: Exchange) => {
    const where = `${sent.method} ${sent.url}`;
    expect(everyHeader(lean), where).toEqual(everyHeader(stock));
    expect(Buffer.compare(lean.body, stock.body), `${where}: body bytes`).toBe(0);
    expect(Number(lean.headers['content-length']), `${where}: length`).toBe(lean.body.length);
  };
  const declared = () =>
    Object.entries(
      (appRouter as unknown as { _def: { procedures: Record<string, { _def: { meta?: Meta } }> } })._def
        .procedures,
    )
      .filter(([, procedure]) => procedure._def.meta?.anonymousAnswer !== undefined)
      .map(([path]) => path);

  it('anonymous: the same bytes and headers as the procedure, and no procedure ran', async () => {
    const paths = declared();
    // The walk found the procedure this exists for (a filter that matched nothing proves nothing).
    expect(paths).toContain('account.auth.me');
    const before = leanApp.trpcPath.anonymous;
    let shortcuts = 0;
    for (const path of paths) {
      const variants: Sent[] = [
        { method: 'GET', url: `/trpc/${path}`, headers: { 'x-request-id': `anon-${path}` } },
        // The Capacitor app's origin: CORS headers on both.
        {
          method: 'GET',
          url: `/trpc/${path}`,
          headers: { origin: 'capacitor://localhost', 'x-request-id': `cors-${path}` },
        },
        // The web client's batch (void inputs as `{}`), with a cookie that is no session's.
        {
          method: 'GET',
          url: `/trpc/${path},${path}?batch=1&input=%7B%7D`,
          headers: { [CLIENT_HEADER]: 'web', cookie: 'theme=dark', 'x-request-id': `batch-${path}` },
        },
      ];
      for (const sent of variants) expectIdentical(await both(sent));
      shortcuts += 4;
    }
    expect(leanApp.trpcPath.anonymous - before).toBe(shortcuts);
    const me = await leanApp.inject({ method: 'GET', url: '/trpc/account.auth.me' });
    expect(me.body).toBe('{"result":{"data":{"user":null}}}');
  });

  it('a session cookie, a bearer token or an input goes through the procedure', async () => {
    const before = leanApp.trpcPath.anonymous;
    const sent: Sent[] = [
      { method: 'GET', url: '/trpc/account.auth.me', headers: { cookie: memberCookie, 'x-request-id': 'c' } },
      {
        method: 'GET',
        url: '/trpc/account.auth.me',
        headers: { authorization: `Bearer ${readToken}`, 'x-request-id': 'b' },
      },
      {
        method: 'GET',
        url: '/trpc/account.auth.me',
        headers: { authorization: 'Bearer not-a-token', 'x-request-id': 'x' },
      },
      { method: 'GET', url: '/trpc/account.auth.me?input=%7B%7D', headers: { 'x-request-id': 'i' } },
    ];
    const exchanges = [];
    for (const one of sent) exchanges.push(await both(one));
    for (const exchange of exchanges) expectIdentical(exchange);
    expect(exchanges[0]!.lean.body.toString()).toContain(member.email);
    expect(exchanges[2]!.lean.status).toBe(200);
    expect(exchanges[2]!.lean.headers['www-authenticate']).toBeDefined();
    expect(exchanges[3]!.lean.status).toBe(400);
    expect(leanApp.trpcPath.anonymous).toBe(before);
  });
});
