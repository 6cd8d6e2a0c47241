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
  return {
    displayName: profile.display_name,
    town: profile.town,
    bio: profile.bio,
    signupCompleted: profile.signup_completed_at !== null,
    onboarded: profile.onboarded_at !== null,
    favouriteGenreIds: genres.map((row) => row.genre_id),
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

/** Saves favourite genres (replacing earlier ones) and marks onboarding done; skipping saves none. */
export async function completeOnboarding(db: Database, userId: string, genreIds: string[]) {
  await db.transaction().execute(async (trx) => {
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
