/**
 * Series and completing the set (issue 38, decision 0089). A series is catalogue data: a name,
 * and works placed in it by position (1, 2, 2.5), from Open Library when online and the demo
 * data offline. The set view is public (every volume with its copies on sale and lowest all-in
 * price, by the one rule, shownPrice, under the settings read in the same statement); what a
 * member has of it is theirs: what they bought on Reshelf (an order as buyer that was paid and
 * not cancelled or refunded, any edition of the work) or marked as theirs (`member_books`).
 *
 * Orders are commerce's tables, read here in SQL only: the catalogue imports no commerce code.
 */
import {
  type MemberSeries,
  SERIES_MESSAGES,
  type SeriesHoldings,
  type SeriesSet,
  type SeriesVolume,
  shownAllInMinor,
  slugify,
} from '@reshelf/contracts';
import { sql, type Transaction } from 'kysely';
import type { DB } from '../../db/database.generated.ts';
import type { Database } from '../../db/index.ts';
import { AppError } from '../../errors.ts';
import {
  COMMERCIAL_SETTINGS_SQL,
  type CommercialSettings,
  commercialSettingsFromText,
} from '../../platform/settings/settings.service.ts';

/**
 * A series' key: its name as a slug without a leading "the", so "The Lord of the Rings" and
 * "Lord of the Rings" (as Open Library often spells it) are one series.
 */
export function seriesSlugOf(name: string): string {
  const slug = slugify(name);
  return slug.startsWith('the-') ? slug.slice(4) : slug || 'series';
}

