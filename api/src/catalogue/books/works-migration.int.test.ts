/**
 * Migration 20261220100000 (works, editions, copies; decisions 0079 and 0082) on a database
 * that already has the demo catalogue: the existing books are grouped into works as the rule
 * says (the same title and first author's surname, one work; different, different), every book
 * has its work, and every edition has its search document with its copies on sale counted.
 * Then staff's corrections keep works right: a corrected title moves the edition to the work
 * that fits, a merge keeps the copies, and an emptied work goes.
 */
import { copyFile, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, type DatabaseHandle } from '../../db/index.ts';
import { migrate } from '../../db/migrate.ts';
import { seedCatalogueDemo } from '../../seed/catalogue-demo.ts';
import { seedReferenceData } from '../../seed/demo.ts';
import { createEmptyDatabase } from '../../testing/db.ts';
import { mergeBooks, updateBook } from './staff-books.service.ts';

const MIGRATIONS = fileURLToPath(new URL('../../../../supabase/migrations/', import.meta.url));
const WORKS = '20261220100000_works_editions_search.sql';

/** Books added before the migration to prove the rule both ways (the demo may have no pair). */
const PAIRS = {
  hobbit: { title: 'The Hobbit', authors: ['J. R. R. Tolkien'] },
  hobbitAgain: { title: 'Hobbit', authors: ['J.R.R. Tolkien', 'Christopher Tolkien'] },
  hobbitPunctuated: { title: 'The Hobbit!', authors: ['John Ronald Reuel Tolkien'] },
  otherAuthor: { title: 'The Hobbit', authors: ['Someone Else'] },
  otherTitle: { title: 'The Silmarillion', authors: ['J. R. R. Tolkien'] },
} as const;

let dir: string;
let database: Awaited<ReturnType<typeof createEmptyDatabase>>;
let handle: DatabaseHandle;
const ids: Record<keyof typeof PAIRS, string> = {} as Record<keyof typeof PAIRS, string>;
let staffId: string;

const db = () => handle.db;

async function copyMigrations(until?: string) {
  for (const file of await readdir(MIGRATIONS)) {
    if (file.endsWith('.sql') && (!until || file < until))
      await copyFile(path.join(MIGRATIONS, file), path.join(dir, file));
  }
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'reshelf-works-migration-'));
  database = await createEmptyDatabase();
  await copyMigrations(WORKS);
  await migrate(database.url, { dir, bootstrap: true });
  handle = createDatabase(database.url, { max: 3 });
  await seedReferenceData(db());
  await seedCatalogueDemo(db());
  for (const [name, book] of Object.entries(PAIRS)) {
    const { rows } = await sql<{ id: string }>`
      insert into public.books (title, authors) values (${book.title}, ${book.authors}::text[]) returning id`.execute(
      db(),
    );
    ids[name as keyof typeof PAIRS] = rows[0]!.id;
  }
  const { rows } = await sql<{ id: string }>`
    insert into auth.users (email) values ('staff@works-migration.test') returning id`.execute(db());
  staffId = rows[0]!.id;
  // The rest of the migrations, the works migration first among them, on the data as it stands.
  await copyMigrations();
  await migrate(database.url, { dir, bootstrap: true });
});

