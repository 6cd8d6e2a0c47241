/**
 * Sign-up, sign-in, confirmation, reset and sign-out, over the identity port, with the
 * password policy and the rate limits (per IP and per account) applied here, once, for
 * both backends.
 */
import { type MeDto, tierLevel } from '@reshelf/contracts';
import type { Database } from '../../db/index.ts';
import { AppError } from '../../errors.ts';
import { activeAdminTier, rolesOf } from '../../http/access.ts';
import {
  clear,
  enforce,
  type FailureLimits,
  type RateRule,
  underFailureLimits,
} from '../../http/rate-limit.ts';
import { normaliseEmail } from '../../platform/identity/local.ts';
import { passwordAttempts } from '../../platform/identity/passwords.ts';
import {
  type AccessClaims,
  IdentityError,
  type IdentityProvider,
  type LinkBuilder,
  type RequestInfo,
  type Session,
} from '../../platform/identity/port.ts';
import { passwordProblems } from './password-policy.ts';

export const AUTH_LIMITS = {
  signInIp: { bucket: 'sign-in:ip', limit: 50, windowSeconds: 15 * 60 },
  /** Wrong passwords per account and address (key: accountAddressKey). */
  signInFailures: { bucket: 'sign-in:failures', limit: 10, windowSeconds: 15 * 60 },
  /** Wrong passwords per account from every address: the ceiling (SIGN_IN_FAILURES). */
  signInAccountFailures: { bucket: 'sign-in:account-failures', limit: 100, windowSeconds: 15 * 60 },
  signUpIp: { bucket: 'sign-up:ip', limit: 10, windowSeconds: 60 * 60 },
  signUpAccount: { bucket: 'sign-up:account', limit: 3, windowSeconds: 60 * 60 },
  resendIp: { bucket: 'resend:ip', limit: 10, windowSeconds: 15 * 60 },
  resendAccount: { bucket: 'resend:account', limit: 3, windowSeconds: 15 * 60 },
  resetIp: { bucket: 'reset:ip', limit: 10, windowSeconds: 60 * 60 },
  resetAccount: { bucket: 'reset:account', limit: 3, windowSeconds: 60 * 60 },
  resetSubmitIp: { bucket: 'reset-submit:ip', limit: 20, windowSeconds: 60 * 60 },
} satisfies Record<string, RateRule>;

/**
 * Wrong passwords at sign-in (decision 0058): 10 per account from one address; past 10 at an
 * account from every address together, only an address that has not failed at it in the window is
 * checked; past 100, none until the window ends or the owner resets the password.
 */
export const SIGN_IN_FAILURES: FailureLimits = {
  accountAddress: AUTH_LIMITS.signInFailures,
  account: AUTH_LIMITS.signInAccountFailures,
  freshOnlyAfter: 10,
  lockedHint: 'or reset your password to sign in now',
};

const wrongPassword = (error: unknown) =>
  error instanceof IdentityError && error.code === 'invalid_credentials';

export const DEMO_EMAIL_DOMAIN = '@reshelf.test';

export interface AuthDeps {
  db: Database;
  identity: IdentityProvider;
  production: boolean;
  links: LinkBuilder;
  info: RequestInfo;
}

export function toAppError(error: unknown): unknown {
  if (!(error instanceof IdentityError)) return error;
  switch (error.code) {
    case 'invalid_credentials':
    case 'invalid_token':
    case 'token_expired':
    case 'weak_password':
      return new AppError('BAD_INPUT', error.message);
    case 'email_not_confirmed':
      return new AppError('PRECONDITION_FAILED', error.message);
    case 'refresh_token_reused':
      return new AppError('UNAUTHENTICATED', error.message);
    case 'user_banned':
      return new AppError('FORBIDDEN', error.message);
    case 'unavailable':
      return new AppError('UNAVAILABLE', error.message);
    case 'upstream_error':
      return error.status === 401
        ? new AppError('UNAUTHENTICATED', 'Your session has expired. Please sign in again.')
        : new AppError('BAD_GATEWAY', error.message);
  }
}

async function translate<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw toAppError(error);
  }
}

function assertPassword(password: string, context: { email?: string; displayName?: string }) {
  const problems = passwordProblems(password, context);
  if (problems.length) throw new AppError('BAD_INPUT', problems.join(' '), { field: 'password', problems });
}

function refuseDemoInProduction(deps: AuthDeps, email: string) {
  if (deps.production && normaliseEmail(email).endsWith(DEMO_EMAIL_DOMAIN)) {
    throw new AppError('FORBIDDEN', 'Demo accounts are not available on this site.');
  }
}

export async function signUp(
  deps: AuthDeps,
  input: { email: string; password: string; displayName: string },
) {
  const email = normaliseEmail(input.email);
  refuseDemoInProduction(deps, email);
  assertPassword(input.password, { email, displayName: input.displayName });
  await passwordAttempts.run(async () => {
    await enforce(deps.db, [
      [AUTH_LIMITS.signUpIp, deps.info.ip ?? 'unknown'],
      [AUTH_LIMITS.signUpAccount, email],
    ]);
    await translate(() => deps.identity.signUp({ ...input, email }, deps.links));
  });
  return { email };
}

