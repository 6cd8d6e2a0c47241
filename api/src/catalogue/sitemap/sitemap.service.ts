/**
 * What search engines may crawl: robots.txt, and the sitemap of every public page worth
 * finding (the fixed public pages, the static pages staff publish, categories, genres,
 * approved charities, sellers with books on sale, book pages of works with a copy on sale, and
 * active listings). Up to `perFile` URLs (50,000, the protocol's limit)
 * /sitemap.xml is one <urlset>; past it, a <sitemapindex> of /sitemaps/pages-<n>.xml (everything
 * but the listings: a file per 50,000 sellers) and /sitemaps/listings-<n>.xml, the listings oldest
 * first so that new ones join the last file.
 */
import { PRODUCT, SIGNED_IN_ROUTES } from '@reshelf/contracts';
import { sql } from 'kysely';
import type { Database } from '../../db/index.ts';

/** The sitemap protocol's limit of URLs per file. */
export const SITEMAP_MAX_URLS = 50_000;

/** The public pages at fixed paths (the static pages kept in `pages` are added from there). */
export const FIXED_PUBLIC_PATHS = [
  '/',
  '/listings',
  '/categories',
  '/trending',
  '/recently-added',
  '/staff-picks',
  '/discover-sellers',
  '/charity',
  '/charity/directory',
  '/charity/signup',
  '/pages/contact',
  PRODUCT.appPath,
] as const;

/** Static pages shown at a path of their own rather than /pages/<slug> (web/src/app/router.tsx). */
const PAGE_PATHS: Record<string, string> = {
  terms: '/terms',
  'help-centre': '/help-centre',
  faq: '/help-centre/faq',
};

/** Paths under which every page is public (the sitemap's dynamic entries). */
const PUBLIC_PREFIXES = ['/book/', '/listing/', '/c/', '/g/', '/charity/', '/seller/', '/pages/'];

/** Areas for staff, signed-in people or machines: never worth crawling. */
const PRIVATE_AREAS = ['/admin', '/global-admin', '/api', '/trpc', '/dev'];

/**
 * The path prefixes robots.txt disallows: the private areas and every signed-in page (from
 * SIGNED_IN_ROUTES), each reduced to its shortest prefix that no public page shares.
 */
export function disallowedPrefixes(): string[] {
  const publicPaths = new Set<string>(FIXED_PUBLIC_PATHS);
  const candidates = [
    ...PRIVATE_AREAS,
    ...SIGNED_IN_ROUTES.map((route) => {
      const segments = route.split('/').filter(Boolean);
      // '/sell/:id' → '/sell'; '/charity/sell' stays whole, as '/charity' is public.
      for (let length = 1; length <= segments.length; length += 1) {
        const prefix = `/${segments.slice(0, length).join('/')}`;
        if (!publicPaths.has(prefix) && !segments[length - 1]!.startsWith(':')) return prefix;
      }
      return route;
    }),
  ];
  const sorted = [...new Set(candidates)].sort();
  return sorted.filter((path) => !sorted.some((other) => other !== path && path.startsWith(`${other}/`)));
}

export function robotsTxt(origin: string): string {
  const disallowed = disallowedPrefixes();
  // Robots rules match by string prefix: "/sell" would also shut out "/seller/…". The longer
  // Allow wins (RFC 9309), so each public prefix a Disallow swallows is allowed back.
  const allowed = PUBLIC_PREFIXES.filter((prefix) =>
    disallowed.some((path) => prefix.startsWith(path) && !prefix.startsWith(`${path}/`)),
  );
  return [
    'User-agent: *',
    ...disallowed.map((path) => `Disallow: ${path}`),
    ...allowed.map((path) => `Allow: ${path}`),
    '',
    `Sitemap: ${origin}/sitemap.xml`,
    '',
  ].join('\n');
}

export interface SitemapEntry {
  path: string;
  lastmod?: Date | null;
}

