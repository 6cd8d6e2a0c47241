/**
 * Email templates for staff (/admin/emails and /global-admin/email-templates, decision 0016):
 * list with the version in use, preview with sample variables, publish an edit, go back to
 * the default, keep a draft and publish it, and send a test to the staff member's own address
 * (the dev mailbox in development). Every change is recorded in the audit log.
 */
import type { Insertable } from 'kysely';
import type { DB } from '../../db/database.generated.ts';
import type { Database } from '../../db/index.ts';
import { AppError } from '../../errors.ts';
import { recordAudit } from '../../platform/audit/audit.service.ts';
import type { Mailer } from '../../platform/mail/mailer.ts';
import {
  EMAIL_TEMPLATES,
  type RenderedEmail,
  renderTemplate,
  sampleVariables,
  type TemplateDefinition,
  templateDefinition,
  templateProblems,
} from '../../platform/mail/registry.ts';

export interface EmailTemplateView {
  key: string;
  name: string;
  sentWhen: string;
  variables: { name: string; description: string; sample: string; required: boolean }[];
  subject: string;
  body: string;
  defaultSubject: string;
  defaultBody: string;
  customised: boolean;
  updatedAt: string | null;
  updatedBy: string | null;
  draft: { subject: string; body: string; updatedAt: string | null; updatedBy: string | null } | null;
}

function definitionOf(key: string): TemplateDefinition {
  const definition = templateDefinition(key);
  if (!definition)
    throw new AppError('NOT_FOUND', 'There is no email template with that name. Choose one from the list.');
  return definition;
}

function requireValid(definition: TemplateDefinition, subject: string, body: string) {
  const problems = templateProblems(definition, subject, body);
  if (problems.length) throw new AppError('BAD_INPUT', problems.join(' '));
}

export async function listEmailTemplates(db: Database): Promise<EmailTemplateView[]> {
  const rows = await db
    .selectFrom('email_templates as t')
    .leftJoin('auth.users as u', 'u.id', 't.updated_by')
    .leftJoin('auth.users as d', 'd.id', 't.draft_updated_by')
    .select([
      't.key',
      't.subject',
      't.body',
      't.updated_at',
      'u.email as updated_by',
      't.draft_subject',
      't.draft_body',
      't.draft_updated_at',
      'd.email as draft_updated_by',
    ])
    .execute();
  const stored = new Map(rows.map((row) => [row.key, row]));
  return (EMAIL_TEMPLATES as readonly TemplateDefinition[]).map((definition) => {
    const row = stored.get(definition.key);
    const customised = Boolean(row?.subject && row.body);
    return {
      key: definition.key,
      name: definition.name,
      sentWhen: definition.sentWhen,
      variables: Object.entries(definition.variables).map(([name, v]) => ({
        name,
        description: v.description,
        sample: v.sample,
        required: Boolean(v.required),
      })),
      subject: customised ? row!.subject! : definition.subject,
      body: customised ? row!.body! : definition.body,
      defaultSubject: definition.subject,
      defaultBody: definition.body,
      customised,
      updatedAt: customised ? (row!.updated_at?.toISOString() ?? null) : null,
      updatedBy: customised ? (row!.updated_by ?? null) : null,
      draft:
        row?.draft_subject && row.draft_body
          ? {
              subject: row.draft_subject,
              body: row.draft_body,
              updatedAt: row.draft_updated_at?.toISOString() ?? null,
              updatedBy: row.draft_updated_by ?? null,
            }
          : null,
    };
  });
}

/** What an edit would look like with sample values; refused with the problems if invalid. */
export function previewEmailTemplate(input: { key: string; subject: string; body: string }): RenderedEmail {
  const definition = definitionOf(input.key);
  requireValid(definition, input.subject, input.body);
  return renderTemplate(definition, input, sampleVariables(definition));
}

/** Publishes a new subject and body: sent from now on. */
export async function publishEmailTemplate(
  db: Database,
  staffId: string,
  input: { key: string; subject: string; body: string },
): Promise<void> {
  const definition = definitionOf(input.key);
  requireValid(definition, input.subject, input.body);
  await db.transaction().execute(async (trx) => {
    const before = await trx
      .selectFrom('email_templates')
      .select(['subject', 'body'])
      .where('key', '=', input.key)
      .forUpdate()
      .executeTakeFirst();
    await upsertTemplate(trx, input.key, {
      subject: input.subject,
      body: input.body,
      updated_by: staffId,
      updated_at: new Date(),
    });
    await recordAudit(trx, {
      actorId: staffId,
      action: 'email_template.update',
      targetType: 'email_template',
      targetId: input.key,
      details: {
        subject: input.subject,
        previousSubject: before?.subject ?? definition.subject,
        bodyChanged: (before?.body ?? definition.body) !== input.body,
      },
    });
  });
}

/** Goes back to the code's default (a draft, if any, stays). */
export async function resetEmailTemplate(db: Database, staffId: string, key: string): Promise<void> {
  definitionOf(key);
  await db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('email_templates')
      .select(['subject', 'draft_subject'])
      .where('key', '=', key)
      .forUpdate()
      .executeTakeFirst();
    if (!row?.subject)
      throw new AppError('PRECONDITION_FAILED', 'This email already uses the default wording.');
    if (row.draft_subject) {
      await trx
        .updateTable('email_templates')
        .set({ subject: null, body: null, updated_by: staffId, updated_at: new Date() })
        .where('key', '=', key)
        .execute();
    } else {
      await trx.deleteFrom('email_templates').where('key', '=', key).execute();
    }
    await recordAudit(trx, {
      actorId: staffId,
      action: 'email_template.reset',
      targetType: 'email_template',
      targetId: key,
      details: { previousSubject: row.subject },
    });
  });
}

