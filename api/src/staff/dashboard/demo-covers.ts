/**
 * Generated book covers for the demo data (decision 0023). Offline the demo books
 * have no cover image and the demo listings no photo, so the catalogue looked unlike the
 * product and the clean-up's "no image" rule took every demo listing. Each demo book gets a
 * cover drawn from its title, author and genre (a colour per genre), rendered with sharp to
 * WebP in the two sizes a listing photo has, stored through the storage port, and recorded as
 * the listing's photo.
 *
 * Which listings: demo listings only (the first-start catalogue's, found by their
 * deterministic slugs, and those seed-openlibrary-recent recorded in seed_items) that have no
 * photo and whose book has no cover (an Open Library cover, hosted, is better than ours). The
 * BFF does this after every seed in both backends: the Edge Function (Deno) cannot run sharp.
 *
 * Keys name their content (`demo-covers/<hash of what is drawn>/1600.webp` and `…/400.webp`),
 * so a cover is drawn and stored once per book, shared by its copies, cached for ever, and
 * never deleted with a listing (photoKeysOf does not claim it).
 */
import { createHash } from 'node:crypto';
import { SELLING_LIMITS } from '@reshelf/contracts';
import { sql } from 'kysely';
import sharp from 'sharp';
import type { Database } from '../../db/index.ts';
import { imageWork } from '../../platform/images/image-work.ts';
import type { StoragePort } from '../../platform/storage/port.ts';

/** Bump when the drawing changes, so new covers get new keys (old URLs stay cached). */
const COVER_VERSION = 1;
export const COVER_WIDTH = 600;
export const COVER_HEIGHT = 800;
export const COVER_THUMB_WIDTH = 300;
export const COVER_THUMB_HEIGHT = 400;

interface CoverColour {
  bg: string;
  band: string;
}

const FG = '#fbf7f0';
const GOLD = '#e8b04b';
const CREAM = '#e9dcc8';
const BLUSH = '#f4e2dc';

/** A colour per genre: deep, bookish tones that keep paper-coloured type readable. */
export const GENRE_COLOURS: Record<string, CoverColour> = {
  'literary-fiction': { bg: '#2f4f4f', band: GOLD },
  'historical-fiction': { bg: '#7a4a1e', band: CREAM },
  classics: { bg: '#1f3a5f', band: GOLD },
  'cosy-crime': { bg: '#6b2737', band: CREAM },
  'police-procedural': { bg: '#22304a', band: '#c9a227' },
  'psychological-thriller': { bg: '#3b1f2b', band: '#d9534f' },
  'epic-fantasy': { bg: '#5b3a6b', band: GOLD },
  'space-opera': { bg: '#1b2845', band: '#7fb3d5' },
  dystopian: { bg: '#4a4e2f', band: GOLD },
  horror: { bg: '#2b1b1b', band: '#b03a2e' },
  humour: { bg: '#b5542d', band: CREAM },
  'graphic-novels': { bg: '#355c7d', band: BLUSH },
  'picture-books': { bg: '#2e7d6b', band: '#f6d365' },
  'nature-writing': { bg: '#3f5a45', band: CREAM },
  'true-crime': { bg: '#8c2f24', band: CREAM },
  baking: { bg: '#9a5b3c', band: BLUSH },
};

