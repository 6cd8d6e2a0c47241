/**
 * A member closes their own account (UK GDPR erasure; the privacy policy's promise): refused,
 * saying what to finish first, while anything is unfinished (an order, a dispute or return, an
 * accepted offer, money not paid out or owed, a charity they own, a staff role). Otherwise, in
 * one transaction: their listings withdrawn (drafts deleted), pending offers closed, personal
 * data removed, marketing off, the profile shown as "Former member", the audit entry, the
 * confirmation email to the address the account had, and sign-in closed for ever through the
 * identity port (its last step). Orders, payments, payouts, refunds, the ledger and each order's
 * shipping address are kept six years; reviews and messages stay for the other party.
 */
import { hasStaffRole } from '@reshelf/contracts';
import { sql } from 'kysely';
import { providerBalance } from '../../commerce/index.ts';
import type { Database } from '../../db/index.ts';
import { AppError } from '../../errors.ts';
import { activeAdminTier, rolesOf } from '../../http/access.ts';
import { type FailureLimits, underFailureLimits } from '../../http/rate-limit.ts';
import { recordAudit } from '../../platform/audit/audit.service.ts';
import { CLOSED_DISPLAY_NAME } from '../../platform/identity/local.ts';
import { passwordAttempts } from '../../platform/identity/passwords.ts';
import {
  type AccessClaims,
  IdentityError,
  type IdentityProvider,
  type RequestInfo,
} from '../../platform/identity/port.ts';
import type { Mailer } from '../../platform/mail/mailer.ts';
import { renderEmail } from '../../platform/mail/render.ts';
import type { StoragePort } from '../../platform/storage/port.ts';
import { photoKeysOf, photosOf } from '../../selling/index.ts';

export interface CloseAccountDeps {
  db: Database;
  identity: IdentityProvider;
  mailer: Mailer;
  storage: StoragePort;
  origin: string;
}

/** Wrong passwords while closing: as many guesses as signing in allows, under the same rule. */
export const CLOSE_ACCOUNT_FAILURES: FailureLimits = {
  accountAddress: { bucket: 'close-account:failures', limit: 10, windowSeconds: 15 * 60 },
  account: { bucket: 'close-account:account-failures', limit: 100, windowSeconds: 15 * 60 },
  freshOnlyAfter: 10,
};

export const CLOSE_ACCOUNT_MESSAGES = {
  wrongPassword: 'That password is not right. Enter your current password to close your account.',
  staff:
    'Staff accounts cannot be closed here: ask another admin to remove your staff access and close the account.',
  alreadyClosed: 'This account is already closed.',
  apiToken: 'An API token cannot close an account. Sign in and close it in Account settings.',
  orderInProgress: (reference: string) =>
    `You have an order in progress (${reference}). Finish it first: it must be completed, cancelled or refunded before you can close your account.`,
  openDispute: (reference: string) =>
    `You have an open dispute on order ${reference}. Wait until it is resolved before closing your account.`,
  openReturn: (reference: string) =>
    `You have a return in progress on order ${reference}. Finish it first (the book sent back and refunded, or the return declined) before closing your account.`,
  acceptedOffer:
    'You have an accepted offer waiting to be paid for. Wait until it is paid for and the order is complete, or until it lapses, before closing your account.',
  moneyOwed:
    'You have money from your sales that has not been paid out yet. Set up payouts in Your account → Payouts and wait for it to arrive, or contact us, before closing your account.',
  negativeBalance:
    'Your seller balance is negative: you owe Reshelf for a refund. Contact us to settle it before closing your account.',
  charityOwner: (name: string) =>
    `You own the charity ${name} on Reshelf. Hand its ownership to another member of its team, or ask us (Contact us) to close it, before closing your account.`,
} as const;

