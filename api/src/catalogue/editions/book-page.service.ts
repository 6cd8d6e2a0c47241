/**
 * The book page (decision 0081): a work, its editions, and every copy on sale, each priced
 * all-in by the one rule (shownPrice, decision 0071) under the settings read in the same
 * statement, with its seller's rating (sellers/seller-ratings.ts). And a listing's book: its
 * other editions and "N more copies from £x".
 */
import {
  BOOK_PAGE_MAX_COPIES,
  type BookCopy,
  type BookEdition,
  type BookForListing,
  type BookPage,
  bookmanGradeOf,
  COPY_ATTRIBUTES,
  type CopyAttribute,
  isCollectable,
  shownAllInMinor,
  shownPrice,
} from '@reshelf/contracts';
import { sql } from 'kysely';
import type { Database } from '../../db/index.ts';
import { AppError } from '../../errors.ts';
import {
  COMMERCIAL_SETTINGS_SQL,
  type CommercialSettings,
  commercialSettingsFromText,
} from '../../platform/settings/settings.service.ts';
import { sellerRatings } from '../sellers/seller-ratings.ts';

interface WorkRow {
  id: string;
  slug: string;
  title: string;
  authors: string[];
  settings: string | null;
}

interface EditionRow {
  id: string;
  title: string;
  subtitle: string | null;
  isbn13: string | null;
  publisher: string | null;
  published_year: number | null;
  cover_url: string | null;
  description: string | null;
  formats: BookEdition['formats'];
  copies: number;
  low_price_minor: number | null;
  low_parcel_size: 'small' | 'medium' | 'large' | null;
}

interface CopyRow {
  slug: string;
  book_id: string;
  condition: BookCopy['condition'];
  bookman_grade: BookCopy['bookmanGrade'];
  dust_jacket: BookCopy['dustJacket'];
  format: BookCopy['format'];
  first_edition: boolean;
  first_printing: boolean;
  signed: boolean;
  inscribed: boolean;
  ex_library: boolean;
  book_club: boolean;
  print_on_demand: boolean;
  seller_id: string;
  seller_name: string;
  charity_slug: string | null;
  charity_name: string | null;
  price_minor: number;
  parcel_size: 'small' | 'medium' | 'large';
  page_count: number | null;
  total: number;
}

/** The copies' columns of listings, in COPY_ATTRIBUTES order. */
const ATTRIBUTE_COLUMNS: Record<CopyAttribute, keyof CopyRow> = {
  firstEdition: 'first_edition',
  firstPrinting: 'first_printing',
  signed: 'signed',
  inscribed: 'inscribed',
  exLibrary: 'ex_library',
  bookClub: 'book_club',
  printOnDemand: 'print_on_demand',
};

/** The work at a slug, with the commercial settings the page's prices follow. */
async function workBySlug(db: Database, slug: string): Promise<WorkRow> {
  const { rows } = await sql<WorkRow>`
    select w.id, w.slug, w.title, w.authors, ${sql.raw(COMMERCIAL_SETTINGS_SQL)} as settings
    from public.works w where w.slug = ${slug}`.execute(db);
  const work = rows[0];
  if (!work) throw new AppError('NOT_FOUND', `There is no book at “${slug}”.`);
  return work;
}

/**
 * A work's editions with their copies on sale: most copies first, then those with a cover, the
 * newest, and by id (the first is the work's best edition).
 */
async function editionsOf(db: Database, workId: string): Promise<EditionRow[]> {
  const { rows } = await sql<EditionRow>`
    select b.id, b.title, b.subtitle, b.isbn13, b.publisher, b.published_year, b.cover_url, b.description,
      coalesce(c.formats, '{}') as formats, coalesce(c.copies, 0) as copies,
      c.low_price_minor, c.low_parcel_size
    from public.books b
    left join lateral (
      select count(*)::int as copies, min(l.price_minor) as low_price_minor,
        (array_agg(l.parcel_size order by l.price_minor, l.id))[1] as low_parcel_size,
        array_agg(distinct l.format order by l.format) filter (where l.format is not null) as formats
      from public.listings l
      where l.book_id = b.id and l.status = 'active'
    ) c on true
    where b.work_id = ${workId}
    order by coalesce(c.copies, 0) desc, (b.cover_url is null), b.published_year desc nulls last, b.id`.execute(
    db,
  );
  return rows;
}

function toEdition(row: EditionRow, settings: CommercialSettings): BookEdition {
  return {
    id: row.id,
    title: row.title,
    subtitle: row.subtitle,
    isbn13: row.isbn13,
    publisher: row.publisher,
    publishedYear: row.published_year,
    formats: row.formats,
    coverUrl: row.cover_url,
    copiesOnSale: row.copies,
    lowestAllInMinor:
      row.low_price_minor === null || row.low_parcel_size === null
        ? null
        : shownAllInMinor(row.low_price_minor, settings),
  };
}

