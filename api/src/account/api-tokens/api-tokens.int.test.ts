/**
 * Personal API tokens on the real app: who may create them, shown once and stored hashed,
 * scopes on /trpc and /api/v1, expiry, revocation taking effect on the next request, last use,
 * refusals rate-limited per IP, and no token making tokens.
 */
import { API_TOKEN_MAX_LIVE } from '@reshelf/contracts';
import { sql } from 'kysely';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/index.ts';
import { hashApiToken } from '../../platform/identity/api-tokens.ts';
import { API_TOKEN_FAILURES, API_TOKEN_REFUSALS } from '../../platform/identity/resolve-auth.ts';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { createUser, type TestUser, WEB } from '../../testing/auth.ts';
import { api, failure, type RouterInputs, statusOf } from '../../testing/client.ts';
import { READ_ONLY_TOKEN_MESSAGE } from '../../trpc.ts';

let t: TestApp;
let db: Database;
let staff: TestUser;
let seller: TestUser;
let charityOwner: TestUser;
let buyer: TestUser;

function createToken(user: TestUser, input: RouterInputs['account']['apiTokens']['create']) {
  return api(t.app, user.accessToken).account.apiTokens.create.mutate(input);
}

async function listingFor(sellerId: string, status: string) {
  const book = await db
    .insertInto('books')
    .values({ title: `Token book ${Math.random()}`, authors: ['A. Writer'] })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('listings')
    .values({
      seller_id: sellerId,
      book_id: book.id,
      slug: status === 'draft' ? null : `token-book-${Math.random().toString(36).slice(2, 10)}`,
      status,
      condition: status === 'draft' ? null : 'good',
      price_minor: status === 'draft' ? null : 500,
      parcel_size: status === 'draft' ? null : 'small',
      published_at: status === 'draft' ? null : new Date(),
    })
    .execute();
}

beforeAll(async () => {
  t = await createTestApp();
  db = t.database.handle.db;
  staff = await createUser(db, t.services.identity, 'token-staff@example.com', { roles: ['moderator'] });
  seller = await createUser(db, t.services.identity, 'token-seller@example.com');
  await listingFor(seller.id, 'active');
  charityOwner = await createUser(db, t.services.identity, 'token-charity@example.com');
  await db
    .insertInto('charities')
    .values({
      slug: 'token-charity',
      name: 'Token Charity',
      registered_number: '1234567',
      status: 'approved',
      owner_id: charityOwner.id,
    })
    .execute();
  buyer = await createUser(db, t.services.identity, 'token-buyer@example.com');
  await listingFor(buyer.id, 'draft');
});

afterAll(async () => {
  await t.close();
});

describe('who may create tokens', () => {
  it('lets staff, sellers and charities create tokens, and shows the token once', async () => {
    for (const [user, kind] of [
      [staff, 'staff'],
      [seller, 'seller'],
      [charityOwner, 'charity'],
    ] as const) {
      const list = await api(t.app, user.accessToken).account.apiTokens.list.query();
      expect(list).toMatchObject({ eligible: true, holderKinds: [kind], tokens: [] });
      const created = createToken(user, { name: `${kind} script`, scope: 'read' });
      expect(await statusOf(created)).toBe(200);
      const token = await created;
      expect(token.token).toMatch(/^rsk_[A-Za-z0-9_-]{40}$/);
      expect(token).toMatchObject({
        name: `${kind} script`,
        scope: 'read',
        status: 'active',
        lastUsedAt: null,
      });
      expect(token.prefix).toBe(token.token.slice(0, 12));
      // 90 days unless chosen.
      const days = (Date.parse(token.expiresAt) - Date.parse(token.createdAt)) / 86_400_000;
      expect(Math.round(days)).toBe(90);
      // Listed afterwards without the token itself; stored only as its HMAC.
      const again = await api(t.app, user.accessToken).account.apiTokens.list.query();
      expect(JSON.stringify(again)).not.toContain(token.token);
      const row = await db
        .selectFrom('api_tokens')
        .selectAll()
        .where('id', '=', token.id)
        .executeTakeFirstOrThrow();
      expect(row.token_hash).toBe(hashApiToken(t.secrets, token.token));
      expect(JSON.stringify(row)).not.toContain(token.token);
    }
  });

  it('refuses a buyer (even one with a draft) with a message saying who may', async () => {
    const list = await api(t.app, buyer.accessToken).account.apiTokens.list.query();
    expect(list).toMatchObject({ eligible: false, holderKinds: [] });
    const refused = await failure(createToken(buyer, { name: 'Mine', scope: 'read' }));
    expect(refused.status).toBe(403);
    expect(refused.message).toMatch(/staff, sellers and charities/);
    expect(await db.selectFrom('api_tokens').select('id').where('user_id', '=', buyer.id).execute()).toEqual(
      [],
    );
  });

  it('refuses bad input with field messages', async () => {
    const response = await failure(
      createToken(seller, { name: '  ', scope: 'admin', expiresInDays: 5 } as never),
    );
    expect(response.status).toBe(400);
    const { zodError } = response.data as { zodError: { fieldErrors: Record<string, string[]> } };
    expect(Object.keys(zodError.fieldErrors).sort()).toEqual(['expiresInDays', 'name', 'scope']);
  });

  it(`holds at most ${API_TOKEN_MAX_LIVE} live tokens per person`, async () => {
    const owner = await createUser(db, t.services.identity, 'token-many@example.com', { roles: ['admin'] });
    for (let index = 0; index < API_TOKEN_MAX_LIVE; index += 1) {
      expect(await statusOf(createToken(owner, { name: `Token ${index}`, scope: 'read' }))).toBe(200);
    }
    const over = await failure(createToken(owner, { name: 'One more', scope: 'read' }));
    expect(over.status).toBe(409);
    expect(over.message).toMatch(/Revoke one/);
    // A revoked token frees a place.
    const first = await db
      .selectFrom('api_tokens')
      .select('id')
      .where('user_id', '=', owner.id)
      .executeTakeFirstOrThrow();
    await api(t.app, owner.accessToken).account.apiTokens.revoke.mutate({ id: first.id });
    expect(await statusOf(createToken(owner, { name: 'One more', scope: 'read' }))).toBe(200);
  });
});

