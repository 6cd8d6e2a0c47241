/**
 * The category and genre trees (/admin/categories, admins): add, rename (name, slug,
 * description, parent), order among siblings, and retire one no listing uses. /categories, the
 * filters and the shelves read the same tables, so every change shows there at once (the
 * tables notify the public cache). Every change is audited.
 */
import { countOf } from '@reshelf/contracts';
import { sql, type Transaction } from 'kysely';
import type { DB } from '../../db/database.generated.ts';
import type { Database } from '../../db/index.ts';
import { AppError } from '../../errors.ts';
import { recordAudit } from '../../platform/audit/audit.service.ts';

export type TaxonomyKind = 'category' | 'genre';

export interface TaxonomyNode {
  id: string;
  slug: string;
  name: string;
  description: string | null;
  parentId: string | null;
  listings: number;
}

export interface TaxonomyInput {
  name: string;
  slug: string;
  description: string | null;
  parentId: string | null;
}

const TABLE = { category: 'categories', genre: 'genres' } as const;
const LABEL = { category: 'category', genre: 'genre' } as const;

function isSlugTaken(error: unknown): boolean {
  const pg = error as { code?: string; constraint?: string };
  return (
    pg.code === '23505' && (pg.constraint === 'categories_slug_key' || pg.constraint === 'genres_slug_key')
  );
}

/**
 * A change to one tree, in a transaction holding the tree's lock (positions and parents stay
 * consistent); a slug another node has is refused with a message naming it.
 */
async function lockedTaxonomyChange<T>(
  db: Database,
  kind: TaxonomyKind,
  slug: string,
  change: (trx: Transaction<DB>) => Promise<T>,
): Promise<T> {
  try {
    return await db.transaction().execute(async (trx) => {
      await sql`select pg_advisory_xact_lock(hashtext(${`taxonomy.${kind}`}))`.execute(trx);
      return change(trx);
    });
  } catch (error) {
    if (isSlugTaken(error)) {
      throw new AppError(
        'CONFLICT',
        `Another ${LABEL[kind]} already uses the slug “${slug}”. Choose another.`,
      );
    }
    throw error;
  }
}

/** Both trees in display order, each node with how many listings (any status) use it. */
export async function taxonomyTrees(
  db: Database,
): Promise<{ categories: TaxonomyNode[]; genres: TaxonomyNode[] }> {
  const categories = await sql<TaxonomyNode>`
    select c.id, c.slug, c.name, c.description, c.parent_id as "parentId",
      (select count(*)::int from public.listings l where l.category_id = c.id) as listings
    from public.categories c
    order by c.position, c.name`.execute(db);
  const genres = await sql<TaxonomyNode>`
    select g.id, g.slug, g.name, g.description, null::uuid as "parentId",
      (select count(*)::int from public.listings l where l.genre_ids @> array[g.id]) as listings
    from public.genres g
    order by g.position, g.name`.execute(db);
  return { categories: categories.rows, genres: genres.rows };
}

async function checkParent(trx: Transaction<DB>, id: string | null, parentId: string | null): Promise<void> {
  if (!parentId) return;
  const parent = await trx
    .selectFrom('categories')
    .select(['id', 'parent_id'])
    .where('id', '=', parentId)
    .executeTakeFirst();
  if (!parent) throw new AppError('NOT_FOUND', 'We could not find that parent category. Refresh the page.');
  if (!id) return;
  // Walk up from the new parent: meeting the category itself would make a loop.
  const { rows } = await sql<{ id: string }>`
    with recursive up(id, parent_id) as (
      select id, parent_id from public.categories where id = ${parentId}
      union all
      select c.id, c.parent_id from public.categories c join up on c.id = up.parent_id
    )
    select id from up where id = ${id}`.execute(trx);
  if (rows.length > 0) {
    throw new AppError(
      'BAD_INPUT',
      'A category cannot sit inside itself or one of its own subcategories. Choose another parent.',
    );
  }
}

export async function addTaxonomyNode(
  db: Database,
  staffId: string,
  kind: TaxonomyKind,
  input: TaxonomyInput,
): Promise<{ id: string }> {
  return lockedTaxonomyChange(db, kind, input.slug, async (trx) => {
    let id: string;
    if (kind === 'category') {
      await checkParent(trx, null, input.parentId);
      const { last } = await trx
        .selectFrom('categories')
        .select((eb) => eb.fn.max('position').as('last'))
        .where((eb) => (input.parentId ? eb('parent_id', '=', input.parentId) : eb('parent_id', 'is', null)))
        .executeTakeFirstOrThrow();
      ({ id } = await trx
        .insertInto('categories')
        .values({
          name: input.name,
          slug: input.slug,
          description: input.description,
          parent_id: input.parentId,
          position: (last ?? -1) + 1,
        })
        .returning('id')
        .executeTakeFirstOrThrow());
    } else {
      const { last } = await trx
        .selectFrom('genres')
        .select((eb) => eb.fn.max('position').as('last'))
        .executeTakeFirstOrThrow();
      ({ id } = await trx
        .insertInto('genres')
        .values({
          name: input.name,
          slug: input.slug,
          description: input.description,
          position: (last ?? -1) + 1,
        })
        .returning('id')
        .executeTakeFirstOrThrow());
    }
    await recordAudit(trx, {
      actorId: staffId,
      action: `${kind}.add`,
      targetType: kind,
      targetId: id,
      details: { ...input },
    });
    return { id };
  });
}

