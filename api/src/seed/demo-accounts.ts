/** One demo account per kind of user (README lists them), all with the same password. */
import type { Database } from '../db/index.ts';
import type { IdentityProvider } from '../platform/identity/port.ts';

export const DEMO_PASSWORD = 'reshelf-demo';

export const DEMO_ACCOUNTS = [
  { email: 'buyer@reshelf.test', displayName: 'Ava Reader', roles: [], tier: null },
  { email: 'seller@reshelf.test', displayName: "Sam's Shelf", roles: [], tier: null },
  { email: 'charity@reshelf.test', displayName: 'Hospice Books Team', roles: [], tier: null },
  { email: 'moderator@reshelf.test', displayName: 'Morgan Moderator', roles: ['moderator'], tier: null },
  { email: 'admin@reshelf.test', displayName: 'Alex Admin', roles: ['admin'], tier: null },
  { email: 'super@reshelf.test', displayName: 'Sasha Super', roles: ['admin'], tier: 'super_admin' },
  { email: 'ops@reshelf.test', displayName: 'Olu Ops', roles: [], tier: 'ops_admin' },
  { email: 'support@reshelf.test', displayName: 'Sunita Support', roles: [], tier: 'support_agent' },
  { email: 'readonly@reshelf.test', displayName: 'Rory Readonly', roles: [], tier: 'read_only' },
] as const;

/** Grants a role unless the user already has it (in any case). */
export async function grantRole(db: Database, userId: string, role: string): Promise<void> {
  const existing = await db
    .selectFrom('user_roles')
    .select('id')
    .where('user_id', '=', userId)
    .where((eb) => eb(eb.fn('lower', [eb.ref('role')]), '=', role.toLowerCase()))
    .executeTakeFirst();
  if (!existing) await db.insertInto('user_roles').values({ user_id: userId, role }).execute();
}

export type DemoEmail = (typeof DEMO_ACCOUNTS)[number]['email'];

export async function seedDemoAccounts(
  db: Database,
  identity: IdentityProvider,
): Promise<Record<DemoEmail, string>> {
  const ids = {} as Record<DemoEmail, string>;
  for (const account of DEMO_ACCOUNTS) {
    const { id } = await identity.ensureUser({
      email: account.email,
      password: DEMO_PASSWORD,
      displayName: account.displayName,
    });
    ids[account.email] = id;
    await db
      .updateTable('profiles')
      .set({ display_name: account.displayName, signup_completed_at: new Date(), onboarded_at: new Date() })
      .where('id', '=', id)
      .execute();
    for (const role of account.roles) await grantRole(db, id, role);
    if (account.tier) {
      await db
        .insertInto('admin_users')
        .values({ user_id: id, admin_role: account.tier, is_active: true })
        .onConflict((oc) => oc.column('user_id').doUpdateSet({ admin_role: account.tier, is_active: true }))
        .execute();
    }
  }
  return ids;
}
