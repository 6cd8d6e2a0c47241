/**
 * Results by book on the demo catalogue: one result per edition or per work, the copies and the
 * lowest all-in price those copies give, and "did you mean" for a misspelt word.
 */
import {
  type BookResult,
  type BookSearchInput,
  bookSearchInputSchema,
  shownAllInMinor,
} from '@reshelf/contracts';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getCommercialSettings } from '../../platform/settings/settings.service.ts';
import { seedCatalogueDemo } from '../../seed/catalogue-demo.ts';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { api } from '../../testing/client.ts';
import { searchBooks } from './book-search.service.ts';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
  await seedCatalogueDemo(t.database.handle.db);
});

afterAll(async () => {
  await t?.close();
});

describe('catalogue.books.public.search', () => {
  it('answers one result per edition with its copies and the lowest all-in price checkout would charge', async () => {
    const result = await api(t.app).catalogue.books.public.search.query({ q: 'hobbit' });
    expect(result.items.length).toBeGreaterThan(0);
    const first = result.items[0]!;
    expect(first.title).toBe('The Hobbit');
    const { rows } = await t.database.handle.pool.query<{ copies: number; low: number }>(
      `select count(*)::int as copies, min(l.price_minor)::int as low from public.listings l
        where l.book_id = $1 and l.status = 'active'`,
      [first.editionId],
    );
    expect(first.copies).toBe(rows[0]!.copies);
    expect(first.lowestAllInMinor).toBeGreaterThan(rows[0]!.low);
  });

  it('corrects a misspelt author and says so', async () => {
    const result = await api(t.app).catalogue.books.public.search.query({ q: 'tolkein' });
    expect(result.correctedQuery).toBe('tolkien');
    expect(result.corrections).toEqual([{ from: 'tolkein', to: 'tolkien' }]);
    expect(result.items[0]?.authors.join(' ')).toMatch(/Tolkien/);
    const exact = await api(t.app).catalogue.books.public.search.query({ q: 'tolkein', exact: true });
    expect(exact.correctedQuery).toBeNull();
  });

  it('browses without words, newest first, and groups by work on request', async () => {
    const editions = await api(t.app).catalogue.books.public.search.query({});
    const works = await api(t.app).catalogue.books.public.search.query({ group: 'work' });
    expect(editions.total).toBeGreaterThan(0);
    expect(works.total).toBeGreaterThan(0);
    expect(works.total).toBeLessThanOrEqual(editions.total);
    expect(works.items.every((item) => item.editionId === null)).toBe(true);
  });

  it('names the copy of a result that has exactly one, so a card can link straight to it', async () => {
    const result = await api(t.app).catalogue.books.public.search.query({ pageSize: 48 });
    const single = result.items.find((item) => item.copies === 1);
    const many = result.items.find((item) => item.copies > 1);
    expect(single).toBeDefined();
    expect(many).toBeDefined();
    const { rows } = await t.database.handle.pool.query<{ slug: string }>(
      `select l.slug from public.listings l where l.book_id = $1 and l.status = 'active'`,
      [single!.editionId],
    );
    expect(single!.listingSlug).toBe(rows[0]!.slug);
    expect(many!.listingSlug).toBeNull();
  });
});

/** Every page of a search, as results by edition id (or work slug). */
async function allResults(input: BookSearchInput): Promise<Map<string, BookResult>> {
  const out = new Map<string, BookResult>();
  for (let page = 1; ; page++) {
    const result = await searchBooks(
      t.database.handle.db,
      bookSearchInputSchema.parse({ ...input, page, pageSize: 48, sort: 'price_asc' }),
    );
    for (const item of result.items) out.set(item.editionId ?? item.workSlug, item);
    if (!result.hasNextPage) break;
  }
  return out;
}

interface CopyFilter {
  condition?: string[];
  minItem?: number;
  maxItem?: number;
  format?: string;
  firstEdition?: boolean;
  signed?: boolean;
  charityOnly?: boolean;
  q?: string;
}

