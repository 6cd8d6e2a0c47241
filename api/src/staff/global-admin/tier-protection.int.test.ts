/**
 * Tier protection at every door that acts on an account: nobody suspends, restores, demotes or
 * changes the roles of an account whose global-admin tier is above their own; each refusal is
 * a 403 saying why and an entry in the audit log, and the account is left as it was.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/index.ts';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { createUser, type TestUser } from '../../testing/auth.ts';
import { api, refusal } from '../../testing/client.ts';
import { mayActOn } from './tier-protection.ts';

let t: TestApp;
let db: Database;
/** A staff admin without a tier (level 0). */
let admin: TestUser;
/** A staff admin who is also a support agent (level 2). */
let adminSupport: TestUser;
let superA: TestUser;
let superB: TestUser;
let ops: TestUser;
let support: TestUser;
let readOnly: TestUser;
let member: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  db = t.database.handle.db;
  const make = (email: string, options: { roles?: string[]; tier?: string } = {}) =>
    createUser(db, t.services.identity, email, options);
  admin = await make('admin@tiers.test', { roles: ['admin'] });
  adminSupport = await make('admin-support@tiers.test', { roles: ['admin'], tier: 'support_agent' });
  superA = await make('super-a@tiers.test', { roles: ['admin'], tier: 'super_admin' });
  superB = await make('super-b@tiers.test', { roles: ['admin'], tier: 'super_admin' });
  ops = await make('ops@tiers.test', { tier: 'ops_admin' });
  support = await make('support@tiers.test', { tier: 'support_agent' });
  readOnly = await make('readonly@tiers.test', { tier: 'read_only' });
  member = await make('member@tiers.test');
});

afterAll(async () => {
  await t.close();
});

async function refusals(action: string, targetId: string) {
  return db
    .selectFrom('audit_log')
    .select(['actor_id', 'action', 'details'])
    .where('action', '=', action)
    .where('target_id', '=', targetId)
    .execute();
}

async function suspended(userId: string): Promise<boolean> {
  const row = await db
    .selectFrom('auth.users')
    .select('banned_until')
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  return Boolean(row.banned_until && row.banned_until > new Date());
}

async function roles(userId: string): Promise<string[]> {
  const rows = await db.selectFrom('user_roles').select('role').where('user_id', '=', userId).execute();
  return rows.map((row) => row.role.toLowerCase()).sort();
}

describe('the rule', () => {
  it('lets an actor act on accounts at or below their level only', () => {
    expect(mayActOn(0, 0)).toBe(true);
    expect(mayActOn(4, 4)).toBe(true);
    expect(mayActOn(3, 1)).toBe(true);
    expect(mayActOn(0, 1)).toBe(false);
    expect(mayActOn(3, 4)).toBe(false);
  });
});

