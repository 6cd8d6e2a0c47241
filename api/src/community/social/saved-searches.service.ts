/**
 * Saved searches (decision 0044): any /search address, kept with its alerts. The job
 * `saved_searches.alerts` matches NEW listings only: each search remembers `checked_until`, and
 * each run looks at listings published since then (with a few minutes' overlap, for a listing
 * whose publishing transaction began earlier and committed later; `saved_search_matches`
 * keeps each match once). A match is told in the app at once; it is emailed at once or in one
 * daily digest per member, as the search says, through the mail templates `saved-search.alert`
 * and `saved-search.digest` (the list `saved_searches`, so every email has a one-click
 * unsubscribe; the alerts in the app go on until the member turns them off).
 *
 * What matches: the search's filters exactly as /search applies them, and its words as
 * search's strong matches (title or author words, the exact title, the ISBN). Misspelling and
 * description matches are left out of alerts: an alert should be right, not merely close.
 */
import {
  countOf,
  describeSavedSearch,
  formatPence,
  normaliseIsbn,
  type ParcelSize,
  type SavedSearch,
  type SavedSearchAlerts,
  type SavedSearchParams,
  SHOWN_PRICE_WORDS,
  SOCIAL_LIMITS,
  savedSearchParamsSchema,
  savedSearchQuery,
  searchFieldsFromQuery,
  shownPrice,
} from '@reshelf/contracts';
import { sql } from 'kysely';
import { filterSql, resolveRefs } from '../../catalogue/index.ts';
import type { Database } from '../../db/index.ts';
import { AppError } from '../../errors.ts';
import type { Mailer } from '../../platform/mail/mailer.ts';
import { renderEmail } from '../../platform/mail/render.ts';
import { listRecipient } from '../../platform/mail/suppressions.ts';
import { notify } from '../../platform/notifications/notify.ts';
import {
  COMMERCIAL_SETTINGS_SQL,
  commercialSettingsFromText,
} from '../../platform/settings/settings.service.ts';

/** Listings published this long before a search's `checked_until` are looked at again. */
export const MATCH_OVERLAP_MS = 5 * 60_000;
/** A daily digest (of saved searches, and of wants) goes at most this often to a member. */
export const DIGEST_INTERVAL_MS = 24 * 60 * 60_000;
/** Titles quoted in one notification or email (the rest are counted). */
const QUOTED = 5;

/** A /search query string as a saved search's fields, or a clear BAD_INPUT. */
export function parseSavedSearch(query: string): { params: SavedSearchParams; query: string } {
  const parsed = savedSearchParamsSchema.safeParse(searchFieldsFromQuery(query));
  if (!parsed.success) {
    throw new AppError('BAD_INPUT', parsed.error.issues[0]?.message ?? 'That search can’t be saved.');
  }
  const params = parsed.data;
  if (params.minPrice !== undefined && params.maxPrice !== undefined && params.minPrice > params.maxPrice) {
    throw new AppError('BAD_INPUT', 'The minimum price must not be more than the maximum price');
  }
  if (params.yearFrom !== undefined && params.yearTo !== undefined && params.yearFrom > params.yearTo) {
    throw new AppError('BAD_INPUT', 'The earliest year must not be after the latest year');
  }
  return { params, query: savedSearchQuery(params) };
}

interface SavedSearchRow {
  id: string;
  name: string;
  query: string;
  alerts: SavedSearchAlerts;
  created_at: Date;
  recent: number;
}

function toSavedSearch(row: SavedSearchRow): SavedSearch {
  return {
    id: row.id,
    name: row.name,
    query: row.query,
    alerts: row.alerts,
    createdAt: row.created_at.toISOString(),
    recentMatches: row.recent,
  };
}

export async function listSavedSearches(db: Database, userId: string): Promise<SavedSearch[]> {
  const { rows } = await sql<SavedSearchRow>`
    select s.id, s.name, s.query, s.alerts, s.created_at,
      (select count(*)::int from public.saved_search_matches m
        where m.saved_search_id = s.id and m.matched_at > now() - interval '7 days') as recent
    from public.saved_searches s
    where s.user_id = ${userId}
    order by s.created_at desc, s.id desc`.execute(db);
  return rows.map(toSavedSearch);
}

async function one(db: Database, userId: string, id: string): Promise<SavedSearch> {
  const found = (await listSavedSearches(db, userId)).find((search) => search.id === id);
  if (!found) throw new AppError('NOT_FOUND', 'That isn’t one of your saved searches (any more).');
  return found;
}