describe('using tokens', () => {
  let readToken: string;
  let writeToken: string;
  let writeTokenId: string;

  beforeAll(async () => {
    readToken = (await createToken(staff, { name: 'Reader', scope: 'read', expiresInDays: 7 })).token;
    const write = await createToken(staff, { name: 'Writer', scope: 'read_write', expiresInDays: 30 });
    writeToken = write.token;
    writeTokenId = write.id;
  });

  it('acts as its owner on tRPC and REST, and records when it was last used', async () => {
    const me = await api(t.app, readToken).account.auth.me.query();
    expect(me.user?.email).toBe('token-staff@example.com');
    const metricsCall = api(t.app, readToken).staff.dashboard.metrics.query({ period: 'ytd' });
    expect(await statusOf(metricsCall)).toBe(200);
    const metrics = await metricsCall;
    const rest = await request(t.app.server)
      .get('/api/v1/admin/metrics?period=ytd')
      .set('authorization', `Bearer ${readToken}`);
    expect(rest.status).toBe(200);
    expect(rest.body).toEqual(metrics);
    const row = await db
      .selectFrom('api_tokens')
      .select('last_used_at')
      .where('token_hash', '=', hashApiToken(t.secrets, readToken))
      .executeTakeFirstOrThrow();
    expect(row.last_used_at).not.toBeNull();
  });

  it('refuses every mutation to a read-only token, on tRPC and REST, and lets a read-write one through', async () => {
    const trpc = await failure(api(t.app, readToken).staff.dashboard.seed.mutate({ reset: false }));
    expect(trpc.status).toBe(403);
    expect(trpc.message).toBe(READ_ONLY_TOKEN_MESSAGE);
    const rest = await request(t.app.server)
      .post('/api/v1/admin/seed')
      .set('authorization', `Bearer ${readToken}`)
      .send({ reset: false });
    expect(rest.status).toBe(403);
    expect(rest.body).toEqual({ code: 'FORBIDDEN', message: READ_ONLY_TOKEN_MESSAGE });
    expect(await db.selectFrom('seed_items').selectAll().execute()).toEqual([]);
    const written = await request(t.app.server)
      .post('/api/v1/admin/seed')
      .set('authorization', `Bearer ${writeToken}`)
      .send({ reset: false });
    expect(written.status).toBe(200);
    expect(written.body.listings).toBe(40);
  });

  it('does not let a token make tokens, even a read-write one', async () => {
    const response = await failure(
      api(t.app, writeToken).account.apiTokens.create.mutate({ name: 'Child', scope: 'read_write' }),
    );
    expect(response.status).toBe(403);
    expect(response.message).toMatch(/cannot create tokens/);
  });

  it('stops working on the next request once revoked', async () => {
    expect(await statusOf(api(t.app, writeToken).account.auth.me.query())).toBe(200);
    const revoked = await api(t.app, staff.accessToken).account.apiTokens.revoke.mutate({ id: writeTokenId });
    expect(revoked).toMatchObject({ status: 'revoked' });
    for (const call of [
      failure(api(t.app, writeToken).staff.dashboard.metrics.query({ period: 'mtd' })),
      // Public procedures too: a script learns at once that its token is gone.
      failure(api(t.app, writeToken).catalogue.taxonomy.public.genres.query()),
      request(t.app.server)
        .get('/api/v1/genres')
        .set('authorization', `Bearer ${writeToken}`)
        .then((rest) => ({ status: rest.status, message: JSON.stringify(rest.body) })),
    ]) {
      const response = await call;
      expect(response.status).toBe(401);
      expect(response.message).toContain('This API token has been revoked');
    }
  });

  it('stops working once expired', async () => {
    const created = await createToken(seller, { name: 'Short', scope: 'read', expiresInDays: 7 });
    expect(await statusOf(api(t.app, created.token).selling.listings.mine.query({}))).toBe(200);
    await db
      .updateTable('api_tokens')
      .set({ created_at: sql`now() - interval '8 days'`, expires_at: sql`now() - interval '1 day'` })
      .where('id', '=', created.id)
      .execute();
    const response = await failure(api(t.app, created.token).selling.listings.mine.query({}));
    expect(response.status).toBe(401);
    expect(response.message).toMatch(/has expired/);
    const listed = await api(t.app, seller.accessToken).account.apiTokens.list.query();
    expect(listed.tokens.find((token) => token.id === created.id)?.status).toBe('expired');
  });

  it('lets only its owner revoke a token', async () => {
    const mine = await createToken(seller, { name: 'Seller only', scope: 'read' });
    const other = api(t.app, charityOwner.accessToken).account.apiTokens.revoke.mutate({ id: mine.id });
    expect(await statusOf(other)).toBe(404);
    expect(await statusOf(api(t.app, mine.token).account.auth.me.query())).toBe(200);
  });

  it('rate-limits an IP that keeps presenting tokens that do not work', async () => {
    await db
      .deleteFrom('rate_limits')
      .where('bucket', 'in', [API_TOKEN_FAILURES.bucket, API_TOKEN_REFUSALS.bucket])
      .execute();
    const forged = `rsk_${'A'.repeat(40)}`;
    for (let index = 0; index < API_TOKEN_FAILURES.limit; index += 1) {
      const response = await failure(api(t.app, forged).account.auth.me.query());
      expect(response.status).toBe(401);
      expect(response.message).toMatch(/not valid/);
    }
    const limited = await failure(api(t.app, forged).account.auth.me.query());
    expect(limited.status).toBe(429);
    expect(limited.headers['retry-after']).toMatch(/^\d+$/);
    expect(limited.message).toMatch(/Too many attempts with API tokens/);
    // Even a good token from that IP waits: the limit is on the address.
    const good = (await createToken(seller, { name: 'Good', scope: 'read' })).token;
    expect(await statusOf(api(t.app, good).account.auth.me.query())).toBe(429);
    await db
      .deleteFrom('rate_limits')
      .where('bucket', 'in', [API_TOKEN_FAILURES.bucket, API_TOKEN_REFUSALS.bucket])
      .execute();
    expect(await statusOf(api(t.app, good).account.auth.me.query())).toBe(200);
  });

  it('never takes session cookies on the REST API', async () => {
    const signIn = await request(t.app.server)
      .post('/trpc/account.auth.signIn')
      .set(WEB)
      .send({ email: 'token-staff@example.com', password: 'correct-horse-battery' });
    const cookies = signIn.headers['set-cookie'] as unknown as string[];
    expect(cookies.length).toBeGreaterThan(0);
    const viaCookie = await request(t.app.server).get('/api/v1/me/tokens').set('cookie', cookies.join('; '));
    expect(viaCookie.status).toBe(401);
    expect(viaCookie.body.code).toBe('UNAUTHORIZED');
  });
});