describe('/admin/users: suspend and restore', () => {
  it('refuses a staff admin without a tier suspending a super admin or an ops admin, audited', async () => {
    for (const target of [superA, ops]) {
      const response = api(t.app, admin.accessToken).staff.users.setSuspended.mutate({
        userId: target.id,
        suspended: true,
        reason: 'Testing the tiers',
      });
      const refused = await refusal(response);
      expect(refused.status).toBe(403);
      expect(refused.message).toBe(
        `You can't suspend ${target.email}: their global-admin tier (${target === ops ? 'ops_admin' : 'super_admin'}) is above yours (none).`,
      );
      expect(await suspended(target.id)).toBe(false);
      const [entry, ...more] = await refusals('user.suspend.refused', target.id);
      expect(more).toEqual([]);
      expect(entry).toMatchObject({
        actor_id: admin.id,
        details: {
          email: target.email,
          reason: 'target_tier_above_actor',
          actorLevel: 0,
          targetLevel: target === ops ? 3 : 4,
          actorTier: null,
        },
      });
    }
  });

  it('measures a staff admin by their own tier: a support agent may suspend read-only, not ops', async () => {
    const higher = await refusal(
      api(t.app, adminSupport.accessToken).staff.users.setSuspended.mutate({
        userId: ops.id,
        suspended: true,
        reason: 'Testing the tiers',
      }),
    );
    expect(higher.status).toBe(403);
    expect(higher.message).toMatch(/above yours \(support_agent\)\.$/);

    for (const target of [readOnly, support, member]) {
      const done = await api(t.app, adminSupport.accessToken).staff.users.setSuspended.mutate({
        userId: target.id,
        suspended: true,
        reason: 'Testing the tiers',
      });
      expect(done.suspended).toBe(true);
    }
  });

  it('refuses restoring an account whose tier is above the actor’s', async () => {
    // One super admin suspends another (the same level): allowed.
    await api(t.app, superA.accessToken).staff.users.setSuspended.mutate({
      userId: superB.id,
      suspended: true,
      reason: 'Same level',
    });
    const refused = await refusal(
      api(t.app, admin.accessToken).staff.users.setSuspended.mutate({
        userId: superB.id,
        suspended: false,
        reason: 'Let them back in',
      }),
    );
    expect(refused.status).toBe(403);
    expect(refused.message).toMatch(/^You can't restore super-b@tiers\.test:/);
    expect(await suspended(superB.id)).toBe(true);
    expect(await refusals('user.unsuspend.refused', superB.id)).toHaveLength(1);
    await api(t.app, superA.accessToken).staff.users.setSuspended.mutate({
      userId: superB.id,
      suspended: false,
      reason: 'Same level',
    });
    expect(await suspended(superB.id)).toBe(false);
  });
});

describe('/admin/users: the moderator role', () => {
  it('refuses granting or revoking moderator on a higher tier, audited', async () => {
    const grant = await refusal(
      api(t.app, admin.accessToken).staff.users.setModerator.mutate({
        userId: ops.id,
        moderator: true,
      }),
    );
    expect(grant.status).toBe(403);
    expect(grant.message).toMatch(/^You can't give the moderator role to ops@tiers\.test:/);
    expect(await roles(ops.id)).toEqual([]);
    expect(await refusals('user.grant_moderator.refused', ops.id)).toHaveLength(1);

    await db.insertInto('user_roles').values({ user_id: superA.id, role: 'moderator' }).execute();
    const revoke = await refusal(
      api(t.app, admin.accessToken).staff.users.setModerator.mutate({
        userId: superA.id,
        moderator: false,
      }),
    );
    expect(revoke.status).toBe(403);
    expect(await roles(superA.id)).toEqual(['admin', 'moderator']);
    expect(await refusals('user.revoke_moderator.refused', superA.id)).toHaveLength(1);

    // At or below the actor's level it works as before.
    await api(t.app, admin.accessToken).staff.users.setModerator.mutate({
      userId: member.id,
      moderator: true,
    });
    expect(await roles(member.id)).toEqual(['moderator']);
  });
});

describe('pnpm ops grant-role and revoke-role', () => {
  it('refuses an ops admin changing a super admin’s staff roles, audited', async () => {
    const grant = await refusal(
      api(t.app, ops.accessToken).staff.ops.grantRole.mutate({
        email: superB.email,
        role: 'moderator',
      }),
    );
    expect(grant.status).toBe(403);
    expect(grant.message).toBe(
      "You can't change the roles of super-b@tiers.test: their global-admin tier (super_admin) is above yours (ops_admin).",
    );
    expect(await refusals('role.grant.refused', superB.id)).toHaveLength(1);

    const revoke = await refusal(
      api(t.app, ops.accessToken).staff.ops.revokeRole.mutate({ email: superB.email, role: 'admin' }),
    );
    expect(revoke.status).toBe(403);
    expect(await roles(superB.id)).toEqual(['admin']);
    expect(await refusals('role.revoke.refused', superB.id)).toHaveLength(1);

    // An ops admin still manages the staff roles of lower tiers and of people without one.
    await api(t.app, ops.accessToken).staff.ops.grantRole.mutate({
      email: support.email,
      role: 'moderator',
    });
    expect(await roles(support.id)).toEqual(['moderator']);
  });
});

describe('/global-admin: admin records', () => {
  it('lets a super admin change and deactivate another super admin (the same level)', async () => {
    const changed = await api(t.app, superA.accessToken).staff.globalAdmin.setAdminTier.mutate({
      email: superB.email,
      tier: 'ops_admin',
    });
    expect(changed).toMatchObject({ email: superB.email, role: 'ops_admin', granted: true });
    const deactivated = await api(t.app, superA.accessToken).staff.globalAdmin.deactivateAdmin.mutate({
      userId: superB.id,
    });
    expect(deactivated.granted).toBe(false);
    // Now below the ops admin: the ops admin may change their roles after all.
    await api(t.app, ops.accessToken).staff.ops.revokeRole.mutate({ email: superB.email, role: 'admin' });
    expect(await roles(superB.id)).toEqual([]);
  });

  it('protects the account again once its tier is back above the actor’s', async () => {
    // superB is back to super_admin; the ops admin can no longer touch them.
    await api(t.app, superA.accessToken).staff.globalAdmin.setAdminTier.mutate({
      email: superB.email,
      tier: 'super_admin',
    });
    const refused = await refusal(
      api(t.app, ops.accessToken).staff.ops.grantRole.mutate({ email: superB.email, role: 'admin' }),
    );
    expect(refused.status).toBe(403);
    expect(await roles(superB.id)).toEqual([]);
  });
});
