/**
 * The identity port. Two adapters: the local provider (embedded backend: our own tables,
 * argon2id password hashes, HS256 JWTs with Supabase's claims, rotating refresh tokens) and Supabase
 * Auth (hosted backend). Services and procedures see only this interface.
 */

import type { Database } from '../../db/index.ts';

export interface IdentityUser {
  id: string;
  email: string;
  emailConfirmed: boolean;
  createdAt: string;
}

export interface Session {
  accessToken: string;
  refreshToken: string;
  /** Seconds since the epoch when the access token expires. */
  expiresAt: number;
  sessionId: string;
  user: IdentityUser;
}

/** What a verified access token tells us. */
export interface AccessClaims {
  userId: string;
  email: string;
  sessionId: string;
  expiresAt: number;
  /** The token itself, kept where the provider needs it again (Supabase sign-out). */
  accessToken?: string;
  /**
   * The provider read the account with the session and refused a suspended one (the local
   * provider's verify): the request needs no second lookup of the suspension (resolve-auth.ts).
   */
  suspensionChecked?: boolean;
}

export type IdentityErrorCode =
  | 'invalid_credentials'
  | 'email_not_confirmed'
  | 'invalid_token'
  | 'token_expired'
  | 'refresh_token_reused'
  | 'weak_password'
  | 'user_banned'
  | 'unavailable'
  | 'upstream_error';

export class IdentityError extends Error {
  /**
   * The identity service could not be reached, timed out or failed on its side: an outage,
   * answered 503 with Retry-After wherever it surfaces (errors.ts), never 500 or "signed out".
   */
  readonly upstreamUnavailable: boolean;

  constructor(
    readonly code: IdentityErrorCode,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'IdentityError';
    this.upstreamUnavailable = code === 'unavailable';
  }
}

export interface LinkBuilder {
  /** Where the emailed confirmation link leads (the token is added by the provider). */
  confirmUrl: string;
  /** Where the emailed password-reset link leads. */
  resetUrl: string;
}

export interface RequestInfo {
  userAgent?: string;
  ip?: string;
}

export interface IdentityProvider {
  readonly kind: 'local' | 'supabase';
  /** Creates an unconfirmed account and emails a confirmation link. An address already
   * registered gets an email saying so instead; the caller cannot tell the difference. */
  signUp(input: { email: string; password: string; displayName: string }, links: LinkBuilder): Promise<void>;
  resendConfirmation(email: string, links: LinkBuilder): Promise<void>;
  confirmEmail(token: string, info: RequestInfo): Promise<Session>;
  signIn(email: string, password: string, info: RequestInfo): Promise<Session>;
  refresh(refreshToken: string, info: RequestInfo): Promise<Session>;
  /** Null when the token is not valid now (bad signature, expired, session ended). */
  verify(accessToken: string): Promise<AccessClaims | null>;
  signOut(claims: AccessClaims, scope: 'local' | 'global'): Promise<void>;
  requestPasswordReset(email: string, links: LinkBuilder): Promise<void>;
  /**
   * A single-use link to set the password of an existing account (`links.resetUrl` with its
   * token), made and returned but not sent: the caller sends it through our mail, or an operator
   * is shown it (`pnpm ops bootstrap`). Valid as long as an emailed reset link.
   */
  passwordLink(email: string, links: LinkBuilder): Promise<string>;
  /** Sets a new password from a single-use emailed token and ends every session. */
  resetPassword(token: string, newPassword: string): Promise<{ userId: string }>;
  getUser(userId: string): Promise<IdentityUser | null>;
  /** For seeds and operators: a confirmed account with a password, created or updated. */
  ensureUser(input: { email: string; password: string; displayName: string }): Promise<{ id: string }>;
  /**
   * For the demo seed: a confirmed account without a password (nobody can sign in as it),
   * created unless one with the address exists. `created` says whether this call made it.
   * Hosted: through Supabase Auth's admin API, never a row written into auth.users by hand.
   */
  /**
   * Closes an account for ever (account/member, account.member.close): nobody can sign in as
   * it again, every session and refresh token ends, and its address is freed for a new account.
   * The auth.users row itself stays (orders and payments point at it for six years). `claims`,
   * when given, is the caller's own session, which the hosted provider needs to end its sessions.
   * `trx`, when given, is the caller's transaction: the local provider writes in it (the closing
   * commits or rolls back with the rest); the hosted one calls Supabase Auth, so the caller
   * makes it its transaction's last step (a refusal rolls everything back).
   */
  closeUser(userId: string, options?: { claims?: AccessClaims; trx?: Database }): Promise<void>;
  ensurePasswordlessUser(input: {
    email: string;
    displayName: string;
  }): Promise<{ id: string; created: boolean }>;
}
