/**
 * Tier protection, one rule for every door that acts on an account (suspend and restore on
 * /admin/users, grant and revoke moderator, the admin records on /global-admin, `pnpm ops
 * grant-role` / `revoke-role`): nobody may suspend, demote or change an account whose
 * global-admin tier is above their own. Levels are the tiers' (super_admin 4, ops_admin 3,
 * support_agent 2, read_only 1) from active admin records only; a staff admin without a tier,
 * and an account without one, is level 0. The same level is allowed (one super admin may
 * change another; a rule of their own stops anyone changing their own tier).
 *
 * A refusal is a 403 saying why, and an entry in the audit log (`<action>.refused`), written
 * on its own so that it stays although the action does not happen.
 */
import { tierLevel } from '@reshelf/contracts';
import type { Database } from '../../db/index.ts';
import { AppError } from '../../errors.ts';
import { activeAdminTier } from '../../http/access.ts';
import { recordAudit } from '../../platform/audit/audit.service.ts';

/** Whether an actor at one level may act on an account at another: the whole rule. */
export function mayActOn(actorLevel: number, targetLevel: number): boolean {
  return targetLevel <= actorLevel;
}

export interface TierGuardedAction {
  actorId: string;
  target: { id: string; email: string | null };
  /** The audit action the change would have recorded, e.g. `user.suspend`. */
  action: string;
  /** What the actor tried, for the message: "suspend", "change the roles of". */
  verb: string;
  /** Anything else worth keeping with the refusal (the role asked for...). */
  details?: Record<string, unknown>;
}

/**
 * Refuses (403, audited) when the target's tier is above the actor's. Call it before the
 * action's transaction: the refusal's audit entry must commit although the action does not.
 */
export async function assertMayActOn(db: Database, attempt: TierGuardedAction): Promise<void> {
  const [actorTier, targetTier] = await Promise.all([
    activeAdminTier(db, attempt.actorId),
    activeAdminTier(db, attempt.target.id),
  ]);
  const actorLevel = tierLevel(actorTier);
  const targetLevel = tierLevel(targetTier);
  if (mayActOn(actorLevel, targetLevel)) return;
  const who = attempt.target.email ?? 'this account';
  await recordAudit(db, {
    actorId: attempt.actorId,
    action: `${attempt.action}.refused`,
    targetType: 'user',
    targetId: attempt.target.id,
    details: {
      ...attempt.details,
      email: attempt.target.email,
      reason: 'target_tier_above_actor',
      targetTier,
      targetLevel,
      actorTier,
      actorLevel,
    },
  });
  throw new AppError(
    'FORBIDDEN',
    `You can't ${attempt.verb} ${who}: their global-admin tier (${targetTier}) is above yours (${actorTier ?? 'none'}).`,
    { targetTier, actorTier },
  );
}