/**
 * The columns that set a search's alerts. Alerts turned back on start from now: what was listed
 * while they were off is not news.
 */
function alertsChange(alerts: SavedSearchAlerts) {
  return {
    alerts,
    checked_until: sql<Date>`case when alerts = 'off' and ${alerts}::text <> 'off' then now() else checked_until end`,
  };
}

/**
 * Saves a search, or (the same search saved again) changes its alerts and name. Only listings
 * published from now on are new to it.
 */
export async function saveSearch(
  db: Database,
  userId: string,
  input: { query: string; name?: string | undefined; alerts: SavedSearchAlerts },
): Promise<SavedSearch> {
  const { params, query } = parseSavedSearch(input.query);
  // The slugs it names must exist (a clear NOT_FOUND now, not a failing alert later).
  await resolveRefs(db, params);
  const name = input.name || describeSavedSearch(params);
  const id = await db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(hashtext('saved_searches'), hashtext(${userId}))`.execute(trx);
    const same = await trx
      .selectFrom('saved_searches')
      .select('id')
      .where('user_id', '=', userId)
      .where('query', '=', query)
      .executeTakeFirst();
    if (same) {
      await trx
        .updateTable('saved_searches')
        .set({ ...alertsChange(input.alerts), ...(input.name ? { name } : {}) })
        .where('id', '=', same.id)
        .execute();
      return same.id;
    }
    const { count } = await trx
      .selectFrom('saved_searches')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    if (Number(count) >= SOCIAL_LIMITS.maxSavedSearches) {
      throw new AppError(
        'BAD_INPUT',
        `You have ${SOCIAL_LIMITS.maxSavedSearches} saved searches already. Delete one to save another.`,
      );
    }
    const row = await trx
      .insertInto('saved_searches')
      .values({ user_id: userId, name, query, params: JSON.stringify(params), alerts: input.alerts })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  });
  return one(db, userId, id);
}

export async function updateSavedSearch(
  db: Database,
  userId: string,
  input: { id: string; name?: string | undefined; alerts?: SavedSearchAlerts | undefined },
): Promise<SavedSearch> {
  const changes = {
    ...(input.name !== undefined ? { name: input.name } : {}),
    ...(input.alerts !== undefined ? alertsChange(input.alerts) : {}),
  };
  if (Object.keys(changes).length === 0) return one(db, userId, input.id);
  const updated = await db
    .updateTable('saved_searches')
    .set(changes)
    .where('id', '=', input.id)
    .where('user_id', '=', userId)
    .returning('id')
    .executeTakeFirst();
  if (!updated) throw new AppError('NOT_FOUND', 'That isn’t one of your saved searches (any more).');
  return one(db, userId, input.id);
}

export async function deleteSavedSearch(db: Database, userId: string, id: string): Promise<void> {
  const deleted = await db
    .deleteFrom('saved_searches')
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .returning('id')
    .executeTakeFirst();
  if (!deleted) throw new AppError('NOT_FOUND', 'That isn’t one of your saved searches (any more).');
}

/** The member's saved search with this address, if they saved it (the /search page's button). */
export async function savedSearchFor(
  db: Database,
  userId: string,
  query: string,
): Promise<SavedSearch | null> {
  let canonical: string;
  try {
    canonical = parseSavedSearch(query).query;
  } catch {
    return null;
  }
  const row = await db
    .selectFrom('saved_searches')
    .select('id')
    .where('user_id', '=', userId)
    .where('query', '=', canonical)
    .executeTakeFirst();
  return row ? one(db, userId, row.id) : null;
}

// The job ----------------------------------------------------------------------------------

export interface SavedSearchAlertDeps {
  db: Database;
  mailer: Mailer;
  origin: string;
}

interface DueSearch {
  id: string;
  user_id: string;
  name: string;
  query: string;
  params: SavedSearchParams;
  alerts: 'instant' | 'daily';
  since: Date;
}

interface MatchRow {
  id: string;
  slug: string;
  title: string;
  authors: string[];
  price_minor: number;
  parcel_size: ParcelSize;
  format: string | null;
  page_count: number | null;
  /** COMMERCIAL_SETTINGS_SQL's text: the rules the shown price follows. */
  settings: string | null;
}

/** A listing's shown price (decision 0071), under the settings its statement read. */
function shownOf(row: {
  price_minor: number;
  parcel_size: ParcelSize;
  format: string | null;
  page_count: number | null;
  settings: string | null;
}) {
  return shownPrice(
    {
      priceMinor: row.price_minor,
      parcelSize: row.parcel_size,
      format: row.format,
      pageCount: row.page_count,
    },
    commercialSettingsFromText(row.settings),
  );
}

/** New active listings matching a saved search, published in (since, upTo]. */
async function newMatches(db: Database, search: DueSearch, upTo: Date): Promise<MatchRow[]> {
  const params = search.params;
  let refs: Awaited<ReturnType<typeof resolveRefs>>;
  try {
    refs = await resolveRefs(db, params);
  } catch (error) {
    // A category, genre or charity it named is gone: nothing can match it now.
    if (error instanceof AppError && error.code === 'NOT_FOUND') return [];
    throw error;
  }
  const where = filterSql(params, refs, upTo);
  const q = params.q ?? '';
  const words = q
    ? sql`and (b.isbn13 = ${normaliseIsbn(q)}
          or b.search_title = public.search_normalise(${q}::text)
          or b.title_document @@ websearch_to_tsquery('english', public.search_normalise(${q}::text)))`
    : sql``;
  const { rows } = await sql<MatchRow>`
    select l.id, l.slug, b.title, b.authors, l.price_minor, l.parcel_size, l.format, b.page_count,
      ${sql.raw(COMMERCIAL_SETTINGS_SQL)} as settings
    from public.listings l join public.books b on b.id = l.book_id
    where ${where} and l.published_at > ${search.since} and l.seller_id <> ${search.user_id} ${words}
    order by l.published_at desc, l.id desc
    limit 100`.execute(db);
  return rows;
}

function bookLine(row: MatchRow): string {
  const by = row.authors.length ? `, ${row.authors.join(', ')}` : '';
  return `${row.title}${by}: ${SHOWN_PRICE_WORDS.inline(shownOf(row))}`;
}

/**
 * The job: matches new listings for every saved search with alerts (the longest unchecked
 * first), tells each member in the app, emails "at once" searches, then sends the daily
 * digests that are due. Answers how many new matches and digests it made.
 */
export async function runSavedSearchAlerts(deps: SavedSearchAlertDeps, now = new Date()): Promise<number> {
  const { rows: due } = await sql<DueSearch>`
    select id, user_id, name, query, params, alerts,
      greatest(created_at, checked_until - make_interval(secs => ${MATCH_OVERLAP_MS / 1000})) as since
    from public.saved_searches
    where alerts <> 'off' and checked_until < ${now}
    order by checked_until
    limit 500`.execute(deps.db);
  let handled = 0;
  for (const search of due) {
    handled += await alertOne(deps, search, now);
  }
  return handled + (await sendDigests(deps, now));
}

async function alertOne(deps: SavedSearchAlertDeps, search: DueSearch, now: Date): Promise<number> {
  return deps.db.transaction().execute(async (trx) => {
    // Claim the search (another instance running the job skips it).
    const claimed = await sql<{ id: string }>`
      select id from public.saved_searches where id = ${search.id} and checked_until < ${now}
      for update skip locked`.execute(trx);
    if (claimed.rows.length === 0) return 0;
    const matches = await newMatches(trx, search, now);
    let fresh: MatchRow[] = [];
    if (matches.length) {
      const inserted = await trx
        .insertInto('saved_search_matches')
        .values(matches.map((m) => ({ saved_search_id: search.id, listing_id: m.id, matched_at: now })))
        .onConflict((oc) => oc.columns(['saved_search_id', 'listing_id']).doNothing())
        .returning('listing_id')
        .execute();
      const insertedIds = new Set(inserted.map((row) => row.listing_id));
      fresh = matches.filter((m) => insertedIds.has(m.id));
    }
    await trx.updateTable('saved_searches').set({ checked_until: now }).where('id', '=', search.id).execute();
    if (fresh.length === 0) return 0;
    const first = fresh[0] as MatchRow;
    const searchPath = `/search?${search.query}&sort=newest`;
    await notify(trx, {
      userId: search.user_id,
      kind: 'saved_search_match',
      title:
        fresh.length === 1
          ? `New for “${search.name}”: ${first.title}`
          : `${fresh.length} new books for “${search.name}”`,
      body:
        fresh.length === 1
          ? `${bookLine(first)}. It matches your saved search.`
          : `${fresh.slice(0, QUOTED).map(bookLine).join('; ')}${fresh.length > QUOTED ? ` and ${fresh.length - QUOTED} more` : ''}.`,
      link: fresh.length === 1 ? `/listing/${first.slug}` : searchPath,
      listingId: fresh.length === 1 ? first.id : null,
      entityId: search.id,
      data: { savedSearchId: search.id, listingIds: fresh.map((m) => m.id) },
    });
    if (search.alerts === 'instant') {
      await emailAtOnce(deps, trx, search, fresh, searchPath, now);
    }
    return fresh.length;
  });
}

async function emailAtOnce(
  deps: SavedSearchAlertDeps,
  trx: Database,
  search: DueSearch,
  fresh: MatchRow[],
  searchPath: string,
  now: Date,
): Promise<void> {
  const email = await listRecipient(trx, search.user_id, 'saved_searches');
  if (email) {
    const books = fresh.slice(0, QUOTED).map(bookLine);
    if (fresh.length > QUOTED) books.push(`And ${fresh.length - QUOTED} more.`);
    const rendered = await renderEmail(trx, 'saved-search.alert', {
      searchName: `“${search.name}”`,
      count: String(fresh.length),
      newBooks: countOf(fresh.length, 'new book', 'new books'),
      books: books.join('\n'),
      url: `${deps.origin}${searchPath}`,
      manageUrl: `${deps.origin}/account/saved-searches`,
    });
    await deps.mailer.send(
      { to: email, ...rendered, template: 'saved-search.alert', userId: search.user_id },
      { trx },
    );
  }
  await trx
    .updateTable('saved_search_matches')
    .set({ emailed_at: now })
    .where('saved_search_id', '=', search.id)
    .where(
      'listing_id',
      'in',
      fresh.map((m) => m.id),
    )
    .execute();
}

interface DigestRow {
  saved_search_id: string;
  listing_id: string;
  name: string;
  title: string;
  price_minor: number;
  parcel_size: ParcelSize;
  format: string | null;
  page_count: number | null;
  settings: string | null;
}

/** One email per member whose daily searches matched since their last digest (a day ago or more). */
async function sendDigests(deps: SavedSearchAlertDeps, now: Date): Promise<number> {
  const dueBefore = new Date(now.getTime() - DIGEST_INTERVAL_MS);
  const { rows: members } = await sql<{ user_id: string }>`
    select s.user_id from public.saved_searches s
    where s.alerts = 'daily'
      and exists (select 1 from public.saved_search_matches m where m.saved_search_id = s.id and m.emailed_at is null)
    group by s.user_id
    having coalesce(max(s.last_digest_at), '-infinity') <= ${dueBefore}
    limit 200`.execute(deps.db);
  let sent = 0;
  for (const { user_id: userId } of members) {
    sent += await deps.db.transaction().execute(async (trx) => {
      const { rows } = await sql<DigestRow>`
        select m.saved_search_id, m.listing_id, s.name, b.title, l.price_minor, l.parcel_size, l.format, b.page_count,
          ${sql.raw(COMMERCIAL_SETTINGS_SQL)} as settings
        from public.saved_search_matches m
        join public.saved_searches s on s.id = m.saved_search_id
        join public.listings l on l.id = m.listing_id
        join public.books b on b.id = l.book_id
        where s.user_id = ${userId} and s.alerts = 'daily' and m.emailed_at is null
        order by s.created_at, m.matched_at
        for update of m skip locked`.execute(trx);
      if (rows.length === 0) return 0;
      const email = await listRecipient(trx, userId, 'saved_searches');
      if (email) {
        const bySearch = new Map<string, DigestRow[]>();
        for (const row of rows) bySearch.set(row.name, [...(bySearch.get(row.name) ?? []), row]);
        const searches = [...bySearch].map(([name, books]) => {
          const listed = books
            .slice(0, QUOTED)
            .map((b) => `${b.title} (${formatPence(shownOf(b).allInMinor)} ${SHOWN_PRICE_WORDS.including})`)
            .join(', ');
          return `“${name}”: ${listed}${books.length > QUOTED ? ` and ${books.length - QUOTED} more` : ''}`;
        });
        const rendered = await renderEmail(trx, 'saved-search.digest', {
          count: String(rows.length),
          newBooks: countOf(rows.length, 'new book', 'new books'),
          searches: searches.join('\n'),
          url: `${deps.origin}/account/saved-searches`,
        });
        await deps.mailer.send({ to: email, ...rendered, template: 'saved-search.digest', userId }, { trx });
      }
      await sql`
        update public.saved_search_matches m set emailed_at = ${now}
        from public.saved_searches s
        where s.id = m.saved_search_id and s.user_id = ${userId} and s.alerts = 'daily'
          and m.emailed_at is null`.execute(trx);
      await trx
        .updateTable('saved_searches')
        .set({ last_digest_at: now })
        .where('user_id', '=', userId)
        .where('alerts', '=', 'daily')
        .execute();
      return 1;
    });
  }
  return sent;
}