export async function bookPage(
  db: Database,
  input: { slug: string; edition?: string | undefined },
): Promise<BookPage> {
  const work = await workBySlug(db, input.slug);
  const settings = commercialSettingsFromText(work.settings);
  const editions = await editionsOf(db, work.id);
  if (input.edition && !editions.some((edition) => edition.id === input.edition)) {
    throw new AppError('NOT_FOUND', `“${work.title}” has no edition ${input.edition}.`);
  }
  // The all-in price rises with the item price (shownPrice): cheapest item first is cheapest all-in first.
  const { rows } = await sql<CopyRow>`
    select l.slug, l.book_id, l.condition, l.bookman_grade, l.dust_jacket, l.format,
      l.first_edition, l.first_printing, l.signed, l.inscribed, l.ex_library, l.book_club, l.print_on_demand,
      l.seller_id, coalesce(ch.name, p.display_name) as seller_name,
      ch.slug as charity_slug, ch.name as charity_name,
      l.price_minor, l.parcel_size, b.page_count, count(*) over ()::int as total
    from public.listings l
    join public.books b on b.id = l.book_id
    join public.profiles p on p.id = l.seller_id
    left join public.charities ch on ch.id = l.charity_id and ch.status = 'approved'
    where b.work_id = ${work.id} and l.status = 'active' and l.slug is not null
      ${input.edition ? sql`and l.book_id = ${input.edition}` : sql``}
    order by l.price_minor, l.id
    limit ${BOOK_PAGE_MAX_COPIES}`.execute(db);
  const ratings = await sellerRatings(db, [...new Set(rows.map((row) => row.seller_id))]);
  const copies = rows.map((row) => toCopy(row, settings, ratings));
  const best = editions[0];
  const prices = copies.map((copy) => copy.allInMinor);
  return {
    work: {
      id: work.id,
      slug: work.slug,
      title: work.title,
      authors: work.authors,
      description: editions.find((edition) => edition.description)?.description ?? null,
      coverUrl: best?.cover_url ?? null,
    },
    editions: editions.map((row) => toEdition(row, settings)),
    editionId: input.edition ?? null,
    copies,
    copiesOnSale: rows[0]?.total ?? 0,
    lowAllInMinor: prices.length ? Math.min(...prices) : null,
    highAllInMinor: prices.length ? Math.max(...prices) : null,
  };
}

function toCopy(
  row: CopyRow,
  settings: CommercialSettings,
  ratings: Record<string, BookCopy['sellerRating']>,
): BookCopy {
  const shown = shownPrice(
    {
      priceMinor: row.price_minor,
      parcelSize: row.parcel_size,
      format: row.format,
      pageCount: row.page_count,
    },
    settings,
  );
  const flags = {
    firstEdition: row.first_edition,
    firstPrinting: row.first_printing,
    signed: row.signed,
    inscribed: row.inscribed,
  };
  return {
    listingSlug: row.slug,
    editionId: row.book_id,
    condition: row.condition,
    bookmanGrade: isCollectable(flags)
      ? bookmanGradeOf({ condition: row.condition, bookmanGrade: row.bookman_grade })
      : null,
    dustJacket: row.dust_jacket,
    format: row.format,
    attributes: COPY_ATTRIBUTES.filter((attribute) => row[ATTRIBUTE_COLUMNS[attribute]] === true),
    sellerId: row.seller_id,
    sellerName: row.seller_name,
    charity: row.charity_slug && row.charity_name ? { slug: row.charity_slug, name: row.charity_name } : null,
    sellerRating: ratings[row.seller_id]!,
    allInMinor: shown.allInMinor,
    postageFromMinor: shown.postageFromMinor,
  };
}

/**
 * A listing's book: the work's other editions with a copy on sale, and the copies on sale other
 * than this one (of any edition) with the lowest all-in price among them.
 */
export async function bookForListing(db: Database, slug: string): Promise<BookForListing> {
  const { rows } = await sql<{
    id: string;
    book_id: string;
    work_id: string;
    work_slug: string;
    settings: string | null;
    more: number;
    low_price_minor: number | null;
    low_parcel_size: 'small' | 'medium' | 'large' | null;
  }>`
    select l.id, l.book_id, w.id as work_id, w.slug as work_slug,
      ${sql.raw(COMMERCIAL_SETTINGS_SQL)} as settings,
      o.more, o.low_price_minor, o.low_parcel_size
    from public.listings l
    join public.books b on b.id = l.book_id
    join public.works w on w.id = b.work_id
    cross join lateral (
      select count(*)::int as more, min(m.price_minor) as low_price_minor,
        (array_agg(m.parcel_size order by m.price_minor, m.id))[1] as low_parcel_size
      from public.listings m
      join public.books mb on mb.id = m.book_id
      where mb.work_id = w.id and m.status = 'active' and m.id <> l.id
    ) o
    where l.slug = ${slug}`.execute(db);
  const row = rows[0];
  if (!row) throw new AppError('NOT_FOUND', `There is no listing at “${slug}”.`);
  const settings = commercialSettingsFromText(row.settings);
  const editions = await editionsOf(db, row.work_id);
  return {
    workSlug: row.work_slug,
    editionId: row.book_id,
    otherEditions: editions
      .filter((edition) => edition.id !== row.book_id && edition.copies > 0)
      .map((edition) => toEdition(edition, settings)),
    moreCopies: row.more,
    moreCopiesFromMinor:
      row.low_price_minor === null || row.low_parcel_size === null
        ? null
        : shownAllInMinor(row.low_price_minor, settings),
  };
}
