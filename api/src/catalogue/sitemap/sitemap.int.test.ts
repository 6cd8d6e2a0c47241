/**
 * robots.txt and the sitemaps through the real app, with a web build present (whose fallback
 * used to answer /robots.txt with index.html); and the sitemap index, with files lowered to a
 * few URLs each so that the catalogue needs several.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/index.ts';
import { seedSitePages } from '../../seed/site-pages.ts';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { createBook, createCharity, createListing, createPerson } from '../../testing/catalogue.ts';
import { registerSitemapRoutes } from './sitemap.route.ts';
import { disallowedPrefixes, robotsTxt } from './sitemap.service.ts';

let t: TestApp;
let db: Database;
let webDist: string;
/** Book pages (works): one with a copy on sale, one whose only copy is sold. */
const works = { onSale: '', soldOut: '' };
/** The sitemap's seller pages: one with books on sale, and those that should not be listed. */
const sellers: Record<'selling' | 'nothingOnSale' | 'charityOwner' | 'closed', string> = {
  selling: '',
  nothingOnSale: '',
  charityOwner: '',
  closed: '',
};
const listings: Record<'old' | 'newer' | 'draft' | 'sold', string> = {
  old: '',
  newer: '',
  draft: '',
  sold: '',
};

beforeAll(async () => {
  webDist = await mkdtemp(path.join(tmpdir(), 'reshelf-web-'));
  await writeFile(
    path.join(webDist, 'index.html'),
    '<!doctype html><title>Reshelf</title><div id="root"></div>',
  );
  t = await createTestApp({ env: { WEB_DIST: webDist, PUBLIC_ORIGIN: 'https://reshelf.example' } });
  db = t.database.handle.db;
  await seedSitePages(db);
  const sellerId = await createPerson(db, 'sitemap@reshelf.test');
  const bookId = await createBook(db, { title: 'Mapped', category: 'fiction' });
  const make = async (status: 'active' | 'draft' | 'sold', publishedAt: Date) =>
    (await createListing(db, { sellerId, bookId, status, publishedAt })).slug;
  listings.old = await make('active', new Date('2026-01-02T03:04:05Z'));
  listings.newer = await make('active', new Date('2026-06-01T00:00:00Z'));
  listings.draft = await make('draft', new Date());
  listings.sold = await make('sold', new Date());
  await createCharity(db, { slug: 'mapped-hospice', name: 'Mapped Hospice Books' });
  await createCharity(db, { slug: 'pending-books', name: 'Pending Books', status: 'pending' });

  sellers.selling = sellerId;
  const workOf = async (id: string) =>
    (
      await db
        .selectFrom('books')
        .innerJoin('works', 'works.id', 'books.work_id')
        .select('works.slug')
        .where('books.id', '=', id)
        .executeTakeFirstOrThrow()
    ).slug;
  works.onSale = await workOf(bookId);
  const soldOutBook = await createBook(db, { title: 'Unmapped Sold Out', authors: ['Gone Away'] });
  await createListing(db, { sellerId, bookId: soldOutBook, status: 'sold', publishedAt: new Date() });
  works.soldOut = await workOf(soldOutBook);
  // Only a sold book: the page has nothing to find.
  sellers.nothingOnSale = await createPerson(db, 'sold-out@reshelf.test');
  await createListing(db, {
    sellerId: sellers.nothingOnSale,
    bookId,
    status: 'sold',
    publishedAt: new Date(),
  });
  // A charity's owner selling for it: the charity's page is the one to find.
  sellers.charityOwner = await createPerson(db, 'charity-owner@reshelf.test');
  await createCharity(db, { slug: 'owned-books', name: 'Owned Books', ownerId: sellers.charityOwner });
  await createListing(db, { sellerId: sellers.charityOwner, bookId, publishedAt: new Date() });
  // A closed account's books are taken off sale; even one left active is not a page to list.
  sellers.closed = await createPerson(db, 'closed@reshelf.test');
  await createListing(db, { sellerId: sellers.closed, bookId, publishedAt: new Date() });
  await db
    .updateTable('profiles')
    .set({ closed_at: new Date(), bio: null, town: null, avatar_url: null })
    .where('id', '=', sellers.closed)
    .execute();
});

