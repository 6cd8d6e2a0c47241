/**
 * Email templates: staff read them, admins change, preview and test them; the stored version
 * is what the product then sends (checked with a real password-reset email); the global admin
 * draft → publish path by tier; every change in the audit log.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/index.ts';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { createUser, lastEmailTo, type TestUser } from '../../testing/auth.ts';
import { asUser, dataOf, errorOf } from '../../testing/selling.ts';

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
  key: 'reset-password',
  subject: 'Your Reshelf password reset',
  body: 'Hello from Reshelf.\n\nPick a new password here: {{url}}\n\nIt works once.',
};

describe('emailTemplates', () => {
  it('lists the templates with their defaults and variables for staff only', async () => {
    const list = dataOf(await asUser(t.app, moderator.accessToken).query('emailTemplates.list'));
    const reset = list.find((template: { key: string }) => template.key === 'reset-password');
    expect(reset).toMatchObject({ subject: 'Reset your Reshelf password', customised: false, draft: null });
    expect(reset.variables).toEqual([expect.objectContaining({ name: 'url', required: true })]);
    expect(errorOf(await asUser(t.app, member.accessToken).query('emailTemplates.list')).status).toBe(403);
  });

  it('previews with sample values and explains what is wrong with an edit', async () => {
    const preview = dataOf(
      await asUser(t.app, moderator.accessToken).query('emailTemplates.preview', edited),
    );
    expect(preview.subject).toBe('Your Reshelf password reset');
    expect(preview.text).toContain('Pick a new password here: https://reshelf.example/…');
    expect(preview.html).toContain('Choose a new password');
    const unknown = errorOf(
      await asUser(t.app, admin.accessToken).query('emailTemplates.preview', {
        ...edited,
        body: `${edited.body} {{displayName}}`,
      }),
    );
    expect(unknown).toEqual({
      status: 400,
      message: expect.stringContaining('{{displayName}}, which this email does not have'),
    });
    const missing = errorOf(
      await asUser(t.app, admin.accessToken).query('emailTemplates.preview', {
        ...edited,
        body: 'No link at all.',
      }),
    );
    expect(missing.message).toContain('The body must include {{url}}');
    expect(
      errorOf(
        await asUser(t.app, admin.accessToken).query('emailTemplates.preview', { ...edited, key: 'nope' }),
      ).status,
    ).toBe(400);
  });

  it('an admin publishes an edit, which the product then sends; moderators may not', async () => {
    const refused = errorOf(
      await asUser(t.app, moderator.accessToken).mutation('emailTemplates.update', edited),
    );
    expect(refused).toEqual({ status: 403, message: 'Access denied: admin role required' });

    const invalid = await asUser(t.app, admin.accessToken).mutation('emailTemplates.update', {
      ...edited,
      body: 'x {{nope}}',
    });
    expect(errorOf(invalid).status).toBe(400);
    expect(await db.selectFrom('email_templates').selectAll().execute()).toEqual([]);

    dataOf(await asUser(t.app, admin.accessToken).mutation('emailTemplates.update', edited));
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

    const list = dataOf(await asUser(t.app, admin.accessToken).query('emailTemplates.list'));
    expect(list.find((template: { key: string }) => template.key === 'reset-password')).toMatchObject({
      customised: true,
      updatedBy: 'admin@emails.test',
      subject: edited.subject,
    });
  });

  it('sends a test with sample values to the admin’s own address (the dev mailbox)', async () => {
    const result = dataOf(
      await asUser(t.app, admin.accessToken).mutation('emailTemplates.sendTest', {
        key: 'confirm-signup',
        subject: 'Welcome, {{displayName}}',
        body: 'Confirm here: {{url}}',
      }),
    );
    expect(result).toEqual({ to: 'admin@emails.test', subject: '[Test] Welcome, Jo' });
    const mail = await lastEmailTo(db, 'admin@emails.test');
    expect(mail).toMatchObject({ subject: '[Test] Welcome, Jo', template: 'test.confirm-signup' });
    // A test email is an email: its links lead to the site's one origin, not to a sample domain.
    expect(mail!.text_body).toContain(`Confirm here: ${t.config.siteOrigin}/…`);
    expect(mail!.text_body).not.toContain('reshelf.example');
    expect((await audits('email_template.sendTest'))[0]).toMatchObject({ target_id: 'confirm-signup' });
    expect(
      errorOf(
        await asUser(t.app, moderator.accessToken).mutation('emailTemplates.sendTest', {
          key: 'confirm-signup',
        }),
      ).status,
    ).toBe(403);
  });

  it('goes back to the default', async () => {
    dataOf(
      await asUser(t.app, admin.accessToken).mutation('emailTemplates.reset', { key: 'reset-password' }),
    );
    expect((await resetEmailFor(member)).subject).toBe('Reset your Reshelf password');
    const again = errorOf(
      await asUser(t.app, admin.accessToken).mutation('emailTemplates.reset', { key: 'reset-password' }),
    );
    expect(again).toEqual({ status: 412, message: 'This email already uses the default wording.' });
    expect(await audits('email_template.reset')).toHaveLength(1);
  });
});

describe('global admin: drafts by support agents, published by ops admins', () => {
  it('keeps a draft unsent until an ops admin publishes it', async () => {
    const draft = { ...edited, subject: 'Drafted: reset your password' };
    dataOf(await asUser(t.app, support.accessToken).mutation('globalAdmin.saveEmailTemplateDraft', draft));
    expect((await resetEmailFor(member)).subject).toBe('Reset your Reshelf password');
    const listed = dataOf(await asUser(t.app, support.accessToken).query('globalAdmin.emailTemplates'));
    expect(listed.find((template: { key: string }) => template.key === 'reset-password').draft).toMatchObject(
      {
        subject: draft.subject,
        updatedBy: 'support@emails.test',
      },
    );

    const refused = errorOf(
      await asUser(t.app, support.accessToken).mutation('globalAdmin.publishEmailTemplate', {
        key: 'reset-password',
      }),
    );
    expect(refused).toEqual({ status: 403, message: 'Access denied: ops_admin role required' });
    dataOf(
      await asUser(t.app, ops.accessToken).mutation('globalAdmin.publishEmailTemplate', {
        key: 'reset-password',
      }),
    );
    expect((await resetEmailFor(member)).subject).toBe(draft.subject);
    const nothing = errorOf(
      await asUser(t.app, ops.accessToken).mutation('globalAdmin.publishEmailTemplate', {
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