/** A book without a genre takes its shelf's colour. */
export const CATEGORY_COLOURS: Record<string, CoverColour> = {
  fiction: { bg: '#2f4f4f', band: GOLD },
  'crime-thriller': { bg: '#22304a', band: '#c9a227' },
  fantasy: { bg: '#5b3a6b', band: GOLD },
  'science-fiction': { bg: '#1b2845', band: '#7fb3d5' },
  romance: { bg: '#8a3a5a', band: BLUSH },
  childrens: { bg: '#2e7d6b', band: '#f6d365' },
  'young-adult': { bg: '#4b3f8f', band: BLUSH },
  history: { bg: '#7a4a1e', band: CREAM },
  'biography-memoir': { bg: '#355c7d', band: CREAM },
  cookery: { bg: '#9a5b3c', band: BLUSH },
  travel: { bg: '#2e6a78', band: GOLD },
  'poetry-drama': { bg: '#6b2737', band: CREAM },
  'science-nature': { bg: '#3f5a45', band: CREAM },
  'self-help': { bg: '#4a6b8a', band: CREAM },
  'art-photography': { bg: '#8c2f24', band: GOLD },
  'philosophy-religion': { bg: '#4a4e2f', band: GOLD },
};

const DEFAULT_COLOUR: CoverColour = { bg: '#22304a', band: GOLD };

export function coverColour(genre: string | null, category: string | null): CoverColour {
  return (
    (genre ? GENRE_COLOURS[genre] : undefined) ??
    (category ? CATEGORY_COLOURS[category] : undefined) ??
    DEFAULT_COLOUR
  );
}

export interface CoverSpec {
  title: string;
  authors: readonly string[];
  /** The genre's (or shelf's) name, printed small above the title. */
  label: string | null;
  colour: CoverColour;
}

function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Greedy word wrap to `width` characters, at most `maxLines` lines (the last one cut with …). */
export function wrapText(text: string, width: number, maxLines: number): string[] {
  const words = text.trim().split(/\s+/).filter(Boolean);
  const lines: string[] = [];
  let line = '';
  for (let word of words) {
    while (word.length > width) {
      // A word longer than the line: break it with a hyphen.
      if (line) {
        lines.push(line);
        line = '';
      }
      lines.push(`${word.slice(0, width - 1)}-`);
      word = word.slice(width - 1);
    }
    if (!line) line = word;
    else if (line.length + 1 + word.length <= width) line = `${line} ${word}`;
    else {
      lines.push(line);
      line = word;
    }
  }
  if (line) lines.push(line);
  if (lines.length <= maxLines) return lines;
  const kept = lines.slice(0, maxLines);
  const last = kept[maxLines - 1]!;
  kept[maxLines - 1] = `${last.length >= width ? last.slice(0, width - 1) : last}…`;
  return kept;
}

const SERIF = "Georgia, 'DejaVu Serif', 'Liberation Serif', 'Noto Serif', serif";
const SANS = "'DejaVu Sans', 'Liberation Sans', 'Noto Sans', Arial, sans-serif";
const TEXT_LEFT = 84;
const TEXT_WIDTH = COVER_WIDTH - TEXT_LEFT - 52;

/** Estimated width of a character of the bold serif, in ems (DejaVu Serif, the widest we may get). */
const TITLE_EM = 0.64;

/**
 * The title's size: the largest at which it fits in four lines (five when smaller) without
 * breaking a word; a title that fits nowhere is cut with an ellipsis at the smallest size.
 */
function titleLayout(title: string): { size: number; lines: string[] } {
  const longestWord = Math.max(...title.split(/\s+/).map((word) => word.length));
  for (const size of [72, 64, 56, 50, 44, 40]) {
    const width = Math.floor(TEXT_WIDTH / (size * TITLE_EM));
    if (longestWord > width) continue;
    const maxLines = size >= 56 ? 4 : 5;
    const lines = wrapText(title, width, maxLines + 1);
    if (lines.length <= maxLines) return { size, lines };
  }
  return { size: 36, lines: wrapText(title, Math.floor(TEXT_WIDTH / (36 * TITLE_EM)), 6) };
}

