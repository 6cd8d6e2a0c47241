/** Static pages (about us, policies, the help centre and any page staff add), kept as Markdown. */
import type { StaticPage } from '@reshelf/contracts';
import type { Database } from '../../db/index.ts';
import { AppError } from '../../errors.ts';

export async function pageBySlug(db: Database, slug: string): Promise<StaticPage> {
  const row = await db
    .selectFrom('pages')
    .select(['slug', 'title', 'description', 'body_markdown', 'updated_at', 'seo_title', 'seo_description'])
    .where('slug', '=', slug)
    .where('published', '=', true)
    .executeTakeFirst();
  if (!row)
    throw new AppError(
      'NOT_FOUND',
      'We couldn’t find that page. It may have moved, or the link may have a typo.',
    );
  return {
    slug: row.slug,
    title: row.title,
    description: row.description,
    bodyMarkdown: row.body_markdown,
    updatedAt: row.updated_at.toISOString(),
    seoTitle: row.seo_title,
    seoDescription: row.seo_description,
  };
}
