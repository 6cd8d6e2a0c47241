/**
 * Wants (issue 38, decision 0088): what a member is looking for — a work (any edition), an
 * edition (catalogued, or an ISBN not catalogued yet) or the rest of a series — with the
 * conditions a copy must meet and how they are told. A member's list shows each want's target
 * and the copies on sale now that meet it (the one rule, contracts' `wantAccepts`); the book
 * page asks which of the member's wants touch it; sellers see the demand for an edition.
 * The matcher that tells members when a copy is published is match.ts.
 */
import {
  formatIsbn,
  normaliseIsbn,
  WANT_LIMITS,
  WANT_MESSAGES,
  type WantAlerts,
  type WantConditions,
  type WantInput,
  type WantKind,
  type WantSource,
  type WantTarget,
  type WantView,
  wantAccepts,
  wantConditionsSchema,
  wantInputSchema,
} from '@reshelf/contracts';
import { sql } from 'kysely';
import type { Database } from '../../db/index.ts';
import { AppError } from '../../errors.ts';
import {
  CONDITION_COLUMNS,
  COPY_COLUMNS,
  type ConditionRow,
  type CopyRow,
  conditionsOf,
  copyOf,
} from './copies.ts';
import { COVERED_LISTINGS, COVERING_WANTS } from './targets.ts';

interface WantRow extends ConditionRow {
  id: string;
  kind: WantKind;
  work_id: string | null;
  book_id: string | null;
  isbn13: string | null;
  series_id: string | null;
  alerts: WantAlerts;
  source: WantSource;
  shelf: string | null;
  created_at: Date;
  title: string | null;
  authors: string[] | null;
  path: string | null;
}

/**
 * The member's wants (or the ones named), newest first, each with its target's title, authors
 * and page, and how many copies on sale now meet it.
 */
export async function listWants(db: Database, userId: string, ids?: string[]): Promise<WantView[]> {
  if (ids && ids.length === 0) return [];
  const only = ids ? sql`and w.id = any(${ids}::uuid[])` : sql``;
  const { rows } = await sql<WantRow>`
    select w.id, w.kind, w.work_id, w.book_id, w.isbn13, w.series_id, w.alerts, w.source, w.shelf,
      w.created_at, ${CONDITION_COLUMNS},
      coalesce(wk.title, eb.title, s.name) as title,
      coalesce(wk.authors, eb.authors, sw.authors) as authors,
      case w.kind
        when 'work' then '/book/' || wk.slug
        when 'edition' then case when ewk.slug is not null then '/book/' || ewk.slug || '?edition=' || eb.id end
        when 'series' then '/book/' || sw.slug
      end as path
    from public.wants w
    left join public.works wk on wk.id = w.work_id
    left join public.books eb on eb.id = coalesce(w.book_id,
      (select ib.id from public.books ib where ib.isbn13 = w.isbn13 order by ib.created_at limit 1))
    left join public.works ewk on ewk.id = eb.work_id
    left join public.series s on s.id = w.series_id
    left join lateral (
      select sw.slug, sw.authors from public.works sw where sw.series_id = w.series_id
      order by sw.series_position nulls last, sw.title limit 1
    ) sw on w.kind = 'series'
    where w.user_id = ${userId} ${only}
    order by w.created_at desc, w.id desc`.execute(db);
  const onSale = await copiesOnSale(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => ({
    id: row.id,
    kind: row.kind,
    title: row.title ?? (row.isbn13 ? `ISBN ${formatIsbn(row.isbn13)}` : 'A book'),
    authors: row.authors ?? [],
    path: row.path,
    workId: row.work_id,
    bookId: row.book_id,
    isbn13: row.isbn13,
    seriesId: row.series_id,
    conditions: conditionsOf(row),
    alerts: row.alerts,
    source: row.source,
    shelf: row.shelf,
    matchesOnSale: onSale.get(row.id) ?? 0,
    createdAt: row.created_at.toISOString(),
  }));
}

