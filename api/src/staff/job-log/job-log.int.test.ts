/** /admin/logs: staff read the job runs, filtered by job and to failures; others may not. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/index.ts';
import { runJob } from '../../jobs.ts';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { createUser, type TestUser } from '../../testing/auth.ts';
import { api, refusal, statusOf } from '../../testing/client.ts';

let t: TestApp;
let db: Database;
let moderator: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  db = t.database.handle.db;
  moderator = await createUser(db, t.services.identity, 'moderator@logs.test', { roles: ['moderator'] });
  await db.deleteFrom('job_runs').execute();
  const context = {
    db,
    payments: t.services.payments,
    mailer: t.services.mailer,
    storage: t.services.storage,
    origin: 'http://shop.test',
  };
  await runJob(context, 'offers.expire');
  await runJob(context, 'orders.auto_complete');
  await db
    .insertInto('job_runs')
    .values({ job: 'orders.auto_complete', finished_at: new Date(), error: 'connection reset' })
    .execute();
});

afterAll(async () => {
  await t.close();
});

describe('job log', () => {
  it('is for staff only', async () => {
    expect(await statusOf(api(t.app).staff.jobLog.runs.query({}))).toBe(401);
    const member = await createUser(db, t.services.identity, 'member@logs.test');
    expect(await statusOf(api(t.app, member.accessToken).staff.jobLog.runs.query({}))).toBe(403);
  });

  it('lists runs newest first, by job, and only failures', async () => {
    const as = api(t.app, moderator.accessToken);
    expect(await as.staff.jobLog.jobs.query()).toContain('orders.auto_complete');
    const all = await as.staff.jobLog.runs.query({});
    expect(all.rows.map((row) => row.job)).toEqual([
      'orders.auto_complete',
      'orders.auto_complete',
      'offers.expire',
    ]);
    expect(all.rows[1]).toMatchObject({ moved: 0, error: null, finishedAt: expect.any(String) });
    const byJob = await as.staff.jobLog.runs.query({ job: 'offers.expire' });
    expect(byJob.rows).toHaveLength(1);
    const failed = await as.staff.jobLog.runs.query({ errorsOnly: true });
    expect(failed.rows).toEqual([
      expect.objectContaining({ job: 'orders.auto_complete', error: 'connection reset' }),
    ]);
    const firstPage = await as.staff.jobLog.runs.query({ limit: 2 });
    expect(firstPage.rows).toHaveLength(2);
    const next = await as.staff.jobLog.runs.query({ limit: 2, before: firstPage.nextBefore! });
    expect(next).toEqual({ rows: [expect.objectContaining({ job: 'offers.expire' })], nextBefore: null });
    expect(await refusal(as.staff.jobLog.runs.query({ job: 'nope' }))).toEqual({
      status: 400,
      message: 'job: Choose a job from the list',
    });
  });
});