/** The reference: what the filters give read copy by copy from `listings` itself. */
async function fromListings(filter: CopyFilter, byWork: boolean): Promise<Map<string, Partial<BookResult>>> {
  const settings = await getCommercialSettings(t.database.handle.db);
  const { rows } = await sql<{
    key: string;
    copies: number;
    low: number;
    parcel: 'small' | 'medium' | 'large';
    conditions: BookResult['conditions'];
    formats: BookResult['formats'];
    first_edition: boolean;
    signed: boolean;
    charity: boolean;
  }>`
    select ${byWork ? sql`w.slug` : sql`b.id::text`} as key, count(*)::int as copies,
      min(l.price_minor) as low,
      (array_agg(l.parcel_size order by l.price_minor, b.id, l.id))[1] as parcel,
      array_agg(distinct l.condition order by l.condition) as conditions,
      coalesce(array_agg(distinct l.format order by l.format) filter (where l.format is not null), '{}') as formats,
      bool_or(l.first_edition) as first_edition, bool_or(l.signed) as signed,
      bool_or(l.charity_id is not null) as charity
    from public.listings l
    join public.books b on b.id = l.book_id
    join public.works w on w.id = b.work_id
    where l.status = 'active'
      and (${filter.condition ?? null}::text[] is null or l.condition = any(${filter.condition ?? null}::text[]))
      and (${filter.minItem ?? null}::int is null or l.price_minor >= ${filter.minItem ?? null}::int)
      and (${filter.maxItem ?? null}::int is null or l.price_minor <= ${filter.maxItem ?? null}::int)
      and (${filter.format ?? null}::text is null or l.format = ${filter.format ?? null}::text)
      and (not ${filter.firstEdition ?? false} or l.first_edition)
      and (not ${filter.signed ?? false} or l.signed)
      and (not ${filter.charityOnly ?? false}
           or exists (select 1 from public.charities ch where ch.id = l.charity_id and ch.status = 'approved'))
      and (${filter.q ?? null}::text is null
           or (select es.document from public.edition_search es where es.book_id = b.id)
              @@ websearch_to_tsquery('english', public.search_normalise(${filter.q ?? ''})))
    group by 1`.execute(t.database.handle.db);
  return new Map(
    rows.map((row) => [
      row.key,
      {
        copies: row.copies,
        lowestAllInMinor: shownAllInMinor(row.low, settings),
        conditions: row.conditions,
        formats: row.formats,
        firstEdition: row.first_edition,
        signed: row.signed,
        charity: row.charity,
      },
    ]),
  );
}

describe('the filters over copies, answered from the edition’s document alone', () => {
  beforeAll(async () => {
    // Vary the demo's copies: formats, first editions, signed copies; and one of the demo's
    // charities no longer approved (its copies are no longer "sold by a charity"), so every
    // filter leaves some copies of an edition and not others.
    await sql`
      update public.listings l set
        format = (array['paperback', 'hardback', null])[1 + get_byte(decode(md5(l.id::text), 'hex'), 0) % 3],
        first_edition = get_byte(decode(md5(l.id::text), 'hex'), 1) % 4 = 0,
        signed = get_byte(decode(md5(l.id::text), 'hex'), 2) % 5 = 0`.execute(t.database.handle.db);
    const { rows } = await sql<{ id: string }>`
      select distinct l.charity_id as id from public.listings l
       where l.charity_id is not null and l.status = 'active' order by 1`.execute(t.database.handle.db);
    expect(rows.length, 'the demo sells for two charities or more').toBeGreaterThan(1);
    await sql`update public.charities set status = 'pending' where id = ${rows[0]!.id}`.execute(
      t.database.handle.db,
    );
  });

  const CASES: readonly (readonly [string, BookSearchInput, CopyFilter])[] = [
    ['no filter', {}, {}],
    ['one condition', { condition: 'good' }, { condition: ['good'] }],
    ['conditions and a price ceiling', { condition: 'like_new,very_good', maxPrice: 900 }, {}],
    ['a price floor', { minPrice: 700 }, {}],
    ['hardbacks', { format: 'hardback' }, { format: 'hardback' }],
    ['first editions', { firstEdition: true }, { firstEdition: true }],
    ['signed paperbacks', { signed: true, format: 'paperback' }, { signed: true, format: 'paperback' }],
    ['sold by an approved charity', { charityOnly: true }, { charityOnly: true }],
    [
      'words and a condition',
      { q: 'austen', condition: 'good,well_read' },
      { q: 'austen', condition: ['good', 'well_read'] },
    ],
  ];

  it.each(CASES)(
    '%s: by edition and by work, the same as reading the copies',
    async (_name, input, filter) => {
      const settings = await getCommercialSettings(t.database.handle.db);
      const parsed = bookSearchInputSchema.parse(input);
      // The all-in price filter, as item prices (the reference reads item prices).
      const { itemPriceRangeForShown } = await import('@reshelf/contracts');
      const items =
        parsed.minPrice === undefined && parsed.maxPrice === undefined
          ? {}
          : itemPriceRangeForShown(
              { minMinor: parsed.minPrice, maxMinor: parsed.maxPrice },
              settings.buyerProtection,
            );
      const full: CopyFilter = {
        ...filter,
        condition: parsed.condition ? parsed.condition.split(',') : undefined,
        minItem: items.minMinor,
        maxItem: items.maxMinor,
      };
      for (const group of ['edition', 'work'] as const) {
        const expected = await fromListings(full, group === 'work');
        const actual = await allResults({ ...input, group });
        expect(expected.size, `${group}: the reference finds something`).toBeGreaterThan(0);
        expect([...actual.keys()].sort(), group).toEqual([...expected.keys()].sort());
        for (const [key, result] of actual) {
          expect({ key, ...result }, group).toMatchObject({ key, ...expected.get(key) });
        }
      }
    },
  );
});