export async function resendConfirmation(deps: AuthDeps, rawEmail: string) {
  const email = normaliseEmail(rawEmail);
  await enforce(deps.db, [
    [AUTH_LIMITS.resendIp, deps.info.ip ?? 'unknown'],
    [AUTH_LIMITS.resendAccount, email],
  ]);
  await translate(() => deps.identity.resendConfirmation(email, deps.links));
  return { email };
}

export async function confirmEmail(deps: AuthDeps, token: string): Promise<Session> {
  return translate(() => deps.identity.confirmEmail(token, deps.info));
}

export async function signIn(deps: AuthDeps, input: { email: string; password: string }): Promise<Session> {
  const email = normaliseEmail(input.email);
  refuseDemoInProduction(deps, email);
  // The whole attempt waits its turn (passwords.ts): a burst of guesses holds a few database
  // connections, never the pool's queue that everyone else needs.
  return passwordAttempts.run(() => checkedSignIn(deps, email, input.password));
}

async function checkedSignIn(deps: AuthDeps, email: string, password: string): Promise<Session> {
  const ip = deps.info.ip ?? 'unknown';
  await enforce(deps.db, [[AUTH_LIMITS.signInIp, ip]]);
  // The attempt takes its failure slots before the password is checked, so at most the
  // limits' worth of guesses is ever checked, however many arrive at once; they are given back
  // unless the password was wrong.
  return translate(() =>
    underFailureLimits(
      deps.db,
      SIGN_IN_FAILURES,
      { account: email, address: ip },
      () => deps.identity.signIn(email, password, deps.info),
      wrongPassword,
    ),
  );
}

export async function refresh(deps: AuthDeps, refreshToken: string): Promise<Session> {
  return translate(() => deps.identity.refresh(refreshToken, deps.info));
}

export async function requestPasswordReset(deps: AuthDeps, rawEmail: string) {
  const email = normaliseEmail(rawEmail);
  await enforce(deps.db, [
    [AUTH_LIMITS.resetIp, deps.info.ip ?? 'unknown'],
    [AUTH_LIMITS.resetAccount, email],
  ]);
  // The same answer whether or not the address has an account.
  await translate(() => deps.identity.requestPasswordReset(email, deps.links));
}

export async function resetPassword(deps: AuthDeps, input: { token: string; password: string }) {
  assertPassword(input.password, {});
  return passwordAttempts.run(async () => {
    await enforce(deps.db, [[AUTH_LIMITS.resetSubmitIp, deps.info.ip ?? 'unknown']]);
    const reset = await translate(() => deps.identity.resetPassword(input.token, input.password));
    // Following the emailed link proved who they are: the account's wrong passwords from every
    // address are forgotten, so a lock an attacker ran up no longer keeps the owner out.
    const user = await deps.identity.getUser(reset.userId);
    if (user?.email) await clear(deps.db, SIGN_IN_FAILURES.account, normaliseEmail(user.email));
    return reset;
  });
}

export async function signOut(
  identity: IdentityProvider,
  claims: AccessClaims | null,
  scope: 'local' | 'global',
) {
  if (claims) await translate(() => identity.signOut(claims, scope));
}

/** What `account.auth.me` answers for a signed-in person (the contract's shape). */
export type Me = MeDto;

export async function describeUser(
  db: Database,
  identity: IdentityProvider,
  userId: string,
  log?: { warn(details: object, message: string): void },
): Promise<Me | null> {
  const [user, profile, roles, tier] = await Promise.all([
    identity.getUser(userId),
    db
      .selectFrom('profiles')
      .select(['display_name', 'signup_completed_at', 'onboarded_at'])
      .select((eb) =>
        eb
          .selectFrom('charity_members as cm')
          .innerJoin('charities as c', 'c.id', 'cm.charity_id')
          .select('c.slug')
          .whereRef('cm.user_id', '=', 'profiles.id')
          .limit(1)
          .as('charity_slug'),
      )
      .where('id', '=', userId)
      .executeTakeFirst(),
    // Spec §6: a role lookup error means no staff access.
    rolesOf(db, userId).catch(() => [] as string[]),
    // An admin record lookup error is not "no record": it is said, so the web can answer with
    // "Failed to verify admin access" (spec §8) as the tier procedures do.
    activeAdminTier(db, userId).then(
      (found) => ({ tier: found, failed: false }),
      (error: unknown) => {
        log?.warn({ err: error }, 'admin record lookup failed');
        return { tier: null, failed: true };
      },
    ),
  ]);
  if (!user) return null;
  const adminLookupFailed = tier.failed;
  const adminTier = tier.tier;
  return {
    id: user.id,
    email: user.email,
    emailConfirmed: user.emailConfirmed,
    displayName: profile?.display_name ?? '',
    signupCompleted: Boolean(profile?.signup_completed_at),
    onboarded: Boolean(profile?.onboarded_at),
    roles,
    isStaff: roles.some((role) => role === 'admin' || role === 'moderator'),
    isAdmin: roles.includes('admin'),
    adminTier,
    adminLevel: tierLevel(adminTier),
    adminLookupFailed,
    charitySlug: profile?.charity_slug ?? null,
  };
}
