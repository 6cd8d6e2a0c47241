/**
 * Search-engine titles and descriptions (/admin/seo, admins) for static pages (/pages/{slug}
 * and the fixed routes that show them) and category pages (/c/{slug}). Null means the page's
 * own: a static page's title and description, a category's "{name} books" line. The web's
 * page meta reads them from pages.bySlug and discovery.category.
 */
import type { Database } from '../../db/index.ts';
import { AppError } from '../../errors.ts';
import { recordAudit } from '../../platform/audit/audit.service.ts';

export type SeoKind = 'page' | 'category';

export interface SeoEntry {
  slug: string;
  name: string;
  defaultDescription: string | null;
  seoTitle: string | null;
  seoDescription: string | null;
}

export async function listSeo(db: Database): Promise<{ pages: SeoEntry[]; categories: SeoEntry[] }> {
  const pages = await db
    .selectFrom('pages')
    .select(['slug', 'title', 'description', 'seo_title', 'seo_description'])
    .orderBy('slug')
    .execute();
  const categories = await db
    .selectFrom('categories')
    .select(['slug', 'name', 'description', 'seo_title', 'seo_description'])
    .orderBy('position')
    .orderBy('name')
    .execute();
  return {
    pages: pages.map((row) => ({
      slug: row.slug,
      name: row.title,
      defaultDescription: row.description,
      seoTitle: row.seo_title,
      seoDescription: row.seo_description,
    })),
    categories: categories.map((row) => ({
      slug: row.slug,
      name: row.name,
      defaultDescription: row.description,
      seoTitle: row.seo_title,
      seoDescription: row.seo_description,
    })),
  };
}

export async function setSeo(
  db: Database,
  staffId: string,
  input: { kind: SeoKind; slug: string; seoTitle: string | null; seoDescription: string | null },
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const values = { seo_title: input.seoTitle, seo_description: input.seoDescription };
    const updated =
      input.kind === 'page'
        ? await trx
            .updateTable('pages')
            .set(values)
            .where('slug', '=', input.slug)
            .returning('slug')
            .executeTakeFirst()
        : await trx
            .updateTable('categories')
            .set(values)
            .where('slug', '=', input.slug)
            .returning('slug')
            .executeTakeFirst();
    if (!updated) {
      throw new AppError(
        'NOT_FOUND',
        `There is no ${input.kind === 'page' ? 'static page' : 'category'} called “${input.slug}”. Refresh the page.`,
      );
    }
    await recordAudit(trx, {
      actorId: staffId,
      action: 'seo.update',
      targetType: input.kind,
      targetId: input.slug,
      details: { seoTitle: input.seoTitle, seoDescription: input.seoDescription },
    });
  });
}
