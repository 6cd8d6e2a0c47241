/**
 * Email templates: staff read them, admins change, preview and test them; the stored version
 * is what the product then sends (checked with a real password-reset email); the global admin
 * draft → publish path by tier; every change in the audit log.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/index.ts';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { createUser, lastEmailTo, type TestUser } from '../../testing/auth.ts';
import { api, refusal, statusOf } from '../../testing/client.ts';

let t: TestApp;
let db: Database;
let admin: TestUser;
let moderator: TestUser;
let member: TestUser;
let support: TestUser;
let ops: TestUser;

const links = {
  confirmUrl: 'http://shop.test/email-confirmation',
  resetUrl: 'http://shop.test/reset-password',
};

beforeAll(async () => {
  t = await createTestApp();
  db = t.database.handle.db;
  const make = (email: string, options: Parameters<typeof createUser>[3]) =>
    createUser(db, t.services.identity, email, options);
  admin = await make('admin@emails.test', { roles: ['admin'] });
  moderator = await make('moderator@emails.test', { roles: ['moderator'] });
  member = await make('member@emails.test', {});
  support = await make('support@emails.test', { tier: 'support_agent' });
  ops = await make('ops@emails.test', { tier: 'ops_admin' });
});

afterAll(async () => {
  await t.close();
});

const audits = (action: string) =>
  db.selectFrom('audit_log').selectAll().where('action', '=', action).orderBy('id', 'desc').execute();

async function resetEmailFor(user: TestUser) {
  await t.services.identity.requestPasswordReset(user.email, links);
  return (await lastEmailTo(db, user.email))!;
}

const edited = {
  key: 'reset-password' as const,
  subject: 'Your Reshelf password reset',
  body: 'Hello from Reshelf.\n\nPick a new password here: {{url}}\n\nIt works once.',
};

describe('emailTemplates', () => {
  it('lists the templates with their defaults and variables for staff only', async () => {
    const list = await api(t.app, moderator.accessToken).staff.emailTemplates.list.query();
    const reset = list.find((template) => template.key === 'reset-password');
    expect(reset).toMatchObject({ subject: 'Reset your Reshelf password', customised: false, draft: null });
    expect(reset?.variables).toEqual([expect.objectContaining({ name: 'url', required: true })]);
    expect(await statusOf(api(t.app, member.accessToken).staff.emailTemplates.list.query())).toBe(403);
  });

  it('previews with sample values and explains what is wrong with an edit', async () => {
    const preview = await api(t.app, moderator.accessToken).staff.emailTemplates.preview.query(edited);
    expect(preview.subject).toBe('Your Reshelf password reset');
    expect(preview.text).toContain('Pick a new password here: https://reshelf.example/…');
    expect(preview.html).toContain('Choose a new password');
    const unknown = await refusal(
      api(t.app, admin.accessToken).staff.emailTemplates.preview.query({
        ...edited,
        body: `${edited.body} {{displayName}}`,
      }),
    );
    expect(unknown).toEqual({
      status: 400,
      message: expect.stringContaining('{{displayName}}, which this email does not have'),
    });
    const missing = await refusal(
      api(t.app, admin.accessToken).staff.emailTemplates.preview.query({
        ...edited,
        body: 'No link at all.',
      }),
    );
    expect(missing.message).toContain('The body must include {{url}}');
    expect(
      await statusOf(
        api(t.app, admin.accessToken).staff.emailTemplates.preview.query({ ...edited, key: 'nope' as never }),
      ),
    ).toBe(400);
  });

  it('an admin publishes an edit, which the product then sends; moderators may not', async () => {
    const refused = await refusal(
      api(t.app, moderator.accessToken).staff.emailTemplates.update.mutate(edited),
    );
    expect(refused).toEqual({ status: 403, message: 'Access denied: admin role required' });

    const invalid = api(t.app, admin.accessToken).staff.emailTemplates.update.mutate({
      ...edited,
      body: 'x {{nope}}',
    });
    expect(await statusOf(invalid)).toBe(400);
    expect(await db.selectFrom('email_templates').selectAll().execute()).toEqual([]);

    await api(t.app, admin.accessToken).staff.emailTemplates.update.mutate(edited);
    const sent = await resetEmailFor(member);
    expect(sent.subject).toBe('Your Reshelf password reset');
    expect(sent.text_body).toMatch(
      /^Hello from Reshelf\.\n\nPick a new password here: http:\/\/shop\.test\/reset-password\?token=/,
    );
    const [row] = await audits('email_template.update');
    expect(row).toMatchObject({ actor_email: 'admin@emails.test', target_id: 'reset-password' });
    expect(row!.details).toMatchObject({
      previousSubject: 'Reset your Reshelf password',
      subject: edited.subject,
    });

    const list = await api(t.app, admin.accessToken).staff.emailTemplates.list.query();
    expect(list.find((template) => template.key === 'reset-password')).toMatchObject({
      customised: true,
      updatedBy: 'admin@emails.test',
      subject: edited.subject,
    });
  });

  it('sends a test with sample values to the admin’s own address (the dev mailbox)', async () => {
    const result = await api(t.app, admin.accessToken).staff.emailTemplates.sendTest.mutate({
      key: 'confirm-signup',
      subject: 'Welcome, {{displayName}}',
      body: 'Confirm here: {{url}}',
    });
    expect(result).toEqual({ to: 'admin@emails.test', subject: '[Test] Welcome, Jo' });
    const mail = await lastEmailTo(db, 'admin@emails.test');
    expect(mail).toMatchObject({ subject: '[Test] Welcome, Jo', template: 'test.confirm-signup' });
    // A test email is an email: its links lead to the site's one origin, not to a sample domain.
    expect(mail!.text_body).toContain(`Confirm here: ${t.config.siteOrigin}/…`);
    expect(mail!.text_body).not.toContain('reshelf.example');
    expect((await audits('email_template.sendTest'))[0]).toMatchObject({ target_id: 'confirm-signup' });
    expect(
      await statusOf(
        api(t.app, moderator.accessToken).staff.emailTemplates.sendTest.mutate({
          key: 'confirm-signup',
        }),
      ),
    ).toBe(403);
  });

  it('goes back to the default', async () => {
    await api(t.app, admin.accessToken).staff.emailTemplates.reset.mutate({ key: 'reset-password' });
    expect((await resetEmailFor(member)).subject).toBe('Reset your Reshelf password');
    const again = await refusal(
      api(t.app, admin.accessToken).staff.emailTemplates.reset.mutate({ key: 'reset-password' }),
    );
    expect(again).toEqual({ status: 412, message: 'This email already uses the default wording.' });
    expect(await audits('email_template.reset')).toHaveLength(1);
  });
});

describe('global admin: drafts by support agents, published by ops admins', () => {
  it('keeps a draft unsent until an ops admin publishes it', async () => {
    const draft = { ...edited, subject: 'Drafted: reset your password' };
    await api(t.app, support.accessToken).staff.globalAdmin.saveEmailTemplateDraft.mutate(draft);
    expect((await resetEmailFor(member)).subject).toBe('Reset your Reshelf password');
    const listed = await api(t.app, support.accessToken).staff.globalAdmin.emailTemplates.query();
    expect(listed.find((template) => template.key === 'reset-password')?.draft).toMatchObject({
      subject: draft.subject,
      updatedBy: 'support@emails.test',
    });

    const refused = await refusal(
      api(t.app, support.accessToken).staff.globalAdmin.publishEmailTemplate.mutate({
        key: 'reset-password',
      }),
    );
    expect(refused).toEqual({ status: 403, message: 'Access denied: ops_admin role required' });
    await api(t.app, ops.accessToken).staff.globalAdmin.publishEmailTemplate.mutate({
      key: 'reset-password',
    });
    expect((await resetEmailFor(member)).subject).toBe(draft.subject);
    const nothing = await refusal(
      api(t.app, ops.accessToken).staff.globalAdmin.publishEmailTemplate.mutate({
        key: 'reset-password',
      }),
    );
    expect(nothing.status).toBe(412);
    expect((await audits('email_template.saveDraft'))[0]).toMatchObject({
      actor_email: 'support@emails.test',
    });
    expect((await audits('email_template.publishDraft'))[0]).toMatchObject({
      actor_email: 'ops@emails.test',
    });
  });
});