/** Why the account cannot be closed yet, or null when nothing is unfinished. */
export async function closeBlocker(db: Database, userId: string): Promise<string | null> {
  const charity = await db
    .selectFrom('charities')
    .select('name')
    .where('owner_id', '=', userId)
    .orderBy('created_at')
    .executeTakeFirst();
  if (charity) return CLOSE_ACCOUNT_MESSAGES.charityOwner(charity.name);

  const dispute = await db
    .selectFrom('disputes as d')
    .innerJoin('orders as o', 'o.id', 'd.order_id')
    .select('o.reference')
    .where('d.status', '=', 'open')
    .where((eb) => eb.or([eb('o.buyer_id', '=', userId), eb('o.seller_id', '=', userId)]))
    .executeTakeFirst();
  if (dispute) return CLOSE_ACCOUNT_MESSAGES.openDispute(dispute.reference);

  const returned = await db
    .selectFrom('return_requests as r')
    .innerJoin('orders as o', 'o.id', 'r.order_id')
    .select('o.reference')
    .where('r.status', 'in', ['requested', 'accepted'])
    .where((eb) => eb.or([eb('o.buyer_id', '=', userId), eb('o.seller_id', '=', userId)]))
    .executeTakeFirst();
  if (returned) return CLOSE_ACCOUNT_MESSAGES.openReturn(returned.reference);

  const order = await db
    .selectFrom('orders')
    .select('reference')
    .where((eb) => eb.or([eb('buyer_id', '=', userId), eb('seller_id', '=', userId)]))
    .where('status', 'not in', ['completed', 'cancelled', 'refunded'])
    .orderBy('created_at')
    .executeTakeFirst();
  if (order) return CLOSE_ACCOUNT_MESSAGES.orderInProgress(order.reference);

  const offer = await db
    .selectFrom('offers')
    .select('id')
    .where('status', '=', 'accepted')
    .where((eb) => eb.or([eb('buyer_id', '=', userId), eb('seller_id', '=', userId)]))
    .executeTakeFirst();
  if (offer) return CLOSE_ACCOUNT_MESSAGES.acceptedOffer;

  // Money: a sale's payout held or released but not yet sent, a transfer's money still at the
  // provider, a payout on its way to the bank; or a balance below zero (a refund they owe).
  const unpaid = await db
    .selectFrom('payouts as p')
    .leftJoin('transfers as t', 't.payout_id', 'p.id')
    .select('p.id')
    .where('p.seller_id', '=', userId)
    .where((eb) =>
      eb.or([
        eb('p.status', '=', 'held'),
        eb.and([
          eb('p.status', '=', 'released'),
          eb('t.id', 'is', null),
          eb('p.amount_minor', '>', eb.ref('p.reversed_minor')),
        ]),
      ]),
    )
    .executeTakeFirst();
  const onItsWay = await db
    .selectFrom('provider_payouts')
    .select('id')
    .where('seller_id', '=', userId)
    .where('status', 'in', ['pending', 'in_transit'])
    .executeTakeFirst();
  const balance = await providerBalance(db, userId);
  if (balance < 0) return CLOSE_ACCOUNT_MESSAGES.negativeBalance;
  if (unpaid || onItsWay || balance > 0) return CLOSE_ACCOUNT_MESSAGES.moneyOwed;
  return null;
}

/** Checks the password through the identity port, under the sign-in failure limit. */
async function checkPassword(
  deps: CloseAccountDeps,
  email: string,
  password: string,
  info: RequestInfo,
): Promise<void> {
  let session: Awaited<ReturnType<IdentityProvider['signIn']>>;
  try {
    session = await underFailureLimits(
      deps.db,
      CLOSE_ACCOUNT_FAILURES,
      { account: email, address: info.ip ?? 'unknown' },
      () => deps.identity.signIn(email, password, info),
      (error) => error instanceof IdentityError && error.code === 'invalid_credentials',
    );
  } catch (error) {
    if (error instanceof IdentityError && error.code === 'invalid_credentials') {
      throw new AppError('BAD_INPUT', CLOSE_ACCOUNT_MESSAGES.wrongPassword);
    }
    if (error instanceof IdentityError && error.code === 'unavailable') {
      throw new AppError('UNAVAILABLE', error.message);
    }
    throw error;
  }
  // The check made a session of its own: it ends at once (closing ends every session anyway).
  await deps.identity
    .signOut(
      {
        userId: session.user.id,
        email,
        sessionId: session.sessionId,
        expiresAt: session.expiresAt,
        accessToken: session.accessToken,
      },
      'local',
    )
    .catch(() => {});
}

/** The storage key of a stored file from its public URL, or null when it is not one of ours. */
function storedKey(storage: StoragePort, url: string): string | null {
  const base = storage.publicUrl('');
  return base && url.startsWith(base) ? url.slice(base.length) : null;
}