/** The cover as SVG: a cloth binding with a spine shadow and bands, the genre, title and author. */
export function coverSvg(spec: CoverSpec): string {
  const { bg, band } = spec.colour;
  const title = titleLayout(spec.title);
  const lineHeight = Math.round(title.size * 1.14);
  const titleTop = 200 + title.size;
  const titleLines = title.lines
    .map(
      (line, index) =>
        `<tspan x="${TEXT_LEFT}" y="${titleTop + index * lineHeight}">${escapeXml(line)}</tspan>`,
    )
    .join('');
  const ruleY = titleTop + (title.lines.length - 1) * lineHeight + 40;
  const authorLines = wrapText(spec.authors.join(', '), Math.floor(TEXT_WIDTH / (30 * 0.55)), 2);
  const authorTop = 706 - (authorLines.length - 1) * 38;
  const author = authorLines
    .map((line, index) => `<tspan x="${TEXT_LEFT}" y="${authorTop + index * 38}">${escapeXml(line)}</tspan>`)
    .join('');
  const label = spec.label
    ? `<text x="${TEXT_LEFT}" y="76" font-family="${SANS}" font-size="21" font-weight="bold" letter-spacing="3.5" fill="${FG}" fill-opacity="0.78">${escapeXml(spec.label.toUpperCase())}</text>`
    : '';
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${COVER_WIDTH}" height="${COVER_HEIGHT}" viewBox="0 0 ${COVER_WIDTH} ${COVER_HEIGHT}">`,
    `<rect width="${COVER_WIDTH}" height="${COVER_HEIGHT}" fill="${bg}"/>`,
    // Light from the top left, as on a real book.
    '<defs><linearGradient id="sheen" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#fff" stop-opacity="0.10"/><stop offset="1" stop-color="#000" stop-opacity="0.16"/></linearGradient></defs>',
    `<rect width="${COVER_WIDTH}" height="${COVER_HEIGHT}" fill="url(#sheen)"/>`,
    '<rect width="38" height="800" fill="#000" fill-opacity="0.22"/>',
    '<rect x="38" width="3" height="800" fill="#fff" fill-opacity="0.10"/>',
    `<rect x="41" y="104" width="${COVER_WIDTH - 41}" height="16" fill="${band}"/>`,
    label,
    `<text font-family="${SERIF}" font-size="${title.size}" font-weight="bold" fill="${FG}">${titleLines}</text>`,
    `<rect x="${TEXT_LEFT}" y="${ruleY}" width="72" height="5" fill="${band}"/>`,
    `<text font-family="${SERIF}" font-size="30" font-style="italic" fill="${FG}" fill-opacity="0.92">${author}</text>`,
    `<rect x="41" y="748" width="${COVER_WIDTH - 41}" height="6" fill="${band}" fill-opacity="0.7"/>`,
    '</svg>',
  ].join('');
}

export interface RenderedCover {
  large: Buffer;
  thumb: Buffer;
}

/**
 * The cover in both photo sizes, as WebP: drawn inside the limiter every image path shares
 * (decision 0026), waiting its turn behind uploads rather than being refused.
 */
export async function renderCover(spec: CoverSpec): Promise<RenderedCover> {
  return imageWork.run(
    async () => {
      const { data, info } = await sharp(Buffer.from(coverSvg(spec)))
        .raw()
        .toBuffer({ resolveWithObject: true });
      const raw = { raw: { width: info.width, height: info.height, channels: info.channels } };
      const [large, thumb] = await Promise.all([
        sharp(data, raw).webp({ quality: 82, effort: 1 }).toBuffer(),
        sharp(data, raw)
          .resize(COVER_THUMB_WIDTH, COVER_THUMB_HEIGHT)
          .webp({ quality: 78, effort: 1 })
          .toBuffer(),
      ]);
      return { large, thumb };
    },
    { background: true },
  );
}

/** The storage keys of a cover: named by what is drawn, in the two sizes a photo has. */
export function coverKeys(spec: CoverSpec): { large: string; thumb: string } {
  const hash = createHash('sha256')
    .update(JSON.stringify([COVER_VERSION, spec.title, spec.authors, spec.label, spec.colour]))
    .digest('hex')
    .slice(0, 16);
  return {
    large: `demo-covers/${hash}/${SELLING_LIMITS.photoLargePx}.webp`,
    thumb: `demo-covers/${hash}/${SELLING_LIMITS.photoThumbPx}.webp`,
  };
}

