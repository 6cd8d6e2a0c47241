/**
 * The demo people seed-openlibrary-recent sells and buys as, made through the identity port
 * before the seed runs in hosted mode (decision 0032). Supabase Auth owns auth.users there: a
 * row written into it by SQL (as the seed function would for a missing person) is one Auth may
 * fail to read. Made here with Auth's admin API (no password: nobody can sign in as them), the
 * function finds them and writes none; each one this call made is recorded in seed_items, so a
 * reset on its own removes it with everything else the seed made.
 *
 * Embedded: nothing to do, the local identity provider's tables are ours and the function
 * makes the people itself.
 */
import { DEMO_SEED_PEOPLE } from '../../../../supabase/functions/_shared/seed.ts';
import type { Database } from '../../db/index.ts';
import type { IdentityProvider } from '../../platform/identity/port.ts';

export async function ensureSeedPeople(
  db: Database,
  identity: IdentityProvider,
): Promise<{ created: number }> {
  if (identity.kind !== 'supabase') return { created: 0 };
  const people = new Map<string, string>();
  for (const person of [
    ...DEMO_SEED_PEOPLE.sellers,
    ...DEMO_SEED_PEOPLE.charities,
    ...DEMO_SEED_PEOPLE.buyers,
  ]) {
    if (!people.has(person.email.toLowerCase())) people.set(person.email.toLowerCase(), person.display_name);
  }
  let created = 0;
  for (const [email, displayName] of people) {
    const account = await identity.ensurePasswordlessUser({ email, displayName });
    if (!account.created) continue;
    created += 1;
    await db
      .insertInto('seed_items')
      .values({ kind: 'user', row_id: account.id })
      .onConflict((oc) => oc.columns(['kind', 'row_id']).doNothing())
      .execute();
  }
  return { created };
}