/** Keeps an edit as a draft, not sent until published (support agents, global admin). */
export async function saveEmailTemplateDraft(
  db: Database,
  staffId: string,
  input: { key: string; subject: string; body: string },
): Promise<void> {
  const definition = definitionOf(input.key);
  requireValid(definition, input.subject, input.body);
  await db.transaction().execute(async (trx) => {
    await upsertTemplate(trx, input.key, {
      draft_subject: input.subject,
      draft_body: input.body,
      draft_updated_by: staffId,
      draft_updated_at: new Date(),
    });
    await recordAudit(trx, {
      actorId: staffId,
      action: 'email_template.saveDraft',
      targetType: 'email_template',
      targetId: input.key,
      details: { subject: input.subject },
    });
  });
}

/** Publishes the draft (ops admins and above): it becomes the version sent. */
export async function publishEmailTemplateDraft(db: Database, staffId: string, key: string): Promise<void> {
  const definition = definitionOf(key);
  await db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('email_templates')
      .select(['subject', 'draft_subject', 'draft_body'])
      .where('key', '=', key)
      .forUpdate()
      .executeTakeFirst();
    if (!row?.draft_subject || !row.draft_body) {
      throw new AppError(
        'PRECONDITION_FAILED',
        'There is no draft of this email to publish. Save a draft first.',
      );
    }
    requireValid(definition, row.draft_subject, row.draft_body);
    await trx
      .updateTable('email_templates')
      .set({
        subject: row.draft_subject,
        body: row.draft_body,
        updated_by: staffId,
        updated_at: new Date(),
        draft_subject: null,
        draft_body: null,
        draft_updated_by: null,
        draft_updated_at: null,
      })
      .where('key', '=', key)
      .execute();
    await recordAudit(trx, {
      actorId: staffId,
      action: 'email_template.publishDraft',
      targetType: 'email_template',
      targetId: key,
      details: { subject: row.draft_subject, previousSubject: row.subject ?? definition.subject },
    });
  });
}

/** Throws the draft away (support agents and above): the version in use is unchanged. */
export async function discardEmailTemplateDraft(db: Database, staffId: string, key: string): Promise<void> {
  definitionOf(key);
  await db.transaction().execute(async (trx) => {
    // A row holding only a draft goes; one with a published version keeps it.
    const discarded =
      (await trx
        .deleteFrom('email_templates')
        .where('key', '=', key)
        .where('subject', 'is', null)
        .where('draft_subject', 'is not', null)
        .returning('key')
        .executeTakeFirst()) ??
      (await trx
        .updateTable('email_templates')
        .set({ draft_subject: null, draft_body: null, draft_updated_by: null, draft_updated_at: null })
        .where('key', '=', key)
        .where('draft_subject', 'is not', null)
        .returning('key')
        .executeTakeFirst());
    if (!discarded) throw new AppError('PRECONDITION_FAILED', 'There is no draft of this email to discard.');
    await recordAudit(trx, {
      actorId: staffId,
      action: 'email_template.discardDraft',
      targetType: 'email_template',
      targetId: key,
      details: {},
    });
  });
}

/** Sends the edit (or the version in use) with sample values to the staff member's address. */
export async function sendTestEmail(
  deps: { db: Database; mailer: Mailer; origin: string },
  staff: { id: string; email: string },
  input: { key: string; subject?: string; body?: string },
): Promise<{ to: string; subject: string }> {
  const definition = definitionOf(input.key);
  let version: { subject: string; body: string };
  if (input.subject !== undefined && input.body !== undefined) {
    requireValid(definition, input.subject, input.body);
    version = { subject: input.subject, body: input.body };
  } else {
    const current = (await listEmailTemplates(deps.db)).find((template) => template.key === input.key)!;
    version = { subject: current.subject, body: current.body };
  }
  const rendered = renderTemplate(definition, version, sampleVariables(definition, deps.origin));
  const subject = `[Test] ${rendered.subject}`;
  // The test email and its audit entry: both or neither.
  await deps.db.transaction().execute(async (trx) => {
    await deps.mailer.send(
      {
        to: staff.email,
        subject,
        text: rendered.text,
        html: rendered.html,
        template: `test.${input.key}`,
        userId: staff.id,
      },
      { trx },
    );
    await recordAudit(trx, {
      actorId: staff.id,
      action: 'email_template.sendTest',
      targetType: 'email_template',
      targetId: input.key,
      details: { to: staff.email, subject },
    });
  });
  return { to: staff.email, subject };
}

/** Writes `columns` to the template's row, making the row if the template had none. */
async function upsertTemplate(
  trx: Database,
  key: string,
  columns: Omit<Insertable<DB['email_templates']>, 'key'>,
): Promise<void> {
  await trx
    .insertInto('email_templates')
    .values({ key, ...columns })
    .onConflict((oc) => oc.column('key').doUpdateSet(columns))
    .execute();
}
