/**
 * The accessibility statement: admins read and edit /pages/accessibility-policy, the public
 * page follows, the change is audited; moderators and members are refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/index.ts';
import { seedSitePages } from '../../seed/site-pages.ts';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { createUser, type TestUser } from '../../testing/auth.ts';
import { api, refusal, statusOf } from '../../testing/client.ts';

let t: TestApp;
let db: Database;
let admin: TestUser;
let moderator: TestUser;
let member: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  db = t.database.handle.db;
  admin = await createUser(db, t.services.identity, 'admin@a11y.test', { roles: ['admin'] });
  moderator = await createUser(db, t.services.identity, 'moderator@a11y.test', { roles: ['moderator'] });
  member = await createUser(db, t.services.identity, 'member@a11y.test');
});

afterAll(async () => {
  await t.close();
});

describe('accessibility statement', () => {
  it('is missing until the site pages exist, then admins edit it and the public page follows', async () => {
    const as = api(t.app, admin.accessToken);
    expect(await statusOf(as.staff.accessibility.statement.query())).toBe(404);
    await seedSitePages(db);
    const before = await as.staff.accessibility.statement.query();
    expect(before.title).toBe('Accessibility statement');

    await as.staff.accessibility.saveStatement.mutate({
      title: 'Accessibility statement',
      description: 'How Reshelf works for everyone.',
      bodyMarkdown: '# Our standard\n\nWe aim for WCAG 2.2 AA.',
    });
    const after = await as.staff.accessibility.statement.query();
    expect(after).toMatchObject({
      bodyMarkdown: '# Our standard\n\nWe aim for WCAG 2.2 AA.',
      updatedBy: 'admin@a11y.test',
    });
    const publicPage = await api(t.app).platform.pages.bySlug.query({ slug: 'accessibility-policy' });
    expect(publicPage).toMatchObject({
      description: 'How Reshelf works for everyone.',
      bodyMarkdown: '# Our standard\n\nWe aim for WCAG 2.2 AA.',
    });
    const audit = await db
      .selectFrom('audit_log')
      .select(['action', 'actor_id', 'target_id'])
      .where('action', '=', 'accessibility.statement')
      .execute();
    expect(audit).toEqual([
      { action: 'accessibility.statement', actor_id: admin.id, target_id: 'accessibility-policy' },
    ]);
  });

  it('refuses an empty statement and anyone but an admin, changing nothing', async () => {
    const as = api(t.app, admin.accessToken);
    expect(
      await refusal(
        as.staff.accessibility.saveStatement.mutate({
          title: 'A',
          description: 'B',
          bodyMarkdown: '   ',
        }),
      ),
    ).toMatchObject({ status: 400 });
    for (const user of [moderator, member]) {
      const other = api(t.app, user.accessToken);
      expect(await statusOf(other.staff.accessibility.statement.query())).toBe(403);
      expect(
        await statusOf(
          other.staff.accessibility.saveStatement.mutate({
            title: 'Hacked',
            description: 'x',
            bodyMarkdown: 'x',
          }),
        ),
      ).toBe(403);
    }
    expect((await as.staff.accessibility.statement.query()).bodyMarkdown).toBe(
      '# Our standard\n\nWe aim for WCAG 2.2 AA.',
    );
  });
});