describe('the document under concurrent writers', () => {
  /** The document's figures beside the same figures read from the copies. */
  async function documentAndCopies(bookId: string) {
    const { rows } = await t.database.handle.pool.query<{ document: unknown; copies: unknown }>(
      `select
         (select json_build_object('copies', es.copies, 'low', es.lowest_price_minor, 'high', es.highest_price_minor,
            'list', (select json_agg(c.price_minor order by c.price_minor) from unnest(es.copy_list) c))
          from public.edition_search es where es.book_id = $1) as document,
         (select json_build_object('copies', count(*)::int, 'low', min(price_minor), 'high', max(price_minor),
            'list', json_agg(price_minor order by price_minor))
          from public.listings where book_id = $1 and status = 'active') as copies`,
      [bookId],
    );
    return rows[0]!;
  }

  it('ends right when two transactions change copies of one edition at once', async () => {
    const pool = t.database.handle.pool;
    const { rows } = await pool.query<{ book_id: string; ids: string[] }>(
      `select book_id, array_agg(id order by id) as ids from public.listings
        where status = 'active' group by book_id having count(*) >= 2 order by book_id limit 1`,
    );
    const { book_id: bookId, ids } = rows[0]!;
    const a = await pool.connect();
    const b = await pool.connect();
    try {
      await a.query('begin');
      await b.query('begin');
      await a.query('update public.listings set price_minor = 111 where id = $1', [ids[0]]);
      // B waits on the edition's row that A's trigger locked, then reads the copies afresh.
      const second = b.query('update public.listings set price_minor = 9_999 where id = $1', [ids[1]]);
      await a.query('commit');
      await second;
      await b.query('commit');
    } finally {
      a.release();
      b.release();
    }
    const { document, copies } = await documentAndCopies(bookId);
    expect(document).toEqual(copies);
    expect(document).toMatchObject({ low: 111, high: 9_999 });
  });

  it('ends right after a bulk insert of copies across editions', async () => {
    const pool = t.database.handle.pool;
    const { rows: books } = await pool.query<{ id: string }>(
      `select b.id from public.books b order by b.id limit 5`,
    );
    const { rows: sellers } = await pool.query<{ seller_id: string }>(
      `select seller_id from public.listings where charity_id is null limit 1`,
    );
    await pool.query(
      `insert into public.listings (seller_id, book_id, slug, status, condition, price_minor, parcel_size, published_at)
       select $1, b.id, 'bulk-' || b.n || '-' || i, 'active', 'good', 200 + i * 10 + b.n, 'small', now()
       from unnest($2::uuid[]) with ordinality b(id, n), generate_series(1, 4) i`,
      [sellers[0]!.seller_id, books.map((book) => book.id)],
    );
    for (const book of books) {
      const { document, copies } = await documentAndCopies(book.id);
      expect(document).toEqual(copies);
    }
  });
});

