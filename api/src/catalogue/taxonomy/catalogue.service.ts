import type { Category, Genre } from '@reshelf/contracts';
import type { Database } from '../../db/index.ts';

export async function listCategories(db: Database): Promise<Category[]> {
  const rows = await db
    .selectFrom('categories')
    .select(['id', 'slug', 'name', 'description', 'parent_id', 'position'])
    .orderBy('position')
    .orderBy('name')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    slug: row.slug,
    name: row.name,
    description: row.description,
    parentId: row.parent_id,
    position: row.position,
  }));
}

export async function listGenres(db: Database): Promise<Genre[]> {
  return db
    .selectFrom('genres')
    .select(['id', 'slug', 'name', 'description'])
    .orderBy('position')
    .orderBy('name')
    .execute();
}