afterAll(async () => {
  await handle?.close();
  await database?.drop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const workOf = async (bookId: string) =>
  (await db().selectFrom('books').select('work_id').where('id', '=', bookId).executeTakeFirstOrThrow())
    .work_id;

/** Every edition's copies on sale, as its search document counts them and as the listings are. */
async function copyCounts() {
  const { rows } = await sql<{ book_id: string; counted: number | null; actual: number }>`
    select b.id as book_id, es.copies as counted,
      (select count(*)::int from public.listings l where l.book_id = b.id and l.status = 'active') as actual
    from public.books b left join public.edition_search es on es.book_id = b.id`.execute(db());
  return rows;
}

describe('the works migration on the demo catalogue', () => {
  it('groups books by title and surname: the same, one work; different, different', async () => {
    const hobbit = await workOf(ids.hobbit);
    expect(await workOf(ids.hobbitAgain)).toBe(hobbit);
    expect(await workOf(ids.hobbitPunctuated)).toBe(hobbit);
    expect(await workOf(ids.otherAuthor)).not.toBe(hobbit);
    expect(await workOf(ids.otherTitle)).not.toBe(hobbit);
    // Across the whole demo catalogue: one work per key and one key per work.
    const { rows } = await sql<{ works_per_key: number; keys_per_work: number; books: number }>`
      select
        (select max(n)::int from (select count(distinct work_id) as n from public.books
           group by public.work_key(title, authors)) k) as works_per_key,
        (select max(n)::int from (select count(distinct public.work_key(title, authors)) as n
           from public.books group by work_id) w) as keys_per_work,
        (select count(*)::int from public.books) as books`.execute(db());
    expect(rows[0]).toMatchObject({ works_per_key: 1, keys_per_work: 1 });
    expect(rows[0]!.books).toBeGreaterThan(50);
  });

  it('gives every book a work, leaves no work empty, and counts every edition’s copies on sale', async () => {
    expect(await db().selectFrom('books').select('id').where('work_id', 'is', null).execute()).toEqual([]);
    const { rows: empty } = await sql<{ id: string }>`
      select w.id from public.works w where not exists (select 1 from public.books b where b.work_id = w.id)`.execute(
      db(),
    );
    expect(empty).toEqual([]);
    const counts = await copyCounts();
    expect(counts.filter((row) => row.counted !== row.actual)).toEqual([]);
    expect(counts.filter((row) => row.actual > 0).length).toBeGreaterThan(50);
    expect(counts.some((row) => row.actual > 1)).toBe(true);
  });

  it('moves an edition whose title staff correct to the work that fits, and the emptied work goes', async () => {
    const before = await workOf(ids.otherAuthor);
    await updateBook(db(), staffId, {
      bookId: ids.otherAuthor,
      title: 'The Hobbit',
      authors: ['J. R. R. Tolkien'],
      description: null,
      category: null,
    });
    expect(await workOf(ids.otherAuthor)).toBe(await workOf(ids.hobbit));
    expect(
      await db().selectFrom('works').select('id').where('id', '=', before!).executeTakeFirst(),
    ).toBeUndefined();
    // A correction to a title of its own makes a new work.
    await updateBook(db(), staffId, {
      bookId: ids.otherAuthor,
      title: 'Farmer Giles of Ham',
      authors: ['J. R. R. Tolkien'],
      description: null,
      category: null,
    });
    const own = await workOf(ids.otherAuthor);
    expect(own).not.toBe(await workOf(ids.hobbit));
    expect(
      (await db().selectFrom('works').select('work_key').where('id', '=', own!).executeTakeFirstOrThrow())
        .work_key,
    ).toBe('farmer giles of ham|tolkien');
  });

  it('keeps works right when staff merge two books: the copies move, the duplicate’s emptied work goes', async () => {
    // Two demo books with copies on sale, in works of their own.
    const { rows } = await sql<{ id: string; work_id: string; copies: number }>`
      select b.id, b.work_id, es.copies from public.books b join public.edition_search es on es.book_id = b.id
      where es.copies > 0
        and (select count(*) from public.books o where o.work_id = b.work_id) = 1
      order by b.id limit 2`.execute(db());
    const [keep, duplicate] = rows;
    await mergeBooks(db(), staffId, { duplicateId: duplicate!.id, keepId: keep!.id });
    expect(
      await db().selectFrom('books').select('id').where('id', '=', duplicate!.id).executeTakeFirst(),
    ).toBeUndefined();
    expect(
      await db().selectFrom('works').select('id').where('id', '=', duplicate!.work_id).executeTakeFirst(),
    ).toBeUndefined();
    expect(await workOf(keep!.id)).toBe(keep!.work_id);
    const counts = await copyCounts();
    expect(counts.find((row) => row.book_id === keep!.id)).toEqual({
      book_id: keep!.id,
      counted: keep!.copies + duplicate!.copies,
      actual: keep!.copies + duplicate!.copies,
    });
    expect(counts.filter((row) => row.counted !== row.actual)).toEqual([]);
  });
});