/** The series with this name (by its key), created with this name when there is none. */
export async function seriesIdFor(
  db: Database | Transaction<DB>,
  name: string,
  openLibraryName: string | null = null,
): Promise<string> {
  const row = await db
    .insertInto('series')
    .values({ slug: seriesSlugOf(name), name: name.trim(), open_library_name: openLibraryName })
    .onConflict((oc) =>
      oc.column('slug').doUpdateSet((eb) => ({
        open_library_name: eb.fn.coalesce('series.open_library_name', 'excluded.open_library_name'),
      })),
    )
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/**
 * Places a work in a series at a position, unless it has a series already (staff or an earlier
 * source placed it: the first word stands). Answers whether it was placed.
 */
export async function placeWorkInSeries(
  db: Database | Transaction<DB>,
  workId: string,
  place: { name: string; position: number | null; openLibraryName?: string | null },
): Promise<boolean> {
  const seriesId = await seriesIdFor(db, place.name, place.openLibraryName ?? null);
  const result = await db
    .updateTable('works')
    .set({ series_id: seriesId, series_position: place.position })
    .where('id', '=', workId)
    .where('series_id', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

interface VolumeRow {
  series_id: string;
  series_slug: string;
  series_name: string;
  work_id: string;
  work_slug: string;
  title: string;
  position: number;
  copies: number;
  low_price_minor: number | null;
  settings: string | null;
}

/** Every volume of the series, in order (unnumbered works of it last), with copies on sale. */
async function volumesOf(db: Database, seriesIds: readonly string[]): Promise<VolumeRow[]> {
  if (seriesIds.length === 0) return [];
  const { rows } = await sql<VolumeRow>`
    select s.id as series_id, s.slug as series_slug, s.name as series_name,
      w.id as work_id, w.slug as work_slug, w.title, w.series_position::float8 as position,
      coalesce(c.copies, 0) as copies, c.low_price_minor,
      ${sql.raw(COMMERCIAL_SETTINGS_SQL)} as settings
    from public.series s
    join public.works w on w.series_id = s.id and w.series_position is not null
    left join lateral (
      select count(*)::int as copies, min(l.price_minor) as low_price_minor
      from public.listings l join public.books b on b.id = l.book_id
      where b.work_id = w.id and l.status = 'active' and l.slug is not null
    ) c on true
    where s.id in (${sql.join(seriesIds)})
    order by s.name, w.series_position, w.title`.execute(db);
  return rows;
}

function toVolume(row: VolumeRow, settings: CommercialSettings): SeriesVolume {
  return {
    workSlug: row.work_slug,
    title: row.title,
    position: row.position,
    copiesOnSale: row.copies,
    // The all-in price rises with the item price: the cheapest item is the cheapest all-in (as search).
    lowestAllInMinor: row.low_price_minor === null ? null : shownAllInMinor(row.low_price_minor, settings),
  };
}

/** A work's series with every volume, or null when the work is in none. */
export async function seriesForWork(db: Database, workSlug: string): Promise<SeriesSet | null> {
  const work = await db
    .selectFrom('works')
    .select(['series_id', sql<number | null>`series_position::float8`.as('position')])
    .where('slug', '=', workSlug)
    .executeTakeFirst();
  if (!work) throw new AppError('NOT_FOUND', SERIES_MESSAGES.noBook);
  if (!work.series_id) return null;
  const rows = await volumesOf(db, [work.series_id]);
  const first = rows[0];
  const series = first
    ? { id: first.series_id, slug: first.series_slug, name: first.series_name }
    : await db
        .selectFrom('series')
        .select(['id', 'slug', 'name'])
        .where('id', '=', work.series_id)
        .executeTakeFirstOrThrow();
  const settings = commercialSettingsFromText(first?.settings ?? null);
  return { series, position: work.position, volumes: rows.map((row) => toVolume(row, settings)) };
}

/**
 * What the member has of a series (work slugs), which of those they bought on Reshelf (not theirs
 * to unmark), and their want for the rest of it, if any.
 */
export async function seriesHoldings(
  db: Database,
  userId: string,
  seriesSlug: string,
): Promise<SeriesHoldings> {
  const series = await db.selectFrom('series').select('id').where('slug', '=', seriesSlug).executeTakeFirst();
  if (!series) throw new AppError('NOT_FOUND', SERIES_MESSAGES.notFound);
  const { rows } = await sql<{ slug: string; bought: boolean }>`
    select w.slug, public.member_bought_work(${userId}, w.id) as bought from public.works w
    where w.series_id = ${series.id} and public.member_has_work(${userId}, w.id)
    order by w.series_position nulls last, w.slug`.execute(db);
  const want = await db
    .selectFrom('wants')
    .select('id')
    .where('user_id', '=', userId)
    .where('kind', '=', 'series')
    .where('series_id', '=', series.id)
    .orderBy('created_at')
    .executeTakeFirst();
  return {
    have: rows.map((row) => row.slug),
    bought: rows.filter((row) => row.bought).map((row) => row.slug),
    restWantId: want?.id ?? null,
  };
}

/** "I have this" / "I don't have this" on a book page: the member's own record (source 'reshelf'). */
export async function setHave(
  db: Database,
  userId: string,
  workSlug: string,
  have: boolean,
): Promise<{ have: boolean }> {
  const work = await db.selectFrom('works').select('id').where('slug', '=', workSlug).executeTakeFirst();
  if (!work) throw new AppError('NOT_FOUND', SERIES_MESSAGES.noBook);
  if (have) {
    await db
      .insertInto('member_books')
      .values({ user_id: userId, work_id: work.id, source: 'reshelf' })
      .onConflict((oc) => oc.columns(['user_id', 'work_id']).doNothing())
      .execute();
  } else {
    await db
      .deleteFrom('member_books')
      .where('user_id', '=', userId)
      .where('work_id', '=', work.id)
      .execute();
  }
  return { have };
}

/** The member's series (any they have a volume of), each with every volume and which they have. */
export async function memberSeries(db: Database, userId: string): Promise<MemberSeries> {
  const { rows: held } = await sql<{ series_id: string; slug: string }>`
    select w.series_id, w.slug from public.works w
    where w.series_id is not null and public.member_has_work(${userId}, w.id)`.execute(db);
  const rows = await volumesOf(db, [...new Set(held.map((row) => row.series_id))]);
  const settings = commercialSettingsFromText(rows[0]?.settings ?? null);
  const bySeries = new Map<string, MemberSeries[number]>();
  for (const row of rows) {
    const entry = bySeries.get(row.series_id) ?? {
      series: { id: row.series_id, slug: row.series_slug, name: row.series_name },
      volumes: [],
      have: held.filter((h) => h.series_id === row.series_id).map((h) => h.slug),
    };
    entry.volumes.push(toVolume(row, settings));
    bySeries.set(row.series_id, entry);
  }
  return [...bySeries.values()];
}
