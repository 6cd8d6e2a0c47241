/**
 * Global admin: platform health read from PostgreSQL (database, job runner, mail outbox, each
 * with its reasons), admin records that only super admins grant, change and deactivate (every
 * change audited, never their own), and the template tools support agents use on drafts.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/index.ts';
import { readMigrations } from '../../db/migrate.ts';
import { JOBS, runJob } from '../../jobs.ts';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { createUser, lastEmailTo, type TestUser } from '../../testing/auth.ts';
import { api, refusal, statusOf } from '../../testing/client.ts';
import { createTestDatabase } from '../../testing/db.ts';
import { JOB_STALE_AFTER_MS, MAIL_STUCK_AFTER_MS, platformHealth } from './health.service.ts';

let t: TestApp;
let db: Database;
let superAdmin: TestUser;
let ops: TestUser;
let support: TestUser;
let readOnly: TestUser;
let member: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  db = t.database.handle.db;
  const make = (email: string, options: Parameters<typeof createUser>[3] = {}) =>
    createUser(db, t.services.identity, email, options);
  superAdmin = await make('super@global.test', { tier: 'super_admin' });
  ops = await make('ops@global.test', { tier: 'ops_admin' });
  support = await make('support@global.test', { tier: 'support_agent' });
  readOnly = await make('readonly@global.test', { tier: 'read_only' });
  member = await make('member@global.test');
});

afterAll(async () => {
  await t.close();
});

const audits = (action: string) =>
  db.selectFrom('audit_log').selectAll().where('action', '=', action).orderBy('id', 'desc').execute();

const jobContext = () => ({
  db,
  payments: t.services.payments,
  mailer: t.services.mailer,
  storage: t.services.storage,
  origin: 'http://shop.test',
  log: () => {},
});

describe('platform health', () => {
  it('reports the database with its migrations, for every tier', async () => {
    const health = await api(t.app, readOnly.accessToken).staff.globalAdmin.health.query();
    // A slow round trip is the machine's doing (a shared CI core), not the database's state:
    // every other problem must be absent, and the status says whether any was found.
    const problems = health.database.problems.filter((problem) => !problem.startsWith('A round trip took'));
    expect(problems).toEqual([]);
    expect(health.database.status).toBe(health.database.problems.length ? 'warning' : 'ok');
    expect(health.database.migrationsPending).toEqual([]);
    expect(health.database.version).toMatch(/^\d+/);
    expect(health.database.sizeBytes).toBeGreaterThan(1_000_000);
    expect(health.database.connections).toBeGreaterThanOrEqual(1);
    expect(health.database.migrationsApplied).toBeGreaterThan(10);
    expect(health.database.latestMigration).toMatch(/^\d{14}_.+\.sql$/);
    expect(await statusOf(api(t.app, member.accessToken).staff.globalAdmin.health.query())).toBe(403);
  });

  it('reads the migration history of the Supabase CLI on a database `supabase db push` migrated', async () => {
    // Hosted, there is no public.schema_migrations: the CLI records each file's version and name
    // in supabase_migrations.schema_migrations, which the runtime role may read once granted.
    const hosted = await createTestDatabase();
    try {
      const files = (await readMigrations()).map((file) => file.name);
      const owner = hosted.handle.db;
      await sql`drop table public.schema_migrations`.execute(owner);
      await sql`create schema supabase_migrations`.execute(owner);
      await sql`create table supabase_migrations.schema_migrations (version text primary key, statements text[], name text)`.execute(
        owner,
      );
      for (const file of files.slice(0, -1)) {
        const [, version, name] = /^(\d{14})_(.+)\.sql$/.exec(file) ?? [];
        await sql`insert into supabase_migrations.schema_migrations (version, name) values (${version}, ${name})`.execute(
          owner,
        );
      }

      const ungranted = (await platformHealth(hosted.appHandle.db)).database;
      expect(ungranted).toMatchObject({ status: 'warning', migrationsApplied: 0, migrationsPending: [] });
      expect(ungranted.problems).toEqual([
        'The migration history (supabase_migrations.schema_migrations) cannot be read by reshelf_app: grant it USAGE on the schema and SELECT on the table (docs/hosted-supabase.md)',
      ]);

      await sql`grant usage on schema supabase_migrations to reshelf_app`.execute(owner);
      await sql`grant select on supabase_migrations.schema_migrations to reshelf_app`.execute(owner);
      const granted = (await platformHealth(hosted.appHandle.db)).database;
      expect(granted).toMatchObject({
        status: 'warning',
        problems: ['1 migration is not applied yet'],
        migrationsApplied: files.length - 1,
        latestMigration: files.at(-2),
        migrationsPending: [files.at(-1)],
      });
    } finally {
      await hosted.drop();
    }
  });

  it('says the job runner is failing until every job has run lately, and names a failed run', async () => {
    const before = await platformHealth(db);
    expect(before.jobs.status).toBe('failing');
    expect(before.jobs.problems).toContain('offers.expire has never run');
    expect(before.status).toBe('failing');

    for (const name of Object.keys(JOBS)) await runJob(jobContext(), name);
    const after = await platformHealth(db);
    expect(after.jobs).toMatchObject({ status: 'ok', problems: [] });
    expect(after.jobs.runs.find((run) => run.job === 'offers.expire')).toMatchObject({
      runsLastDay: 1,
      failuresLastDay: 0,
      lastError: null,
    });

    const later = new Date(Date.now() + JOB_STALE_AFTER_MS + 60_000);
    const stale = await platformHealth(db, later);
    expect(stale.jobs.status).toBe('failing');
    expect(
      stale.jobs.problems.some((problem) => /^orders\.auto_complete last ran \d+ minutes ago$/.test(problem)),
    ).toBe(true);

    await db
      .insertInto('job_runs')
      .values({ job: 'offers.lapse', finished_at: new Date(), error: 'connection reset' })
      .execute();
    const failed = await platformHealth(db);
    expect(failed.jobs.status).toBe('warning');
    expect(failed.jobs.problems).toEqual(['offers.lapse failed on its last run: connection reset']);
    expect(failed.jobs.runs.find((run) => run.job === 'offers.lapse')).toMatchObject({
      runsLastDay: 2,
      failuresLastDay: 1,
    });
    for (const name of Object.keys(JOBS)) await runJob(jobContext(), name);
  });

  it('counts the mail outbox and flags a message stuck in the queue, failing sends, or failures', async () => {
    await t.services.mailer.send({
      to: member.email,
      subject: 'Hello',
      text: 'Hi',
      html: '<p>Hi</p>',
      template: 'test.health',
    });
    await t.services.mailer.deliver();
    const fine = (await api(t.app, readOnly.accessToken).staff.globalAdmin.health.query()).mail;
    expect(fine).toMatchObject({
      status: 'ok',
      transport: 'dev',
      queued: 0,
      sending: 0,
      failedLastDay: 0,
      lastErrors: [],
    });
    expect(fine.sentLastDay).toBeGreaterThanOrEqual(1);
    expect(fine.lastSentAt).not.toBeNull();

    // A message queued 20 minutes ago whose attempts keep failing (its next one is not due yet,
    // so the running sender leaves it), and one that failed for good.
    const queuedAt = new Date(Date.now() - MAIL_STUCK_AFTER_MS - 5 * 60_000);
    const row = (id: string) => ({
      id,
      message_id: `<${id}@reshelf.test>`,
      to_address: member.email,
      text_body: 'x',
      html_body: '<p>x</p>',
      template: 'test.health',
    });
    await db
      .insertInto('email_outbox')
      .values([
        {
          ...row('00000000-0000-4000-8000-00000000a001'),
          subject: 'Stuck',
          created_at: queuedAt,
          attempts: 3,
          last_attempt_at: new Date(),
          last_error: 'SMTP: connect ECONNREFUSED',
          next_attempt_at: new Date(Date.now() + 60 * 60_000),
        },
        {
          ...row('00000000-0000-4000-8000-00000000a002'),
          subject: 'Bounced',
          status: 'failed',
          attempts: 1,
          last_attempt_at: new Date(Date.now() - 60_000),
          failed_at: new Date(Date.now() - 60_000),
          last_error: 'SMTP: 550 mailbox unavailable',
        },
      ])
      .execute();
    const stuck = await platformHealth(db);
    expect(stuck.mail).toMatchObject({
      status: 'failing',
      queued: 1,
      retrying: 1,
      oldestQueuedAt: queuedAt.toISOString(),
      failedLastDay: 1,
    });
    expect(stuck.mail.lastErrors).toMatchObject([
      { template: 'test.health', status: 'retrying', attempts: 3, error: 'SMTP: connect ECONNREFUSED' },
      { template: 'test.health', status: 'failed', attempts: 1, error: 'SMTP: 550 mailbox unavailable' },
    ]);
    expect(stuck.mail.problems).toEqual([
      'The oldest queued message has waited 20 minutes',
      'Sending fails: the latest attempt failed within the last minute and nothing has been sent since',
      '1 message failed in the last 24 hours',
    ]);
    await db.deleteFrom('email_outbox').where('template', '=', 'test.health').execute();
  });
});

describe('admin records', () => {
  it('lets a super admin grant a tier, change it, deactivate and reactivate it, each audited', async () => {
    const target = await createUser(db, t.services.identity, 'newcomer@global.test');
    const as = api(t.app, superAdmin.accessToken);
    await as.staff.globalAdmin.setAdminTier.mutate({ email: 'Newcomer@Global.test', tier: 'read_only' });
    const records = async () =>
      (await api(t.app, readOnly.accessToken).staff.globalAdmin.overview.query()).admins as {
        userId: string;
        tier: string;
        isActive: boolean;
      }[];
    expect((await records()).find((admin) => admin.userId === target.id)).toMatchObject({
      tier: 'read_only',
      isActive: true,
    });

    await as.staff.globalAdmin.setAdminTier.mutate({ email: target.email, tier: 'support_agent' });
    expect((await records()).find((admin) => admin.userId === target.id)?.tier).toBe('support_agent');

    await as.staff.globalAdmin.deactivateAdmin.mutate({ userId: target.id });
    expect((await records()).find((admin) => admin.userId === target.id)?.isActive).toBe(false);
    expect(await refusal(as.staff.globalAdmin.deactivateAdmin.mutate({ userId: target.id }))).toEqual({
      status: 409,
      message: 'newcomer@global.test is already inactive.',
    });
    expect(await statusOf(api(t.app, target.accessToken).staff.globalAdmin.overview.query())).toBe(403);

    await as.staff.globalAdmin.setAdminTier.mutate({ email: target.email, tier: 'support_agent' });
    expect((await records()).find((admin) => admin.userId === target.id)?.isActive).toBe(true);

    const grants = (await audits('tier.grant')).filter((row) => row.target_id === target.id);
    expect(grants.map((row) => (row.details as { role: string }).role)).toEqual([
      'support_agent',
      'support_agent',
      'read_only',
    ]);
    expect(grants[0]).toMatchObject({ actor_email: superAdmin.email });
    expect((await audits('tier.revoke')).filter((row) => row.target_id === target.id)).toHaveLength(1);
  });

  it('refuses lower tiers with the spec’s message, and a super admin changing their own record', async () => {
    for (const user of [ops, support, readOnly]) {
      expect(
        await refusal(
          api(t.app, user.accessToken).staff.globalAdmin.setAdminTier.mutate({
            email: member.email,
            tier: 'super_admin',
          }),
        ),
      ).toEqual({ status: 403, message: 'Access denied: super_admin role required' });
    }
    expect(
      await refusal(
        api(t.app, ops.accessToken).staff.globalAdmin.deactivateAdmin.mutate({ userId: support.id }),
      ),
    ).toEqual({ status: 403, message: 'Access denied: super_admin role required' });

    const as = api(t.app, superAdmin.accessToken);
    expect(
      await refusal(as.staff.globalAdmin.setAdminTier.mutate({ email: superAdmin.email, tier: 'read_only' })),
    ).toEqual({
      status: 400,
      message: 'You cannot change your own global-admin tier: ask another super admin.',
    });
    expect(await statusOf(as.staff.globalAdmin.deactivateAdmin.mutate({ userId: superAdmin.id }))).toBe(400);
    expect(
      await statusOf(
        as.staff.globalAdmin.setAdminTier.mutate({ email: 'nobody@global.test', tier: 'read_only' }),
      ),
    ).toBe(404);
    expect(
      (
        await refusal(
          as.staff.globalAdmin.setAdminTier.mutate({ email: 'not an email', tier: 'boss' as never }),
        )
      ).message,
    ).toMatch(/Enter the email address of an existing account|Choose a tier/);
  });
});

describe('email templates in global admin', () => {
  const draft = {
    key: 'reset-password' as const,
    subject: 'Choose a new Reshelf password',
    body: 'Hello.\n\nChoose a new password here: {{url}}',
  };

  it('lets a support agent preview, test and discard a draft; the version in use stays', async () => {
    const as = api(t.app, support.accessToken);
    const preview = await as.staff.globalAdmin.previewEmailTemplate.query(draft);
    expect(preview.subject).toBe(draft.subject);
    expect(preview.text).toContain('Choose a new password here: http');
    expect(
      (await refusal(as.staff.globalAdmin.previewEmailTemplate.query({ ...draft, body: 'No link at all' })))
        .message,
    ).toMatch(/\{\{url\}\}/);

    const sent = await as.staff.globalAdmin.sendTestEmail.mutate(draft);
    expect(sent).toEqual({ to: support.email, subject: `[Test] ${draft.subject}` });
    expect((await lastEmailTo(db, support.email))?.subject).toBe(`[Test] ${draft.subject}`);

    await as.staff.globalAdmin.saveEmailTemplateDraft.mutate(draft);
    await as.staff.globalAdmin.discardEmailTemplateDraft.mutate({ key: draft.key });
    const listed = await as.staff.globalAdmin.emailTemplates.query();
    expect(listed.find((template) => template.key === draft.key)).toMatchObject({
      draft: null,
      subject: 'Reset your Reshelf password',
    });
    expect(await refusal(as.staff.globalAdmin.discardEmailTemplateDraft.mutate({ key: draft.key }))).toEqual({
      status: 412,
      message: 'There is no draft of this email to discard.',
    });
    expect((await audits('email_template.discardDraft'))[0]).toMatchObject({ actor_email: support.email });
    expect(
      await refusal(api(t.app, readOnly.accessToken).staff.globalAdmin.sendTestEmail.mutate(draft)),
    ).toEqual({
      status: 403,
      message: 'Access denied: support_agent role required',
    });
  });

  it('keeps the published version when a later draft is discarded', async () => {
    const as = api(t.app, support.accessToken);
    await as.staff.globalAdmin.saveEmailTemplateDraft.mutate(draft);
    await api(t.app, ops.accessToken).staff.globalAdmin.publishEmailTemplate.mutate({ key: draft.key });
    await as.staff.globalAdmin.saveEmailTemplateDraft.mutate({ ...draft, subject: 'Second thoughts' });
    await as.staff.globalAdmin.discardEmailTemplateDraft.mutate({ key: draft.key });
    const listed = await as.staff.globalAdmin.emailTemplates.query();
    expect(listed.find((template) => template.key === draft.key)).toMatchObject({
      draft: null,
      subject: draft.subject,
      customised: true,
    });
  });
});

describe('a failed admin record lookup', () => {
  it('is not a denial: auth.me says the check failed, and tier procedures answer "Failed to verify admin access"', async () => {
    const me = async () => (await api(t.app, superAdmin.accessToken).account.auth.me.query()).user;
    expect(await me()).toMatchObject({ adminTier: 'super_admin', adminLevel: 4, adminLookupFailed: false });
    // This file's own database: the admin records cannot be read for a moment.
    await sql`alter table public.admin_users rename to admin_users_unreadable`.execute(db);
    try {
      expect(await me()).toMatchObject({
        email: 'super@global.test',
        adminTier: null,
        adminLevel: 0,
        adminLookupFailed: true,
      });
      expect(await refusal(api(t.app, superAdmin.accessToken).staff.globalAdmin.overview.query())).toEqual({
        status: 403,
        message: 'Failed to verify admin access',
      });
      // Someone with no admin record is told the same while it cannot be read: nobody knows.
      expect((await await api(t.app, member.accessToken).account.auth.me.query()).user).toMatchObject({
        adminTier: null,
        adminLookupFailed: true,
      });
    } finally {
      await sql`alter table public.admin_users_unreadable rename to admin_users`.execute(db);
    }
    expect(await me()).toMatchObject({ adminTier: 'super_admin', adminLookupFailed: false });
    expect((await await api(t.app, member.accessToken).account.auth.me.query()).user).toMatchObject({
      adminTier: null,
      adminLookupFailed: false,
    });
  });
});
