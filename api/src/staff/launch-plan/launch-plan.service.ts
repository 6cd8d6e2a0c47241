/**
 * The launch plan (/admin/launch-plan): a checklist staff add to, tick off and put in order.
 * Ticking keeps who and when; unticking clears both. Every change is audited.
 */
import { sql } from 'kysely';
import type { Database } from '../../db/index.ts';
import { AppError } from '../../errors.ts';
import { recordAudit } from '../../platform/audit/audit.service.ts';

export const MAX_LAUNCH_PLAN_ITEMS = 200;

export interface LaunchPlanItem {
  id: string;
  title: string;
  owner: string | null;
  position: number;
  doneAt: string | null;
  doneBy: string | null;
}

const GONE = 'That item is not on the launch plan any more. Refresh the page.';

export async function listLaunchPlan(db: Database): Promise<LaunchPlanItem[]> {
  const rows = await db
    .selectFrom('launch_plan_items as i')
    .leftJoin('auth.users as u', 'u.id', 'i.done_by')
    .select(['i.id', 'i.title', 'i.owner', 'i.done_at', 'u.email as done_by'])
    .orderBy('i.position')
    .orderBy('i.created_at')
    .execute();
  return rows.map((row, index) => ({
    id: row.id,
    title: row.title,
    owner: row.owner,
    position: index,
    doneAt: row.done_at ? new Date(row.done_at).toISOString() : null,
    doneBy: row.done_at ? row.done_by : null,
  }));
}

export async function addLaunchPlanItem(
  db: Database,
  staffId: string,
  input: { title: string; owner: string | null },
): Promise<{ id: string }> {
  return db.transaction().execute(async (trx) => {
    // One editor at a time: positions are worked out under this lock.
    await sql`select pg_advisory_xact_lock(hashtext('launch_plan_items'))`.execute(trx);
    const { count, last } = await trx
      .selectFrom('launch_plan_items')
      .select((eb) => [eb.fn.countAll<string>().as('count'), eb.fn.max('position').as('last')])
      .executeTakeFirstOrThrow();
    if (Number(count) >= MAX_LAUNCH_PLAN_ITEMS) {
      throw new AppError(
        'PRECONDITION_FAILED',
        `The launch plan can hold at most ${MAX_LAUNCH_PLAN_ITEMS} items. Remove a finished one first.`,
      );
    }
    const created = await trx
      .insertInto('launch_plan_items')
      .values({ title: input.title, owner: input.owner, position: (last ?? -1) + 1, created_by: staffId })
      .returning('id')
      .executeTakeFirstOrThrow();
    await recordAudit(trx, {
      actorId: staffId,
      action: 'launch_plan.add',
      targetType: 'launch_plan_item',
      targetId: created.id,
      details: { title: input.title, owner: input.owner },
    });
    return { id: created.id };
  });
}

/** Ticks (done: true) or unticks an item; ticking an item already done keeps its first tick. */
export async function setLaunchPlanItemDone(
  db: Database,
  staffId: string,
  input: { id: string; done: boolean },
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const item = await trx
      .selectFrom('launch_plan_items')
      .select(['title', 'done_at'])
      .where('id', '=', input.id)
      .forUpdate()
      .executeTakeFirst();
    if (!item) throw new AppError('NOT_FOUND', GONE);
    if (input.done && item.done_at) {
      throw new AppError('CONFLICT', 'Someone already ticked that item off. Refresh the page.');
    }
    if (!input.done && !item.done_at) {
      throw new AppError('CONFLICT', 'That item is not ticked off. Refresh the page.');
    }
    await trx
      .updateTable('launch_plan_items')
      .set(input.done ? { done_at: sql`now()`, done_by: staffId } : { done_at: null, done_by: null })
      .where('id', '=', input.id)
      .execute();
    await recordAudit(trx, {
      actorId: staffId,
      action: input.done ? 'launch_plan.tick' : 'launch_plan.untick',
      targetType: 'launch_plan_item',
      targetId: input.id,
      details: { title: item.title },
    });
  });
}

export async function removeLaunchPlanItem(db: Database, staffId: string, id: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const removed = await trx
      .deleteFrom('launch_plan_items')
      .where('id', '=', id)
      .returning('title')
      .executeTakeFirst();
    if (!removed) throw new AppError('NOT_FOUND', GONE);
    await recordAudit(trx, {
      actorId: staffId,
      action: 'launch_plan.remove',
      targetType: 'launch_plan_item',
      targetId: id,
      details: { title: removed.title },
    });
  });
}

/** Puts the items in the given order; the list must name every current item exactly once. */
export async function reorderLaunchPlan(db: Database, staffId: string, ids: string[]): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(hashtext('launch_plan_items'))`.execute(trx);
    const current = await trx.selectFrom('launch_plan_items').select('id').execute();
    const known = new Set(current.map((row) => row.id));
    if (new Set(ids).size !== ids.length || ids.length !== known.size || !ids.every((id) => known.has(id))) {
      throw new AppError(
        'CONFLICT',
        'The launch plan changed while you were ordering it. Refresh the page and try again.',
      );
    }
    for (const [position, id] of ids.entries()) {
      await trx.updateTable('launch_plan_items').set({ position }).where('id', '=', id).execute();
    }
    await recordAudit(trx, {
      actorId: staffId,
      action: 'launch_plan.reorder',
      targetType: 'launch_plan',
      details: { order: ids },
    });
  });
}
