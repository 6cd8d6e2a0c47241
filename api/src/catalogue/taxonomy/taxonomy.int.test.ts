/**
 * The category and genre trees: admins add, rename, order and retire; /categories follows at
 * once. Moderators and members are refused; a node in use or with children is not retired.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/index.ts';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { createUser, type TestUser } from '../../testing/auth.ts';
import { createBook, createListing, createPerson } from '../../testing/catalogue.ts';
import { api, refusal, statusOf } from '../../testing/client.ts';

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
  (await api(t.app).catalogue.discovery.public.categories.query()).map((row) => row);

describe('categories and genres', () => {
  it('admins add, rename and order categories and genres, and /categories follows', async () => {
    const as = api(t.app, admin.accessToken);
    const before: Node[] = (await as.catalogue.taxonomy.staff.trees.query()).categories;
    const top = (
      await as.catalogue.taxonomy.staff.add.mutate({
        kind: 'category',
        name: ' Zines ',
        slug: 'Zines',
        description: 'Small press',
      })
    ).id;
    const sub = (
      await as.catalogue.taxonomy.staff.add.mutate({
        kind: 'category',
        name: 'Riso zines',
        slug: 'riso-zines',
        parentId: top,
      })
    ).id;
    const genre = (
      await as.catalogue.taxonomy.staff.add.mutate({ kind: 'genre', name: 'Solarpunk', slug: 'solarpunk' })
    ).id;

    let trees: { categories: Node[]; genres: Node[] } = await as.catalogue.taxonomy.staff.trees.query();
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
    const shown = (await publicCategories()).map((row) => row.slug);
    expect(shown.at(-1)).toBe('zines');
    expect(shown).toContain('riso-zines');

    await as.catalogue.taxonomy.staff.update.mutate({
      kind: 'category',
      id: top,
      name: 'Zines and pamphlets',
      slug: 'zines-and-pamphlets',
      description: '',
    });
    const renamed = (await publicCategories()).find((row) => row.slug === 'zines-and-pamphlets');
    expect(renamed).toMatchObject({ name: 'Zines and pamphlets', description: null });

    // The new top-level category moves one place up among the top-level ones.
    await as.catalogue.taxonomy.staff.move.mutate({ kind: 'category', id: top, direction: 'up' });
    trees = await as.catalogue.taxonomy.staff.trees.query();
    const topLevel = trees.categories.filter((node) => node.parentId === null).map((node) => node.id);
    const oldTop = before.filter((node) => node.parentId === null).map((node) => node.id);
    expect(topLevel).toEqual([...oldTop.slice(0, -1), top, oldTop.at(-1)]);
    expect(
      await refusal(
        as.catalogue.taxonomy.staff.move.mutate({ kind: 'category', id: sub, direction: 'down' }),
      ),
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
    const as = api(t.app, admin.accessToken);
    const trees: { categories: Node[]; genres: Node[] } = await as.catalogue.taxonomy.staff.trees.query();
    const top = trees.categories.find((node) => node.slug === 'zines-and-pamphlets')!;
    const sub = trees.categories.find((node) => node.slug === 'riso-zines')!;
    const genre = trees.genres.find((node) => node.slug === 'solarpunk')!;

    expect(
      await refusal(as.catalogue.taxonomy.staff.retire.mutate({ kind: 'category', id: top.id })),
    ).toEqual({
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
    expect(
      (await refusal(as.catalogue.taxonomy.staff.retire.mutate({ kind: 'category', id: sub.id }))).message,
    ).toBe('“Riso zines” still has 1 listing. Only a category without listings can be retired.');
    expect(await statusOf(as.catalogue.taxonomy.staff.retire.mutate({ kind: 'genre', id: genre.id }))).toBe(
      412,
    );

    await db.deleteFrom('listings').where('book_id', '=', bookId).execute();
    await as.catalogue.taxonomy.staff.retire.mutate({ kind: 'category', id: sub.id });
    await as.catalogue.taxonomy.staff.retire.mutate({ kind: 'category', id: top.id });
    await as.catalogue.taxonomy.staff.retire.mutate({ kind: 'genre', id: genre.id });
    const slugs = (await publicCategories()).map((row) => row.slug);
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
    const as = api(t.app, admin.accessToken);
    const fiction = ((await as.catalogue.taxonomy.staff.trees.query()).categories as Node[]).find(
      (node) => node.slug === 'fiction',
    )!;
    expect(
      await refusal(
        as.catalogue.taxonomy.staff.add.mutate({ kind: 'category', name: 'Fiction again', slug: 'fiction' }),
      ),
    ).toEqual({ status: 409, message: 'Another category already uses the slug “fiction”. Choose another.' });
    expect(
      await statusOf(
        as.catalogue.taxonomy.staff.add.mutate({ kind: 'genre', name: 'X', slug: 'not a slug' }),
      ),
    ).toBe(400);
    const child = (
      await as.catalogue.taxonomy.staff.add.mutate({
        kind: 'category',
        name: 'Loop test',
        slug: 'loop-test',
        parentId: fiction.id,
      })
    ).id;
    expect(
      (
        await refusal(
          as.catalogue.taxonomy.staff.update.mutate({
            kind: 'category',
            id: fiction.id,
            name: fiction.name,
            slug: fiction.slug,
            parentId: child,
          }),
        )
      ).message,
    ).toBe('A category cannot sit inside itself or one of its own subcategories. Choose another parent.');

    for (const user of [moderator, member]) {
      const other = api(t.app, user.accessToken);
      expect(await statusOf(other.catalogue.taxonomy.staff.trees.query())).toBe(403);
      expect(
        await statusOf(
          other.catalogue.taxonomy.staff.add.mutate({ kind: 'genre', name: 'Nope', slug: 'nope' }),
        ),
      ).toBe(403);
      expect(
        await statusOf(other.catalogue.taxonomy.staff.retire.mutate({ kind: 'category', id: child })),
      ).toBe(403);
    }
    const trees = await as.catalogue.taxonomy.staff.trees.query();
    expect(trees.genres.map((node: Node) => node.slug)).not.toContain('nope');
    expect(trees.categories.find((node: Node) => node.id === fiction.id)?.parentId).toBeNull();
  });
});
