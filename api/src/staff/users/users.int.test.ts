/** /admin/users: admins search, view, suspend and grant moderator; every change audited. */
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/index.ts';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { createUser, TEST_PASSWORD, type TestUser, WEB } from '../../testing/auth.ts';
import { createBook, createListing } from '../../testing/catalogue.ts';
import { api, refusal, statusOf } from '../../testing/client.ts';

let t: TestApp;
let db: Database;
let admin: TestUser;
let moderator: TestUser;
let person: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  db = t.database.handle.db;
  admin = await createUser(db, t.services.identity, 'admin@users.test', { roles: ['admin'] });
  moderator = await createUser(db, t.services.identity, 'moderator@users.test', { roles: ['moderator'] });
  person = await createUser(db, t.services.identity, 'reader.jones@users.test');
  const bookId = await createBook(db, { title: 'Suspended Animation' });
  await createListing(db, { sellerId: person.id, bookId });
});

afterAll(async () => {
  await t.close();
});

async function auditOf(action: string) {
  return db.selectFrom('audit_log').selectAll().where('action', '=', action).execute();
}

describe('admin users', () => {
  it('only admins may search, view or change people', async () => {
    const as = api(t.app, moderator.accessToken);
    for (const call of [
      () => as.staff.users.search.query({}),
      () => as.staff.users.get.query({ userId: person.id }),
      () =>
        as.staff.users.setSuspended.mutate({ userId: person.id, suspended: true, reason: 'Spam listings' }),
      () => as.staff.users.setModerator.mutate({ userId: person.id, moderator: true }),
    ]) {
      expect(await refusal(call())).toEqual({ status: 403, message: 'Access denied: admin role required' });
      expect(await statusOf(api(t.app, person.accessToken).staff.users.search.query({}))).toBe(403);
    }
    expect(await auditOf('user.suspend')).toEqual([]);
  });

  it('finds people by email or name and shows one with roles, listings and orders', async () => {
    const as = api(t.app, admin.accessToken);
    const found = await as.staff.users.search.query({ q: 'READER.jones' });
    expect(found).toEqual([
      expect.objectContaining({ id: person.id, email: person.email, roles: [], suspended: false }),
    ]);
    const byRole = await as.staff.users.search.query({ q: 'moderator@' });
    expect(byRole.map((row) => row.roles)).toEqual([['moderator']]);
    expect(await as.staff.users.search.query({ q: '%' })).toEqual([]);

    const detail = await as.staff.users.get.query({ userId: person.id });
    expect(detail).toMatchObject({
      email: person.email,
      listings: { total: 1, active: 1 },
      orders: { bought: 0, sold: 0, recent: [] },
      trades: 'unanswered',
      business: null,
    });
    // A business seller's declaration is staff's to see (decision 0073).
    await api(t.app, person.accessToken).selling.trader.declareBusiness.mutate({
      tradingName: 'Jones Books',
      isCompany: false,
      addressLine1: '1 High Street',
      town: 'Ely',
      postcode: 'CB7 4JU',
      contactEmail: 'jones@books.test',
    });
    expect(await as.staff.users.get.query({ userId: person.id })).toMatchObject({
      trades: 'business',
      business: { tradingName: 'Jones Books', isCompany: false, companyNumber: null, postcode: 'CB7 4JU' },
    });
    expect(await refusal(as.staff.users.get.query({ userId: crypto.randomUUID() }))).toEqual({
      status: 404,
      message: 'There is no such person. Search again.',
    });
  });

  it('suspends someone: the session stops on the next request and they cannot sign in', async () => {
    // The person is signed in in a browser.
    const signIn = await request(t.app.server)
      .post('/trpc/account.auth.signIn')
      .set(WEB)
      .send({ email: person.email, password: TEST_PASSWORD });
    expect(signIn.status).toBe(200);
    const cookies = (signIn.headers['set-cookie'] as unknown as string[])
      .map((c) => c.split(';')[0])
      .join('; ');
    const browser = api(t.app, { cookie: cookies });
    expect(await statusOf(browser.account.member.profile.query())).toBe(200);

    const as = api(t.app, admin.accessToken);
    expect(
      await refusal(as.staff.users.setSuspended.mutate({ userId: person.id, suspended: true, reason: '' })),
    ).toEqual({ status: 400, message: 'reason: Give a reason (at least 3 characters)' });
    const suspended = await as.staff.users.setSuspended.mutate({
      userId: person.id,
      suspended: true,
      reason: 'Spam listings',
    });
    expect(suspended.suspended).toBe(true);

    expect(await refusal(browser.account.member.profile.query())).toEqual({
      status: 401,
      message: 'This account is suspended. Contact us if you think this is a mistake.',
    });
    expect(await statusOf(api(t.app, person.accessToken).account.member.profile.query())).toBe(401);
    const signInAgain = api(t.app, { headers: WEB }).account.auth.signIn.mutate({
      email: person.email,
      password: TEST_PASSWORD,
    });
    expect(await refusal(signInAgain)).toEqual({
      status: 403,
      message: 'This account is suspended. Contact us if you think this is a mistake.',
    });

    const [entry] = await auditOf('user.suspend');
    expect(entry).toMatchObject({
      actor_email: admin.email,
      target_id: person.id,
      details: { email: person.email, reason: 'Spam listings' },
    });
    expect(
      await refusal(
        as.staff.users.setSuspended.mutate({ userId: person.id, suspended: true, reason: 'Again' }),
      ),
    ).toEqual({ status: 409, message: `${person.email} is already suspended. Refresh the page.` });
    expect(
      await refusal(
        as.staff.users.setSuspended.mutate({ userId: admin.id, suspended: true, reason: 'Oops' }),
      ),
    ).toMatchObject({ status: 400 });

    await as.staff.users.setSuspended.mutate({
      userId: person.id,
      suspended: false,
      reason: 'Appeal upheld',
    });
    const back = api(t.app, { headers: WEB }).account.auth.signIn.mutate({
      email: person.email,
      password: TEST_PASSWORD,
    });
    expect(await statusOf(back)).toBe(200);
    expect(await auditOf('user.unsuspend')).toHaveLength(1);
  });

  it('grants and revokes moderator: the person can then reach the staff queues, and not after', async () => {
    const as = api(t.app, admin.accessToken);
    // The suspension above ended the person's earlier sessions: sign in afresh.
    const fresh = await t.services.identity.signIn(person.email, TEST_PASSWORD, {});
    expect(await statusOf(api(t.app, fresh.accessToken).staff.audit.search.query({}))).toBe(403);
    const granted = await as.staff.users.setModerator.mutate({ userId: person.id, moderator: true });
    expect(granted.roles).toEqual(['moderator']);
    expect(await statusOf(api(t.app, fresh.accessToken).staff.audit.search.query({}))).toBe(200);
    expect(await refusal(as.staff.users.setModerator.mutate({ userId: person.id, moderator: true }))).toEqual(
      {
        status: 409,
        message: `${person.email} is already a moderator. Refresh the page.`,
      },
    );

    const revoked = await as.staff.users.setModerator.mutate({ userId: person.id, moderator: false });
    expect(revoked.roles).toEqual([]);
    expect(await statusOf(api(t.app, fresh.accessToken).staff.audit.search.query({}))).toBe(403);
    expect((await auditOf('user.grant_moderator')).map((row) => row.target_id)).toEqual([person.id]);
    expect(await auditOf('user.revoke_moderator')).toHaveLength(1);
  });
});
