/**
 * The accessibility statement (/admin/accessibility, admins): the Markdown of the static page
 * /pages/accessibility-policy, edited in place. Saving is audited with the previous length.
 */
import type { Database } from '../../db/index.ts';
import { AppError } from '../../errors.ts';
import { recordAudit } from '../../platform/audit/audit.service.ts';

export const STATEMENT_SLUG = 'accessibility-policy';

const MISSING = 'The accessibility statement page is missing. Reseed the site pages, then try again.';

export async function accessibilityStatement(db: Database) {
  const row = await db
    .selectFrom('pages as p')
    .leftJoin('auth.users as u', 'u.id', 'p.updated_by')
    .select(['p.title', 'p.description', 'p.body_markdown', 'p.updated_at', 'u.email'])
    .where('p.slug', '=', STATEMENT_SLUG)
    .executeTakeFirst();
  if (!row) throw new AppError('NOT_FOUND', MISSING);
  return {
    title: row.title,
    description: row.description,
    bodyMarkdown: row.body_markdown,
    updatedAt: row.updated_at.toISOString(),
    updatedBy: row.email,
  };
}

export async function saveAccessibilityStatement(
  db: Database,
  staffId: string,
  input: { title: string; description: string; bodyMarkdown: string },
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const before = await trx
      .selectFrom('pages')
      .select(['body_markdown'])
      .where('slug', '=', STATEMENT_SLUG)
      .forUpdate()
      .executeTakeFirst();
    if (!before) throw new AppError('NOT_FOUND', MISSING);
    await trx
      .updateTable('pages')
      .set({
        title: input.title,
        description: input.description,
        body_markdown: input.bodyMarkdown,
        updated_by: staffId,
      })
      .where('slug', '=', STATEMENT_SLUG)
      .execute();
    await recordAudit(trx, {
      actorId: staffId,
      action: 'accessibility.statement',
      targetType: 'page',
      targetId: STATEMENT_SLUG,
      details: {
        title: input.title,
        charactersBefore: before.body_markdown.length,
        charactersAfter: input.bodyMarkdown.length,
      },
    });
  });
}