/** `account.member.close`: closes the caller's account for ever. */
export async function closeAccount(
  deps: CloseAccountDeps,
  claims: AccessClaims,
  input: { password: string },
  info: RequestInfo,
): Promise<void> {
  const { db, identity } = deps;
  const userId = claims.userId;
  const [roles, tier] = await Promise.all([rolesOf(db, userId), activeAdminTier(db, userId)]);
  if (hasStaffRole(roles) || tier) throw new AppError('CONFLICT', CLOSE_ACCOUNT_MESSAGES.staff);
  const user = await identity.getUser(userId);
  if (!user?.email) throw new AppError('NOT_FOUND', 'We could not find your account.');
  const email = user.email;
  await passwordAttempts.run(() => checkPassword(deps, email, input.password, info));

  const files = await db.transaction().execute(async (trx) => {
    // One closing at a time, and nothing unfinished at the moment it happens.
    const profile = await trx
      .selectFrom('profiles')
      .select(['display_name', 'avatar_url', 'closed_at'])
      .where('id', '=', userId)
      .forUpdate()
      .executeTakeFirst();
    if (!profile) throw new AppError('NOT_FOUND', 'We could not find your profile.');
    if (profile.closed_at) throw new AppError('CONFLICT', CLOSE_ACCOUNT_MESSAGES.alreadyClosed);
    const blocker = await closeBlocker(trx, userId);
    if (blocker) throw new AppError('CONFLICT', blocker);

    // Listings: drafts deleted (their photos after the commit), books on sale withdrawn. A
    // charity's listings belong to the charity, not to the member who listed them.
    const drafts = await trx
      .deleteFrom('listings')
      .where('seller_id', '=', userId)
      .where('status', '=', 'draft')
      .where('charity_id', 'is', null)
      .returning(['id', 'photos'])
      .execute();
    const withdrawn = await trx
      .updateTable('listings')
      .set({ status: 'withdrawn', updated_at: new Date() })
      .where('seller_id', '=', userId)
      .where('status', '=', 'active')
      .where('charity_id', 'is', null)
      .returning('id')
      .execute();

    // Pending offers: their own rounds withdrawn, rounds waiting for their answer declined.
    const offers = await trx
      .updateTable('offers')
      .set({
        status: sql<string>`case when (made_by = 'buyer' and buyer_id = ${userId}) or (made_by = 'seller' and seller_id = ${userId}) then 'withdrawn' else 'declined' end`,
        responded_at: new Date(),
      })
      .where('status', '=', 'pending')
      .where((eb) => eb.or([eb('buyer_id', '=', userId), eb('seller_id', '=', userId)]))
      .returning('id')
      .execute();

    // What is theirs alone.
    await trx.deleteFrom('basket_items').where('buyer_id', '=', userId).execute();
    await trx.deleteFrom('wishlist_items').where('user_id', '=', userId).execute();
    await trx
      .deleteFrom('follows')
      .where((eb) => eb.or([eb('follower_id', '=', userId), eb('seller_id', '=', userId)]))
      .execute();
    await trx.deleteFrom('saved_searches').where('user_id', '=', userId).execute();
    // Wants (their matches go with them, by cascade).
    await trx.deleteFrom('wants').where('user_id', '=', userId).execute();
    await trx.deleteFrom('notifications').where('user_id', '=', userId).execute();
    await trx.deleteFrom('profile_genres').where('user_id', '=', userId).execute();
    await trx.deleteFrom('profile_authors').where('user_id', '=', userId).execute();
    await trx.deleteFrom('addresses').where('user_id', '=', userId).execute();
    // A business seller's trading details (decision 0073): their listings are gone, so are these.
    await trx.deleteFrom('seller_trade_declarations').where('user_id', '=', userId).execute();
    await trx.deleteFrom('bundle_tiers').where('seller_id', '=', userId).execute();
    await trx.deleteFrom('member_recommendations').where('user_id', '=', userId).execute();
    await trx.deleteFrom('member_recommendation_runs').where('user_id', '=', userId).execute();
    await trx.deleteFrom('member_blocks').where('blocker_id', '=', userId).execute();
    await trx
      .deleteFrom('charity_members')
      .where('user_id', '=', userId)
      .where('role', '<>', 'owner')
      .execute();
    await trx.updateTable('listing_views').set({ viewer_id: null }).where('viewer_id', '=', userId).execute();
    await trx
      .updateTable('api_tokens')
      .set({ revoked_at: new Date() })
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .execute();
    // Marketing off: every list left (essential emails about kept orders still reach no one,
    // the address being anonymised below).
    await trx.deleteFrom('email_suppressions').where('user_id', '=', userId).execute();
    await trx
      .insertInto('email_suppressions')
      .values({ user_id: userId, email: null, list: 'all', source: 'settings' })
      .execute();

    await trx
      .updateTable('profiles')
      .set({
        display_name: CLOSED_DISPLAY_NAME,
        bio: null,
        town: null,
        avatar_url: null,
        closed_at: new Date(),
      })
      .where('id', '=', userId)
      .execute();

    await recordAudit(trx, {
      actorId: userId,
      actorEmail: null,
      action: 'account.close',
      targetType: 'user',
      targetId: userId,
      details: {
        listingsWithdrawn: withdrawn.length,
        draftsDeleted: drafts.length,
        offersClosed: offers.length,
      },
    });

    // To the address the account had, queued with the rest.
    const email = await renderEmail(trx, 'account-closed', {
      displayName: profile.display_name,
      contactUrl: new URL('/pages/contact', deps.origin).toString(),
    });
    await deps.mailer.send({ to: user.email, template: 'account-closed', userId, ...email }, { trx });

    // Last: sign-in closed for ever (in this transaction locally; through Supabase Auth when
    // hosted, where a refusal rolls all of the above back).
    await identity.closeUser(userId, { claims, trx });

    const draftKeys = drafts.flatMap((draft) =>
      photosOf(draft.photos).flatMap((url) => photoKeysOf(draft.id, url) ?? []),
    );
    const avatarKey = profile.avatar_url ? storedKey(deps.storage, profile.avatar_url) : null;
    return [...draftKeys, ...(avatarKey ? [avatarKey] : [])];
  });

  // Files after the commit, best effort (decision 0035), as selling does.
  if (files.length) await deps.storage.delete(files).catch(() => {});
}