/** How many active copies meet each want now (the one rule on each covered copy). */
async function copiesOnSale(db: Database, wantIds: string[]): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  if (wantIds.length === 0) return counts;
  const { rows } = await sql<CopyRow & ConditionRow & { want_id: string }>`
    select w.id as want_id, ${CONDITION_COLUMNS}, ${COPY_COLUMNS}
    from public.wants w
    cross join ${COVERED_LISTINGS}
    join public.listings l on l.id = covered.listing_id
    join public.books b on b.id = l.book_id
    where w.id = any(${wantIds}::uuid[])`.execute(db);
  for (const row of rows) {
    if (wantAccepts(conditionsOf(row), copyOf(row)))
      counts.set(row.want_id, (counts.get(row.want_id) ?? 0) + 1);
  }
  return counts;
}

async function one(db: Database, userId: string, id: string): Promise<WantView> {
  const [found] = await listWants(db, userId, [id]);
  if (!found) throw new AppError('NOT_FOUND', WANT_MESSAGES.notFound);
  return found;
}

/** A target's columns, checked: the work, edition or series must exist (an ISBN need not be catalogued). */
async function targetColumns(db: Database, target: WantTarget): Promise<TargetColumns> {
  const none = { work_id: null, book_id: null, isbn13: null, series_id: null };
  switch (target.kind) {
    case 'work': {
      const work = await db
        .selectFrom('works')
        .select('id')
        .where('id', '=', target.workId)
        .executeTakeFirst();
      if (!work) throw new AppError('NOT_FOUND', 'We couldn’t find that book.');
      return { ...none, work_id: work.id };
    }
    case 'edition': {
      if (target.bookId !== undefined) {
        const book = await db
          .selectFrom('books')
          .select(['id', 'isbn13'])
          .where('id', '=', target.bookId)
          .executeTakeFirst();
        if (!book) throw new AppError('NOT_FOUND', 'We couldn’t find that edition.');
        if (target.isbn !== undefined && book.isbn13 !== target.isbn) {
          throw new AppError('BAD_INPUT', 'That ISBN isn’t this edition’s.');
        }
        return { ...none, book_id: book.id };
      }
      const isbn = target.isbn as string;
      // A catalogued ISBN is wanted as its edition; one not catalogued yet waits for a seller to list it.
      const book = await db
        .selectFrom('books')
        .select('id')
        .where('isbn13', '=', isbn)
        .orderBy('created_at')
        .executeTakeFirst();
      return book ? { ...none, book_id: book.id } : { ...none, isbn13: isbn };
    }
    case 'series': {
      const series = await db
        .selectFrom('series')
        .select('id')
        .where('id', '=', target.seriesId)
        .executeTakeFirst();
      if (!series) throw new AppError('NOT_FOUND', 'We couldn’t find that series.');
      return { ...none, series_id: series.id };
    }
  }
}

function conditionColumns(conditions: WantConditions) {
  return {
    first_edition: conditions.firstEdition,
    signed: conditions.signed,
    dust_jacket: conditions.dustJacket,
    min_condition: conditions.minCondition,
    max_all_in_minor: conditions.maxAllInMinor,
    format: conditions.format,
    no_print_on_demand: conditions.noPrintOnDemand,
    no_book_club: conditions.noBookClub,
  };
}

/**
 * Refuses (BAD_INPUT, `WANT_MESSAGES.tooMany`) when the member's wants and `adding` more would
 * pass WANT_LIMITS.maxWants: the one check, for a want added here and a reading list's wants.
 */
export async function assertWithinWantLimit(db: Database, userId: string, adding: number): Promise<void> {
  const { count } = await db
    .selectFrom('wants')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  if (Number(count) + adding > WANT_LIMITS.maxWants) throw new AppError('BAD_INPUT', WANT_MESSAGES.tooMany);
}

interface TargetColumns {
  work_id: string | null;
  book_id: string | null;
  isbn13: string | null;
  series_id: string | null;
}
type ConditionColumns = ReturnType<typeof conditionColumns>;