export interface DemoCoversReport {
  listings: number;
  covers: number;
  ms: number;
}

/** Work on a few covers at a time: sharp uses the thread pool, the storage port the network. */
async function inBatches<T>(items: readonly T[], size: number, work: (item: T) => Promise<void>) {
  for (let start = 0; start < items.length; start += size) {
    await Promise.all(items.slice(start, start + size).map(work));
  }
}

/**
 * Gives every demo listing without a photo (whose book has no cover) its book's generated
 * cover as its photo. Files first, then the rows (each only while it still has no photo);
 * answers how many listings and covers, and how long it took.
 */
export async function attachDemoCovers(deps: {
  db: Database;
  storage: StoragePort;
  /** Listings by slug that get covers too (the first start's catalogue demo), beside every seeded item. */
  slugs?: readonly string[];
}): Promise<DemoCoversReport> {
  const started = performance.now();
  const { db, storage } = deps;
  const slugs = deps.slugs ?? [];
  const rows = await db
    .selectFrom('listings as l')
    .innerJoin('books as b', 'b.id', 'l.book_id')
    .leftJoin('categories as c', 'c.id', 'b.category_id')
    .select([
      'l.id',
      'l.book_id',
      'b.title',
      'b.authors',
      'c.slug as category',
      'c.name as category_name',
      sql<string | null>`(select g.slug from public.book_genres bg join public.genres g on g.id = bg.genre_id
        where bg.book_id = b.id order by g.position, g.slug limit 1)`.as('genre'),
      sql<string | null>`(select g.name from public.book_genres bg join public.genres g on g.id = bg.genre_id
        where bg.book_id = b.id order by g.position, g.slug limit 1)`.as('genre_name'),
    ])
    .where(sql<boolean>`jsonb_array_length(l.photos) = 0`)
    .where('b.cover_url', 'is', null)
    .where('l.status', '<>', 'draft')
    .where((eb) =>
      eb.or([
        ...(slugs.length > 0 ? [eb('l.slug', 'in', [...slugs])] : []),
        eb(
          'l.id',
          'in',
          eb.selectFrom('seed_items').select('row_id').where('kind', 'in', ['listing', 'sold_listing']),
        ),
      ]),
    )
    .execute();
  const byBook = new Map<string, { spec: CoverSpec; listingIds: string[] }>();
  for (const row of rows) {
    const entry = byBook.get(row.book_id!) ?? {
      spec: {
        title: row.title,
        authors: row.authors,
        label: row.genre_name ?? row.category_name ?? null,
        colour: coverColour(row.genre, row.category),
      },
      listingIds: [],
    };
    entry.listingIds.push(row.id);
    byBook.set(row.book_id!, entry);
  }
  const photos: { url: string; listingIds: string[] }[] = [];
  await inBatches([...byBook.values()], 8, async ({ spec, listingIds }) => {
    const keys = coverKeys(spec);
    const cover = await renderCover(spec);
    await storage.put(keys.large, cover.large, 'image/webp');
    await storage.put(keys.thumb, cover.thumb, 'image/webp');
    photos.push({ url: storage.publicUrl(keys.large), listingIds });
  });
  let listings = 0;
  if (photos.length) {
    await db.transaction().execute(async (trx) => {
      for (const photo of photos) {
        const updated = await trx
          .updateTable('listings')
          .set({ photos: JSON.stringify([photo.url]) })
          .where('id', 'in', photo.listingIds)
          .where(sql<boolean>`jsonb_array_length(photos) = 0`)
          .executeTakeFirst();
        listings += Number(updated.numUpdatedRows);
      }
    });
  }
  return { listings, covers: photos.length, ms: Math.round(performance.now() - started) };
}
