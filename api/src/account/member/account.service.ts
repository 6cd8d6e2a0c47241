import { sql } from 'kysely';
import type { Database } from '../../db/index.ts';
import { AppError } from '../../errors.ts';

export async function getProfile(db: Database, userId: string) {
  const profile = await db
    .selectFrom('profiles')
    .select(['display_name', 'town', 'bio', 'signup_completed_at', 'onboarded_at'])
    .where('id', '=', userId)
    .executeTakeFirst();
  if (!profile) throw new AppError('NOT_FOUND', 'We could not find your profile.');
  const genres = await db
    .selectFrom('profile_genres')
    .select('genre_id')
    .where('user_id', '=', userId)
    .execute();
  const authors = await db
    .selectFrom('profile_authors')
    .select('author')
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .orderBy('author')
    .execute();
  return {
    displayName: profile.display_name,
    town: profile.town,
    bio: profile.bio,
    signupCompleted: profile.signup_completed_at !== null,
    onboarded: profile.onboarded_at !== null,
    favouriteGenreIds: genres.map((row) => row.genre_id),
    favouriteAuthors: authors.map((row) => row.author),
  };
}

export async function completeSignup(
  db: Database,
  userId: string,
  input: { displayName: string; town: string | null; bio: string | null },
) {
  const updated = await db
    .updateTable('profiles')
    .set({
      display_name: input.displayName,
      town: input.town,
      bio: input.bio,
      signup_completed_at: sql`coalesce(signup_completed_at, now())`,
    })
    .where('id', '=', userId)
    .returning('id')
    .executeTakeFirst();
  if (!updated) throw new AppError('NOT_FOUND', 'We could not find your profile.');
}

/**
 * Saves favourite genres (replacing earlier ones) and, when given, favourite authors (replacing
 * earlier ones, spelt as the catalogue spells them when a book has them), and marks onboarding
 * done; skipping saves none.
 */
export async function completeOnboarding(
  db: Database,
  userId: string,
  genreIds: string[],
  authors?: string[],
) {
  await db.transaction().execute(async (trx) => {
    if (authors) {
      await trx.deleteFrom('profile_authors').where('user_id', '=', userId).execute();
      const spelt = await catalogueSpelling(trx, authors);
      if (spelt.length) {
        await trx
          .insertInto('profile_authors')
          .values(spelt.map((author) => ({ user_id: userId, author })))
          .execute();
      }
    }
    if (genreIds.length) {
      const known = await trx.selectFrom('genres').select('id').where('id', 'in', genreIds).execute();
      if (known.length !== new Set(genreIds).size) {
        throw new AppError(
          'BAD_INPUT',
          'One of the chosen genres no longer exists. Reload the page and try again.',
        );
      }
    }
    await trx.deleteFrom('profile_genres').where('user_id', '=', userId).execute();
    if (genreIds.length) {
      await trx
        .insertInto('profile_genres')
        .values([...new Set(genreIds)].map((genre_id) => ({ user_id: userId, genre_id })))
        .execute();
    }
    await trx
      .updateTable('profiles')
      .set({ onboarded_at: sql`coalesce(onboarded_at, now())` })
      .where('id', '=', userId)
      .execute();
  });
}

/** Each author as the catalogue spells them (any case), or as typed when no book has them yet. */
async function catalogueSpelling(db: Database, authors: string[]): Promise<string[]> {
  const typed = [...new Map(authors.map((author) => [author.toLowerCase(), author])).values()];
  if (typed.length === 0) return [];
  const { rows } = await sql<{ typed: string; spelt: string }>`
    select distinct on (lower(t.typed)) t.typed, a.spelt
      from unnest(${typed}::text[]) as t(typed)
      join lateral (
        select a as spelt from public.books b, unnest(b.authors) a
         where b.search_authors like '%' || public.search_normalise(t.typed) || '%'
           and lower(a) = lower(t.typed)
         limit 1
      ) a on true`.execute(db);
  const found = new Map(rows.map((row) => [row.typed.toLowerCase(), row.spelt]));
  return [...new Set(typed.map((author) => found.get(author.toLowerCase()) ?? author))];
}

/** Authors in the catalogue whose name contains the words typed, most books first (onboarding). */
export async function authorSuggestions(db: Database, typed: string, limit = 8): Promise<string[]> {
  // The words as LIKE reads them literally (a % or _ typed is a character, not a wildcard).
  const query = typed.replace(/[\\%_]/g, (character) => `\\${character}`);
  const { rows } = await sql<{ author: string }>`
    select a as author
      from public.books b, unnest(b.authors) a
     where b.search_authors like '%' || public.search_normalise(${query}::text) || '%'
       and public.search_normalise(a) like '%' || public.search_normalise(${query}::text) || '%'
     group by a
     order by count(*) desc, a
     limit ${limit}`.execute(db);
  return rows.map((row) => row.author);
}
