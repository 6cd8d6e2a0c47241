/** A buyer's saved UK delivery addresses (at most 10; one default, offered first at checkout). */
import type { AddressInput, SavedAddress } from '@reshelf/contracts';
import { sql } from 'kysely';
import type { Database } from '../../db/index.ts';
import { AppError } from '../../errors.ts';

export const MAX_SAVED_ADDRESSES = 10;

export async function listAddresses(db: Database, userId: string): Promise<SavedAddress[]> {
  const rows = await db
    .selectFrom('addresses')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('is_default', 'desc')
    .orderBy('created_at', 'desc')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    fullName: row.full_name,
    line1: row.line1,
    line2: row.line2,
    town: row.town,
    postcode: row.postcode,
    isDefault: row.is_default,
  }));
}

/** Saves an address (the same one twice is kept once) and optionally makes it the default. */
export async function saveAddress(
  db: Database,
  userId: string,
  address: AddressInput,
  makeDefault: boolean,
): Promise<SavedAddress> {
  const id = await db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(hashtext(${`addresses:${userId}`}))`.execute(trx);
    const same = await trx
      .selectFrom('addresses')
      .select('id')
      .where('user_id', '=', userId)
      .where(sql<boolean>`lower(full_name) = lower(${address.fullName})`)
      .where(sql<boolean>`lower(line1) = lower(${address.line1})`)
      .where(sql<boolean>`coalesce(lower(line2), '') = lower(${address.line2 ?? ''})`)
      .where('postcode', '=', address.postcode)
      .executeTakeFirst();
    const existing = await trx
      .selectFrom('addresses')
      .select(sql<number>`count(*)::int`.as('count'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    if (!same && existing.count >= MAX_SAVED_ADDRESSES) {
      throw new AppError(
        'BAD_INPUT',
        `You can save up to ${MAX_SAVED_ADDRESSES} addresses. Remove one you no longer use first.`,
      );
    }
    const first = existing.count === 0;
    if (makeDefault || first) {
      await trx.updateTable('addresses').set({ is_default: false }).where('user_id', '=', userId).execute();
    }
    if (same) {
      if (makeDefault || first) {
        await trx.updateTable('addresses').set({ is_default: true }).where('id', '=', same.id).execute();
      }
      return same.id;
    }
    const created = await trx
      .insertInto('addresses')
      .values({
        user_id: userId,
        full_name: address.fullName,
        line1: address.line1,
        line2: address.line2,
        town: address.town,
        postcode: address.postcode,
        is_default: makeDefault || first,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return created.id;
  });
  const saved = (await listAddresses(db, userId)).find((row) => row.id === id);
  if (!saved) throw new AppError('NOT_FOUND', 'We could not find that address.');
  return saved;
}

export async function removeAddress(db: Database, userId: string, addressId: string): Promise<void> {
  const removed = await db
    .deleteFrom('addresses')
    .where('id', '=', addressId)
    .where('user_id', '=', userId)
    .returning('is_default')
    .executeTakeFirst();
  if (!removed) throw new AppError('NOT_FOUND', 'We could not find that address.');
  if (removed.is_default) {
    // The newest remaining address becomes the default.
    await db
      .updateTable('addresses')
      .set({ is_default: true })
      .where(
        'id',
        '=',
        db
          .selectFrom('addresses')
          .select('id')
          .where('user_id', '=', userId)
          .orderBy('created_at', 'desc')
          .limit(1),
      )
      .execute();
  }
}