export async function updateTaxonomyNode(
  db: Database,
  staffId: string,
  kind: TaxonomyKind,
  id: string,
  input: TaxonomyInput,
): Promise<void> {
  await lockedTaxonomyChange(db, kind, input.slug, async (trx) => {
    let before: { name: string; slug: string } | undefined;
    if (kind === 'category') {
      await checkParent(trx, id, input.parentId);
      before = await trx
        .selectFrom('categories')
        .select(['name', 'slug'])
        .where('id', '=', id)
        .executeTakeFirst();
      if (before) {
        await trx
          .updateTable('categories')
          .set({
            name: input.name,
            slug: input.slug,
            description: input.description,
            parent_id: input.parentId,
          })
          .where('id', '=', id)
          .execute();
      }
    } else {
      before = await trx
        .selectFrom('genres')
        .select(['name', 'slug'])
        .where('id', '=', id)
        .executeTakeFirst();
      if (before) {
        await trx
          .updateTable('genres')
          .set({ name: input.name, slug: input.slug, description: input.description })
          .where('id', '=', id)
          .execute();
      }
    }
    if (!before) throw new AppError('NOT_FOUND', `That ${LABEL[kind]} no longer exists. Refresh the page.`);
    await recordAudit(trx, {
      actorId: staffId,
      action: `${kind}.update`,
      targetType: kind,
      targetId: id,
      details: { before, after: { ...input } },
    });
  });
}

/** Moves a node one place up or down among its siblings (categories with the same parent). */
export async function moveTaxonomyNode(
  db: Database,
  staffId: string,
  kind: TaxonomyKind,
  id: string,
  direction: 'up' | 'down',
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(hashtext(${`taxonomy.${kind}`}))`.execute(trx);
    const table = TABLE[kind];
    let siblings: { id: string }[];
    if (kind === 'category') {
      const node = await trx
        .selectFrom('categories')
        .select('parent_id')
        .where('id', '=', id)
        .executeTakeFirst();
      if (!node) throw new AppError('NOT_FOUND', 'That category no longer exists. Refresh the page.');
      siblings = await trx
        .selectFrom('categories')
        .select('id')
        .where((eb) => (node.parent_id ? eb('parent_id', '=', node.parent_id) : eb('parent_id', 'is', null)))
        .orderBy('position')
        .orderBy('name')
        .execute();
    } else {
      siblings = await trx.selectFrom('genres').select('id').orderBy('position').orderBy('name').execute();
    }
    const ids = siblings.map((row) => row.id);
    const from = ids.indexOf(id);
    if (from < 0) throw new AppError('NOT_FOUND', `That ${LABEL[kind]} no longer exists. Refresh the page.`);
    const to = direction === 'up' ? from - 1 : from + 1;
    if (to < 0 || to >= ids.length) {
      throw new AppError(
        'PRECONDITION_FAILED',
        `That ${LABEL[kind]} is already ${direction === 'up' ? 'first' : 'last'}.`,
      );
    }
    [ids[from], ids[to]] = [ids[to]!, ids[from]!];
    for (const [position, siblingId] of ids.entries()) {
      await trx.updateTable(table).set({ position }).where('id', '=', siblingId).execute();
    }
    await recordAudit(trx, {
      actorId: staffId,
      action: `${kind}.move`,
      targetType: kind,
      targetId: id,
      details: { direction },
    });
  });
}

/** Removes a node no listing uses (any status); a category must have no subcategories. */
export async function retireTaxonomyNode(
  db: Database,
  staffId: string,
  kind: TaxonomyKind,
  id: string,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(hashtext(${`taxonomy.${kind}`}))`.execute(trx);
    const node = await trx
      .selectFrom(TABLE[kind])
      .select(['name', 'slug'])
      .where('id', '=', id)
      .forUpdate()
      .executeTakeFirst();
    if (!node) throw new AppError('NOT_FOUND', `That ${LABEL[kind]} no longer exists. Refresh the page.`);
    const { rows } = await (kind === 'category'
      ? sql<{ n: number }>`select count(*)::int as n from public.listings where category_id = ${id}`
      : sql<{
          n: number;
        }>`select count(*)::int as n from public.listings where genre_ids @> array[${id}]::uuid[]`
    ).execute(trx);
    const listings = rows[0]?.n ?? 0;
    if (listings > 0) {
      throw new AppError(
        'PRECONDITION_FAILED',
        `“${node.name}” still has ${countOf(listings, 'listing', 'listings')}. Only a ${LABEL[kind]} without listings can be retired.`,
      );
    }
    if (kind === 'category') {
      const child = await trx
        .selectFrom('categories')
        .select('name')
        .where('parent_id', '=', id)
        .executeTakeFirst();
      if (child) {
        throw new AppError(
          'PRECONDITION_FAILED',
          `“${node.name}” has subcategories (such as “${child.name}”). Move or retire them first.`,
        );
      }
      await trx.deleteFrom('categories').where('id', '=', id).execute();
    } else {
      await trx.deleteFrom('genres').where('id', '=', id).execute();
    }
    await recordAudit(trx, {
      actorId: staffId,
      action: `${kind}.retire`,
      targetType: kind,
      targetId: id,
      details: { name: node.name, slug: node.slug },
    });
  });
}