describe('a series’ volumes in volume order when the words name the series (decision 0092)', () => {
  const HARRY_POTTER = [
    "Harry Potter and the Philosopher's Stone",
    'Harry Potter and the Chamber of Secrets',
    'Harry Potter and the Prisoner of Azkaban',
    'Harry Potter and the Goblet of Fire',
  ];
  const GOBLET = '9781408855683';

  beforeAll(async () => {
    // The demo sells Harry Potter 1 and 3 and His Dark Materials 1 and 2; nobody sells Harry
    // Potter 2 and 4 or The Amber Spyglass (`demoCopies: 0`): a copy of each goes on sale here.
    const pool = t.database.handle.pool;
    const { rows: sellers } = await pool.query<{ seller_id: string }>(
      `select seller_id from public.listings where charity_id is null order by seller_id limit 1`,
    );
    const { rowCount } = await pool.query(
      `insert into public.listings (seller_id, book_id, slug, status, condition, price_minor, parcel_size, published_at)
       select $1, b.id, 'series-' || b.isbn13, 'active', 'good', 450, 'small', now()
       from public.books b where b.isbn13 = any($2::text[])`,
      [sellers[0]!.seller_id, ['9781408855669', GOBLET, '9781407130248']],
    );
    expect(rowCount).toBe(3);
  });

  async function titles(q: string, group: 'edition' | 'work' = 'edition'): Promise<string[]> {
    const result = await searchBooks(
      t.database.handle.db,
      bookSearchInputSchema.parse({ q, group, pageSize: 48 }),
    );
    return result.items.map((item) => item.title);
  }

  it('"harry potter" lists the volumes 1, 2, 3, 4 first, by edition and by work', async () => {
    for (const group of ['edition', 'work'] as const) {
      expect((await titles('harry potter', group)).slice(0, 4), group).toEqual(HARRY_POTTER);
    }
    // The series' name alone, in no title: found in the strong tier, in volume order.
    expect((await titles('his dark materials')).slice(0, 3)).toEqual([
      'Northern Lights',
      'The Subtle Knife',
      'The Amber Spyglass',
    ]);
  });

  it('keeps each series’ volumes together when the words name two series', async () => {
    const db = t.database.handle.db;
    const hobbit = sql`(select b.work_id from public.books b where b.title = 'The Hobbit' limit 1)`;
    await sql`insert into public.series (slug, name) values ('dark-materials-companions', 'Dark Materials Companions')`.execute(
      db,
    );
    await sql`update public.works set series_id = (select id from public.series where slug = 'dark-materials-companions'),
      series_position = 1 where id = ${hobbit}`.execute(db);
    try {
      const found = (await titles('dark materials')).slice(0, 4);
      const companions = found.indexOf('The Hobbit');
      expect(companions === 0 || companions === 3, found.join(', ')).toBe(true);
      expect(found.filter((title) => title !== 'The Hobbit')).toEqual([
        'Northern Lights',
        'The Subtle Knife',
        'The Amber Spyglass',
      ]);
    } finally {
      await sql`update public.works set series_id = null, series_position = null where id = ${hobbit}`.execute(
        db,
      );
      await sql`delete from public.series where slug = 'dark-materials-companions'`.execute(db);
    }
    expect(await titles('dark materials')).not.toContain('The Hobbit');
  });

  it('words that name one volume, or its ISBN, still put that volume first', async () => {
    for (const group of ['edition', 'work'] as const) {
      expect((await titles('chamber of secrets', group))[0], group).toBe(HARRY_POTTER[1]);
      expect((await titles('harry potter goblet', group))[0], group).toBe(HARRY_POTTER[3]);
      // "fire" names A Song of Ice and Fire too: the books with the word in their own title first.
      const fire = await titles('fire', group);
      expect(fire, group).toContain('A Game of Thrones');
      expect(fire.indexOf('A Game of Thrones'), group).toBeGreaterThan(fire.indexOf('Catching Fire'));
      expect(fire.indexOf('A Game of Thrones'), group).toBeGreaterThan(fire.indexOf(HARRY_POTTER[3]!));
    }
    expect((await titles(GOBLET))[0]).toBe(HARRY_POTTER[3]);
  });

  it('follows a work moved within its series, and a series renamed', async () => {
    const db = t.database.handle.db;
    const stone = sql`(select b.work_id from public.books b where b.isbn13 = '9781408855652')`;
    await sql`update public.works set series_position = 5 where id = ${stone}`.execute(db);
    try {
      for (const group of ['edition', 'work'] as const) {
        expect((await titles('harry potter', group)).slice(0, 4), group).toEqual([
          ...HARRY_POTTER.slice(1),
          HARRY_POTTER[0],
        ]);
      }
    } finally {
      await sql`update public.works set series_position = 1 where id = ${stone}`.execute(db);
    }
    expect((await titles('harry potter')).slice(0, 4)).toEqual(HARRY_POTTER);

    await sql`update public.series set name = 'Hogwarts Chronicles' where slug = 'harry-potter'`.execute(db);
    try {
      expect((await titles('hogwarts chronicles')).slice(0, 4)).toEqual(HARRY_POTTER);
    } finally {
      await sql`update public.series set name = 'Harry Potter' where slug = 'harry-potter'`.execute(db);
    }
    expect(await titles('hogwarts chronicles')).not.toContain(HARRY_POTTER[1]);
  });
});