/** Adding or changing a member's wants waits for any other doing so (the one-want rule below holds). */
async function lockMembersWants(trx: Database, userId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext('wants'), hashtext(${userId}))`.execute(trx);
}

/**
 * The one rule (decision 0088, 0093): a member has one want per target and conditions. Answers
 * the member's want with this kind, target and these conditions (other than `except`), if any:
 * saving a want (`addWant`) or changing one's conditions (`updateWant`) to one they already have
 * keeps that one and gives it the alerts just saved. The unique index `wants_one_per_target` is
 * the database's guard under it.
 */
async function sameWant(
  trx: Database,
  userId: string,
  kind: WantKind,
  columns: TargetColumns & ConditionColumns,
  except?: string,
): Promise<string | null> {
  const same = await trx
    .selectFrom('wants')
    .select('id')
    .where('user_id', '=', userId)
    .where('kind', '=', kind)
    .where((eb) =>
      eb.and(
        Object.entries(columns).map(([column, value]) =>
          value === null
            ? eb(column as keyof typeof columns, 'is', null)
            : eb(column as keyof typeof columns, '=', value as never),
        ),
      ),
    )
    .$if(except !== undefined, (query) => query.where('id', '<>', except as string))
    .executeTakeFirst();
  return same?.id ?? null;
}

/**
 * Adds a want, or (the same target and conditions again) changes its alerts. A member keeps at
 * most WANT_LIMITS.maxWants.
 */
export async function addWant(db: Database, userId: string, raw: WantInput): Promise<WantView> {
  const input = wantInputSchema.parse(raw);
  const target = await targetColumns(db, input.target);
  const conditions = conditionColumns(input.conditions);
  const id = await db.transaction().execute(async (trx) => {
    await lockMembersWants(trx, userId);
    const same = await sameWant(trx, userId, input.target.kind, { ...target, ...conditions });
    if (same) {
      await trx.updateTable('wants').set({ alerts: input.alerts }).where('id', '=', same).execute();
      return same;
    }
    await assertWithinWantLimit(trx, userId, 1);
    const row = await trx
      .insertInto('wants')
      .values({ user_id: userId, kind: input.target.kind, ...target, ...conditions, alerts: input.alerts })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  });
  return one(db, userId, id);
}

/**
 * Changes a want's alerts or conditions (its target stays: a new target is a new want). New
 * conditions that another of the member's wants for the same target already has make the two one
 * (the one rule, as `addWant`): that want is kept with the alerts saved, the one edited goes, and
 * the copies it had told the member of stay told. Answers the want as it now is (the kept one's
 * id when they became one). Copies on sale now that meet the new conditions are counted in the
 * answer (`matchesOnSale`), as they are for a want just added; copies published or made cheaper
 * from now on are matched by the queue under the new conditions.
 */
export async function updateWant(
  db: Database,
  userId: string,
  input: { id: string; alerts?: WantAlerts | undefined; conditions?: WantConditions | undefined },
): Promise<WantView> {
  if (input.alerts === undefined && input.conditions === undefined) return one(db, userId, input.id);
  const conditions =
    input.conditions !== undefined ? conditionColumns(wantConditionsSchema.parse(input.conditions)) : null;
  const id = await db.transaction().execute(async (trx) => {
    await lockMembersWants(trx, userId);
    const want = await trx
      .selectFrom('wants')
      .select(['id', 'kind', 'work_id', 'book_id', 'isbn13', 'series_id', 'alerts'])
      .where('id', '=', input.id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (!want) throw new AppError('NOT_FOUND', WANT_MESSAGES.notFound);
    const alerts = input.alerts ?? (want.alerts as WantAlerts);
    if (conditions) {
      const target = {
        work_id: want.work_id,
        book_id: want.book_id,
        isbn13: want.isbn13,
        series_id: want.series_id,
      };
      const same = await sameWant(trx, userId, want.kind as WantKind, { ...target, ...conditions }, want.id);
      if (same) {
        await trx.updateTable('wants').set({ alerts }).where('id', '=', same).execute();
        await sql`
          insert into public.want_matches (want_id, listing_id, matched_at, emailed_at)
          select ${same}, m.listing_id, m.matched_at, m.emailed_at
          from public.want_matches m where m.want_id = ${want.id}
          on conflict (want_id, listing_id) do nothing`.execute(trx);
        await trx.deleteFrom('wants').where('id', '=', want.id).execute();
        return same;
      }
    }
    await trx
      .updateTable('wants')
      .set({ alerts, ...(conditions ?? {}) })
      .where('id', '=', want.id)
      .execute();
    return want.id;
  });
  return one(db, userId, id);
}

export async function removeWant(db: Database, userId: string, id: string): Promise<void> {
  const deleted = await db
    .deleteFrom('wants')
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .returning('id')
    .executeTakeFirst();
  if (!deleted) throw new AppError('NOT_FOUND', WANT_MESSAGES.notFound);
}

/**
 * The member's wants that touch a book page: the work itself, any of its editions (by id or
 * ISBN), or its series. The page's "Want this book" button shows them.
 */
export async function wantsForBook(db: Database, userId: string, workId: string): Promise<WantView[]> {
  const { rows } = await sql<{ id: string }>`
    select w.id from public.wants w
    where w.user_id = ${userId} and (
      w.work_id = ${workId}
      or w.book_id in (select b.id from public.books b where b.work_id = ${workId})
      or w.isbn13 in (select b.isbn13 from public.books b where b.work_id = ${workId} and b.isbn13 is not null)
      or w.series_id = (select wk.series_id from public.works wk where wk.id = ${workId}))`.execute(db);
  return listWants(
    db,
    userId,
    rows.map((row) => row.id),
  );
}

// Demand -----------------------------------------------------------------------------------

/**
 * How many readers (distinct members, never the asker) want each edition: their wants' target
 * covers it (the edition or its ISBN, its work, its series). One query for all of them; an ISBN
 * not catalogued yet counts the wants for that ISBN.
 */
export async function demandFor(
  db: Database,
  editions: { bookIds?: string[]; isbns?: string[] },
  askerId: string | null,
): Promise<{ byBook: Map<string, number>; byIsbn: Map<string, number> }> {
  const bookIds = [...new Set(editions.bookIds ?? [])];
  const isbns = [
    ...new Set((editions.isbns ?? []).map((isbn) => normaliseIsbn(isbn)).filter((isbn) => isbn !== null)),
  ];
  const byBook = new Map<string, number>();
  const byIsbn = new Map<string, number>();
  if (bookIds.length === 0 && isbns.length === 0) return { byBook, byIsbn };
  const { rows } = await sql<{ book_id: string | null; isbn13: string | null; readers: number }>`
    with asked as (
      select b.id as book_id, b.isbn13 from public.books b where b.id = any(${bookIds}::uuid[])
      union
      select (select b.id from public.books b where b.isbn13 = i.isbn order by b.created_at limit 1), i.isbn
      from unnest(${isbns}::text[]) as i (isbn)
    )
    select a.book_id, a.isbn13, count(distinct w.user_id)::int as readers
    from asked a
    left join public.books b on b.id = a.book_id
    left join public.works wk on wk.id = b.work_id
    cross join lateral (
      select covering.want_id from ${COVERING_WANTS} where b.id is not null
      union
      select w.id from public.wants w where b.id is null and w.isbn13 = a.isbn13
    ) found
    join public.wants w on w.id = found.want_id
    where w.user_id is distinct from ${askerId}::uuid
    group by a.book_id, a.isbn13`.execute(db);
  for (const row of rows) {
    if (row.book_id) byBook.set(row.book_id, row.readers);
    if (row.isbn13) byIsbn.set(row.isbn13, row.readers);
  }
  return { byBook, byIsbn };
}