afterAll(async () => {
  await t?.close();
  await rm(webDist, { recursive: true, force: true });
});

const locs = (xml: string) => [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1]!);

describe('robots.txt', () => {
  it('is a real robots.txt, not the web app, naming the sitemap at the public origin', async () => {
    // The web's fallback still serves the client's pages.
    expect((await request(t.app.server).get('/listings')).text).toContain('<div id="root">');

    const response = await request(t.app.server).get('/robots.txt');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(response.headers['cache-control']).toMatch(/^public, max-age=\d+$/);
    expect(response.text).not.toContain('<');
    const lines = response.text.split('\n');
    expect(lines[0]).toBe('User-agent: *');
    for (const path of [
      '/admin',
      '/global-admin',
      '/account',
      '/checkout',
      '/sell',
      '/messages',
      '/api',
      '/trpc',
    ]) {
      expect(lines, path).toContain(`Disallow: ${path}`);
    }
    expect(lines).toContain('Disallow: /charity/dashboard');
    // "/sell" would shut out the public seller pages by prefix: they are allowed back.
    expect(lines).toContain('Allow: /seller/');
    expect(lines).not.toContain('Disallow: /charity');
    expect(lines).toContain('Sitemap: https://reshelf.example/sitemap.xml');
  });

  it('names the sitemap at whatever origin it is given, listing each private prefix once', () => {
    expect(robotsTxt('http://localhost:3000')).toContain('Sitemap: http://localhost:3000/sitemap.xml');
    // Each signed-in page once, by its shortest private prefix.
    const prefixes = disallowedPrefixes();
    expect(prefixes).toContain('/account');
    expect(prefixes.some((path) => path.startsWith('/account/'))).toBe(false);
    expect(prefixes).not.toContain('/');
  });
});

describe('sitemap.xml', () => {
  it('lists the static pages, categories, genres, charities, sellers and active listings with lastmod', async () => {
    const response = await request(t.app.server).get('/sitemap.xml');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(response.headers['cache-control']).toMatch(/^public, max-age=\d+$/);
    const xml = response.text;
    expect(xml).toMatch(
      /^<\?xml version="1.0" encoding="UTF-8"\?>\n<urlset xmlns="http:\/\/www.sitemaps.org\/schemas\/sitemap\/0.9">/,
    );
    const urls = locs(xml);
    for (const path of [
      '/',
      '/categories',
      '/terms',
      '/help-centre/faq',
      '/pages/about-us',
      '/c/fiction',
      '/g/epic-fantasy',
      '/charity/mapped-hospice',
      `/seller/${sellers.selling}`,
      `/listing/${listings.old}`,
      `/listing/${listings.newer}`,
      `/book/${works.onSale}`,
    ]) {
      expect(urls, path).toContain(`https://reshelf.example${path}`);
    }
    for (const path of [
      `/listing/${listings.draft}`,
      `/listing/${listings.sold}`,
      '/charity/pending-books',
      `/seller/${sellers.nothingOnSale}`,
      `/seller/${sellers.charityOwner}`,
      `/seller/${sellers.closed}`,
      `/book/${works.soldOut}`,
    ]) {
      expect(urls, path).not.toContain(`https://reshelf.example${path}`);
    }
    expect(new Set(urls).size).toBe(urls.length);
    const old = await db
      .selectFrom('listings')
      .select('updated_at')
      .where('slug', '=', listings.old)
      .executeTakeFirstOrThrow();
    expect(xml).toContain(
      `<url><loc>https://reshelf.example/listing/${listings.old}</loc><lastmod>${old.updated_at.toISOString().replace(/\.\d{3}Z$/, 'Z')}</lastmod></url>`,
    );
    // A seller's page changes when their books on sale do.
    const newest = await db
      .selectFrom('listings')
      .select((eb) => eb.fn.max('updated_at').as('at'))
      .where('seller_id', '=', sellers.selling)
      .where('status', '=', 'active')
      .executeTakeFirstOrThrow();
    expect(xml).toContain(
      `<url><loc>https://reshelf.example/seller/${sellers.selling}</loc><lastmod>${new Date(newest.at as Date).toISOString().replace(/\.\d{3}Z$/, 'Z')}</lastmod></url>`,
    );
    // A book page changes when its copies on sale do.
    const newestCopy = await db
      .selectFrom('listings')
      .innerJoin('books', 'books.id', 'listings.book_id')
      .innerJoin('works', 'works.id', 'books.work_id')
      .select((eb) => eb.fn.max('listings.updated_at').as('at'))
      .where('works.slug', '=', works.onSale)
      .where('listings.status', '=', 'active')
      .executeTakeFirstOrThrow();
    expect(xml).toContain(
      `<url><loc>https://reshelf.example/book/${works.onSale}</loc><lastmod>${new Date(newestCopy.at as Date).toISOString().replace(/\.\d{3}Z$/, 'Z')}</lastmod></url>`,
    );
    // Oldest listing first, so new ones join the end.
    expect(urls.indexOf(`https://reshelf.example/listing/${listings.old}`)).toBeLessThan(
      urls.indexOf(`https://reshelf.example/listing/${listings.newer}`),
    );
  });

  it('answers an unknown sitemap file with a 404, not the web app', async () => {
    for (const file of ['listings-0.xml', 'listings-9.xml', 'other.xml']) {
      const response = await request(t.app.server).get(`/sitemaps/${file}`);
      expect(response.status, file).toBe(404);
      expect(response.body.message, file).toMatch(/There is no sitemap called/);
    }
  });
});

