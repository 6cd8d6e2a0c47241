/**
 * The category and genre trees: admins add, rename, order and retire; /categories follows at
 * once. Moderators and members are refused; a node in use or with children is not retired.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/index.ts';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { createUser, type TestUser } from '../../testing/auth.ts';
import { createBook, createListing, createPerson, trpcQuery } from '../../testing/catalogue.ts';
import { asUser, dataOf, errorOf } from '../../testing/selling.ts';

let t: TestApp;
let db: Database;
let admin: TestUser;
let moderator: TestUser;
let member: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  db = t.database.handle.db;
  admin = await createUser(db, t.services.identity, 'admin@taxonomy.test', { roles: ['admin'] });
  moderator = await createUser(db, t.services.identity, 'moderator@taxonomy.test', { roles: ['moderator'] });
  member = await createUser(db, t.services.identity, 'member@taxonomy.test');
});

afterAll(async () => {
  await t.close();
});

type Node = {
  id: string;
  slug: string;
  name: string;
  description: string | null;
  parentId: string | null;
  listings: number;
};

const publicCategories = async () =>
  dataOf(await trpcQuery(t.app, 'discovery.categories')).map((row: { slug: string; name: string }) => row);

describe('categories and genres', () => {
  it('admins add, rename and order categories and genres, and /categories follows', async () => {
    const as = asUser(t.app, admin.accessToken);
    const before: Node[] = dataOf(await as.query('taxonomy.trees')).categories;
    const top = dataOf(
      await as.mutation('taxonomy.add', {
        kind: 'category',
        name: ' Zines ',
        slug: 'Zines',
        description: 'Small press',
      }),
    ).id;
    const sub = dataOf(
      await as.mutation('taxonomy.add', {
        kind: 'category',
        name: 'Riso zines',
        slug: 'riso-zines',
        parentId: top,
      }),
    ).id;
    const genre = dataOf(
      await as.mutation('taxonomy.add', { kind: 'genre', name: 'Solarpunk', slug: 'solarpunk' }),
    ).id;

    let trees: { categories: Node[]; genres: Node[] } = dataOf(await as.query('taxonomy.trees'));
    expect(trees.categories.find((node) => node.id === top)).toEqual({
      id: top,
      slug: 'zines',
      name: 'Zines',
      description: 'Small press',
      parentId: null,
      listings: 0,
    });
    expect(trees.categories.find((node) => node.id === sub)?.parentId).toBe(top);
    expect(trees.genres.at(-1)?.slug).toBe('solarpunk');
    const shown = (await publicCategories()).map((row: { slug: string }) => row.slug);
    expect(shown.at(-1)).toBe('zines');
    expect(shown).toContain('riso-zines');

    dataOf(
      await as.mutation('taxonomy.update', {
        kind: 'category',
        id: top,
        name: 'Zines and pamphlets',
        slug: 'zines-and-pamphlets',
        description: '',
      }),
    );
    const renamed = (await publicCategories()).find(
      (row: { slug: string }) => row.slug === 'zines-and-pamphlets',
    );
    expect(renamed).toMatchObject({ name: 'Zines and pamphlets', description: null });

    // The new top-level category moves one place up among the top-level ones.
    dataOf(await as.mutation('taxonomy.move', { kind: 'category', id: top, direction: 'up' }));
    trees = dataOf(await as.query('taxonomy.trees'));
    const topLevel = trees.categories.filter((node) => node.parentId === null).map((node) => node.id);
    const oldTop = before.filter((node) => node.parentId === null).map((node) => node.id);
    expect(topLevel).toEqual([...oldTop.slice(0, -1), top, oldTop.at(-1)]);
    expect(
      errorOf(await as.mutation('taxonomy.move', { kind: 'category', id: sub, direction: 'down' })),
    ).toEqual({
      status: 412,
      message: 'That category is already last.',
    });

    const actions = await db
      .selectFrom('audit_log')
      .select('action')
      .where((eb) => eb.or([eb('action', 'like', 'category.%'), eb('action', 'like', 'genre.%')]))
      .orderBy('id')
      .execute();
    expect(actions.map((row) => row.action)).toEqual([
      'category.add',
      'category.add',
      'genre.add',
      'category.update',
      'category.move',
    ]);
    expect(genre).toBeTruthy();
  });

  it('retires only what no listing uses and nothing sits under', async () => {
    const as = asUser(t.app, admin.accessToken);
    const trees: { categories: Node[]; genres: Node[] } = dataOf(await as.query('taxonomy.trees'));
    const top = trees.categories.find((node) => node.slug === 'zines-and-pamphlets')!;
    const sub = trees.categories.find((node) => node.slug === 'riso-zines')!;
    const genre = trees.genres.find((node) => node.slug === 'solarpunk')!;

    expect(errorOf(await as.mutation('taxonomy.retire', { kind: 'category', id: top.id }))).toEqual({
      status: 412,
      message: '“Zines and pamphlets” has subcategories (such as “Riso zines”). Move or retire them first.',
    });
    const seller = await createPerson(db, 'seller@taxonomy.test');
    const bookId = await createBook(db, {
      title: 'A Riso Zine',
      category: 'riso-zines',
      genres: ['solarpunk'],
    });
    await createListing(db, { sellerId: seller, bookId, status: 'withdrawn' });
    expect(errorOf(await as.mutation('taxonomy.retire', { kind: 'category', id: sub.id })).message).toBe(
      '“Riso zines” still has 1 listing. Only a category without listings can be retired.',
    );
    expect(errorOf(await as.mutation('taxonomy.retire', { kind: 'genre', id: genre.id })).status).toBe(412);

    await db.deleteFrom('listings').where('book_id', '=', bookId).execute();
    dataOf(await as.mutation('taxonomy.retire', { kind: 'category', id: sub.id }));
    dataOf(await as.mutation('taxonomy.retire', { kind: 'category', id: top.id }));
    dataOf(await as.mutation('taxonomy.retire', { kind: 'genre', id: genre.id }));
    const slugs = (await publicCategories()).map((row: { slug: string }) => row.slug);
    expect(slugs).not.toContain('riso-zines');
    expect(slugs).not.toContain('zines-and-pamphlets');
    const book = await db
      .selectFrom('books')
      .select('category_id')
      .where('id', '=', bookId)
      .executeTakeFirstOrThrow();
    expect(book.category_id).toBeNull();
  });

  it('refuses bad input, loops and anyone but an admin', async () => {
    const as = asUser(t.app, admin.accessToken);
    const fiction = (dataOf(await as.query('taxonomy.trees')).categories as Node[]).find(
      (node) => node.slug === 'fiction',
    )!;
    expect(
      errorOf(
        await as.mutation('taxonomy.add', { kind: 'category', name: 'Fiction again', slug: 'fiction' }),
      ),
    ).toEqual({ status: 409, message: 'Another category already uses the slug “fiction”. Choose another.' });
    expect(
      errorOf(await as.mutation('taxonomy.add', { kind: 'genre', name: 'X', slug: 'not a slug' })).status,
    ).toBe(400);
    const child = dataOf(
      await as.mutation('taxonomy.add', {
        kind: 'category',
        name: 'Loop test',
        slug: 'loop-test',
        parentId: fiction.id,
      }),
    ).id;
    expect(
      errorOf(
        await as.mutation('taxonomy.update', {
          kind: 'category',
          id: fiction.id,
          name: fiction.name,
          slug: fiction.slug,
          parentId: child,
        }),
      ).message,
    ).toBe('A category cannot sit inside itself or one of its own subcategories. Choose another parent.');

    for (const user of [moderator, member]) {
      const other = asUser(t.app, user.accessToken);
      expect(errorOf(await other.query('taxonomy.trees')).status).toBe(403);
      expect(
        errorOf(await other.mutation('taxonomy.add', { kind: 'genre', name: 'Nope', slug: 'nope' })).status,
      ).toBe(403);
      expect(errorOf(await other.mutation('taxonomy.retire', { kind: 'category', id: child })).status).toBe(
        403,
      );
    }
    const trees = dataOf(await as.query('taxonomy.trees'));
    expect(trees.genres.map((node: Node) => node.slug)).not.toContain('nope');
    expect(trees.categories.find((node: Node) => node.id === fiction.id)?.parentId).toBeNull();
  });
});
