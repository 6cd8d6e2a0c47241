/** Feature flags: everyone reads them; staff list them; only admins toggle, describe and add. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/index.ts';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { createUser, type TestUser } from '../../testing/auth.ts';
import { api, refusal, statusOf } from '../../testing/client.ts';

let t: TestApp;
let db: Database;
let admin: TestUser;
let moderator: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  db = t.database.handle.db;
  admin = await createUser(db, t.services.identity, 'admin@flags.test', { roles: ['admin'] });
  moderator = await createUser(db, t.services.identity, 'moderator@flags.test', { roles: ['moderator'] });
});

afterAll(async () => {
  await t.close();
});

describe('feature flags', () => {
  it('are public to read, with the welcome gift on to start', async () => {
    expect(await api(t.app).platform.flags.public.query()).toEqual({ welcome_gift: true });
    const list = await api(t.app, moderator.accessToken).platform.flags.list.query();
    expect(list).toEqual([expect.objectContaining({ key: 'welcome_gift', enabled: true, updatedBy: null })]);
  });

  it('an admin toggles one: the public answer follows and the audit log records it', async () => {
    const flag = await api(t.app, admin.accessToken).platform.flags.toggle.mutate({
      key: 'welcome_gift',
      enabled: false,
    });
    expect(flag).toMatchObject({ key: 'welcome_gift', enabled: false });
    expect(await api(t.app).platform.flags.public.query()).toEqual({ welcome_gift: false });
    const [entry] = await db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'feature_flag.toggle')
      .execute();
    expect(entry).toMatchObject({
      actor_email: 'admin@flags.test',
      target_id: 'welcome_gift',
      details: { from: true, to: false },
    });
    const listed = await api(t.app, admin.accessToken).platform.flags.list.query();
    expect(listed[0]).toMatchObject({ enabled: false, updatedBy: 'admin@flags.test' });
  });

  it('moderators get 403 with the admin-role message and change nothing', async () => {
    const as = api(t.app, moderator.accessToken);
    for (const call of [
      () => as.platform.flags.toggle.mutate({ key: 'welcome_gift', enabled: true }),
      () => as.platform.flags.describe.mutate({ key: 'welcome_gift', description: 'Changed' }),
      () => as.platform.flags.create.mutate({ key: 'new_flag', description: 'A new thing' }),
    ]) {
      expect(await refusal(call())).toEqual({
        status: 403,
        message: 'Access denied: admin role required',
      });
    }
    expect(await api(t.app).platform.flags.public.query()).toEqual({ welcome_gift: false });
  });

  it('adds and describes flags, refusing bad names, duplicates and unknown flags', async () => {
    const as = api(t.app, admin.accessToken);
    await as.platform.flags.create.mutate({
      key: 'charity_bulk_listing',
      description: 'Charities list in bulk.',
    });
    expect(
      await refusal(as.platform.flags.create.mutate({ key: 'charity_bulk_listing', description: 'Again' })),
    ).toEqual({
      status: 409,
      message: 'A flag called charity_bulk_listing already exists. Choose another name.',
    });
    expect(
      (await refusal(as.platform.flags.create.mutate({ key: 'Bad Name', description: 'x' }))).message,
    ).toContain('lower-case letters');
    expect(
      (await refusal(as.platform.flags.create.mutate({ key: 'blank', description: '   ' }))).message,
    ).toContain('Say what the flag does');
    const described = await as.platform.flags.describe.mutate({
      key: 'charity_bulk_listing',
      description: 'Charities upload a CSV of books.',
    });
    expect(described.description).toBe('Charities upload a CSV of books.');
    expect(await statusOf(as.platform.flags.toggle.mutate({ key: 'missing_flag', enabled: true }))).toBe(404);
    const actions = await db
      .selectFrom('audit_log')
      .select('action')
      .where('target_type', '=', 'feature_flag')
      .execute();
    expect(actions.map((row) => row.action).sort()).toEqual([
      'feature_flag.create',
      'feature_flag.describe',
      'feature_flag.toggle',
    ]);
  });
});
