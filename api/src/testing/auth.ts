/** Helpers for tests that need people: accounts at each access level and their tokens. */
import { CLIENT_HEADER } from '@reshelf/contracts';
import type { Database } from '../db/index.ts';
import type { IdentityProvider } from '../platform/identity/port.ts';
import { grantRole } from '../seed/demo-accounts.ts';

export const TEST_PASSWORD = 'correct-horse-battery';

export interface TestUser {
  id: string;
  email: string;
  accessToken: string;
  refreshToken: string;
}

export async function createUser(
  db: Database,
  identity: IdentityProvider,
  email: string,
  options: { roles?: string[]; tier?: string; tierActive?: boolean } = {},
): Promise<TestUser> {
  const { id } = await identity.ensureUser({
    email,
    password: TEST_PASSWORD,
    displayName: email.split('@')[0]!,
  });
  for (const role of options.roles ?? []) await grantRole(db, id, role);
  if (options.tier) {
    await db
      .insertInto('admin_users')
      .values({ user_id: id, admin_role: options.tier, is_active: options.tierActive ?? true })
      .execute();
  }
  const session = await identity.signIn(email, TEST_PASSWORD, {});
  return { id, email, accessToken: session.accessToken, refreshToken: session.refreshToken };
}

/** Headers of a browser-like call from the web client. */
export const WEB = { [CLIENT_HEADER]: 'web' } as const;

/** The newest email sent to an address, from the dev mailbox. */
export async function lastEmailTo(db: Database, to: string) {
  return db
    .selectFrom('email_outbox')
    .selectAll()
    .where('to_address', '=', to)
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
}

export function linkToken(text: string, path: string): string {
  const match = new RegExp(`https?://[^\\s]+${path.replace('/', '\\/')}\\?token=([A-Za-z0-9_-]+)`).exec(text);
  if (!match?.[1]) throw new Error(`no ${path} link in: ${text}`);
  return match[1];
}