const XML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
};
const escapeXml = (text: string) => text.replace(/[&<>"']/g, (char) => XML_ESCAPES[char]!);
const w3cDate = (date: Date) => date.toISOString().replace(/\.\d{3}Z$/, 'Z');

function loc(origin: string, path: string): string {
  return escapeXml(`${origin}${path.split('/').map(encodeURIComponent).join('/')}`);
}

export function urlsetXml(origin: string, entries: readonly SitemapEntry[]): string {
  const urls = entries.map(
    (entry) =>
      `<url><loc>${loc(origin, entry.path)}</loc>${entry.lastmod ? `<lastmod>${w3cDate(entry.lastmod)}</lastmod>` : ''}</url>`,
  );
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`;
}

export function sitemapIndexXml(origin: string, paths: readonly string[]): string {
  const sitemaps = paths.map((path) => `<sitemap><loc>${loc(origin, path)}</loc></sitemap>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${sitemaps.join('\n')}\n</sitemapindex>\n`;
}

/** Where each kind of page lives (a static page may have a path of its own: PAGE_PATHS). */
const KIND_PREFIX = {
  category: '/c/',
  genre: '/g/',
  charity: '/charity/',
  seller: '/seller/',
  book: '/book/',
} as const;

/**
 * Every public page but the listings: the fixed pages, static pages, categories, genres and
 * charities (a few hundred), the sellers with books on sale (one per seller), and the book pages
 * of works with a copy on sale (decision 0081). A seller's page, and a book's, changes when its
 * books on sale do. A charity's owner is found by the charity's page,
 * and a closed account has no page worth finding.
 */
export async function sitePageEntries(db: Database): Promise<SitemapEntry[]> {
  const { rows } = await sql<{
    kind: 'page' | keyof typeof KIND_PREFIX;
    slug: string;
    lastmod: Date;
  }>`
    select 'page' as kind, slug, updated_at as lastmod from public.pages where published
    union all select 'category', slug, updated_at from public.categories
    union all select 'genre', slug, updated_at from public.genres
    union all select 'charity', slug, updated_at from public.charities where status = 'approved'
    union all
    select 'seller', l.seller_id::text, max(l.updated_at)
      from public.listings l
      join public.profiles p on p.id = l.seller_id and p.closed_at is null
     where l.status = 'active' and l.published_at is not null
       and not exists (select 1 from public.charities c where c.owner_id = l.seller_id and c.status = 'approved')
     group by l.seller_id
    union all
    select 'book', w.slug, max(l.updated_at)
      from public.listings l
      join public.books b on b.id = l.book_id
      join public.works w on w.id = b.work_id
     where l.status = 'active' and l.published_at is not null
     group by w.slug
    order by kind, slug`.execute(db);
  const fixed = new Set<string>(FIXED_PUBLIC_PATHS);
  const entries: SitemapEntry[] = FIXED_PUBLIC_PATHS.map((path) => ({ path }));
  for (const row of rows) {
    const path =
      row.kind === 'page'
        ? (PAGE_PATHS[row.slug] ?? `/pages/${row.slug}`)
        : `${KIND_PREFIX[row.kind]}${row.slug}`;
    if (!fixed.has(path)) entries.push({ path, lastmod: row.lastmod });
  }
  return entries;
}

export async function activeListingCount(db: Database): Promise<number> {
  const { rows } = await sql<{ count: number }>`
    select count(*)::int as count from public.listings
    where status = 'active' and published_at is not null`.execute(db);
  return rows[0]?.count ?? 0;
}

/** One file's worth of active listings (page from 1), oldest first, with when each last changed. */
export async function listingEntries(db: Database, page: number, perFile: number): Promise<SitemapEntry[]> {
  const { rows } = await sql<{ slug: string; updated_at: Date }>`
    select l.slug, l.updated_at from public.listings l
    where l.status = 'active' and l.published_at is not null and l.slug is not null
    order by l.published_at, l.id
    limit ${perFile} offset ${(page - 1) * perFile}`.execute(db);
  return rows.map((row) => ({ path: `/listing/${row.slug}`, lastmod: row.updated_at }));
}

export type SitemapDocument =
  | { kind: 'urlset'; entries: SitemapEntry[] }
  | { kind: 'index'; paths: string[] };

/** /sitemap.xml: every URL when they fit in one file, else the index of the files. */
export async function rootSitemap(db: Database, perFile: number): Promise<SitemapDocument> {
  const [pages, listings] = await Promise.all([sitePageEntries(db), activeListingCount(db)]);
  if (pages.length + listings <= perFile) {
    return { kind: 'urlset', entries: [...pages, ...(await listingEntries(db, 1, perFile))] };
  }
  const files = (kind: string, count: number) =>
    Array.from({ length: Math.ceil(count / perFile) }, (_, i) => `/sitemaps/${kind}-${i + 1}.xml`);
  return { kind: 'index', paths: [...files('pages', pages.length), ...files('listings', listings)] };
}

/** /sitemaps/<kind>-<n>.xml: one file of the index; null past the last one. */
export async function sitemapFile(
  db: Database,
  kind: 'pages' | 'listings',
  page: number,
  perFile: number,
): Promise<SitemapEntry[] | null> {
  const entries =
    kind === 'pages'
      ? (await sitePageEntries(db)).slice((page - 1) * perFile, page * perFile)
      : await listingEntries(db, page, perFile);
  return entries.length > 0 ? entries : null;
}
