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
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { createUser, type TestUser, WEB } from '../../testing/auth.ts';
import { READ_ONLY_TOKEN_MESSAGE } from '../../trpc.ts';
import { API_TOKEN_FAILURES } from '../auth/resolve-auth.ts';
import { hashApiToken } from './api-tokens.service.ts';

let t: TestApp;
let db: Database;
let staff: TestUser;
let seller: TestUser;
let charityOwner: TestUser;
let buyer: TestUser;

const trpcQuery = (path: string, token: string, input?: unknown) =>
  request(t.app.server)
    .get(`/trpc/${path}${input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`}`)
    .set('authorization', `Bearer ${token}`);
const trpcMutation = (path: string, token: string, input: unknown) =>
  request(t.app.server)
    .post(`/trpc/${path}`)
    .set('authorization', `Bearer ${token}`)
    .send(input as object);

async function createToken(user: TestUser, input: Record<string, unknown>) {
  const response = await trpcMutation('account.apiTokens.create', user.accessToken, input);
  return response;
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
      const list = await trpcQuery('account.apiTokens.list', user.accessToken);
      expect(list.body.result.data).toMatchObject({ eligible: true, holderKinds: [kind], tokens: [] });
      const created = await createToken(user, { name: `${kind} script`, scope: 'read' });
      expect(created.status).toBe(200);
      const token = created.body.result.data;
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
      const again = await trpcQuery('account.apiTokens.list', user.accessToken);
      expect(JSON.stringify(again.body)).not.toContain(token.token);
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
    const list = await trpcQuery('account.apiTokens.list', buyer.accessToken);
    expect(list.body.result.data).toMatchObject({ eligible: false, holderKinds: [] });
    const refused = await createToken(buyer, { name: 'Mine', scope: 'read' });
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toMatch(/staff, sellers and charities/);
    expect(await db.selectFrom('api_tokens').select('id').where('user_id', '=', buyer.id).execute()).toEqual(
      [],
    );
  });

  it('refuses bad input with field messages', async () => {
    const response = await createToken(seller, { name: '  ', scope: 'admin', expiresInDays: 5 });
    expect(response.status).toBe(400);
    expect(Object.keys(response.body.error.data.zodError.fieldErrors).sort()).toEqual([
      'expiresInDays',
      'name',
      'scope',
    ]);
  });

  it(`holds at most ${API_TOKEN_MAX_LIVE} live tokens per person`, async () => {
    const owner = await createUser(db, t.services.identity, 'token-many@example.com', { roles: ['admin'] });
    for (let index = 0; index < API_TOKEN_MAX_LIVE; index += 1) {
      expect((await createToken(owner, { name: `Token ${index}`, scope: 'read' })).status).toBe(200);
    }
    const over = await createToken(owner, { name: 'One more', scope: 'read' });
    expect(over.status).toBe(409);
    expect(over.body.error.message).toMatch(/Revoke one/);
    // A revoked token frees a place.
    const first = await db
      .selectFrom('api_tokens')
      .select('id')
      .where('user_id', '=', owner.id)
      .executeTakeFirstOrThrow();
    await trpcMutation('account.apiTokens.revoke', owner.accessToken, { id: first.id });
    expect((await createToken(owner, { name: 'One more', scope: 'read' })).status).toBe(200);
  });
});

describe('using tokens', () => {
  let readToken: string;
  let writeToken: string;
  let writeTokenId: string;

  beforeAll(async () => {
    readToken = (await createToken(staff, { name: 'Reader', scope: 'read', expiresInDays: 7 })).body.result
      .data.token;
    const write = (await createToken(staff, { name: 'Writer', scope: 'read_write', expiresInDays: 30 })).body
      .result.data;
    writeToken = write.token;
    writeTokenId = write.id;
  });

  it('acts as its owner on tRPC and REST, and records when it was last used', async () => {
    const me = await trpcQuery('auth.me', readToken);
    expect(me.body.result.data.user.email).toBe('token-staff@example.com');
    const metrics = await trpcQuery('staff.dashboard.metrics', readToken, { period: 'ytd' });
    expect(metrics.status).toBe(200);
    const rest = await request(t.app.server)
      .get('/api/v1/admin/metrics?period=ytd')
      .set('authorization', `Bearer ${readToken}`);
    expect(rest.status).toBe(200);
    expect(rest.body).toEqual(metrics.body.result.data);
    const row = await db
      .selectFrom('api_tokens')
      .select('last_used_at')
      .where('token_hash', '=', hashApiToken(t.secrets, readToken))
      .executeTakeFirstOrThrow();
    expect(row.last_used_at).not.toBeNull();
  });

  it('refuses every mutation to a read-only token, on tRPC and REST, and lets a read-write one through', async () => {
    const trpc = await trpcMutation('staff.dashboard.seed', readToken, { reset: false });
    expect(trpc.status).toBe(403);
    expect(trpc.body.error.message).toBe(READ_ONLY_TOKEN_MESSAGE);
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
    const response = await trpcMutation('account.apiTokens.create', writeToken, {
      name: 'Child',
      scope: 'read_write',
    });
    expect(response.status).toBe(403);
    expect(response.body.error.message).toMatch(/cannot create tokens/);
  });

  it('stops working on the next request once revoked', async () => {
    expect((await trpcQuery('auth.me', writeToken)).status).toBe(200);
    const revoked = await trpcMutation('account.apiTokens.revoke', staff.accessToken, { id: writeTokenId });
    expect(revoked.body.result.data).toMatchObject({ status: 'revoked' });
    for (const call of [
      trpcQuery('staff.dashboard.metrics', writeToken, { period: 'mtd' }),
      // Public procedures too: a script learns at once that its token is gone.
      trpcQuery('catalogue.public.genres', writeToken),
      request(t.app.server).get('/api/v1/genres').set('authorization', `Bearer ${writeToken}`),
    ]) {
      const response = await call;
      expect(response.status).toBe(401);
      expect(JSON.stringify(response.body)).toContain('This API token has been revoked');
    }
  });

  it('stops working once expired', async () => {
    const created = (await createToken(seller, { name: 'Short', scope: 'read', expiresInDays: 7 })).body
      .result.data;
    expect((await trpcQuery('listings.selling.mine', created.token, {})).status).toBe(200);
    await db
      .updateTable('api_tokens')
      .set({ created_at: sql`now() - interval '8 days'`, expires_at: sql`now() - interval '1 day'` })
      .where('id', '=', created.id)
      .execute();
    const response = await trpcQuery('listings.selling.mine', created.token, {});
    expect(response.status).toBe(401);
    expect(response.body.error.message).toMatch(/has expired/);
    const listed = await trpcQuery('account.apiTokens.list', seller.accessToken);
    expect(
      listed.body.result.data.tokens.find((token: { id: string }) => token.id === created.id).status,
    ).toBe('expired');
  });

  it('lets only its owner revoke a token', async () => {
    const mine = (await createToken(seller, { name: 'Seller only', scope: 'read' })).body.result.data;
    const other = await trpcMutation('account.apiTokens.revoke', charityOwner.accessToken, { id: mine.id });
    expect(other.status).toBe(404);
    expect((await trpcQuery('auth.me', mine.token)).status).toBe(200);
  });

  it('rate-limits an IP that keeps presenting tokens that do not work', async () => {
    await db.deleteFrom('rate_limits').where('bucket', '=', API_TOKEN_FAILURES.bucket).execute();
    const forged = `rsk_${'A'.repeat(40)}`;
    for (let index = 0; index < API_TOKEN_FAILURES.limit; index += 1) {
      const response = await trpcQuery('auth.me', forged);
      expect(response.status).toBe(401);
      expect(response.body.error.message).toMatch(/not valid/);
    }
    const limited = await trpcQuery('auth.me', forged);
    expect(limited.status).toBe(429);
    expect(limited.headers['retry-after']).toMatch(/^\d+$/);
    expect(limited.body.error.message).toMatch(/Too many attempts with API tokens/);
    // Even a good token from that IP waits: the limit is on the address.
    const good = (await createToken(seller, { name: 'Good', scope: 'read' })).body.result.data.token;
    expect((await trpcQuery('auth.me', good)).status).toBe(429);
    await db.deleteFrom('rate_limits').where('bucket', '=', API_TOKEN_FAILURES.bucket).execute();
    expect((await trpcQuery('auth.me', good)).status).toBe(200);
  });

  it('never takes session cookies on the REST API', async () => {
    const signIn = await request(t.app.server)
      .post('/trpc/auth.signIn')
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
    const token = (await createToken(seller, { name: 'No sign-out', scope: 'read_write' })).body.result.data
      .token;
    const response = await trpcMutation('auth.signOut', token, { scope: 'global' });
    expect(response.status).toBe(403);
    expect(response.body.error.message).toMatch(/Revoke the token/);
    // The seller's session still works.
    expect((await trpcQuery('auth.me', seller.accessToken)).body.result.data.user.email).toBe(
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
      const created = await request(cached.app.server)
        .post('/trpc/account.apiTokens.create')
        .set('authorization', `Bearer ${owner.accessToken}`)
        .send({ name: 'Cached', scope: 'read' });
      const { token, id } = created.body.result.data;
      const genres = () =>
        request(cached.app.server)
          .get('/trpc/catalogue.public.genres')
          .set('authorization', `Bearer ${token}`);
      // Anonymous calls fill the cache.
      expect((await request(cached.app.server).get('/trpc/catalogue.public.genres')).status).toBe(200);
      expect((await request(cached.app.server).get('/trpc/catalogue.public.genres')).headers['x-cache']).toBe(
        'HIT',
      );
      expect((await genres()).status).toBe(200);
      await request(cached.app.server)
        .post('/trpc/account.apiTokens.revoke')
        .set('authorization', `Bearer ${owner.accessToken}`)
        .send({ id });
      const refused = await genres();
      expect(refused.status).toBe(401);
      expect(refused.body.error.message).toMatch(/revoked/);
    } finally {
      await cached.close();
    }
  });
});
