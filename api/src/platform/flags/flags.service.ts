/** Feature flags (/admin/settings): list, switch on or off, describe, add. Admins only change them. */
import type { Database } from '../../db/index.ts';
import { AppError } from '../../errors.ts';
import { recordAudit } from '../audit/audit.service.ts';

export interface FeatureFlag {
  key: string;
  description: string;
  enabled: boolean;
  updatedAt: string;
  updatedBy: string | null;
}

export async function listFlags(db: Database): Promise<FeatureFlag[]> {
  const rows = await db
    .selectFrom('feature_flags as f')
    .leftJoin('auth.users as u', 'u.id', 'f.updated_by')
    .select(['f.key', 'f.description', 'f.enabled', 'f.updated_at', 'u.email'])
    .orderBy('f.key')
    .execute();
  return rows.map((row) => ({
    key: row.key,
    description: row.description,
    enabled: row.enabled,
    updatedAt: row.updated_at.toISOString(),
    updatedBy: row.email ?? null,
  }));
}

/** Every flag's state, for the web client. */
export async function publicFlags(db: Database): Promise<Record<string, boolean>> {
  const rows = await db.selectFrom('feature_flags').select(['key', 'enabled']).execute();
  return Object.fromEntries(rows.map((row) => [row.key, row.enabled]));
}

async function changeFlag(
  db: Database,
  staffId: string,
  key: string,
  change: { enabled?: boolean; description?: string },
  action: string,
): Promise<FeatureFlag> {
  return db.transaction().execute(async (trx) => {
    const before = await trx
      .selectFrom('feature_flags')
      .select(['enabled', 'description'])
      .where('key', '=', key)
      .forUpdate()
      .executeTakeFirst();
    if (!before) throw new AppError('NOT_FOUND', `There is no flag called ${key}. Refresh the list.`);
    const row = await trx
      .updateTable('feature_flags')
      .set({ ...change, updated_by: staffId })
      .where('key', '=', key)
      .returning(['key', 'description', 'enabled', 'updated_at'])
      .executeTakeFirstOrThrow();
    await recordAudit(trx, {
      actorId: staffId,
      action,
      targetType: 'feature_flag',
      targetId: key,
      details:
        change.enabled !== undefined
          ? { from: before.enabled, to: change.enabled }
          : { from: before.description, to: change.description },
    });
    return {
      key: row.key,
      description: row.description,
      enabled: row.enabled,
      updatedAt: row.updated_at.toISOString(),
      updatedBy: null,
    };
  });
}

export function toggleFlag(db: Database, staffId: string, key: string, enabled: boolean) {
  return changeFlag(db, staffId, key, { enabled }, 'feature_flag.toggle');
}

export function describeFlag(db: Database, staffId: string, key: string, description: string) {
  return changeFlag(db, staffId, key, { description }, 'feature_flag.describe');
}

export async function createFlag(
  db: Database,
  staffId: string,
  input: { key: string; description: string; enabled: boolean },
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const created = await trx
      .insertInto('feature_flags')
      .values({ ...input, updated_by: staffId })
      .onConflict((oc) => oc.column('key').doNothing())
      .returning('key')
      .executeTakeFirst();
    if (!created)
      throw new AppError('CONFLICT', `A flag called ${input.key} already exists. Choose another name.`);
    await recordAudit(trx, {
      actorId: staffId,
      action: 'feature_flag.create',
      targetType: 'feature_flag',
      targetId: input.key,
      details: { description: input.description, enabled: input.enabled },
    });
  });
}