describe('a catalogue past one file', () => {
  let small: FastifyInstance;
  const PER_FILE = 5;

  beforeAll(async () => {
    small = Fastify();
    await registerSitemapRoutes(small, { db, config: { siteOrigin: 'http://shop.test' }, perFile: PER_FILE });
    await small.ready();
    // Enough active listings for three files of five.
    const sellerId = await createPerson(db, 'many@reshelf.test');
    const bookId = await createBook(db, { title: 'Many copies' });
    for (let i = 0; i < 11; i += 1) {
      await createListing(db, { sellerId, bookId, publishedAt: new Date(Date.UTC(2026, 2, 1 + i)) });
    }
  });

  afterAll(async () => {
    await small?.close();
  });

  it('becomes a sitemap index of files of at most the limit, together listing every URL once', async () => {
    const root = await small.inject({ method: 'GET', url: '/sitemap.xml', headers: { host: 'shop.test' } });
    expect(root.statusCode).toBe(200);
    expect(root.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(root.body).toContain('<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
    const files = locs(root.body);
    const active = await db.selectFrom('listings').select('slug').where('status', '=', 'active').execute();
    expect(files.filter((file) => /\/sitemaps\/listings-\d+\.xml$/.test(file))).toHaveLength(
      Math.ceil(active.length / PER_FILE),
    );
    expect(files).toContain('http://shop.test/sitemaps/pages-1.xml');

    const all: string[] = [];
    for (const file of files) {
      const response = await small.inject({
        method: 'GET',
        url: new URL(file).pathname,
        headers: { host: 'shop.test' },
      });
      expect(response.statusCode, file).toBe(200);
      expect(response.body).toContain('<urlset');
      const urls = locs(response.body);
      expect(urls.length, file).toBeGreaterThan(0);
      expect(urls.length, file).toBeLessThanOrEqual(PER_FILE);
      all.push(...urls);
    }
    expect(new Set(all).size).toBe(all.length);
    for (const { slug } of active) expect(all).toContain(`http://shop.test/listing/${slug}`);
    expect(all).toContain('http://shop.test/c/fiction');
    expect(all).toContain('http://shop.test/');
    const past = Math.ceil(active.length / PER_FILE) + 1;
    expect((await small.inject({ method: 'GET', url: `/sitemaps/listings-${past}.xml` })).statusCode).toBe(
      404,
    );
  });
});
