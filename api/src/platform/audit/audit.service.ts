/**
 * The audit log: every staff action is recorded with who, what and when, inside the
 * action's own transaction, so an action and its record commit or roll back together.
 *
 * Hard to forget: staff and tier procedures run inside an audit trail (AsyncLocalStorage, see
 * `runInAuditTrail`), which knows the actor and the request. `recordAudit` fills those in and
 * marks the trail; a staff or tier *mutation* that succeeds without a record is reported by
 * the procedure builder (an error in development and tests, a logged error in production).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { sql, type Transaction } from 'kysely';
import type { DB } from '../../db/database.generated.ts';
import type { Database } from '../../db/index.ts';
import { escapeLike, keysetPage } from '../../db/search.ts';

export interface AuditTrail {
  actorId: string;
  actorEmail: string | null;
  requestId: string | null;
  recorded: number;
}

const trails = new AsyncLocalStorage<AuditTrail>();

/** Runs a staff procedure with its actor and request known to `recordAudit`. */
export function runInAuditTrail<T>(
  trail: Omit<AuditTrail, 'recorded'>,
  work: (trail: AuditTrail) => Promise<T>,
): Promise<T> {
  const state: AuditTrail = { ...trail, recorded: 0 };
  return trails.run(state, () => work(state));
}

export interface AuditEntry {
  /** Who did it; defaults to the staff member of the current procedure. */
  actorId?: string;
  actorEmail?: string | null;
  /** `area.verb`, e.g. `listing.remove`, `email_template.update`. */
  action: string;
  targetType?: string | null;
  targetId?: string | null;
  /** What changed, for a person reading the log later (no secrets). */
  details?: Record<string, unknown>;
  /** The request it was done in; defaults to the current procedure's. */
  requestId?: string | null;
}

/** Records one staff action. Call it with the action's transaction. */
export async function recordAudit(db: Database | Transaction<DB>, entry: AuditEntry): Promise<void> {
  const trail = trails.getStore();
  const actorId = entry.actorId ?? trail?.actorId ?? null;
  if (!actorId) throw new Error(`audit ${entry.action}: no actor`);
  await db
    .insertInto('audit_log')
    .values({
      actor_id: actorId,
      actor_email: entry.actorEmail ?? (trail && trail.actorId === actorId ? trail.actorEmail : null) ?? null,
      action: entry.action,
      target_type: entry.targetType ?? null,
      target_id: entry.targetId ?? null,
      details: JSON.stringify(entry.details ?? {}),
      request_id: entry.requestId ?? trail?.requestId ?? null,
    })
    .execute();
  if (trail) trail.recorded += 1;
}

/** Runs `work` in a transaction and records the action in it. */
export async function audited<T>(
  db: Database,
  entry: AuditEntry | ((result: T) => AuditEntry),
  work: (trx: Transaction<DB>) => Promise<T>,
): Promise<T> {
  return db.transaction().execute(async (trx) => {
    const result = await work(trx);
    await recordAudit(trx, typeof entry === 'function' ? entry(result) : entry);
    return result;
  });
}

// Reading ------------------------------------------------------------------------------------

export interface AuditRow {
  id: string;
  actorId: string | null;
  /** The actor's display name (a member's or staff's), null once their account is gone. */
  actorName: string | null;
  /** As recorded, else the actor's account's (a member's own action is recorded without one). */
  actorEmail: string | null;
  action: string;
  targetType: string | null;
  targetId: string | null;
  details: Record<string, unknown>;
  requestId: string | null;
  createdAt: string;
}

export interface AuditFilter {
  q?: string;
  actor?: string;
  action?: string;
  from?: string;
  to?: string;
  /** Keyset: rows older than this id. */
  before?: string;
  limit: number;
}

export async function searchAudit(
  db: Database,
  filter: AuditFilter,
): Promise<{ rows: AuditRow[]; nextBefore: string | null }> {
  let query = db
    .selectFrom('audit_log')
    .leftJoin('profiles as p', 'p.id', 'audit_log.actor_id')
    .leftJoin('auth.users as u', 'u.id', 'audit_log.actor_id')
    .selectAll('audit_log')
    .select(['p.display_name as actor_name', 'u.email as account_email']);
  if (filter.actor) {
    query = query.where('audit_log.actor_email', 'ilike', `%${escapeLike(filter.actor)}%`);
  }
  if (filter.action) {
    // An exact action, or a whole area ("listing" finds listing.remove and listing.restore).
    const action = filter.action;
    query = query.where((eb) =>
      eb.or([eb('audit_log.action', '=', action), eb('audit_log.action', 'like', `${escapeLike(action)}.%`)]),
    );
  }
  if (filter.from) query = query.where('audit_log.created_at', '>=', new Date(`${filter.from}T00:00:00Z`));
  if (filter.to) {
    query = query.where('audit_log.created_at', '<', sql<Date>`(${filter.to}::date + 1)::timestamptz`);
  }
  if (filter.q) {
    const pattern = `%${escapeLike(filter.q)}%`;
    query = query.where((eb) =>
      eb.or([
        eb('audit_log.action', 'ilike', pattern),
        eb('audit_log.target_id', 'ilike', pattern),
        eb('audit_log.actor_email', 'ilike', pattern),
        eb(sql`audit_log.details::text`, 'ilike', pattern),
      ]),
    );
  }
  if (filter.before) query = query.where('audit_log.id', '<', filter.before);
  const rows = await query
    .orderBy('audit_log.id', 'desc')
    .limit(filter.limit + 1)
    .execute();
  const { page, nextBefore } = keysetPage(rows, filter.limit);
  return {
    rows: page.map((row) => ({
      id: String(row.id),
      actorId: row.actor_id,
      actorName: row.actor_name,
      actorEmail: row.actor_email ?? row.account_email,
      action: row.action,
      targetType: row.target_type,
      targetId: row.target_id,
      details: (row.details ?? {}) as Record<string, unknown>,
      requestId: row.request_id,
      createdAt: row.created_at.toISOString(),
    })),
    nextBefore,
  };
}

/** The distinct actions recorded so far, for the filter's choices. */
export async function auditActions(db: Database): Promise<string[]> {
  const rows = await db.selectFrom('audit_log').select('action').distinct().orderBy('action').execute();
  return rows.map((row) => row.action);
}
