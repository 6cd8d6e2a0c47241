/** The launch plan: staff add items, tick and untick them (who and when kept), order and remove them. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/index.ts';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { createUser, type TestUser } from '../../testing/auth.ts';
import { api, refusal, statusOf } from '../../testing/client.ts';

let t: TestApp;
let db: Database;
let moderator: TestUser;
let admin: TestUser;
let member: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  db = t.database.handle.db;
  moderator = await createUser(db, t.services.identity, 'moderator@plan.test', { roles: ['moderator'] });
  admin = await createUser(db, t.services.identity, 'admin@plan.test', { roles: ['admin'] });
  member = await createUser(db, t.services.identity, 'member@plan.test');
});

afterAll(async () => {
  await t.close();
});

type Item = { id: string; title: string; owner: string | null; doneAt: string | null; doneBy: string | null };

describe('launch plan', () => {
  it('staff add items, tick them off, order and remove them, each change audited', async () => {
    const mod = api(t.app, moderator.accessToken);
    const adm = api(t.app, admin.accessToken);
    expect(await mod.staff.launchPlan.list.query()).toEqual([]);

    const ids: Record<string, string> = {};
    for (const [title, owner] of [
      ['Seed the catalogue', 'Priya'],
      ['Check the payment provider', '  '],
      ['Write the press release', 'Tom'],
    ] as const) {
      ids[title] = (await mod.staff.launchPlan.add.mutate({ title: `  ${title} `, owner })).id;
    }
    let list: Item[] = await adm.staff.launchPlan.list.query();
    expect(list.map((item) => [item.title, item.owner])).toEqual([
      ['Seed the catalogue', 'Priya'],
      ['Check the payment provider', null],
      ['Write the press release', 'Tom'],
    ]);

    await adm.staff.launchPlan.setDone.mutate({ id: ids['Seed the catalogue']!, done: true });
    list = await mod.staff.launchPlan.list.query();
    expect(list[0]?.doneBy).toBe('admin@plan.test');
    expect(Number.isNaN(Date.parse(list[0]?.doneAt ?? ''))).toBe(false);
    expect(list[1]?.doneAt).toBeNull();
    expect(
      await refusal(mod.staff.launchPlan.setDone.mutate({ id: ids['Seed the catalogue']!, done: true })),
    ).toEqual({ status: 409, message: 'Someone already ticked that item off. Refresh the page.' });

    await mod.staff.launchPlan.setDone.mutate({ id: ids['Seed the catalogue']!, done: false });
    list = await mod.staff.launchPlan.list.query();
    expect([list[0]?.doneAt, list[0]?.doneBy]).toEqual([null, null]);

    await mod.staff.launchPlan.reorder.mutate({
      ids: [ids['Write the press release']!, ids['Seed the catalogue']!, ids['Check the payment provider']!],
    });
    await mod.staff.launchPlan.remove.mutate({ id: ids['Seed the catalogue']! });
    list = await mod.staff.launchPlan.list.query();
    expect(list.map((item) => item.title)).toEqual(['Write the press release', 'Check the payment provider']);

    const audit = await db
      .selectFrom('audit_log')
      .select(['action', 'actor_id'])
      .where('action', 'like', 'launch_plan.%')
      .orderBy('id')
      .execute();
    expect(audit.map((row) => row.action)).toEqual([
      'launch_plan.add',
      'launch_plan.add',
      'launch_plan.add',
      'launch_plan.tick',
      'launch_plan.untick',
      'launch_plan.reorder',
      'launch_plan.remove',
    ]);
    expect(audit[3]?.actor_id).toBe(admin.id);
  });

  it('refuses bad input, stale orders and non-staff, writing nothing', async () => {
    const mod = api(t.app, moderator.accessToken);
    const before: Item[] = await mod.staff.launchPlan.list.query();
    expect(await refusal(mod.staff.launchPlan.add.mutate({ title: '   ' }))).toMatchObject({
      status: 400,
    });
    expect(await statusOf(mod.staff.launchPlan.add.mutate({ title: 'x'.repeat(201) }))).toBe(400);
    expect((await refusal(mod.staff.launchPlan.reorder.mutate({ ids: [before[0]!.id] }))).message).toContain(
      'changed while you were ordering',
    );
    expect(
      await refusal(mod.staff.launchPlan.remove.mutate({ id: '00000000-0000-4000-8000-000000000000' })),
    ).toEqual({ status: 404, message: 'That item is not on the launch plan any more. Refresh the page.' });

    const as = api(t.app, member.accessToken);
    expect(await statusOf(as.staff.launchPlan.list.query())).toBe(403);
    expect(await statusOf(as.staff.launchPlan.add.mutate({ title: 'Sneak in' }))).toBe(403);
    expect(await statusOf(as.staff.launchPlan.setDone.mutate({ id: before[0]!.id, done: true }))).toBe(403);
    expect(await mod.staff.launchPlan.list.query()).toEqual(before);
  });
});
