/**
 * Results by book on the demo catalogue: one result per edition or per work, the copies and the
 * lowest all-in price those copies give, and "did you mean" for a misspelt word.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedCatalogueDemo } from '../../seed/catalogue-demo.ts';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { api } from '../../testing/client.ts';

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