describe('sessions stay sessions', () => {
  it('refuses to sign out with an API token (it is not a session)', async () => {
    const token = (await createToken(seller, { name: 'No sign-out', scope: 'read_write' })).token;
    const response = await failure(api(t.app, token).account.auth.signOut.mutate({ scope: 'global' }));
    expect(response.status).toBe(403);
    expect(response.message).toMatch(/Revoke the token/);
    // The seller's session still works.
    expect((await api(t.app, seller.accessToken).account.auth.me.query()).user?.email).toBe(
      'token-seller@example.com',
    );
  });
});

describe('with the public cache on', () => {
  it('still refuses a revoked token on a cached public procedure', async () => {
    const cached = await createTestApp({ env: { PUBLIC_CACHE_SECONDS: '60' } });
    try {
      const cdb = cached.database.handle.db;
      const owner = await createUser(cdb, cached.services.identity, 'cache-staff@example.com', {
        roles: ['admin'],
      });
      const { token, id } = await api(cached.app, owner.accessToken).account.apiTokens.create.mutate({
        name: 'Cached',
        scope: 'read',
      });
      // Raw HTTP on purpose: the assertions read the public cache's header.
      const genres = () =>
        request(cached.app.server)
          .get('/trpc/catalogue.taxonomy.public.genres')
          .set('authorization', `Bearer ${token}`);
      // Anonymous calls fill the cache.
      expect((await request(cached.app.server).get('/trpc/catalogue.taxonomy.public.genres')).status).toBe(
        200,
      );
      expect(
        (await request(cached.app.server).get('/trpc/catalogue.taxonomy.public.genres')).headers['x-cache'],
      ).toBe('HIT');
      expect((await genres()).status).toBe(200);
      await api(cached.app, owner.accessToken).account.apiTokens.revoke.mutate({ id });
      const refused = await genres();
      expect(refused.status).toBe(401);
      expect(refused.body.error.message).toMatch(/revoked/);
    } finally {
      await cached.close();
    }
  });
});
